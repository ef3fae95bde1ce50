"""A click leaves nothing for Python's cycle collector.

Why it is tested: objects caught in reference cycles are freed only by the cycle collector,
whose collections stalled the bot for 20-75 ms under load (``components.release_interaction``).
The release relies on how discord.py 2.7 links views, items and responses; these tests fail if
an upgrade changes that.
"""

from __future__ import annotations

import gc
import random
import weakref
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

import discord
import pytest

from bot.interactions.components import HandButton, MenuButton, MenuTarget
from bot.messages.controls import SentControls
from tests.bot.driver import new_table, open_lobby, play_one_move, quick_game

CLICK_OBJECTS = (discord.Interaction, discord.InteractionResponse, discord.ui.View)
"""What a click must not leave in a cycle: they hold the click's message, components, users."""


def from_a_click(thing: object) -> bool:
    """Sent views are left out: SimCord wraps the ``on_error`` of every view the bot sends in a
    closure that points back at the view, a cycle of the simulation only (their own test is
    below). The views discord.py rebuilds from a clicked message are plain ``View``s."""
    return isinstance(thing, CLICK_OBJECTS) and not isinstance(thing, SentControls)


@contextmanager
def cyclic_garbage() -> Iterator[Counter[str]]:
    """Counts, by type, what becomes unreachable only through cycles inside the block."""
    found: Counter[str] = Counter()
    gc.collect()
    gc.disable()
    try:
        yield found
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        found.update(type(thing).__name__ for thing in gc.garbage if from_a_click(thing))
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


@pytest.fixture
def rng() -> random.Random:
    return random.Random(11)


async def test_moves_leave_no_interaction_or_view_in_a_cycle(simcord_env, rng) -> None:
    table = await quick_game(simcord_env, players=3)
    with cyclic_garbage() as garbage:
        for _ in range(6):
            await play_one_move(table, rng)
    assert table.clicks >= 6
    assert garbage == Counter()


async def test_lobby_clicks_leave_no_interaction_or_view_in_a_cycle(simcord_env) -> None:
    table = new_table(simcord_env, 2)
    with cyclic_garbage() as garbage:
        await open_lobby(table, "clans_and_glory")
    assert garbage == Counter()


async def test_the_check_sees_the_cycles_discord_py_leaves_without_the_release(
    simcord_env, rng, monkeypatch
) -> None:
    """Without the release the same moves do leave cycles: the check above can fail. (No
    view is rebuilt from the clicked message any more: ``bot/interactions/click_router.py`` runs the
    control itself, so only the interaction and its response remain to untie.)"""
    monkeypatch.setattr(
        "bot.interactions.components.release_interaction", lambda interaction, view=None: None
    )
    table = await quick_game(simcord_env, players=3)
    with cyclic_garbage() as garbage:
        for _ in range(3):
            await play_one_move(table, rng)
    assert garbage["Interaction"] >= 3
    assert garbage["View"] == 0


async def test_sent_controls_are_freed_by_reference_counting_alone() -> None:
    gc.disable()
    try:
        view = SentControls()
        item = MenuButton(MenuTarget(1, 2, 0, ()), "Pass")
        view.add_item(item).add_item(HandButton(1, "My hand"))
        assert len(view.to_components()[0]["components"]) == 2
        gone = weakref.ref(view), weakref.ref(item)
        del view, item
        assert [ref() for ref in gone] == [None, None]
    finally:
        gc.enable()


async def test_sent_controls_refuse_an_item_that_only_a_view_could_route() -> None:
    view = SentControls()
    with pytest.raises(TypeError, match="not a DynamicItem"):
        view.add_item(discord.ui.Button(label="Plain", custom_id="plain"))
    view.add_item(discord.ui.Button(label="Rules", url="https://example.com/rules"))
    assert len(view.children) == 1
