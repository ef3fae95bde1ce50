"""Fixtures of the storage tests: the same repository on a SQLite file and on PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import pytest

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
