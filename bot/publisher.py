"""Discord output after the database has committed: lobby, table and hand messages, DMs.

Why separate: the move pipeline commits first and only then calls this; a failure here is
logged with the game id and never undoes a move, because the next refresh (or ``/table``,
``/hand``) shows the stored state again.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import discord

from bot.controls import lobby_view, menu_view, table_view
from bot.i18n import t
from bot.render import presenter_for
from bot.render.common import hand_embed, lobby_embed, private_log_lines, safe_names, table_embed
from bot.session import LoadedGame
from games import Event

if TYPE_CHECKING:
    from bot.app import GloryBot

log = logging.getLogger(__name__)

CANNOT_DM = 50007
THREAD_ARCHIVED = 50083
"""Discord refuses edits in an archived thread; a new message there unarchives it."""
RECENT_MOVES = 6
PRIVATE_MOVES = 2


class Publisher:
    def __init__(self, bot: GloryBot) -> None:
        self.bot = bot

    # ---------------------------------------------------------------- content

    def lobby_content(self, loaded: LoadedGame, focus: int = 0) -> dict:
        presenter = presenter_for(loaded.row.game_key)
        locale = loaded.row.locale
        return {
            "embed": lobby_embed(loaded, presenter, locale),
            "view": lobby_view(loaded, presenter, locale, focus),
        }

    async def recent_events(self, loaded: LoadedGame) -> list[list[Event]]:
        """The events of the last few moves, oldest first (for log lines)."""
        moves = await self.bot.store.recent_moves(loaded.id, RECENT_MOVES)
        return [move.events for move in moves]

    def table_content(self, loaded: LoadedGame, recent: Sequence[Sequence[Event]]) -> dict:
        presenter = presenter_for(loaded.row.game_key)
        locale = loaded.row.locale
        return {
            "embed": table_embed(loaded, presenter, recent, locale),
            "view": table_view(loaded, locale),
        }

    def hand_content(
        self,
        loaded: LoadedGame,
        seat: int,
        locale: str,
        recent: Sequence[Sequence[Event]],
        *,
        notice: str | None = None,
        full: bool = True,
    ) -> dict:
        """A seat's hand message; ``recent`` adds what only they saw in the last two moves.

        DMs use ``full=False``: while the player waits it shows only what is theirs.
        """
        presenter = presenter_for(loaded.row.game_key)
        private = private_log_lines(
            presenter, recent[-PRIVATE_MOVES:], seat, safe_names(loaded.names), locale
        )
        return {
            "embed": hand_embed(
                loaded, presenter, seat, locale, private_log=private, notice=notice, full=full
            ),
            "view": menu_view(loaded, presenter, seat, locale),
        }

    # ---------------------------------------------------------------- channel

    def _channel(self, loaded: LoadedGame) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(loaded.row.channel_id, guild_id=loaded.row.guild_id)

    async def refresh_lobby(self, loaded: LoadedGame) -> None:
        message_id = loaded.row.lobby_message_id
        if message_id is None:
            return
        try:
            await (
                self._channel(loaded)
                .get_partial_message(message_id)
                .edit(**self.lobby_content(loaded))
            )
        except discord.HTTPException as error:
            if error.code != THREAD_ARCHIVED:
                log.exception("game %s: could not update the lobby message", loaded.id)
                return
            try:  # post the lobby anew, which unarchives the thread
                message = await self._channel(loaded).send(**self.lobby_content(loaded))
            except discord.HTTPException:
                log.exception("game %s: could not post the lobby again", loaded.id)
                return
            await self.bot.store.set_message(loaded.id, lobby_message_id=message.id)
            loaded.row.lobby_message_id = message.id

    async def post_table(
        self, loaded: LoadedGame, recent: Sequence[Sequence[Event]] | None = None
    ) -> None:
        """Post the table at the bottom of the channel and retire the previous one."""
        old = loaded.row.table_message_id
        if recent is None:
            recent = await self.recent_events(loaded)
        try:
            message = await self._channel(loaded).send(**self.table_content(loaded, recent))
        except discord.HTTPException:
            log.exception("game %s: could not post the table", loaded.id)
            return
        await self.bot.store.set_message(loaded.id, table_message_id=message.id)
        loaded.row.table_message_id = message.id
        if old is not None:
            try:
                await (
                    self._channel(loaded)
                    .get_partial_message(old)
                    .edit(
                        content=t("table.moved", loaded.row.locale, link=message.jump_url),
                        embed=None,
                        view=None,
                    )
                )
            except discord.HTTPException:
                log.info("game %s: the old table message %s is gone", loaded.id, old)

    async def refresh_table(
        self, loaded: LoadedGame, recent: Sequence[Sequence[Event]] | None = None
    ) -> None:
        if recent is None:
            recent = await self.recent_events(loaded)
        message_id = loaded.row.table_message_id
        if message_id is None:
            await self.post_table(loaded, recent)
            return
        try:
            await (
                self._channel(loaded)
                .get_partial_message(message_id)
                .edit(**self.table_content(loaded, recent))
            )
        except discord.NotFound:
            await self.post_table(loaded, recent)
        except discord.HTTPException as error:
            if error.code != THREAD_ARCHIVED:
                log.exception("game %s: could not update the table", loaded.id)
                return
            await self.post_table(loaded, recent)  # a new message unarchives the thread

    async def announce(self, loaded: LoadedGame, key: str, **params: object) -> None:
        try:
            await self._channel(loaded).send(t(key, loaded.row.locale, **params))
        except discord.HTTPException:
            log.exception("game %s: could not post %s", loaded.id, key)

    # ---------------------------------------------------------------- hands

    async def deliver_hands(
        self,
        loaded: LoadedGame,
        seats: Iterable[int],
        *,
        fresh: Iterable[int] = (),
        skip_message: int | None = None,
        recent: Sequence[Sequence[Event]] | None = None,
        game_start: bool = False,
    ) -> None:
        """Send or refresh the DM hand of ``seats``; ``fresh`` ones get a new message (a ping).

        Players whose DMs are closed are told once per game, in the channel, to use My hand:
        when a DM fails, or at the start for those already known to have closed DMs.
        """
        fresh = set(fresh)
        seats = [
            seat
            for seat in seats
            if skip_message is None or loaded.seats[seat].hand_message_id != skip_message
        ]
        if not seats:
            return
        if recent is None:
            recent = await self.recent_events(loaded)
        user_ids = [loaded.seats[seat].user_id for seat in seats]
        known_closed = await self.bot.store.users_with_closed_dms(user_ids)
        languages = await self.bot.languages.of_users(user_ids)
        closed: list[int] = [
            loaded.seats[seat].user_id
            for seat in seats
            if game_start and loaded.seats[seat].user_id in known_closed
        ]
        for seat in seats:
            row = loaded.seats[seat]
            if row.user_id in known_closed:
                continue
            try:
                locale = languages.get(row.user_id, row.locale)
                await self._deliver_hand(loaded, seat, locale, recent, new=seat in fresh)
            except discord.Forbidden as error:
                if error.code != CANNOT_DM:
                    log.exception("game %s: could not DM seat %s", loaded.id, seat)
                    continue
                await self.bot.store.set_dms_closed(row.user_id, True)
                closed.append(row.user_id)
            except discord.HTTPException:
                log.exception("game %s: could not update the hand of seat %s", loaded.id, seat)
        if closed:
            mentions = ", ".join(f"<@{user}>" for user in closed)
            await self.announce(
                loaded,
                "dm.closed",
                mentions=mentions,
                button=t("button.my_hand", loaded.row.locale),
                count=len(closed),
            )

    async def _deliver_hand(
        self,
        loaded: LoadedGame,
        seat: int,
        locale: str,
        recent: Sequence[Sequence[Event]],
        *,
        new: bool,
    ) -> None:
        """Write seat's DM in ``locale``: its user's remembered language (see ``languages``)."""
        row = loaded.seats[seat]
        content = self.hand_content(loaded, seat, locale, recent, full=False)
        old = None
        if row.hand_message_id is not None and row.hand_channel_id is not None:
            old = self._dm(row.hand_channel_id).get_partial_message(row.hand_message_id)
            if not new:
                try:
                    await old.edit(**content)
                    return
                except discord.NotFound:
                    old = None
        # The DM channel of a user never changes: reuse the stored one instead of asking.
        if row.hand_channel_id is not None:
            channel: discord.abc.Messageable = self._dm(row.hand_channel_id)
        else:
            channel = await self.bot.create_dm(discord.Object(row.user_id))
        message = await channel.send(**content)
        await self.bot.store.set_hand_message(
            loaded.id, seat, message.channel.id, message.id, loaded.row.version
        )
        row.hand_channel_id, row.hand_message_id = message.channel.id, message.id
        row.hand_version = loaded.row.version
        if old is not None:  # the new message (with its ping) first, then the old one goes
            try:
                await old.delete()
            except discord.HTTPException:
                log.info("game %s: old hand message of seat %s is gone", loaded.id, seat)

    def _dm(self, channel_id: int) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
