"""A complete game through SimCord on PostgreSQL, with a restart in the middle.

Skipped (with the reason shown) when no server is configured; CI configures one (.ci/run).
"""

from __future__ import annotations

import random

import pytest

from bot.storage.models import GameStatus
from tests.bot.conftest import make_bot
from tests.bot.driver import new_table, open_lobby, play_one_move, play_to_end, start
from tests.store.postgres import fresh_database


@pytest.fixture
async def database_url():
    async with fresh_database() as url:
        yield url


async def test_a_game_on_postgres_survives_a_restart(simcord_env, database_url) -> None:
    assert database_url.startswith("postgresql+asyncpg://")
    table = new_table(simcord_env, 3)
    await open_lobby(table, "clans_and_glory")
    await start(table)
    rng = random.Random(21)
    for _ in range(5):
        await play_one_move(table, rng)
    await simcord_env.restart_bot(make_bot(database_url))
    loaded = await play_to_end(table, rng)
    assert loaded.status is GameStatus.FINISHED
    standings = await table.bot.store.standings(table.guild.id)
    assert sorted(s.user_id for s in standings) == sorted(p.user.id for p in table.players)
    assert max(s.user_id for s in standings) > 2**32  # BIGINT ids survive PostgreSQL
