"""The processes sharing Discord's global request budget, counted through PostgreSQL.

Discord's global limit (about 50 requests a second) is the bot token's, whatever the number of
processes; each process paces its own requests (``bot/outbox/budget.py``), so each must know
how many share the token. They already share a PostgreSQL database (and nothing else: no new
service), so each refreshes its row in ``budget_shares`` when it counts (at start-up, then at
most every few seconds while it makes requests: ``budget.REFRESH_SECONDS``) and counts the
rows of the processes that are alive: those holding their liveness lock
(``liveness.py``: gone within moments of a crash), or, for a host that vanished without
closing its connections, whose row is younger than ``STALE_SECONDS``. Rows of processes that
are neither are deleted as they are found.

A process that counts one more or one fewer for a few seconds (one joining or leaving) takes
a part too large or too small for that while; the pacer leaves ``1 - SHARE`` of the limit
unused, which covers one process of several over-counting its part for a moment.
"""

from __future__ import annotations

import contextlib
from datetime import datetime

from sqlalchemy import text
from sqlmodel import Field, SQLModel

from bot.storage import liveness
from bot.storage.repository import Store

STALE_SECONDS = 30.0


class BudgetShareRow(SQLModel, table=True):
    """A process that paces its Discord requests within its part of the global budget."""

    __tablename__ = "budget_shares"

    origin: str = Field(primary_key=True, max_length=40)
    seen_at: datetime


_COUNT = text(
    f"""
    WITH mine AS (
        INSERT INTO budget_shares (origin, seen_at) VALUES (:origin, now())
        ON CONFLICT (origin) DO UPDATE SET seen_at = excluded.seen_at
        RETURNING origin
    ), gone AS (
        DELETE FROM budget_shares
        WHERE origin <> :origin
          AND seen_at < now() - make_interval(secs => :stale)
          AND {liveness.dead("budget_shares.origin")}
        RETURNING origin
    )
    SELECT 1 + count(*) FROM budget_shares
    WHERE origin <> :origin
      AND origin NOT IN (SELECT origin FROM gone)
      AND (seen_at >= now() - make_interval(secs => :stale)
           OR {liveness.alive("budget_shares.origin")})
    """
)


async def processes_sharing(store: Store) -> int:
    """Note this process as alive and count the processes sharing the budget (itself too)."""
    if not store.shared:
        return 1
    async with store.engine.begin() as connection:
        found = await connection.scalar(_COUNT, {"origin": store.origin, "stale": STALE_SECONDS})
    return max(1, int(found or 1))


async def leave(store: Store) -> None:
    """A clean stop: the others take this process's part at their next refresh."""
    if not store.shared:
        return
    with contextlib.suppress(Exception):
        async with store.engine.begin() as connection:
            await connection.execute(
                text("DELETE FROM budget_shares WHERE origin = :origin"), {"origin": store.origin}
            )
