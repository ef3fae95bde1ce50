"""On SQLite, moves are committed on the event loop, and wait in a thread only for a lock held
by another process (``engine.create_inline_engine``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage import base
from bot.storage.repository import MoveRecord, Store
from tests.store.conftest import PUBLISH_MOVE, join, new_lobby, start

MOVE = MoveRecord(seat=0, action={"kind": "x"}, events=[{"type": "e"}])


@pytest.fixture
async def sqlite_store(tmp_path: Path):
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path}/glory.db")
    yield store
    await store.close()


async def started_game(store: Store) -> int:
    game = await new_lobby(store)
    await join(store, game.id, 2)
    await start(store, game.id, seed=7, state={"n": 0})
    assert game.id is not None
    return game.id


async def test_a_move_is_committed_without_a_round_trip_to_a_database_thread(
    sqlite_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = await started_game(sqlite_store)

    def no_thread(*args: object, **kwargs: object) -> None:
        raise AssertionError("the move went through the async engine")

    monkeypatch.setattr(AsyncConnection, "run_sync", no_thread)
    version = await sqlite_store.commit_move(
        game_id, expected_version=1, state={"n": 1}, move=MOVE, publication=PUBLISH_MOVE
    )
    monkeypatch.undo()
    stored = await sqlite_store.game(game_id)
    assert version.version == 2 and stored is not None and stored.state == {"n": 1}
    assert await sqlite_store.move_count(game_id) == 1


async def test_a_move_is_committed_before_the_event_loop_turns_when_nothing_else_writes(
    sqlite_store: Store,
) -> None:
    """A move's answer waits for its commit: with the store idle it must not wait for turns
    of the event loop (a batch's task, then its own wake-up) behind everything queued."""
    game_id = await started_game(sqlite_store)
    commit = sqlite_store.commit_move(
        game_id, expected_version=1, state={"n": 1}, move=MOVE, publication=PUBLISH_MOVE
    )
    with pytest.raises(StopIteration) as done:
        commit.send(None)  # runs to the end without suspending once
    assert done.value.value.version == 2
    assert (await sqlite_store.game(game_id)).state == {"n": 1}  # type: ignore[union-attr]


async def test_a_move_made_while_another_write_runs_waits_for_it_in_the_group_commit(
    sqlite_store: Store,
) -> None:
    game_id = await started_game(sqlite_store)
    before = sqlite_store._group.batches
    async with sqlite_store._one_writer:  # another write transaction is under way
        commit = asyncio.ensure_future(
            sqlite_store.commit_move(
                game_id, expected_version=1, state={"n": 1}, move=MOVE, publication=PUBLISH_MOVE
            )
        )
        await asyncio.sleep(0.05)
        assert not commit.done()
    entry = await asyncio.wait_for(commit, timeout=10)
    assert entry.version == 2 and sqlite_store._group.batches == before + 1


async def test_a_move_waits_off_the_event_loop_while_another_process_holds_the_lock(
    sqlite_store: Store, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    game_id = await started_game(sqlite_store)
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    other = sqlite3.connect(tmp_path / "glory.db", isolation_level=None)
    with contextlib.closing(other):
        other.execute("BEGIN IMMEDIATE")  # another process's write transaction
        ticking = asyncio.create_task(ticker())
        with caplog.at_level(logging.INFO, logger="bot.storage.base"):
            move = asyncio.create_task(
                sqlite_store.commit_move(
                    game_id, expected_version=1, state={"n": 1}, move=MOVE, publication=PUBLISH_MOVE
                )
            )
            await asyncio.sleep(0.3)
            assert not move.done(), "the move did not wait for the lock"
            assert ticks >= 10, "the event loop was blocked while the move waited"
            other.execute("COMMIT")
            assert (await asyncio.wait_for(move, 5)).version == 2
        ticking.cancel()
    assert "locked by another process" in caplog.text
    stored = await sqlite_store.game(game_id)
    assert stored is not None and stored.state == {"n": 1}
    assert await sqlite_store.move_count(game_id) == 1


async def test_a_lost_race_on_the_inline_path_refuses_only_the_late_move(
    sqlite_store: Store,
) -> None:
    game_id = await started_game(sqlite_store)
    other = await new_lobby(sqlite_store, channel_id=11)
    await join(sqlite_store, other.id, 3)
    await start(sqlite_store, other.id, seed=1, state={"m": 0})
    results = await asyncio.gather(
        sqlite_store.commit_move(
            game_id, expected_version=1, state={"n": 1}, move=MOVE, publication=PUBLISH_MOVE
        ),
        sqlite_store.commit_move(
            game_id, expected_version=1, state={"n": 2}, move=MOVE, publication=PUBLISH_MOVE
        ),
        sqlite_store.commit_move(
            other.id, expected_version=1, state={"m": 1}, move=MOVE, publication=PUBLISH_MOVE
        ),
        return_exceptions=True,
    )
    assert [type(result).__name__ for result in results].count("StorageConflict") == 1
    assert results[2].version == 2
    assert await sqlite_store.move_count(game_id) == 1
    assert await sqlite_store.move_count(other.id) == 1


async def test_after_finding_the_lock_taken_writes_skip_the_inline_connection_for_a_while(
    sqlite_store: Store,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setattr(base, "INLINE_PAUSE_SECONDS", 0.5)
    game_id = await started_game(sqlite_store)
    inline = sqlite_store._inline
    assert inline is not None
    tries = 0
    begin = inline.begin

    def counted_begin():  # type: ignore[no-untyped-def]
        nonlocal tries
        tries += 1
        return begin()

    monkeypatch.setattr(inline, "begin", counted_begin)

    async def move(version: int) -> int:
        entry = await sqlite_store.commit_move(
            game_id,
            expected_version=version,
            state={"n": version},
            move=MOVE,
            publication=PUBLISH_MOVE,
        )
        return entry.version

    other = sqlite3.connect(tmp_path / "glory.db", isolation_level=None)
    with contextlib.closing(other), caplog.at_level(logging.INFO, "bot.storage.base"):
        other.execute("BEGIN IMMEDIATE")
        first = asyncio.create_task(move(1))
        await asyncio.sleep(0.1)
        other.execute("COMMIT")
        assert await first == 2
        assert await move(2) == 3  # within the pause: straight to a thread
        assert tries == 1
        await asyncio.sleep(0.5)
        assert await move(3) == 4  # the pause is over: inline again
        assert tries == 2
    assert caplog.text.count("locked by another process") == 1
    assert await sqlite_store.move_count(game_id) == 3
