"""Clicks on our controls run without discord.py's view machinery
(``bot/interactions/click_router.py``).

The router relies on discord.py 2.7's parser table and on how it builds a DynamicItem from a
component; these tests fail if a release changes either, and they pin which clicks the router
leaves to discord.py (whose path ``GloryBot.on_interaction`` answers).
"""

from __future__ import annotations

import random

import discord
import pytest

from tests.bot.driver import (
    answered_privately,
    live_dm_hand,
    play_one_move,
    quick_game,
    reply_text,
    seat_on_turn,
    snapshot,
    table_version,
)
from tests.bot.forge import forged_click
from tests.bot.test_bad_input import DAMAGED


def _no_view_rebuilt(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("discord.py rebuilt a view from a clicked message")

    monkeypatch.setattr(discord.ui.View, "from_message", classmethod(refuse))


async def test_moves_are_played_without_rebuilding_a_view_from_the_clicked_message(
    simcord_env, monkeypatch
) -> None:
    table = await quick_game(simcord_env, players=3)
    _no_view_rebuilt(monkeypatch)
    routed = table.bot.clicks.routed
    rng = random.Random(5)
    move = table_version(table)
    for _ in range(4):
        await play_one_move(table, rng)
    assert table_version(table) == move + 4
    assert table.bot.clicks.routed >= routed + 4


async def test_select_values_reach_the_control(simcord_env) -> None:
    """A select's chosen value is refreshed onto the control as discord.py would do it."""
    table = await quick_game(simcord_env)
    seat = seat_on_turn(table)
    loaded = await table.loaded()
    user, dm = table.players[seat].user, live_dm_hand(table, seat)
    before = await snapshot(table)
    custom_id = f"glory:s:{loaded.id}:{loaded.row.version}:{seat}:"
    result = await forged_click(simcord_env, user, dm, custom_id, "999")
    assert answered_privately(result)
    assert DAMAGED not in reply_text(result)  # the value arrived: a menu index out of range
    assert await snapshot(table) == before


async def test_a_control_the_clicked_message_does_not_carry_is_left_to_discord_py(
    simcord_env,
) -> None:
    """Only a modified client sends it; the router does not run it, discord.py drops it, and
    ``GloryBot.on_interaction`` answers it as a damaged control."""
    table = await quick_game(simcord_env)
    seat = seat_on_turn(table)
    loaded = await table.loaded()
    user, dm = table.players[seat].user, live_dm_hand(table, seat)
    before, routed = await snapshot(table), table.bot.clicks.routed
    custom_id = f"glory:m:{loaded.id}:{loaded.row.version}:{seat}:0.0.0.0"  # no such button
    result = await forged_click(simcord_env, user, dm, custom_id, carried=False)
    assert answered_privately(result)
    assert DAMAGED in reply_text(result)
    assert table.bot.clicks.routed == routed
    assert await snapshot(table) == before


def test_slash_commands_and_foreign_custom_ids_are_left_to_discord_py(simcord_env) -> None:
    router = simcord_env.bot.clicks
    component = {"type": 2, "style": 1, "label": "x", "custom_id": "other:1"}
    foreign = {
        "type": 3,
        "data": {"custom_id": "other:1", "component_type": 2},
        "message": {"id": "1", "components": [{"type": 1, "components": [component]}]},
    }
    assert router.route({"type": 2, "data": {"name": "play"}}) is False
    assert router.route(foreign) is False
    assert router.route({"type": 3, "data": None, "message": None}) is False


def test_the_router_wraps_discord_py_s_interaction_parser(simcord_env) -> None:
    parsers = simcord_env.bot._connection.parsers
    assert parsers["INTERACTION_CREATE"].__qualname__.startswith("ClickRouter.install")


def test_a_clicked_button_or_select_is_made_from_its_custom_id_alone() -> None:
    """The item a control wraps carries the clicked custom_id; a select's options are not
    rebuilt (its chosen values come with the interaction), and a kind we never send is
    built by discord.py as before."""
    from bot.interactions.click_router import clicked_item

    button = clicked_item(
        {"type": 2, "style": 1, "label": "Soldier", "custom_id": "glory:m:1:2:0:"}
    )
    assert isinstance(button, discord.ui.Button) and button.custom_id == "glory:m:1:2:0:"
    options = [{"label": f"Card {n}", "value": str(n)} for n in range(12)]
    select = clicked_item({"type": 3, "custom_id": "glory:s:1:2:0:", "options": options})
    assert isinstance(select, discord.ui.Select) and select.custom_id == "glory:s:1:2:0:"
    assert select.options == []
    users = clicked_item({"type": 5, "custom_id": "glory:x"})
    assert isinstance(users, discord.ui.UserSelect) and users.custom_id == "glory:x"
