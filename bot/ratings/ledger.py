"""Stored ratings follow the stored results, one game at a time, in one order.

Why synchronous SQLAlchemy Core: the same functions run inside the transaction that stores
a game's last move (through ``AsyncConnection.run_sync``), in migration 0007 (Alembic's
connection) and in ``python -m bot.ratings recompute``. One implementation means a rebuild
reads and writes exactly what the live path does, so it reproduces the stored ratings to the
last bit (floats go to the database and back unchanged: SQLite REAL and PostgreSQL
``double precision`` are both IEEE doubles).

Order matters to a rating, so the order games were rated in is stored (``rated_games.seq``)
and a rebuild follows it. On PostgreSQL, where several processes may finish games at once,
rating a game takes a transaction-scoped advisory lock per server and game (two games of one
leaderboard are rated one after the other, in the order their transactions got the lock)
and a shared lock that a rebuild takes exclusively. SQLite has one writer at a time anyway.
"""

from __future__ import annotations

import weakref
import zlib
from collections.abc import Sequence
from typing import Any

from sqlalchemy import false, func, inspect, select, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.ext.asyncio import AsyncSession

from bot.ratings.model import Player, Rating, SeatResult, rate_game
from bot.ratings.tables import RatedGameRow, RatingChangeRow, RatingRow
from bot.storage.models import ResultRow, utcnow

_RESULTS = ResultRow.__table__  # type: ignore[attr-defined]
_RATINGS = RatingRow.__table__  # type: ignore[attr-defined]
_CHANGES = RatingChangeRow.__table__  # type: ignore[attr-defined]
_RATED = RatedGameRow.__table__  # type: ignore[attr-defined]

FINISHED = "finished"
REBUILD_LOCK = 0x676C6F7279
"""PostgreSQL advisory lock key (one bigint): shared by every rating, exclusive in a rebuild."""


def _int4(value: int) -> int:
    """``value`` folded into PostgreSQL's signed 32-bit range (an advisory lock key)."""
    value &= 0xFFFFFFFF
    return value - 2**32 if value >= 2**31 else value


def _lock_board(connection: Connection, guild_id: int, game_key: str) -> None:
    if connection.dialect.name != "postgresql":
        return
    connection.execute(text("SELECT pg_advisory_xact_lock_shared(:key)"), {"key": REBUILD_LOCK})
    connection.execute(
        text("SELECT pg_advisory_xact_lock(:guild, :game)"),
        {"guild": _int4(guild_id ^ (guild_id >> 32)), "game": _int4(zlib.crc32(game_key.encode()))},
    )


_DEPARTURES: weakref.WeakSet[Engine] = weakref.WeakSet()
"""Databases known to record departures (``results.departed``, migration 0012)."""


def _departed_column(connection: Connection) -> Any:
    """``results.departed``, or false where the database is older than migration 0012 (the
    migration that brought ratings, 0007, rates the games stored before it with this code)."""
    engine = connection.engine
    if engine not in _DEPARTURES:
        names = {column["name"] for column in inspect(connection).get_columns("results")}
        if "departed" not in names:
            return false().label("departed")
        _DEPARTURES.add(engine)
    return _RESULTS.c.departed


def seat_results(connection: Connection, game_id: int) -> list[tuple[int, str, SeatResult]]:
    """The finished results of ``game_id`` as (guild, game key, seat result), by seat."""
    rows = connection.execute(
        select(
            _RESULTS.c.guild_id,
            _RESULTS.c.game_key,
            _RESULTS.c.seat,
            _RESULTS.c.user_id,
            _RESULTS.c.score,
            _RESULTS.c.won,
            _RESULTS.c.side,
            _RESULTS.c.ai_level,
            _RESULTS.c.autoplayed,
            _departed_column(connection),
        )
        .where(_RESULTS.c.game_id == game_id, _RESULTS.c.outcome == FINISHED)
        .order_by(_RESULTS.c.seat)
    ).all()
    return [
        (
            int(row.guild_id),
            row.game_key,
            SeatResult(
                seat=row.seat,
                user_id=int(row.user_id),
                score=int(row.score),
                won=bool(row.won),
                side=row.side,
                ai_level=row.ai_level,
                autoplayed=bool(row.autoplayed),
                departed=bool(row.departed),
            ),
        )
        for row in rows
    ]


def rate_finished_game(connection: Connection, game_id: int) -> bool:
    """Apply the finished game ``game_id`` to its server's ratings, once: False if it has no
    finished results or was rated already (so calling it again changes nothing)."""
    found = seat_results(connection, game_id)
    if not found:
        return False
    guild_id, game_key = found[0][0], found[0][1]
    _lock_board(connection, guild_id, game_key)
    rated = connection.execute(select(_RATED.c.seq).where(_RATED.c.game_id == game_id)).first()
    if rated is not None:
        return False
    results = [result for _, _, result in found]
    players = {r.player for r in results}
    stored = _stored_ratings(connection, guild_id, game_key, players)
    current = {player: Rating(row["mu"], row["sigma"]) for player, row in stored.items()}
    changes, updated = rate_game(results, current)
    now = utcnow()
    for player, rating in updated.items():
        seats = [r for r in results if r.player == player]
        won = any(r.won and not r.autoplayed for r in seats)
        _store_rating(connection, guild_id, game_key, player, rating, stored.get(player), won, now)
    if changes:
        connection.execute(
            _CHANGES.insert(),
            [
                {
                    "game_id": game_id,
                    "seat": change.seat,
                    "guild_id": guild_id,
                    "game_key": game_key,
                    "user_id": change.player[0],
                    "ai_level": change.player[1],
                    "mu_before": change.before.mu,
                    "sigma_before": change.before.sigma,
                    "mu_after": change.after.mu,
                    "sigma_after": change.after.sigma,
                    "rank": change.rank,
                    "counted": change.counted,
                }
                for change in changes
            ],
        )
    connection.execute(
        _RATED.insert().values(game_id=game_id, guild_id=guild_id, game_key=game_key, rated_at=now)
    )
    return True


