"""Games and their seats as every click reads them, and the ids of the messages showing them.

Why: every click asks for its game and seats (``game_with_seats``), so a running game comes
from memory (``cache``); lobbies and ended games are read from the database. The message ids
written here are not moves (no version bump) and keep the kept copy in step.
"""

from __future__ import annotations

from sqlmodel import col, select

from bot.storage.base import StoreBase
from bot.storage.batch import HandWrite
from bot.storage.cache import KeptGame
from bot.storage.models import OPEN_STATUSES, GameRow, GameStatus, SeatRow
from bot.storage.tables import GAMES


class Games(StoreBase):
    """Reading games and seats; remembering their messages' ids."""

    async def game(self, game_id: int) -> GameRow | None:
        async with self.session() as session:
            return await session.get(GameRow, game_id)

    async def open_game_in_channel(self, channel_id: int) -> GameRow | None:
        async with self.session() as session:
            query = select(GameRow).where(
                GameRow.channel_id == channel_id, col(GameRow.status).in_(OPEN_STATUSES)
            )
            return (await session.exec(query)).first()

    async def latest_game_in_channel(self, channel_id: int) -> GameRow | None:
        """The open game of the channel, else its most recently started one."""
        async with self.session() as session:
            query = (
                select(GameRow)
                .where(GameRow.channel_id == channel_id, col(GameRow.state).is_not(None))
                .order_by(col(GameRow.id).desc())
            )
            return (await session.exec(query)).first()

    async def open_games(self, status: GameStatus | None = None) -> list[GameRow]:
        statuses = (status,) if status else OPEN_STATUSES
        async with self.session() as session:
            query = select(GameRow).where(col(GameRow.status).in_(statuses))
            return list((await session.exec(query)).all())

    async def game_with_seats(
        self, game_id: int, *, at_least: int | None = None
    ) -> tuple[GameRow, list[SeatRow]] | None:
        """A game and its seats: from memory while it is being played (every click asks).

        ``at_least``: a version the caller knows the game has reached (a click's control, an
        outbox entry): memory that is behind it missed another process's write and is read
        again.
        """
        kept = self._games.get(game_id)
        if kept is not None:
            if at_least is None or kept.row.version >= at_least:
                return kept.row, list(kept.seats)
            self._forget(game_id)
        mark = self._writes
        async with self.session() as session:
            game = await session.get(GameRow, game_id)
            if game is None:
                return None
            query = select(SeatRow).where(SeatRow.game_id == game_id).order_by(col(SeatRow.seat))
            seats = list((await session.exec(query)).all())
        if (
            game.status == GameStatus.ACTIVE
            and self._caching
            and self._unchanged_since(game_id, mark)
        ):
            self._games.put(game_id, KeptGame(game, list(seats)))
        return game, seats

    async def current_version(self, game_id: int) -> int | None:
        """The game's version as last written (``None``: no such game)."""
        kept = self._games.get(game_id)
        if kept is not None:
            return kept.row.version
        async with self.session() as session:
            return await session.scalar(select(GameRow.version).where(GameRow.id == game_id))

    async def current_seat(self, game_id: int, seat: int) -> SeatRow | None:
        """Seat ``seat`` as last written (a courier's snapshot may hold an older row)."""
        kept = self._games.get(game_id)
        if kept is not None:
            return kept.seats[seat] if seat < len(kept.seats) else None
        async with self.session() as session:
            query = select(SeatRow).where(SeatRow.game_id == game_id, SeatRow.seat == seat)
            return (await session.exec(query)).first()

    async def seats(self, game_id: int) -> list[SeatRow]:
        async with self.session() as session:
            query = select(SeatRow).where(SeatRow.game_id == game_id).order_by(col(SeatRow.seat))
            return list((await session.exec(query)).all())

    async def set_message(self, game_id: int, **message_ids: int | None) -> None:
        """Remember ``lobby_message_id`` / ``table_message_id`` (not a move: no version bump)."""
        with self._writing(game_id):
            async with self._write_connection() as connection:
                await connection.execute(
                    GAMES.update().where(GAMES.c.id == game_id).values(**message_ids)
                )
                await self._announce(connection, [game_id])
        kept = self._games.get(game_id)
        if kept is not None:
            for name, value in message_ids.items():
                setattr(kept.row, name, value)

    async def set_hand_message(
        self,
        game_id: int,
        seat: int,
        channel_id: int | None,
        message_id: int | None,
        version: int | None = None,
        *,
        stale: int | None = None,
    ) -> None:
        """Remember seat's hand DM, the game ``version`` it shows, and the DM it replaced
        (``stale``) until that one is deleted."""
        with self._writing(game_id):
            await self._group.submit(
                HandWrite(
                    {
                        "game": game_id,
                        "seat_number": seat,
                        "channel": channel_id,
                        "message": message_id,
                        "shown_version": version,
                        "stale": stale,
                    }
                )
            )
        kept = self._games.get(game_id)
        if kept is not None:
            row = kept.seats[seat]
            row.hand_channel_id, row.hand_message_id = channel_id, message_id
            row.hand_version, row.stale_hand_message_id = version, stale

    async def stale_hand_deleted(self, game_id: int, seat: int, message_id: int) -> None:
        """The replaced hand DM ``message_id`` is deleted: it is forgotten (written with the
        next batch), so no later delivery, process or restart deletes it once more."""
        kept = self._games.get(game_id)
        if kept is not None and kept.seats[seat].stale_hand_message_id == message_id:
            kept.seats[seat].stale_hand_message_id = None
        with self._writing(game_id):
            await self._group.submit(
                HandWrite({"game": game_id, "seat_number": seat, "deleted": message_id})
            )
