"""The table waits while its player goes on with their turn (``bot/outbox/turn_hold.py``).

A move whose seat decides next too (the engine's ``to_move`` stays) is not shown on the table
at once: the table shows it with the move that passes the turn, with the game's end, or at the
latest ``TABLE_TURN_HOLD_SECONDS`` after the first move it held. The hold here is longer than
SimCord's settling deadline, so a click never waits for it in real time; ``advance_time`` lets
it pass.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.storage.models import GameStatus
from tests.bot.conftest import make_bot
from tests.bot.driver import (
    live_dm_hand,
    menu_custom_id,
    quick_game,
    table_version,
)
from tests.bot.forge import forged_click
from tests.bot.test_game_over import game_over_messages

HOLD = 60.0


@pytest.fixture
def simcord_bot(database_url):  # type: ignore[no-untyped-def]
    return make_bot(database_url, table_turn_hold_seconds=HOLD)


def table_edits(env: Any, table: Any) -> int:
    """How often the bot edited a message of the table's channel."""
    return sum(
        1
        for r in env.http_requests
        if r.method == "PATCH" and r.path.startswith(f"/channels/{table.channel.id}/messages/")
    )


async def move(env: Any, table: Any, rng: random.Random) -> tuple[int, int | None]:
    """The seat on turn (read from the database: the table may be held) makes a random move
    from its DM; (the mover, whose turn it is now)."""
    loaded = await table.loaded()
    version, seat = loaded.row.version, loaded.state.to_move  # (the row changes in place)
    action = rng.choice(loaded.state.legal_actions())
    dm = live_dm_hand(table, seat)
    assert dm is not None, "the player on turn has their hand DM"
    result = await forged_click(
        env, table.players[seat].user, dm, menu_custom_id(loaded, seat, action)
    )
    assert result.acknowledged
    after = await table.loaded()
    assert after.row.version == version + 1, "the move was stored"
    return seat, None if after.status is not GameStatus.ACTIVE else after.state.to_move


async def a_held_move(env: Any, table: Any, rng: random.Random) -> int:
    """Play until a move leaves its seat on turn, everything before it shown; the version the
    table showed just before that move."""
    for _ in range(200):
        await table.bot.outbox.idle()
        shown = table_version(table)
        assert shown == (await table.loaded()).row.version, "everything before is shown"
        seat, now = await move(env, table, rng)
        if now == seat:
            return shown
        await env.advance_time(HOLD + 1)  # a turn that passed is shown at once anyway
    raise AssertionError("no move kept its seat on turn")


async def test_a_continuing_turns_first_move_is_not_shown_until_the_turn_passes(
    simcord_env,
) -> None:
    table = await quick_game(simcord_env, players=3)
    rng = random.Random(5)
    shown = await a_held_move(simcord_env, table, rng)
    edits = table_edits(simcord_env, table)
    held = (await table.loaded()).row.version
    assert table_version(table) == shown, "the turn goes on: the table waits"
    mover = (await table.loaded()).state.to_move
    assert live_dm_hand(table, mover) is not None, "the player on turn has their hand"
    seat = mover
    while seat == mover:
        _, seat = await move(simcord_env, table, rng)
        if seat == mover:
            assert table_version(table) == shown, "every move of the turn waits"
    newest = (await table.loaded()).row.version
    assert newest > held
    assert table_version(table) == newest, "the move that passes the turn shows them all"
    assert table_edits(simcord_env, table) == edits + 1, "in one edit"


async def test_a_held_table_is_shown_after_the_hold_at_the_latest(simcord_env) -> None:
    table = await quick_game(simcord_env, players=3)
    rng = random.Random(7)
    shown = await a_held_move(simcord_env, table, rng)
    held = (await table.loaded()).row.version
    await simcord_env.advance_time(HOLD - 2)
    assert table_version(table) == shown, "within the hold the table waits"
    await simcord_env.advance_time(3)
    await table.bot.outbox.idle()
    assert table_version(table) == held, "the hold is over: the move is shown"
    assert await table.bot.store.pending_publications() == []


async def test_a_hold_of_zero_shows_every_move_at_once(simcord_env, database_url) -> None:
    await simcord_env.restart_bot(make_bot(database_url, table_turn_hold_seconds=0))
    table = await quick_game(simcord_env, players=3)
    rng = random.Random(5)
    for _ in range(200):
        seat, now = await move(simcord_env, table, rng)
        await table.bot.outbox.idle()
        assert table_version(table) == (await table.loaded()).row.version
        if now == seat:
            return  # a move whose turn goes on was shown at once
    raise AssertionError("no move kept its seat on turn")


async def test_a_held_table_survives_a_restart(simcord_env, database_url) -> None:
    """The held move's entry stays in the outbox; a restarted process holds the table for
    what is left of the hold (its time is stored), then shows it."""
    table = await quick_game(simcord_env, players=3)
    rng = random.Random(9)
    shown = await a_held_move(simcord_env, table, rng)
    held = (await table.loaded()).row.version
    assert await table.bot.store.pending_publications(), "the held move's entry is stored"
    restarted = make_bot(database_url, table_turn_hold_seconds=HOLD)
    # No resync of the games taken over after the restart: the held entry alone shows it.
    restarted.outbox.in_flight_seconds = 10 * HOLD
    await simcord_env.restart_bot(restarted)
    assert table_version(table) == shown, "still within the hold"
    await simcord_env.advance_time(HOLD + 1)
    await table.bot.outbox.idle()
    assert table_version(table) == held, "shown once the hold is over"
    assert await table.bot.store.pending_publications() == []


async def test_the_move_that_ends_the_game_shows_the_final_table_at_once(simcord_env) -> None:
    table = await quick_game(simcord_env, players=2)
    rng = random.Random(3)
    held_once = False
    while True:
        loaded = await table.loaded()
        if loaded.status is not GameStatus.ACTIVE:
            break
        seat, now = await move(simcord_env, table, rng)
        held_once |= now == seat
    assert held_once, "some move kept its seat on turn"
    final = (await table.loaded()).row.version
    await table.bot.outbox.idle()
    assert table_version(table) == final, "the end shows the final table, no hold"
    assert len(game_over_messages(table)) == 1
