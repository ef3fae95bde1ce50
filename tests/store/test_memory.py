"""The store's memory of running games and users, and group commit.

The rules: a running game is read from the database once and then served from memory, kept in
step by the store's own writes; a write that fails or loses its compare-and-swap drops it, so
the truth is read again; concurrent moves share transactions but each one is committed, or
refused, on its own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import event

from bot.outbox.entries import Entry
from bot.storage.group_commit import GroupCommit
from bot.storage.models import GameStatus
from bot.storage.repository import FinalScore, MoveRecord, StorageConflict, Store
from tests.store.conftest import PUBLISH_MOVE, join, new_lobby, start


@contextmanager
def statements(store: Store) -> Iterator[list[str]]:
    """The SQL statements the store sends while the block runs."""
    sent: list[str] = []

    def record(_conn, _cursor, statement, *_args) -> None:  # type: ignore[no-untyped-def]
        sent.append(statement)

    event.listen(store.engine.sync_engine, "before_cursor_execute", record)
    try:
        yield sent
    finally:
        event.remove(store.engine.sync_engine, "before_cursor_execute", record)


def a_move(seat: int = 0) -> MoveRecord:
    return MoveRecord(seat=seat, action={"kind": "x"}, events=[{"type": "e", "n": seat}])


async def running_game(store: Store, channel_id: int = 10) -> int:
    game = await new_lobby(store, channel_id=channel_id)
    await join(store, game.id, 2)
    await start(store, game.id, seed=7, state={"n": 0}, opening_events=[{"type": "deal"}])
    assert game.id is not None
    return game.id


async def test_a_running_game_is_read_once_then_served_from_memory(store: Store) -> None:
    game_id = await running_game(store)
    await store.game_with_seats(game_id)
    await store.recent_moves(game_id, 6)
    with statements(store) as sent:
        version = await store.commit_move(
            game_id, expected_version=1, state={"n": 1}, move=a_move(), publication=PUBLISH_MOVE
        )
        row, seats = await store.game_with_seats(game_id)  # type: ignore[misc]
        moves = await store.recent_moves(game_id, 6)
    reads = [s for s in sent if s.lstrip().upper().startswith("SELECT") and "pg_notify" not in s]
    assert not reads, reads  # (a shared store's change notice is sent, not read)
    assert version.version == 2 and row.version == 2 and row.state == {"n": 1}
    assert [s.user_id for s in seats] == [1, 2]
    assert [m.version for m in moves] == [1, 2] and moves[-1].events == [{"type": "e", "n": 0}]


async def test_memory_agrees_with_a_fresh_read_of_the_database(store: Store, tmp_path) -> None:
    game_id = await running_game(store)
    await store.game_with_seats(game_id)
    await store.recent_moves(game_id, 6)
    for version in range(1, 12):
        await store.commit_move(
            game_id,
            expected_version=version,
            state={"n": version},
            move=a_move(version % 2),
            publication=PUBLISH_MOVE,
        )
    await store.set_hand_message(game_id, 1, channel_id=555, message_id=777, version=12)
    kept_row, kept_seats = await store.game_with_seats(game_id)  # type: ignore[misc]
    kept_moves = await store.recent_moves(game_id, 6)
    fresh = Store(store.engine)  # nothing in memory: everything from the database
    row, seats = await fresh.game_with_seats(game_id)  # type: ignore[misc]
    moves = await fresh.recent_moves(game_id, 6)
    assert (kept_row.version, kept_row.state) == (row.version, row.state) == (12, {"n": 11})
    assert [(s.hand_channel_id, s.hand_message_id, s.hand_version) for s in kept_seats] == [
        (s.hand_channel_id, s.hand_message_id, s.hand_version) for s in seats
    ]
    assert seats[1].hand_version == 12
    assert [(m.version, m.seat, m.events) for m in kept_moves] == [
        (m.version, m.seat, m.events) for m in moves
    ]


async def test_a_move_from_another_process_is_noticed_and_memory_is_refreshed(
    store: Store,
) -> None:
    game_id = await running_game(store)
    await store.game_with_seats(game_id)  # kept at version 1
    other = Store(store.engine)  # a second process on the same database
    await other.commit_move(
        game_id, expected_version=1, state={"n": "other"}, move=a_move(), publication=PUBLISH_MOVE
    )
    with pytest.raises(StorageConflict):
        await store.commit_move(
            game_id,
            expected_version=1,
            state={"n": "mine"},
            move=a_move(),
            publication=PUBLISH_MOVE,
        )
    row, _ = await store.game_with_seats(game_id)  # type: ignore[misc]
    assert row.version == 2 and row.state == {"n": "other"}


async def test_concurrent_moves_of_many_games_share_transactions_or_commit_at_once(
    store: Store,
) -> None:
    """On PostgreSQL moves that arrive together share a transaction; on SQLite each is
    committed at once on the event loop, so no move waits for a batch."""
    games = [await running_game(store, channel_id=100 + n) for n in range(12)]
    before = store._group.batches
    versions = await asyncio.gather(
        *(
            store.commit_move(
                g, expected_version=1, state={"n": g}, move=a_move(), publication=PUBLISH_MOVE
            )
            for g in games
        )
    )
    assert [entry.version for entry in versions] == [2] * len(games)
    if store.engine.dialect.name == "sqlite":
        assert store._group.batches == before
    else:
        assert 0 < store._group.batches - before < len(games)
    fresh = Store(store.engine)
    for game_id in games:
        row, _ = await fresh.game_with_seats(game_id)  # type: ignore[misc]
        assert row.version == 2 and row.state == {"n": game_id}
        assert await fresh.move_count(game_id) == 2  # the opening and this move


async def test_a_lost_race_in_a_batch_refuses_only_that_move(store: Store) -> None:
    first, second = await running_game(store, 10), await running_game(store, 11)
    results = await asyncio.gather(
        store.commit_move(
            first, expected_version=1, state={"n": "a"}, move=a_move(), publication=PUBLISH_MOVE
        ),
        store.commit_move(
            first, expected_version=1, state={"n": "b"}, move=a_move(), publication=PUBLISH_MOVE
        ),
        store.commit_move(
            second, expected_version=1, state={"n": "c"}, move=a_move(), publication=PUBLISH_MOVE
        ),
        return_exceptions=True,
    )
    assert isinstance(results[0], Entry) != isinstance(results[1], Entry)
    assert any(isinstance(r, StorageConflict) for r in results[:2])
    assert results[2].version == 2
    assert await store.move_count(first) == 2 and await store.move_count(second) == 2


async def test_users_are_read_once_and_unchanged_memory_is_not_written(
    store: Store,
) -> None:
    await store.remember_locale(5, "de")
    await store.set_dms_closed(6, True)
    await store.remember_dm_channel(6, 60)
    await store.set_hand_images(6, False)
    with statements(store) as sent:
        assert await store.remembered_locales([5, 6]) == {5: "de"}
        assert await store.users_with_closed_dms([5, 6]) == {6}
        assert (await store.dm_channel(5), await store.dm_channel(6)) == (None, 60)
        assert (await store.hand_images(5), await store.hand_images(6)) == (True, False)
        assert (store.known_hand_images(5), store.known_hand_images(6)) == (True, False)
        await store.remember_locale(5, "de")
        await store.remember_dm_channel(6, 60)
        await store.forget_dm_channel(6, 61)
    assert sent == []
    await store.remember_locale(5, "ru")
    fresh = Store(store.engine)
    assert fresh.known_hand_images(6) is None, "memory alone does not know an unread user"
    assert await fresh.remembered_locales([5, 6]) == {5: "ru"}
    assert await fresh.users_with_closed_dms([5, 6]) == {6}
    assert await fresh.dm_channel(6) == 60
    assert await fresh.hand_images(6) is False


async def test_group_commit_hands_each_caller_its_own_outcome() -> None:
    seen: list[list[int]] = []

    async def run(batch):  # type: ignore[no-untyped-def]
        seen.append(list(batch))
        await asyncio.sleep(0)
        return [None if n % 2 == 0 else ValueError(n) for n in batch]

    group: GroupCommit[int] = GroupCommit(run)
    results = await asyncio.gather(*(group.submit(n) for n in range(6)), return_exceptions=True)
    assert [r is None for r in results] == [True, False, True, False, True, False]
    assert all(isinstance(r, ValueError) and r.args == (n,) for n, r in enumerate(results) if n % 2)
    assert sorted(n for batch in seen for n in batch) == list(range(6))
    assert len(seen) < 6, "writes that arrive together share a batch"


async def test_group_commit_gives_every_caller_the_error_of_a_failed_batch() -> None:
    async def run(batch):  # type: ignore[no-untyped-def]
        raise OSError("disk full")

    group: GroupCommit[int] = GroupCommit(run)
    results = await asyncio.gather(*(group.submit(n) for n in range(3)), return_exceptions=True)
    assert all(isinstance(r, OSError) and str(r) == "disk full" for r in results)


async def test_a_read_overlapping_the_last_move_is_not_kept(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read made while the game-ending move commits sees the game before it; keeping that
    copy would show the finished game as still running for ever (nothing writes it again)."""
    game_id = await running_game(store)
    await store.game_with_seats(game_id)  # kept in memory
    inside, release = asyncio.Event(), asyncio.Event()
    add_results = store._add_results

    async def paused(*args, **kwargs):  # type: ignore[no-untyped-def]
        inside.set()
        await release.wait()  # the transaction is open, the move not yet committed
        await add_results(*args, **kwargs)

    monkeypatch.setattr(store, "_add_results", paused)
    final = [FinalScore(0, 1, 5, True), FinalScore(1, 2, 0, False)]
    last = asyncio.create_task(
        store.commit_move(
            game_id,
            expected_version=1,
            state={"over": True},
            move=a_move(),
            final=final,
            publication=PUBLISH_MOVE,
        )
    )
    await inside.wait()
    row, _ = await store.game_with_seats(game_id)  # overlaps the write
    assert row.status == GameStatus.ACTIVE
    release.set()
    await last
    row, _ = await store.game_with_seats(game_id)
    assert (row.status, row.version) == (GameStatus.FINISHED, 2)


async def test_a_deleted_stale_hand_is_forgotten_in_memory_and_in_the_database(
    store: Store,
) -> None:
    """Once the hand DM a newer one replaced is deleted, nothing names it any more: not the
    running game's memory, not the database a finished game (or another process) reads; a
    deletion reported for a DM that is no longer the stale one changes nothing."""
    game_id = await running_game(store)
    await store.set_hand_message(game_id, 1, channel_id=5, message_id=8, version=2, stale=7)
    await store.stale_hand_deleted(game_id, 1, 6)  # not the stale one: kept
    assert (await store.current_seat(game_id, 1)).stale_hand_message_id == 7  # type: ignore[union-attr]
    assert (await Store(store.engine).seats(game_id))[1].stale_hand_message_id == 7
    await store.stale_hand_deleted(game_id, 1, 7)
    assert (await store.current_seat(game_id, 1)).stale_hand_message_id is None  # type: ignore[union-attr]
    fresh = await Store(store.engine).seats(game_id)
    assert (fresh[1].hand_message_id, fresh[1].stale_hand_message_id) == (8, None)
