"""SQLite's write-ahead log is copied into the database file by the Store, not by a commit."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest

from bot.storage import base
from bot.storage.repository import Store
from tests.store.conftest import new_lobby


def games_in_database_file(path: Path) -> int:
    """Games in the database file itself, ignoring what is still only in the log."""
    with contextlib.closing(sqlite3.connect(f"file:{path}?immutable=1", uri=True)) as database:
        try:
            return database.execute("SELECT count(*) FROM games").fetchone()[0]
        except sqlite3.OperationalError:  # not even the tables have been copied yet
            return 0


async def test_commits_leave_the_log_alone_and_the_store_checkpoints_it_at_most_once_a_second(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(base, "CHECKPOINT_SECONDS", 3600.0)
    path = tmp_path / "glory.db"
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    try:
        async with store.engine.connect() as connection:
            pages = await connection.exec_driver_sql("PRAGMA wal_autocheckpoint")
            assert pages.scalar() == 0
        await new_lobby(store, channel_id=1)  # the first commit starts a checkpoint
        assert store._checkpoint is not None
        await store._checkpoint
        assert games_in_database_file(path) == 1
        first = store._checkpoint
        await new_lobby(store, channel_id=2)
        await new_lobby(store, channel_id=3)
        assert store._checkpoint is first, "a second checkpoint within the period"
        assert games_in_database_file(path) == 1, "a commit copied the log itself"
        store._next_checkpoint = 0.0  # the period is over
        await new_lobby(store, channel_id=4)
        assert store._checkpoint is not first
        await store._checkpoint
        assert games_in_database_file(path) == 4
    finally:
        await store.close()
