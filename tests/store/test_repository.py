"""The storage layer on a real SQLite file: migrations, compare-and-swap, results, standings."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.outbox.entries import REDRAW
from bot.storage.engine import normalise_url
from bot.storage.migrate import alembic_config
from bot.storage.models import GameStatus, utcnow
from bot.storage.repository import (
    ChannelBusy,
    FinalScore,
    MoveRecord,
    StorageConflict,
    Store,
)
from tests.store.conftest import PUBLISH_MOVE, join, new_lobby, start
from tests.store.postgres import fresh_database


async def test_migrations_create_the_schema(store: Store) -> None:
    async with store.engine.connect() as connection:
        tables = await connection.run_sync(lambda c: set(inspect(c).get_table_names()))
        revision = (
            await connection.execute(text("SELECT version_num FROM alembic_version"))
        ).scalar()
        columns = await connection.run_sync(lambda c: inspect(c).get_columns("games"))
        user_columns = await connection.run_sync(lambda c: inspect(c).get_columns("users"))
    assert {"games", "seats", "moves", "results", "users", "guild_settings", "outbox"} <= tables
    assert revision == ScriptDirectory.from_config(alembic_config()).get_current_head()
    types = {column["name"]: str(column["type"]).upper() for column in columns}
    assert types["guild_id"] == types["channel_id"] == "BIGINT"
    user_types = {column["name"]: str(column["type"]).upper() for column in user_columns}
    assert user_types["dm_channel_id"] == "BIGINT"


async def test_sqlite_connection_settings(tmp_path) -> None:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path}/pragmas.db")
    async with store.engine.connect() as connection:
        journal = (await connection.execute(text("PRAGMA journal_mode"))).scalar()
        keys = (await connection.execute(text("PRAGMA foreign_keys"))).scalar()
        busy = (await connection.execute(text("PRAGMA busy_timeout"))).scalar()
    await store.close()
    assert journal == "wal" and keys == 1 and busy == 10_000


async def test_migrations_are_idempotent(tmp_path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/again.db"
    for _ in range(2):
        store = await Store.open(url)
        await store.close()


async def test_memory_database_is_refused() -> None:
    with pytest.raises(ValueError, match="SQLite file"):
        await Store.open("sqlite+aiosqlite:///:memory:")


def test_postgres_urls_are_normalised_to_asyncpg() -> None:
    for url in ("postgres://u:p@h/db", "postgresql://u:p@h/db", "postgresql+psycopg2://u@h/db"):
        assert normalise_url(url).drivername == "postgresql+asyncpg"
    assert normalise_url("sqlite:///x.db").drivername == "sqlite+aiosqlite"


async def test_big_discord_ids_round_trip(store: Store) -> None:
    big = 1_234_567_890_123_456_789
    game = await store.create_lobby(
        guild_id=big,
        channel_id=big - 1,
        host_id=big - 2,
        host_name="h",
        host_locale="en",
        game_key="kami",
        options={"x": 1},
        locale="en",
        expires_at=utcnow(),
    )
    loaded = await store.game(game.id)
    assert (loaded.guild_id, loaded.channel_id, loaded.host_id) == (big, big - 1, big - 2)
    assert (await store.seats(game.id))[0].user_id == big - 2


async def test_one_open_game_per_channel(store: Store) -> None:
    game = await new_lobby(store)
    with pytest.raises(ChannelBusy):
        await new_lobby(store)
    await store.end(game.id, GameStatus.CANCELLED)
    again = await new_lobby(store)
    assert again.id != game.id


async def test_lobby_seats_stay_contiguous(store: Store) -> None:
    game = await new_lobby(store)
    await join(store, game.id, 2)
    await join(store, game.id, 3)
    await store.leave_lobby(game.id, 2)
    seats = await store.seats(game.id)
    assert [(s.seat, s.user_id) for s in seats] == [(0, 1), (1, 3)]


async def test_compare_and_swap_rejects_a_second_move_on_the_same_version(store: Store) -> None:
    game = await new_lobby(store)
    await join(store, game.id, 2)
    await start(store, game.id, seed=7, state={"n": 0})
    move = MoveRecord(seat=0, action={"kind": "x"}, events=[{"type": "e"}])
    results = await asyncio.gather(
        store.commit_move(
            game.id, expected_version=1, state={"n": 1}, move=move, publication=PUBLISH_MOVE
        ),
        store.commit_move(
            game.id, expected_version=1, state={"n": 2}, move=move, publication=PUBLISH_MOVE
        ),
        return_exceptions=True,
    )
    assert sorted(type(r).__name__ for r in results) == ["Entry", "StorageConflict"]
    loaded = await store.game(game.id)
    assert loaded.version == 2 and loaded.state in ({"n": 1}, {"n": 2})
    assert await store.move_count(game.id) == 1


async def test_finished_and_ended_games_refuse_moves(store: Store) -> None:
    game = await new_lobby(store)
    await start(store, game.id, seed=1, state={})
    await store.end(game.id, GameStatus.CANCELLED)
    with pytest.raises(StorageConflict):
        await store.commit_move(
            game.id,
            expected_version=2,
            state={},
            move=MoveRecord(0, {}, []),
            publication=PUBLISH_MOVE,
        )
    with pytest.raises(StorageConflict):
        await store.end(game.id, GameStatus.ABANDONED)
    with pytest.raises(StorageConflict):
        await join(store, game.id, 5)


async def test_standings_count_finished_games_only(store: Store) -> None:
    for channel, (winner, loser) in enumerate([(1, 2), (1, 2), (2, 1)]):
        game = await new_lobby(store, channel_id=100 + channel, host=winner)
        await join(store, game.id, loser)
        await start(store, game.id, seed=1, state={})
        await store.commit_move(
            game.id,
            expected_version=1,
            state={},
            move=MoveRecord(0, {}, []),
            final=[FinalScore(0, winner, 10, True), FinalScore(1, loser, 4, False)],
            publication=PUBLISH_MOVE,
        )
    abandoned = await new_lobby(store, channel_id=200, host=3)
    await start(store, abandoned.id, seed=1, state={})
    await store.end(abandoned.id, GameStatus.ABANDONED, final=[FinalScore(0, 3, 0, False)])
    standings = await store.standings(99)
    assert [(s.user_id, s.played, s.wins, s.points) for s in standings] == [
        (1, 3, 2, 24),
        (2, 3, 1, 18),
    ]
    assert await store.standings(99, "call_to_glory") == []


async def test_closed_dms_are_remembered(store: Store) -> None:
    assert not await store.dms_closed(5)
    await store.set_dms_closed(5, True)
    assert await store.dms_closed(5)
    await store.set_dms_closed(5, False)
    assert not await store.dms_closed(5)


async def test_users_languages_are_remembered_and_updated(store: Store) -> None:
    big = 2**62 + 7  # Discord ids need BIGINT
    assert await store.remembered_locales([big, 5]) == {}
    await store.set_dms_closed(5, True)  # a user row without a language yet
    assert await store.remembered_locales([5]) == {}
    await asyncio.gather(store.remember_locale(big, "de"), store.remember_locale(5, "ru"))
    await store.remember_locale(big, "ru")
    assert await store.remembered_locales([big, 5, 6]) == {big: "ru", 5: "ru"}
    assert await store.dms_closed(5)  # the other memory of the same user is kept
    await store.set_dms_closed(5, False)
    assert await store.remembered_locales([5]) == {5: "ru"}


async def test_users_dm_channels_are_remembered_forgotten_and_kept_apart(store: Store) -> None:
    big = 2**62 + 7  # Discord ids need BIGINT
    assert await store.dm_channel(big) is None
    await store.remember_locale(5, "de")  # a user row with other memory
    await store.set_dms_closed(5, True)
    await asyncio.gather(store.remember_dm_channel(big, big + 1), store.remember_dm_channel(5, 50))
    assert (await store.dm_channel(big), await store.dm_channel(5)) == (big + 1, 50)
    fresh = Store(store.engine)  # what the database holds, not the memory
    assert (await fresh.dm_channel(big), await fresh.dm_channel(5)) == (big + 1, 50)
    assert await fresh.remembered_locales([5]) == {5: "de"} and await fresh.dms_closed(5)
    await store.forget_dm_channel(5, 49)  # not the stored one: kept
    assert await Store(store.engine).dm_channel(5) == 50
    await store.forget_dm_channel(5, 50)
    assert await store.dm_channel(5) is None
    assert await Store(store.engine).dm_channel(5) is None
    assert await Store(store.engine).remembered_locales([5]) == {5: "de"}


@asynccontextmanager
async def _database(kind: str, tmp_path) -> AsyncIterator[str]:  # type: ignore[no-untyped-def]
    if kind == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path}/upgrade.db"
        return
    async with fresh_database() as url:
        yield url


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
async def test_migration_0005_fills_dm_channels_from_the_hand_dms(kind, tmp_path) -> None:
    """An upgraded database knows the DM channels its seats' hand DMs are in: user rows get
    theirs (a row is added where none was), users without a hand DM get none."""
    big = 2**62 + 11

    async def migrate(engine, revision: str) -> None:  # type: ignore[no-untyped-def]
        async with engine.begin() as connection:
            await connection.run_sync(lambda c: command.upgrade(alembic_config(c), revision))

    async with _database(kind, tmp_path) as url:
        engine = create_async_engine(normalise_url(url))
        try:
            await migrate(engine, "0004")
            async with engine.begin() as connection:
                await connection.execute(
                    text(
                        "INSERT INTO games (id, guild_id, channel_id, host_id, game_key, "
                        "options, status, version, seed, locale, created_at, updated_at) "
                        "VALUES (1, 9, 10, 1, 'kami', '{}', 'finished', 3, 0, 'en', "
                        "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
                    )
                )
                for seat, user, channel in ((0, 1, 101), (1, big, big + 1), (2, 3, None)):
                    await connection.execute(
                        text(
                            "INSERT INTO seats (game_id, seat, user_id, display_name, locale, "
                            "hand_channel_id, joined_at) VALUES (1, :seat, :user, 'p', 'en', "
                            ":channel, CURRENT_TIMESTAMP)"
                        ),
                        {"seat": seat, "user": user, "channel": channel},
                    )
                await connection.execute(
                    text("INSERT INTO users (user_id, locale) VALUES (1, 'de'), (4, 'ru')")
                )
            await migrate(engine, "0005")
            async with engine.connect() as connection:
                rows = (
                    await connection.execute(
                        text("SELECT user_id, locale, dm_channel_id FROM users ORDER BY user_id")
                    )
                ).all()
        finally:
            await engine.dispose()
    assert [tuple(row) for row in rows] == [(1, "de", 101), (4, "ru", None), (big, None, big + 1)]


async def test_guild_language_moves_open_games_only(store: Store) -> None:
    assert await store.guild_language(99) is None
    lobby = await new_lobby(store, channel_id=1)
    running = await new_lobby(store, channel_id=2)
    await start(store, running.id, seed=1, state={})
    ended = await new_lobby(store, channel_id=3)
    await store.end(ended.id, GameStatus.CANCELLED)
    elsewhere = await new_lobby(store, channel_id=4, guild_id=2**62)
    switched = await store.set_guild_language(99, "de", "de")
    assert sorted(entry.game_id for entry in switched) == sorted([lobby.id, running.id])
    assert {entry.kind for entry in switched} == {REDRAW}
    assert await store.guild_language(99) == "de"
    assert await store.guild_language(2**62) is None
    locales = {g: (await store.game(g)).locale for g in (lobby.id, running.id, ended.id)}
    assert locales == {lobby.id: "de", running.id: "de", ended.id: "en"}
    assert (await store.game(elsewhere.id)).locale == "en"
    assert (await store.game(running.id)).version == 1  # not a move
    await store.set_guild_language(99, None, "ru")  # back to the server's own language
    assert await store.guild_language(99) is None
    assert (await store.game(running.id)).locale == "ru"