def _stored_ratings(
    connection: Connection, guild_id: int, game_key: str, players: set[Player]
) -> dict[Player, dict[str, Any]]:
    users = {user for user, _ in players}
    rows = connection.execute(
        select(_RATINGS).where(
            _RATINGS.c.guild_id == guild_id,
            _RATINGS.c.game_key == game_key,
            _RATINGS.c.user_id.in_(users),
        )
    ).mappings()
    return {
        (int(row["user_id"]), row["ai_level"]): dict(row)
        for row in rows
        if (int(row["user_id"]), row["ai_level"]) in players
    }


def _store_rating(
    connection: Connection,
    guild_id: int,
    game_key: str,
    player: Player,
    rating: Rating,
    stored: dict[str, Any] | None,
    won: bool,
    now: Any,
) -> None:
    user_id, level = player
    if stored is None:
        connection.execute(
            _RATINGS.insert().values(
                guild_id=guild_id,
                game_key=game_key,
                user_id=user_id,
                ai_level=level,
                mu=rating.mu,
                sigma=rating.sigma,
                games=1,
                wins=int(won),
                updated_at=now,
            )
        )
        return
    connection.execute(
        _RATINGS.update()
        .where(
            _RATINGS.c.guild_id == guild_id,
            _RATINGS.c.game_key == game_key,
            _RATINGS.c.user_id == user_id,
            _RATINGS.c.ai_level == level,
        )
        .values(
            mu=rating.mu,
            sigma=rating.sigma,
            games=_RATINGS.c.games + 1,
            wins=_RATINGS.c.wins + int(won),
            updated_at=now,
        )
    )


def unrated_games(connection: Connection) -> list[int]:
    """Finished games with results but no rating yet, oldest result first."""
    finished_at = func.min(_RESULTS.c.finished_at)
    rows = connection.execute(
        select(_RESULTS.c.game_id, finished_at)
        .where(
            _RESULTS.c.outcome == FINISHED,
            _RESULTS.c.game_id.not_in(select(_RATED.c.game_id)),
        )
        .group_by(_RESULTS.c.game_id)
        .order_by(finished_at, _RESULTS.c.game_id)
    ).all()
    return [int(row[0]) for row in rows]


def rate_unrated(connection: Connection) -> int:
    """Rate every finished game not rated yet (results from before ratings existed), oldest
    first; how many were rated."""
    return sum(rate_finished_game(connection, game_id) for game_id in unrated_games(connection))


def rating_order(connection: Connection) -> list[int]:
    """Every finished game in the order a rebuild rates them: as rated, then any unrated."""
    rated = connection.execute(select(_RATED.c.game_id).order_by(_RATED.c.seq)).scalars().all()
    return [int(game_id) for game_id in rated] + unrated_games(connection)


def rebuild(connection: Connection) -> int:
    """Forget every rating and rate every finished game again, in the stored order; how many
    games were rated. Run in one transaction: readers see the old ratings or the new ones."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": REBUILD_LOCK})
    order = rating_order(connection)
    connection.execute(_CHANGES.delete())
    connection.execute(_RATINGS.delete())
    connection.execute(_RATED.delete())
    return sum(rate_finished_game(connection, game_id) for game_id in order)


def snapshot(connection: Connection) -> list[tuple[Any, ...]]:
    """Every stored rating and change, in a fixed order (to compare two states exactly)."""
    ratings = connection.execute(
        select(_RATINGS).order_by(
            _RATINGS.c.guild_id, _RATINGS.c.game_key, _RATINGS.c.user_id, _RATINGS.c.ai_level
        )
    ).all()
    changes = connection.execute(
        select(_CHANGES).order_by(_CHANGES.c.game_id, _CHANGES.c.seat)
    ).all()
    order = connection.execute(select(_RATED.c.game_id).order_by(_RATED.c.seq)).all()
    strip = {"updated_at"}
    return [
        *(tuple(v for k, v in row._mapping.items() if k not in strip) for row in ratings),
        *(tuple(row) for row in changes),
        *(tuple(row) for row in order),
    ]


async def rate_in_session(session: AsyncSession, game_id: int) -> bool:
    """``rate_finished_game`` inside ``session``'s transaction (the results just added are
    flushed first)."""
    await session.flush()
    connection = await session.connection()
    return await connection.run_sync(rate_finished_game, game_id)


async def rebuild_async(connection: Any) -> int:
    return await connection.run_sync(rebuild)


def results_of(rows: Sequence[Any]) -> list[SeatResult]:
    """Stored result rows as the model reads them (tests and tools)."""
    return [
        SeatResult(
            r.seat,
            r.user_id,
            r.score,
            r.won,
            r.side,
            r.ai_level,
            r.autoplayed,
            bool(getattr(r, "departed", False)),
        )
        for r in rows
    ]
