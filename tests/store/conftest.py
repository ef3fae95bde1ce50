"""Fixtures of the storage tests: the same repository on a SQLite file and on PostgreSQL."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from bot.outbox.entries import START, Entry, Publication
from bot.storage.models import GameRow, utcnow
from bot.storage.repository import Store
from tests.store.postgres import fresh_database


@pytest.fixture(params=["sqlite", "postgresql"])
async def store(request, tmp_path):
    """The same repository tests on a SQLite file and on PostgreSQL."""
    if request.param == "sqlite":
        store = await Store.open(f"sqlite+aiosqlite:///{tmp_path}/glory.db")
        yield store
        await store.close()
        return
    async with fresh_database() as url:
        store = await Store.open(url)
        yield store
        await store.close()


async def new_lobby(
    store: Store, channel_id: int = 10, host: int = 1, guild_id: int = 99
) -> GameRow:
    return await store.create_lobby(
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=host,
        host_name="host",
        host_locale="en",
        game_key="kami",
        options={},
        locale="en",
        expires_at=utcnow() + timedelta(minutes=30),
    )


PUBLISH_MOVE = Publication.move(hands=[], fresh=[])
"""What the storage tests' moves publish (nothing: no courier runs here)."""


async def join(store: Store, game_id: int, user_id: int, capacity: int = 4) -> bool:
    """``user_id`` takes a seat; whether it is a new one."""
    _, joined = await store.join(game_id, user_id, f"user{user_id}", "en", capacity=capacity)
    return joined


async def start(
    store: Store,
    game_id: int,
    *,
    seed: int = 1,
    state: dict[str, Any] | None = None,
    opening_events: list[dict[str, Any]] | None = None,
) -> Entry:
    """Start the lobby as it is now (at its current version)."""
    row = await store.game(game_id)
    assert row is not None
    seats = list(range(len(await store.seats(game_id))))
    return await store.start(
        game_id,
        expected_version=row.version,
        seed=seed,
        state=state if state is not None else {},
        publication=Publication(START, {"hands": seats, "fresh": seats}),
        opening_events=opening_events or [],
    )
