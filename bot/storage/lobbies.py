"""Lobbies: created, joined, left, their options and turn clock set before the game starts.

Why together: every lobby change goes through ``_lock_lobby``, which bumps the lobby's version
while holding its row, so simultaneous joins are counted one after the other and Start
(``playing``) compares the version to start with exactly the seats and options it read.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.storage.base import StoreBase
from bot.storage.errors import ChannelBusy, LobbyFull, StorageConflict
from bot.storage.models import GameRow, GameStatus, SeatRow, utcnow


class _Unchanged(Exception):
    """Inside a write transaction: nothing needs writing (the transaction rolls back)."""

    def __init__(self, seat: SeatRow | None) -> None:
        super().__init__()
        self.seat = seat


class Lobbies(StoreBase):
    """Games before they start: their seats, options and turn clock."""

    async def create_lobby(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        host_locale: str,
        game_key: str,
        options: dict[str, Any],
        locale: str,
        expires_at: datetime,
    ) -> GameRow:
        """A new lobby with the host in seat 0; ``ChannelBusy`` if the channel has a game."""
        game = GameRow(
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            game_key=game_key,
            options=options,
            locale=locale,
            expires_at=expires_at,
        )
        try:
            async with self._write_session() as session:
                session.add(game)
                await session.flush()
                assert game.id is not None
                session.add(
                    SeatRow(
                        game_id=game.id,
                        seat=0,
                        user_id=host_id,
                        display_name=host_name,
                        locale=host_locale,
                    )
                )
        except IntegrityError as error:
            raise ChannelBusy(str(error)) from error
        return game

    async def join(
        self,
        game_id: int,
        user_id: int,
        name: str,
        locale: str,
        *,
        capacity: int,
        ai_level: str | None = None,
    ) -> tuple[SeatRow, bool]:
        """Take the next free seat of a lobby: the seat, and whether it is new.

        Idempotent: a user already seated keeps their seat (a double click seats nobody twice).
        ``LobbyFull`` when all ``capacity`` seats are taken, ``StorageConflict`` if the game is
        no longer a lobby. The check and the insert happen while the lobby row is locked, so
        simultaneous joins are counted one after the other.
        """
        try:
            async with self._write_session() as session:
                await self._lock_lobby(session, game_id)
                seats = await self._lobby_seats(session, game_id)
                for seat in seats:
                    if seat.user_id == user_id:
                        raise _Unchanged(seat)  # rolls back: the version stays
                if len(seats) >= capacity:
                    raise LobbyFull(f"game {game_id} has {len(seats)} of {capacity} seats taken")
                seat = SeatRow(
                    game_id=game_id,
                    seat=len(seats),
                    user_id=user_id,
                    display_name=name,
                    locale=locale,
                    ai_level=ai_level,
                )
                session.add(seat)
        except _Unchanged as unchanged:
            return unchanged.seat, False
        return seat, True

    @staticmethod
    async def _lobby_seats(session: AsyncSession, game_id: int) -> list[SeatRow]:
        query = select(SeatRow).where(SeatRow.game_id == game_id).order_by(col(SeatRow.seat))
        return list((await session.exec(query)).all())

    async def leave_lobby(self, game_id: int, user_id: int) -> bool:
        """Give up a lobby seat; later seats move up so seat numbers stay contiguous.

        False (and nothing changes) if the user holds no seat.
        """
        try:
            await self._leave_lobby(game_id, user_id)
        except _Unchanged:
            return False
        return True

    async def _leave_lobby(self, game_id: int, user_id: int) -> None:
        async with self._write_session() as session:
            await self._lock_lobby(session, game_id)
            seats = await self._lobby_seats(session, game_id)
            remaining = [s for s in seats if s.user_id != user_id]
            if len(remaining) == len(seats):
                raise _Unchanged(None)
            for seat in seats:
                await session.delete(seat)
            await session.flush()
            for number, seat in enumerate(remaining):
                session.add(
                    SeatRow(
                        game_id=game_id,
                        seat=number,
                        user_id=seat.user_id,
                        display_name=seat.display_name,
                        locale=seat.locale,
                        ai_level=seat.ai_level,
                        confirmed=seat.confirmed,
                        joined_at=seat.joined_at,
                    )
                )

    async def set_options(
        self, game_id: int, options: dict[str, Any], *, expected_version: int | None = None
    ) -> None:
        """Change a lobby's options; with ``expected_version``, only if nothing else changed
        it since it was read (``StorageConflict`` otherwise)."""
        async with self._write_session() as session:
            await self._lock_lobby(session, game_id, expected_version, options=options)

    async def set_turn_clock(
        self, game_id: int, seconds: int | None, *, expected_version: int
    ) -> None:
        """A lobby's turn clock (``None``: off), if nothing else changed it since it was read."""
        async with self._write_session() as session:
            await self._lock_lobby(session, game_id, expected_version, turn_seconds=seconds)

    async def _lock_lobby(
        self,
        session: AsyncSession,
        game_id: int,
        expected_version: int | None = None,
        **values: Any,
    ) -> None:
        """Start a lobby change: bump the lobby's version and check that it is still a lobby
        (at ``expected_version`` when given); ``StorageConflict`` otherwise.

        The update comes first so that the transaction holds the lobby's row (PostgreSQL) or
        the database (SQLite) from then on: a concurrent change waits, then sees this one.
        Start compares the version, so a game always starts with the seats and options it read.
        """
        self._forget(game_id)
        conditions = [GameRow.id == game_id, GameRow.status == GameStatus.LOBBY]
        if expected_version is not None:
            conditions.append(GameRow.version == expected_version)
        result = await session.exec(
            update(GameRow)
            .where(*conditions)
            .values(version=GameRow.version + 1, updated_at=utcnow(), **values)
        )
        if result.rowcount != 1:
            raise StorageConflict(f"game {game_id} is no longer this lobby")
