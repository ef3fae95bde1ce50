"""Users: what the bot remembers of a player between games (language, DM channel, closed
DMs, whether their hands carry a picture).

Why kept in memory (``cache``): every hand DM needs its reader's language and whether their
DMs are closed; the store reads unknown users in one query and writes only what changed. A
write of a user is announced to other processes (``changes``) like a game's.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.storage.base import StoreBase
from bot.storage.cache import KnownUser
from bot.storage.models import UserRow, utcnow

DMS_CLOSED_MEMORY = timedelta(hours=12)
"""How long a closed-DM answer (403, code 50007) is trusted before a DM is tried again."""


def _aware(when: datetime | None) -> datetime | None:
    """SQLite returns naive datetimes (stored as UTC); PostgreSQL aware ones."""
    if when is not None and when.tzinfo is None:
        return when.replace(tzinfo=UTC)
    return when


class Users(StoreBase):
    """What is known of users, read in bulk and kept; written only when it changes."""

    async def _known_users(self, user_ids: Sequence[int]) -> dict[int, KnownUser]:
        """What is known of ``user_ids``; those not in memory are read in one query."""
        known: dict[int, KnownUser] = {}
        missing = []
        for user_id in user_ids:
            user = self._users.get(user_id)
            if user is None:
                missing.append(user_id)
            else:
                known[user_id] = user
        if not missing:
            return known
        mark = self._user_writes
        async with self.session() as session:
            query = select(UserRow).where(col(UserRow.user_id).in_(missing))
            rows = {row.user_id: row for row in (await session.exec(query)).all()}
        keep = self._caching and self._user_writes == mark  # no write overtook the read
        for user_id in missing:
            row = rows.get(user_id)
            user = KnownUser(
                locale=row.locale if row else None,
                dms_closed_at=_aware(row.dms_closed_at) if row else None,
                dm_channel_id=row.dm_channel_id if row else None,
                hand_images=row.hand_images if row else None,
            )
            if keep:
                self._users.put(user_id, user)
            known[user_id] = user
        return known

    async def dms_closed(self, user_id: int) -> bool:
        return user_id in await self.users_with_closed_dms([user_id])

    async def users_with_closed_dms(self, user_ids: Sequence[int]) -> set[int]:
        """Those of ``user_ids`` whose DMs were found closed recently."""
        since = utcnow() - DMS_CLOSED_MEMORY
        known = await self._known_users(user_ids)
        return {
            user_id
            for user_id, user in known.items()
            if user.dms_closed_at is not None and user.dms_closed_at > since
        }

    async def set_dms_closed(self, user_id: int, closed: bool) -> None:
        closed_at = utcnow() if closed else None
        await self._known_users([user_id])
        async with self._writing_user(user_id) as session:
            await session.exec(
                self._upsert(UserRow, "user_id", user_id=user_id, dms_closed_at=closed_at)
            )
        self._user(user_id).dms_closed_at = closed_at

    async def remember_locale(self, user_id: int, locale: str) -> None:
        """Store the language of ``user_id``'s latest interaction (for DMs sent later).

        Writes only when it differs from what is known: most clicks change nothing.
        """
        known = await self._known_users([user_id])
        if known[user_id].locale == locale:
            return
        async with self._writing_user(user_id) as session:
            await session.exec(self._upsert(UserRow, "user_id", user_id=user_id, locale=locale))
        self._user(user_id).locale = locale

    async def remembered_locales(self, user_ids: Sequence[int]) -> dict[int, str]:
        """The remembered language of those of ``user_ids`` who have one."""
        known = await self._known_users(user_ids)
        return {user_id: user.locale for user_id, user in known.items() if user.locale}

    async def dm_channel(self, user_id: int) -> int | None:
        """The id of the bot's DM channel with ``user_id``, if it is known."""
        known = await self._known_users([user_id])
        return known[user_id].dm_channel_id

    async def remember_dm_channel(self, user_id: int, channel_id: int | None) -> None:
        """Store the id of the bot's DM channel with ``user_id`` (``None`` forgets it).

        Writes only when it differs from what is known: every hand DM tells it again.
        """
        known = await self._known_users([user_id])
        if known[user_id].dm_channel_id == channel_id:
            return
        async with self._writing_user(user_id) as session:
            await session.exec(
                self._upsert(UserRow, "user_id", user_id=user_id, dm_channel_id=channel_id)
            )
        self._user(user_id).dm_channel_id = channel_id

    async def forget_dm_channel(self, user_id: int, channel_id: int) -> None:
        """Forget ``channel_id`` as ``user_id``'s DM channel (Discord does not know it), unless
        another one is stored by now."""
        known = await self._known_users([user_id])
        if known[user_id].dm_channel_id == channel_id:
            await self.remember_dm_channel(user_id, None)

    async def hand_images(self, user_id: int) -> bool:
        """Whether the user's hands carry a picture (``/pictures``; default on)."""
        known = await self._known_users([user_id])
        return known[user_id].hand_images is not False

    def known_hand_images(self, user_id: int) -> bool | None:
        """``hand_images`` from memory alone; ``None`` if the user is not in memory (for what
        must not wait for the database, such as a move's answer before its commit)."""
        user = self._users.get(user_id) if self._caching else None
        return None if user is None else user.hand_images is not False

    async def set_hand_images(self, user_id: int, shown: bool) -> None:
        await self._known_users([user_id])
        async with self._writing_user(user_id) as session:
            await session.exec(self._upsert(UserRow, "user_id", user_id=user_id, hand_images=shown))
        self._user(user_id).hand_images = shown

    @asynccontextmanager
    async def _writing_user(self, user_id: int) -> AsyncIterator[AsyncSession]:
        """A write transaction of a user's row, announced to other processes; a read that it
        overlaps is not kept (it may have seen the row before the write)."""
        self._user_writes += 1
        try:
            async with self._write_session() as session:
                yield session
                await self._announce(await session.connection(), users=[user_id])
        except BaseException:
            self._users.pop(user_id)
            raise
        finally:
            self._user_writes += 1

    def _user(self, user_id: int) -> KnownUser:
        """The memory of a user just written (a stand-in when it is not kept: the written
        field is then read from the database next time, with the others)."""
        return self._users.get(user_id) or KnownUser()
