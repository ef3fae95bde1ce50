"""Counts for the health view (``/health``): games in play, open lobbies, the outbox's backlog.

Read from the database, not from this process's memory: with several processes on one
PostgreSQL the games and the outbox are shared, and a manager asking one shard wants the whole
bot's numbers. Two small aggregate queries, run only when someone asks.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage.models import GameRow, GameStatus, OutboxRow

_GAMES = GameRow.__table__  # type: ignore[attr-defined]
_OUTBOX = OutboxRow.__table__  # type: ignore[attr-defined]


@dataclass(frozen=True)
class StatusCounts:
    active_games: int
    lobbies: int
    outbox_entries: int
    """Changes committed but not yet shown on Discord (all processes)."""
    oldest_entry_seconds: int | None
    """How long the oldest of them has waited (``None``: none waiting)."""


async def status_counts(engine: AsyncEngine, now: datetime | None = None) -> StatusCounts:
    now = now or datetime.now(UTC)
    games = (
        sa.select(_GAMES.c.status, sa.func.count())
        .where(_GAMES.c.status.in_((GameStatus.ACTIVE.value, GameStatus.LOBBY.value)))
        .group_by(_GAMES.c.status)
    )
    outbox = sa.select(sa.func.count(), sa.func.min(_OUTBOX.c.created_at))
    async with engine.connect() as connection:
        by_status = {str(status): count for status, count in await connection.execute(games)}
        entries, oldest = (await connection.execute(outbox)).one()
    waited = None
    if oldest is not None:
        if oldest.tzinfo is None:  # SQLite keeps no time zone: the bot writes UTC
            oldest = oldest.replace(tzinfo=UTC)
        waited = max(0, int((now - oldest).total_seconds()))
    return StatusCounts(
        active_games=by_status.get(GameStatus.ACTIVE.value, 0),
        lobbies=by_status.get(GameStatus.LOBBY.value, 0),
        outbox_entries=int(entries or 0),
        oldest_entry_seconds=waited,
    )
