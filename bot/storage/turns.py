"""A running game's seats between moves: the turn clock's record, the reminder, the hints.

Why a module: these writes change a game outside a move (no version bump), each in a
transaction of its own with the outbox entry it must show, and keep the kept copy in step.
A move's own clock record goes with the move (``playing``, ``SeatTurns``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import select

from bot.outbox.entries import Entry, Publication
from bot.storage.base import StoreBase
from bot.storage.batch import STORE_SEAT_TURNS
from bot.storage.models import GameStatus
from bot.storage.outbox import queue_entry
from bot.storage.tables import GAMES, SEATS


@dataclass(frozen=True)
class SeatTurns:
    """A seat's record on the turn clock after a move (see ``SeatRow.missed_turns``)."""

    seat: int
    missed_turns: int
    takeover: bool


class Turns(StoreBase):
    """The turn clock's record of seats, reminders claimed once, hints counted."""

    async def set_seat_turns(
        self,
        game_id: int,
        turns: SeatTurns,
        *,
        publication: Publication | None = None,
        deadline: datetime | None = None,
    ) -> Entry | None:
        """A seat's clock record outside a move (a player takes their seat back), in one
        transaction with what it must show (``publication``, its outbox entry is returned)
        and, when given, the deadline of the turn the game is in (a player back on turn)."""
        entry = None
        with self._writing(game_id):
            async with self._write_connection() as connection:
                await connection.execute(
                    STORE_SEAT_TURNS,
                    {
                        "game": game_id,
                        "seat_number": turns.seat,
                        "missed": turns.missed_turns,
                        "takeover": turns.takeover,
                    },
                )
                if deadline is not None:
                    await connection.execute(
                        GAMES.update().where(GAMES.c.id == game_id).values(turn_deadline=deadline)
                    )
                if publication is not None:
                    version = await connection.scalar(
                        select(GAMES.c.version).where(GAMES.c.id == game_id)
                    )
                    entry = await queue_entry(connection, game_id, version, publication)
                await self._announce(connection, [game_id])
        kept = self._games.get(game_id)
        if kept is not None:
            kept.seats[turns.seat].missed_turns = turns.missed_turns
            kept.seats[turns.seat].takeover = turns.takeover
            kept.seats[turns.seat].departed = kept.seats[turns.seat].departed and turns.takeover
            if deadline is not None:
                kept.row.turn_deadline = deadline
        return entry

    async def claim_reminder(
        self, game_id: int, version: int, publication: Publication
    ) -> Entry | None:
        """Claim the reminder of the turn at ``version`` once, whichever process or restart
        asks first, with the reminder's outbox entry in the same transaction: the entry if
        this caller claimed it, else ``None``. A crash after the claim cannot lose the
        reminder; the next start delivers it."""
        entry = None
        with self._writing(game_id):
            async with self._write_connection() as connection:
                result = await connection.execute(
                    GAMES.update()
                    .where(
                        GAMES.c.id == game_id,
                        GAMES.c.version == version,
                        GAMES.c.status == GameStatus.ACTIVE.value,
                        (GAMES.c.reminded_version.is_(None))
                        | (GAMES.c.reminded_version != version),
                    )
                    .values(reminded_version=version)
                )
                if result.rowcount == 1:
                    entry = await queue_entry(connection, game_id, version, publication)
                    await self._announce(connection, [game_id])
        kept = self._games.get(game_id)
        if entry is not None and kept is not None:
            kept.row.reminded_version = version
        return entry

    async def count_hint(self, game_id: int, seat: int) -> int:
        """One more hint used by ``seat``; the new count."""
        with self._writing(game_id):
            async with self._write_connection() as connection:
                await connection.execute(
                    SEATS.update()
                    .where(SEATS.c.game_id == game_id, SEATS.c.seat == seat)
                    .values(hints_used=SEATS.c.hints_used + 1)
                )
                used = await connection.scalar(
                    select(SEATS.c.hints_used).where(
                        SEATS.c.game_id == game_id, SEATS.c.seat == seat
                    )
                )
                await self._announce(connection, [game_id])
        kept = self._games.get(game_id)
        if kept is not None and seat < len(kept.seats):
            kept.seats[seat].hints_used = int(used or 0)
        return int(used or 0)
