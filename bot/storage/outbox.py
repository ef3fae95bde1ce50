"""The outbox: what a committed change still has to show on Discord, until it is delivered.

Why in the store: an entry is written in the transaction of the change it shows
(``queue_entry``, called by every part that changes a game), so nothing committed is ever
left unshown; the courier (``bot/outbox/courier.py``) reads, claims and forgets entries here.
Delivered entries are deleted in the next group-commit batch (``batch``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import timedelta

from sqlalchemy import or_, text
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlmodel import col, select

from bot.outbox.entries import Entry, Publication
from bot.storage import claims
from bot.storage.batch import QUEUE, DeliveredWrite, outbox_values
from bot.storage.claiming import Claims
from bot.storage.errors import StorageConflict
from bot.storage.models import GameRow, OutboxRow, utcnow
from bot.storage.tables import OUTBOX

_ENTRY_COLUMNS = {
    "id": OUTBOX.c.id.type,
    "version": OUTBOX.c.version.type,
    "kind": OUTBOX.c.kind.type,
    "body": OUTBOX.c.body.type,
}
_RELEASE_OUTBOX = text(claims.RELEASE_OUTBOX).columns(**_ENTRY_COLUMNS)


async def queue_entry(
    connection: AsyncConnection, game_id: int, version: int, publication: Publication
) -> Entry:
    """Add an outbox entry inside the caller's transaction (every change that must show
    something on Discord writes its entry this way, so that both commit together)."""
    values = outbox_values(game_id, version, publication, utcnow())
    entry_id = (await connection.execute(QUEUE, [values])).scalar_one()
    return Entry(entry_id, game_id, version, publication.kind, publication.body)


class Outbox(Claims):
    """Entries written, read, claimed for delivery and forgotten once delivered."""

    async def publish(self, game_id: int, publication: Publication) -> Entry:
        """Store a publication that no game change comes with (``/table``, a resync)."""
        async with self._write_session() as session:
            connection = await session.connection()
            version = await connection.scalar(select(GameRow.version).where(GameRow.id == game_id))
            if version is None:
                raise StorageConflict(f"game {game_id} does not exist")
            return await queue_entry(connection, game_id, version, publication)

    async def pending_publications(
        self,
        *,
        older_than: timedelta | None = None,
        unclaimed: bool = False,
        games: Sequence[int] | None = None,
    ) -> list[Entry]:
        """Outbox entries not yet delivered, oldest first: all of them (at start-up), or those
        written more than ``older_than`` ago (a sweep for entries nobody is delivering).

        ``unclaimed``: only those of games no live courier holds (several processes, see
        ``claims``); with ``older_than``, also the younger ones of games whose courier's
        process died (nobody else would deliver them before the age is reached). ``games``:
        only those of these games.
        """
        query = select(OutboxRow).order_by(col(OutboxRow.id))
        old = col(OutboxRow.created_at) < utcnow() - older_than if older_than is not None else None
        if unclaimed:
            query = query.where(text(claims.UNCLAIMED_OUTBOX))
            if old is not None:
                query = query.where(or_(old, text(claims.ABANDONED_OUTBOX)))
        elif old is not None:
            query = query.where(old)
        if games is not None:
            query = query.where(col(OutboxRow.game_id).in_(list(games)))
        async with self.session() as session:
            rows = (await session.exec(query)).all()
        return [
            Entry(row.id, row.game_id, row.version, row.kind, row.body)
            for row in rows
            if row.id is not None
        ]

    async def published(self, entry_ids: Sequence[int]) -> None:
        """Forget delivered outbox entries (in the next group-commit batch)."""
        if entry_ids:
            await self._group.submit(DeliveredWrite(tuple(entry_ids)))

    async def claim_outbox(self, game_id: int, *, lease: float) -> tuple[str, list[Entry]] | None:
        """Claim the delivery of the game's outbox (see ``claims``): the token and every entry
        of the game still stored (some may be other processes'), or ``None`` if another
        process's courier holds it."""
        # Two statements, not one: a claim that waited for the holder's release must read
        # the entries as that release left them (a statement reads as of its start).
        token = await self.claim(game_id, claims.OUTBOX, lease=lease)
        if token is None:
            return None
        return token, await self.pending_publications(games=[game_id])

    async def release_outbox(
        self, game_id: int, token: str, delivered: Collection[int]
    ) -> list[Entry]:
        """Forget the ``delivered`` entries and give up the claim, in one transaction (so the
        next courier, maybe another process's, does not deliver them again); the game's
        entries still stored after that: written meanwhile by a process whose courier found
        the claim taken, and now this one's to deliver again."""
        async with self._autocommit() as connection:
            rows = await connection.execute(
                _RELEASE_OUTBOX, {"game": game_id, "token": token, "delivered": list(delivered)}
            )
            return [Entry(row.id, game_id, row.version, row.kind, row.body) for row in rows]
