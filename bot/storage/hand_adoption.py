"""A hand DM the store did not know, taken as the seat's hand by a click on it.

Why a module of its own: the write is conditional, and the condition is what keeps every
replaced DM deleted exactly once. A click in a DM that the seat's record does not name is
either a DM Discord made for a process that died before recording it (newer than the recorded
hand: it is the hand now, and the recorded one is to be deleted), or a DM the courier replaced
and deleted (and forgot) while the click's answer was on its way (older than the recorded
hand). Taking the second kind for the hand made the courier delete the newer hand and then
the old DM a second time (a 404 each; the complete-game test's double deletions under load).

Discord's ids grow with time, and every DM the courier records is newer than the hand it
replaces, so a seat's hand only ever moves to a newer DM: the click's DM becomes the hand only
if it is newer than the stored one, checked in the same statement that writes it (another
click, the courier or another process may have recorded a newer DM meanwhile).
"""

from __future__ import annotations

from sqlalchemy import or_, select

from bot.storage.base import StoreBase
from bot.storage.tables import SEATS as _SEATS


class HandAdoption(StoreBase):
    """The store's part that adopts a clicked hand DM."""

    async def adopt_clicked_hand(
        self,
        game_id: int,
        seat: int,
        channel_id: int | None,
        message_id: int,
        version: int,
    ) -> bool:
        """Make ``message_id`` seat's hand DM (shown at ``version``) if it is newer than the stored
        hand, the stored one becoming the DM to delete; whether it did."""
        where = (_SEATS.c.game_id == game_id, _SEATS.c.seat == seat)
        with self._writing(game_id):
            async with self._write_connection() as connection:
                adopted = await connection.execute(
                    _SEATS.update()
                    .where(
                        *where,
                        or_(
                            _SEATS.c.hand_message_id.is_(None),
                            _SEATS.c.hand_message_id < message_id,
                        ),
                    )
                    .values(
                        hand_channel_id=channel_id,
                        hand_message_id=message_id,
                        hand_version=version,
                        stale_hand_message_id=_SEATS.c.hand_message_id,
                    )
                )
                if adopted.rowcount != 1:
                    return False
                stale = await connection.scalar(
                    select(_SEATS.c.stale_hand_message_id).where(*where)
                )
                await self._announce(connection, [game_id])
        kept = self._games.get(game_id)
        if kept is not None and seat < len(kept.seats):
            row = kept.seats[seat]
            row.hand_channel_id, row.hand_message_id = channel_id, message_id
            row.hand_version, row.stale_hand_message_id = version, stale
        return True
