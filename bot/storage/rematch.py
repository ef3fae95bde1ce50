"""Storing rematch lobbies (``bot/flows/rematch.py``).

A rematch is a lobby like any other (it expires, starts and is cancelled the same way), made
from an ended game: the same game and options, the same turn time and the same seats in the
same order (a Kami partnership stays one), AI seats kept. The humans of the last game hold
their seats unconfirmed (``SeatRow.confirmed``) until they confirm with one click; the player
who opened it is confirmed at once. ``games.rematch_of`` names the game it came from, so a
Rematch click on that game's message finds it again.

Each change is one transaction: the lobby and its seats at once (a channel holds one open game:
a second rematch opened at the same moment fails as ``ChannelBusy``), and a seat taken or
confirmed with the bump of the lobby's version and the outbox entry that shows the lobby again.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select

from bot.outbox.entries import Entry, Publication
from bot.storage.errors import ChannelBusy
from bot.storage.lobbies import Lobbies
from bot.storage.models import GameRow, SeatRow
from bot.storage.outbox import queue_entry


class Taken(enum.Enum):
    """What a Rematch click did to the lobby's seats."""

    CONFIRMED = "confirmed"
    """A player of the last game confirmed the seat kept for them."""
    JOINED = "joined"
    """Someone else took a free seat."""
    ALREADY = "already"
    """The clicker holds a confirmed seat already (a double click): nothing changed."""
    FULL = "full"
    """No seat is free (the rest are kept for the last game's players): nothing changed."""


class _Nothing(Exception):
    def __init__(self, taken: Taken) -> None:
        super().__init__(taken.value)
        self.taken = taken


class Rematches(Lobbies):
    """The store's part that opens rematch lobbies and fills their seats."""

    async def open_rematch(
        self,
        old: GameRow,
        seats: Sequence[SeatRow],
        *,
        host_id: int,
        host_name: str,
        host_locale: str,
        capacity: int,
        expires_at: datetime,
    ) -> GameRow | None:
        """The rematch lobby of ``old`` (its ``seats`` in order), opened by ``host_id``, who
        confirms at once (and takes a free seat if they were not at the table); ``None`` if they
        were not and no seat is free. ``ChannelBusy`` if the channel has an open game."""
        assert old.id is not None
        rows = [
            SeatRow(
                seat=seat.seat,
                game_id=0,
                user_id=seat.user_id,
                display_name=host_name if seat.user_id == host_id else seat.display_name,
                locale=host_locale if seat.user_id == host_id else seat.locale,
                ai_level=seat.ai_level,
                confirmed=seat.ai_level is not None or seat.user_id == host_id,
            )
            for seat in sorted(seats, key=lambda row: row.seat)
        ]
        if all(row.user_id != host_id for row in rows):
            if len(rows) >= capacity:
                return None
            rows.append(
                SeatRow(
                    seat=len(rows),
                    game_id=0,
                    user_id=host_id,
                    display_name=host_name,
                    locale=host_locale,
                )
            )
        game = GameRow(
            guild_id=old.guild_id,
            channel_id=old.channel_id,
            host_id=host_id,
            game_key=old.game_key,
            options=dict(old.options),
            locale=old.locale,
            expires_at=expires_at,
            turn_seconds=old.turn_seconds,
            rematch_of=old.id,
        )
        try:
            async with self._write_session() as session:
                session.add(game)
                await session.flush()
                assert game.id is not None
                for row in rows:
                    row.game_id = game.id
                    session.add(row)
        except IntegrityError as error:
            raise ChannelBusy(str(error)) from error
        return game

    async def take_rematch_seat(
        self,
        lobby_id: int,
        user_id: int,
        name: str,
        locale: str,
        *,
        capacity: int,
        publication: Publication | None,
    ) -> tuple[Taken, Entry | None]:
        """A Rematch (or Join) click on the rematch lobby: confirm the seat kept for ``user_id``,
        or take a free one, with the lobby's version bumped and ``publication`` queued (the lobby
        shown again); what happened and the entry. ``StorageConflict`` if it is no longer a lobby.
        Nothing changes for a seat already confirmed (a double click) or a full lobby."""
        try:
            async with self._write_session() as session:
                await self._lock_lobby(session, lobby_id)
                query = (
                    select(SeatRow).where(SeatRow.game_id == lobby_id).order_by(col(SeatRow.seat))
                )
                seats = list((await session.exec(query)).all())
                mine = next((row for row in seats if row.user_id == user_id), None)
                if mine is not None and mine.confirmed:
                    raise _Nothing(Taken.ALREADY)
                if mine is not None:
                    await session.exec(
                        update(SeatRow)
                        .where(col(SeatRow.game_id) == lobby_id, col(SeatRow.user_id) == user_id)
                        .values(confirmed=True, display_name=name, locale=locale)
                    )
                    taken = Taken.CONFIRMED
                elif len(seats) >= capacity:
                    raise _Nothing(Taken.FULL)
                else:
                    session.add(
                        SeatRow(
                            game_id=lobby_id,
                            seat=len(seats),
                            user_id=user_id,
                            display_name=name,
                            locale=locale,
                        )
                    )
                    taken = Taken.JOINED
                entry = None
                if publication is not None:
                    version = (await session.get(GameRow, lobby_id)).version  # type: ignore[union-attr]
                    connection = await session.connection()
                    entry = await queue_entry(connection, lobby_id, version, publication)
        except _Nothing as nothing:
            return nothing.taken, None
        return taken, entry


def unconfirmed(seats: Sequence[SeatRow]) -> list[SeatRow]:
    """The seats kept for players of the last game who have not confirmed (yet)."""
    return [row for row in seats if not row.confirmed]
