"""Claims of one-at-a-time work, taken, renewed and given up by this store (shared mode).

The why and the SQL are in ``claims`` (which stays free of the store, so that the flows can
import its kinds and leases cheaply); this is the store's side: each claim is one statement
on an autocommit connection. The outbox's own claim (delivering a game's entries) is in
``outbox``.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Collection
from contextlib import asynccontextmanager
from datetime import timedelta

from sqlalchemy import and_, or_, text
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlmodel import select

from bot.storage import claims, liveness
from bot.storage.base import StoreBase
from bot.storage.models import GameStatus, utcnow
from bot.storage.tables import CLAIMS, GAMES, SEATS


class Claims(StoreBase):
    """Claiming work on a game for a lease; finding games whose work nobody holds."""

    @asynccontextmanager
    async def _autocommit(self) -> AsyncIterator[AsyncConnection]:
        """A connection whose every statement commits by itself: a claim is one statement,
        and a transaction around it would cost two more round trips (BEGIN, COMMIT)."""
        async with self.engine.connect() as connection:
            yield await connection.execution_options(isolation_level="AUTOCOMMIT")

    async def claim(
        self, game_id: int, kind: str, *, lease: float, version: int | None = None
    ) -> str | None:
        """Claim ``kind`` of work on the game for ``lease`` seconds (see ``claims``): the
        claim's token, or ``None`` if another process holds it (or, with ``version``, the
        game is no longer at that version)."""
        token = uuid.uuid4().hex
        async with self._autocommit() as connection:
            result = await connection.execute(
                claims.CLAIM,
                {
                    "game": game_id,
                    "kind": kind,
                    "owner": self.origin,
                    "token": token,
                    "version": version,
                    "lease": lease,
                },
            )
            return token if result.first() is not None else None

    async def renew_claims(self, tokens: Collection[str], *, lease: float) -> set[str]:
        """Extend the leases of ``tokens``; those still held (a missing one was lost: its
        lease ran out and another process took it)."""
        if not tokens:
            return set()
        async with self._autocommit() as connection:
            result = await connection.execute(
                claims.RENEW, {"tokens": list(tokens), "lease": lease}
            )
            return {row[0] for row in result}

    async def quiet_games(self, longer_than: timedelta) -> list[int]:
        """Running games that nobody may be playing: no move for ``longer_than``, an AI seat
        (or a seat the AI took over) or a passed deadline, and no live claim on the turn (a
        process that died mid-search, or before its clock fired, leaves such a game); and, at
        once, those whose turn was claimed by a process that is no longer running. Several
        processes on PostgreSQL only (``Store.shared``: it reads the server's lock table)."""
        now = utcnow()
        ai_seat = (
            select(SEATS.c.game_id)
            .where(
                SEATS.c.game_id == GAMES.c.id,
                SEATS.c.ai_level.is_not(None) | SEATS.c.takeover.is_(True),
            )
            .exists()
        )
        turn_claim = select(CLAIMS.c.game_id).where(
            CLAIMS.c.game_id == GAMES.c.id, CLAIMS.c.kind == claims.TURN
        )
        claimed = turn_claim.where(
            CLAIMS.c.lease_until >= now, text(liveness.alive("claims.owner"))
        ).exists()
        abandoned = turn_claim.where(
            CLAIMS.c.version == GAMES.c.version, text(liveness.dead("claims.owner"))
        ).exists()
        query = select(GAMES.c.id).where(
            GAMES.c.status == GameStatus.ACTIVE.value,
            or_(
                and_(
                    GAMES.c.updated_at < now - longer_than,
                    ai_seat | (GAMES.c.turn_deadline < now),
                    ~claimed,
                ),
                abandoned,
            ),
        )
        async with self.engine.connect() as connection:
            return [int(row[0]) for row in await connection.execute(query)]

    async def forget_lapsed_claims(self, older_than: timedelta) -> int:
        """Delete claims whose lease ran out more than ``older_than`` ago (a lapsed claim is no
        claim; a turn's is left behind by every AI turn); how many."""
        async with self.engine.begin() as connection:
            result = await connection.execute(
                CLAIMS.delete().where(CLAIMS.c.lease_until < utcnow() - older_than)
            )
            return int(result.rowcount or 0)

    async def release_claims(self, tokens: Collection[str]) -> None:
        """Give up claims (the work is done); another process may take them at once."""
        if tokens:
            async with self.engine.begin() as connection:
                await connection.execute(claims.RELEASE, {"tokens": list(tokens)})
