"""The play flow's controls inside the V2 hand (``render.messages.hand_layout``): the collapsed
menu's select of complete moves, the one button of a forced move and the choice to pass
automatically all sit in the hand's one container, below its texts; the DM of the seat on turn
says so and tells what happened since the player's last move."""

from __future__ import annotations

import random

import discord

from bot.i18n import t
from tests.bot.driver import live_dm_hand, quick_game, seat_on_turn, texts
from tests.bot.test_forced_moves import forced_hand


def one_container(message: discord.Message) -> discord.components.Container:
    [box] = message.components
    assert isinstance(box, discord.components.Container)
    return box


def controls_after_texts(box: discord.components.Container) -> list[discord.components.ActionRow]:
    """The container's action rows, checked to come after every text and picture."""
    kinds = [isinstance(child, discord.components.ActionRow) for child in box.children]
    first = kinds.index(True)
    assert all(kinds[first:]), "a text or picture below the controls"
    return [child for child in box.children if isinstance(child, discord.components.ActionRow)]


async def test_the_select_of_complete_moves_sits_in_the_hands_container_below_its_texts(
    simcord_env,
) -> None:
    table = await quick_game(simcord_env)
    seat = seat_on_turn(table)
    dm = live_dm_hand(table, seat)
    rows = controls_after_texts(one_container(dm))
    select = rows[0].children[0]
    assert isinstance(select, discord.components.SelectMenu)
    assert select.custom_id.startswith("glory:s:")  # a whole Kami lead in one select
    assert texts(dm)[0].startswith("### ")
    assert "**Your turn:**" in texts(dm)[0]  # the status, below the title


async def test_a_forced_pass_is_one_button_in_the_container_with_the_story_above_it(
    simcord_env,
) -> None:
    table = await quick_game(simcord_env)
    dm, _ = await forced_hand(simcord_env, table, random.Random(1))
    rows = controls_after_texts(one_container(dm))
    buttons = [c for row in rows for c in row.children]
    moves = [b for b in buttons if (b.custom_id or "").startswith(("glory:m:", "glory:s:"))]
    assert len(moves) == 1 and isinstance(moves[0], discord.components.Button)
    assert any(b.label == t("flow.button.autopass", "en") for b in buttons)
    story = {t("hand.story", "en"), t("hand.story_latest", "en")}
    assert any(line.split("\n")[0].strip("*") in story for line in texts(dm))
