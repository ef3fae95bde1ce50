"""Storing a seat handed to the AI by its player (``/leave``; ``bot/flows/seat_handover.py``).

One transaction, like every change the players see: the seat is marked as the AI's
(``takeover``) and as left (``departed``), the turn's deadline goes if the seat is on turn (an
AI's turn has none), and the outbox entry that shows the table and the seat's hand is written.
The kept copy of the game follows the write (``StoreBase._writing``), as for a taken-back seat.
A part of the ``Store`` (a mixin, like every other module here), so it writes through the
store's own transaction helpers.
"""

from __future__ import annotations

from sqlalchemy import select

from bot.outbox.entries import Entry, Publication
from bot.storage.base import StoreBase
from bot.storage.models import GameStatus
from bot.storage.outbox import queue_entry
from bot.storage.tables import GAMES as _GAMES
from bot.storage.tables import SEATS as _SEATS


class SeatHandover(StoreBase):
    """The store's part that hands a seat to the AI."""

    async def hand_seat_to_ai(
        self,
        game_id: int,
        seat: int,
        *,
        publication: Publication,
        on_turn: bool,
    ) -> Entry | None:
        """The AI plays ``seat`` from now on for its player, who left; the entry to deliver, or
        ``None`` if nothing changed (the game is no longer running, the seat is an AI's or its
        player left already). ``on_turn``: the seat is on turn (its deadline goes)."""
        entry = None
        with self._writing(game_id):
            async with self._write_connection() as connection:
                running = _GAMES.update().where(
                    _GAMES.c.id == game_id, _GAMES.c.status == GameStatus.ACTIVE.value
                )
                if on_turn:
                    running = running.values(turn_deadline=None)
                else:
                    running = running.values(status=_GAMES.c.status)
                if (await connection.execute(running)).rowcount != 1:
                    return None
                handed = await connection.execute(
                    _SEATS.update()
                    .where(
                        _SEATS.c.game_id == game_id,
                        _SEATS.c.seat == seat,
                        _SEATS.c.ai_level.is_(None),
                        _SEATS.c.departed.is_(False),
                    )
                    .values(takeover=True, departed=True, missed_turns=0)
                )
                if handed.rowcount != 1:
                    return None
                version = await connection.scalar(
                    select(_GAMES.c.version).where(_GAMES.c.id == game_id)
                )
                entry = await queue_entry(connection, game_id, int(version), publication)
                await self._announce(connection, [game_id])
        kept = self._games.get(game_id)
        if kept is not None:
            row = kept.seats[seat]
            row.takeover, row.departed, row.missed_turns = True, True, 0
            if on_turn:
                kept.row.turn_deadline = None
        return entry
