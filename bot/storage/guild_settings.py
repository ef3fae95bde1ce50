"""Servers' settings: their language (``/settings language``) and yes/no settings (hints,
replays showing hands, pictures).

Not kept in memory here: the pictures and the replays keep the settings they read themselves
(``settings_cache``); the store only reads and writes them. A server's new language moves its
open games' public messages in the same transaction, with a redraw of each in the outbox.
"""

from __future__ import annotations

from sqlalchemy import update
from sqlmodel import col, select

from bot.outbox.entries import REDRAW, Entry, Publication
from bot.storage.base import StoreBase
from bot.storage.models import OPEN_STATUSES, GameRow, GuildSettingsRow, utcnow
from bot.storage.outbox import queue_entry


class GuildSettings(StoreBase):
    """Per-server settings, and the redraw a language change needs."""

    async def guild_language(self, guild_id: int) -> str | None:
        """The language ``/settings language`` chose for ``guild_id`` (``None``: Discord's)."""
        async with self.session() as session:
            settings = await session.get(GuildSettingsRow, guild_id)
            return settings.language if settings is not None else None

    async def set_guild_language(
        self, guild_id: int, language: str | None, public_locale: str
    ) -> list[Entry]:
        """Save the server's language and move its open games' public messages to
        ``public_locale`` in the same transaction, with a redraw of each in the outbox."""
        async with self._write_session() as session:
            await session.exec(
                self._upsert(
                    GuildSettingsRow,
                    "guild_id",
                    guild_id=guild_id,
                    language=language,
                    updated_at=utcnow(),
                )
            )
            open_games = (
                await session.exec(
                    select(GameRow.id, GameRow.version).where(
                        GameRow.guild_id == guild_id, col(GameRow.status).in_(OPEN_STATUSES)
                    )
                )
            ).all()
            await session.exec(
                update(GameRow)
                .where(col(GameRow.id).in_([game_id for game_id, _ in open_games]))
                .values(locale=public_locale)
            )
            connection = await session.connection()
            entries = [
                await queue_entry(connection, int(game_id), version, Publication(REDRAW))
                for game_id, version in open_games
            ]
            await self._announce(connection, [int(game_id) for game_id, _ in open_games])
        for entry in entries:
            self._forget(entry.game_id)
        return entries

    async def hints_allowed(self, guild_id: int) -> bool:
        return await self._guild_switch(guild_id, "hints")

    async def set_hints_allowed(self, guild_id: int, allowed: bool) -> None:
        await self._set_guild_setting(guild_id, hints=allowed)

    async def replay_hands(self, guild_id: int) -> bool:
        """Whether replays of the server's ended games show every hand (``/settings replays``)."""
        return await self._guild_switch(guild_id, "replay_hands")

    async def set_replay_hands(self, guild_id: int, shown: bool) -> None:
        await self._set_guild_setting(guild_id, replay_hands=shown)

    async def images_shown(self, guild_id: int) -> bool:
        """Whether the server's games show pictures (``/settings images``; default on)."""
        return await self._guild_switch(guild_id, "images")

    async def set_images_shown(self, guild_id: int, shown: bool) -> None:
        await self._set_guild_setting(guild_id, images=shown)

    async def _guild_switch(self, guild_id: int, name: str) -> bool:
        """A yes/no setting of the server; every one of them is on until a server turns it off."""
        async with self.session() as session:
            row = await session.get(GuildSettingsRow, guild_id)
            return row is None or bool(getattr(row, name))

    async def _set_guild_setting(self, guild_id: int, **setting: bool) -> None:
        async with self._write_session() as session:
            await session.exec(
                self._upsert(
                    GuildSettingsRow,
                    "guild_id",
                    guild_id=guild_id,
                    **setting,
                    updated_at=utcnow(),
                )
            )
