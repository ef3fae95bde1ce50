"""Clicks when another process shares the PostgreSQL database (issue 18).

The bot's memory of a running game can be a moment behind: another process committed a move
and its change notice is still on its way (here the notices are held back, so the moment
lasts). A click naming the newer version is played on the game as stored, not refused as out
of date; a click on the version the other process moved past is judged on the stored game and
answered with the current hand, and nothing is applied twice. Skipped without a PostgreSQL
server (CI configures one).
"""

from __future__ import annotations

import random

import pytest

from bot.flows.moves import move_publication, private_parts
from bot.flows.session import LoadedGame, load_game
from bot.storage.repository import MoveRecord, Store
from tests.bot.conftest import make_bot
from tests.bot.driver import (
    answer_of,
    catalog_pattern,
    components,
    live_dm_hand,
    menu_custom_id,
    quick_game,
    reply_text,
    seat_on_turn,
)
from tests.bot.forge import forged_click
from tests.store.postgres import fresh_database


@pytest.fixture
async def database_url():
    async with fresh_database() as url:
        yield url


@pytest.fixture
def simcord_bot(database_url):
    """Shard 0 of two: another process runs shard 1, so this one's store is shared (change
    notices, claims); a process running every shard keeps the one-process path."""
    return make_bot(database_url, shard_count=2, shard_ids=(0,))


async def move_elsewhere(other: Store, loaded: LoadedGame, rng: random.Random) -> LoadedGame:
    """Another process plays one move for the seat on turn; the game as it stored it."""
    state = loaded.mutable_state()
    before = private_parts(loaded.view, len(loaded.seats))
    seat = state.to_move
    action = rng.choice(state.legal_actions())
    events = state.apply(action)
    await other.commit_move(
        loaded.id,
        expected_version=loaded.row.version,
        state=state.to_json(),
        move=MoveRecord(seat=seat, action=action.to_json(), events=events),
        publication=move_publication(state, len(loaded.seats), before, seat),
    )
    after = await load_game(other, {loaded.row.game_key: loaded.game}, loaded.id)
    assert after is not None
    return after


def hold_back_notices(store: Store) -> None:
    """The other process's change notices are delayed (they never arrive in the test)."""
    assert store.shared and store._feed is not None
    store._feed._on_change = lambda kind, identifier: None


async def test_a_click_on_a_version_another_process_made_is_played(simcord_env) -> None:
    table = await quick_game(simcord_env)
    bot = table.bot
    hold_back_notices(bot.store)
    other = Store(bot.store.engine, shared=True)
    kept = await table.loaded()  # the bot keeps the game in memory
    moved = await move_elsewhere(other, kept, random.Random(3))
    assert bot.store._games.get(table.game_id).row.version == kept.row.version
    seat = moved.state.to_move
    action = random.Random(4).choice(moved.state.legal_actions())
    player = table.players[seat]
    message = live_dm_hand(table, seat)
    result = await forged_click(
        simcord_env, player.user, message, menu_custom_id(moved, seat, action)
    )
    assert result.acknowledged
    assert not catalog_pattern("move.stale", "en").search(reply_text(result))
    assert not catalog_pattern("move.stale_short", "en").search(reply_text(result))
    stored = await Store(bot.store.engine, shared=False).game(table.game_id)
    assert stored.version == moved.row.version + 1, "the click's move was not applied"


async def test_a_click_on_a_version_another_process_moved_past_gets_the_current_hand(
    simcord_env,
) -> None:
    table = await quick_game(simcord_env)
    bot = table.bot
    hold_back_notices(bot.store)
    other = Store(bot.store.engine, shared=True)
    kept = await table.loaded()
    seat = seat_on_turn(table)
    assert seat == kept.state.to_move
    custom_id = menu_custom_id(kept, seat, random.Random(5).choice(kept.state.legal_actions()))
    moved = await move_elsewhere(other, kept, random.Random(6))
    # The player clicks their DM as it was before the other process's move: the bot's memory
    # still shows that version, so only the compare-and-swap can tell.
    message = live_dm_hand(table, seat)
    result = await forged_click(simcord_env, table.players[seat].user, message, custom_id)
    text = reply_text(result)
    assert catalog_pattern("move.stale", "en").search(text), text
    old_controls = f"glory:m:{table.game_id}:{kept.row.version}:"
    shown = [getattr(c, "custom_id", "") or "" for c in components(answer_of(result).message)]
    assert not any(custom_id.startswith(old_controls) for custom_id in shown), shown
    stored = await Store(bot.store.engine, shared=False).game(table.game_id)
    assert stored.version == moved.row.version, "the out-of-date click changed the game"
