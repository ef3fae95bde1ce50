"""The Discord calls that publish a game: lobby, table, notices and hand DMs.

Every call here may run twice for the same publication (a retry, a restart, another process),
so each is idempotent: edits show the current state whatever they showed before, deletions of
a message already gone succeed, and every new message carries a nonce derived from what it
publishes (a new hand or table: from the message it replaces), so Discord returns the message
it already created instead of posting it again (``enforce_nonce``, honoured for a few
minutes; discord.py sends it with every message). Errors that a retry can cure
(rate limits, Discord's server errors, the network) are raised for the courier to retry;
answers that no retry will change are handled here (a deleted table is posted again, closed
DMs are remembered and the player told) or logged and dropped.
"""

from __future__ import annotations

import contextlib
import enum
import hashlib
import logging
import re
from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord

from bot.flows.session import LoadedGame
from bot.i18n import t
from bot.interactions.components import parse_target
from bot.outbox.click_tokens import ClickTokens
from bot.outbox.shown import ShownHands
from bot.pictures.attach import for_new_message
from bot.render.layout import Layout, edit_fields, text
from bot.storage.cache import KEPT_MOVES
from bot.storage.models import GameStatus, SeatRow
from games import Event

if TYPE_CHECKING:
    from bot.outbox.host import OutboxHost

log = logging.getLogger(__name__)


class HandOutcome(enum.Enum):
    SHOWN = "shown"
    KNOWN_CLOSED = "known_closed"
    """The player's DMs were found closed earlier: nothing was tried."""
    FOUND_CLOSED = "found_closed"
    """Discord refused the DM just now (50007); the player is to be told."""


CANNOT_DM = 50007
UNKNOWN_MESSAGE = 10008
UNUSABLE_DM_CHANNEL = (10003, 50001)
"""Unknown Channel, Missing Access: a stored DM channel id that is not (or no longer) the bot's
DM with the user. It is forgotten and the DM opened again."""
TIDY_MESSAGES = 50
"""How far back a seat's DM channel is tidied at the end of a game (one request)."""
INVALID_FORM_BODY = 50035
"""Discord refused an edit's body."""
MISSING_PERMISSIONS = 50013
"""Discord refused a message: here, one that uploads a picture where the bot may not attach
files (the invite asks for Attach Files, but a server can take it away in a channel)."""
THREAD_ARCHIVED = 50083
"""Discord refuses edits in an archived thread; a new message there unarchives it."""


class Outdated(Exception):
    """Discord or the store already hold something newer than the snapshot being delivered
    (a move came since it was taken, a click made the DM it was about to replace the hand, the
    DM a nonce names is deleted already): the courier takes the game as it is now and tries
    again, at once."""


def nonce(*parts: object) -> int:
    """A message nonce that names what a message publishes (the same parts, the same nonce).

    64 bits of a hash, kept positive and at most 19 digits (Discord takes 25 characters).
    """
    digest = hashlib.blake2b(":".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


class Delivery:
    """Publishes one game's messages (used by its courier, never under a game's lock)."""

    def __init__(self, bot: OutboxHost) -> None:
        self.bot = bot
        self.shown = ShownHands()
        """What each hand DM this process sent or edited shows (no edit that changes nothing)."""
        self.clicks = ClickTokens()
        """The newest click whose answer updated each DM (a replaced DM is deleted with it)."""
        self.no_uploads: set[int] = set()
        """Channels where Discord refused the bot an upload (no Attach Files): their tables go
        without pictures, the board in words (one refusal per channel and process)."""

    def _channel(self, loaded: LoadedGame) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(loaded.row.channel_id, guild_id=loaded.row.guild_id)

    async def _turn_to_ping(self, loaded: LoadedGame, seat: int, asked: int | None) -> int | None:
        """The version of the turn to ping ``seat`` for (see ``show_hand``), if any."""
        state = loaded.state
        if state is None or state.to_move != seat:
            return None
        began = await turn_began_at(self.bot, loaded)
        if began is None:
            return asked
        return began if asked is None else max(asked, began)

    def _dm(self, channel_id: int) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    # ---------------------------------------------------------------- the public face

    async def show_public(self, loaded: LoadedGame, recent: Sequence[Sequence[Event]]) -> None:
        """The lobby message, or the table once the game has started, as the game is now."""
        if loaded.state is None:
            await self.show_lobby(loaded)
        else:
            await self.show_table(loaded, recent)

    async def show_lobby(self, loaded: LoadedGame) -> None:
        message_id = loaded.row.lobby_message_id
        if message_id is None:
            return
        content = self.bot.publisher.lobby_content(loaded)
        try:
            await self._channel(loaded).get_partial_message(message_id).edit(**content)
        except discord.NotFound:
            log.info("game %s: the lobby message is gone", loaded.id)
        except discord.HTTPException as error:
            if error.code != THREAD_ARCHIVED:
                raise
            # A new message unarchives the thread.
            key = nonce(loaded.id, "lobby", message_id)  # the lobby that replaces this one
            message = await self._channel(loaded).send(**content, nonce=key)
            await self.bot.store.set_message(loaded.id, lobby_message_id=message.id)
            loaded.row.lobby_message_id = message.id

    async def show_table(self, loaded: LoadedGame, recent: Sequence[Sequence[Event]]) -> None:
        """Edit the table message; post it anew where it is missing, deleted or archived."""
        message_id = loaded.row.table_message_id
        if message_id is None:
            await self.post_table(loaded, recent, nonce(loaded.id, "table", 0))
            return
        content = await self._table_content(loaded, recent)
        try:
            await self._channel(loaded).get_partial_message(message_id).edit(**content)
            return
        except discord.NotFound:
            log.info("game %s: the table message is gone; posting it again", loaded.id)
        except discord.HTTPException as error:
            if self._refused_upload(loaded, error):
                await self.show_table(loaded, recent)  # without its picture
                return
            if error.code == INVALID_FORM_BODY:
                # Discord would not turn this message into the table as it is now (a table
                # sent before the bot wrote Components V2 that Discord refuses to convert):
                # the table goes to the bottom of the channel as a new message instead.
                log.warning(
                    "game %s: the table could not be edited (%s); posting it again",
                    loaded.id,
                    error,
                )
            elif error.code != THREAD_ARCHIVED:
                raise
        await self.post_table(loaded, recent, nonce(loaded.id, "table", message_id))

    async def post_table(
        self, loaded: LoadedGame, recent: Sequence[Sequence[Event]], key: int
    ) -> None:
        """Post the table at the bottom of the channel and retire the previous one."""
        old = loaded.row.table_message_id
        content = await self._table_content(loaded, recent)
        try:
            message = await self._channel(loaded).send(**for_new_message(content), nonce=key)
        except discord.HTTPException as error:
            if not self._refused_upload(loaded, error):
                raise
            content = await self._table_content(loaded, recent)  # without its picture
            message = await self._channel(loaded).send(**for_new_message(content), nonce=key)
        if message.id == old:
            return  # a redelivery: Discord returned the message this nonce created
        await self.bot.store.set_message(loaded.id, table_message_id=message.id)
        loaded.row.table_message_id = message.id
        if old is not None:
            await self._retire_table(loaded, old, message.jump_url)

    async def _table_content(
        self, loaded: LoadedGame, recent: Sequence[Sequence[Event]]
    ) -> dict[str, Any]:
        pictures = loaded.row.channel_id not in self.no_uploads
        return await self.bot.publisher.table_content(loaded, recent, pictures=pictures)

    def _refused_upload(self, loaded: LoadedGame, error: discord.HTTPException) -> bool:
        """Whether Discord refused the table's picture (the bot may not attach files in the
        game's channel) for the first time: from now on that channel's tables go without."""
        channel = loaded.row.channel_id
        if error.code != MISSING_PERMISSIONS or channel in self.no_uploads:
            return False
        self.no_uploads.add(channel)
        log.warning(
            "game %s: the bot may not attach files in channel %s (403 %s); its tables go "
            "without pictures",
            loaded.id,
            channel,
            error.code,
        )
        return True

    async def _retire_table(self, loaded: LoadedGame, old: int, link: str) -> None:
        """Point the previous table message at the new one (best effort: it may be gone)."""
        # Written as V2 whatever the old table was: a V2 message takes no content, and an
        # older one becomes V2 by this edit (``edit_fields``).
        moved = Layout([text(t("table.moved", loaded.row.locale, link=link))])
        try:
            await (
                self._channel(loaded)
                .get_partial_message(old)
                .edit(**edit_fields(moved), attachments=[])
            )
        except discord.HTTPException:
            log.info("game %s: the old table message %s is gone", loaded.id, old)

    async def notice(
        self,
        loaded: LoadedGame,
        key: int,
        text_key: str,
        *,
        mention: Sequence[int] = (),
        **params: object,
    ) -> None:
        """A line in the game's channel; only the users in ``mention`` are pinged."""
        allowed = discord.AllowedMentions(users=[discord.Object(u) for u in mention])
        text = t(text_key, loaded.row.locale, **params)
        await self._channel(loaded).send(text, nonce=key, allowed_mentions=allowed)

    async def post_game_over(self, loaded: LoadedGame, why: str | None) -> None:
        """The game-over message: a new channel message that pings the human players alone
        (``bot/messages/game_over.py``), once (its nonce names the game). Nothing for a game that
        never started or is still running."""
        # Imported here: the game-over content reads the ratings board, whose controls import
        # the AI and the turn clock, which imports this module.
        from bot.messages.game_over import game_over
        from bot.messages.game_over_layout import game_over_message
        from bot.ratings.queries import rating_changes

        if loaded.state is None or loaded.status in (GameStatus.LOBBY, GameStatus.ACTIVE):
            return
        changes = await rating_changes(self.bot.store, loaded.id)
        chart = None
        if loaded.row.channel_id not in self.no_uploads:
            chart = await self.bot.publisher.pictures.final_chart(loaded)
        content = game_over_message(game_over(loaded, changes, why), loaded, chart)
        try:
            await self._channel(loaded).send(**content, nonce=nonce(loaded.id, "over"))
        except discord.HTTPException as error:
            if chart is None or not self._refused_upload(loaded, error):
                raise
            content = game_over_message(game_over(loaded, changes, why), loaded, None)
            await self._channel(loaded).send(**content, nonce=nonce(loaded.id, "over"))

    async def tell_closed_dms(self, loaded: LoadedGame, user_ids: Sequence[int], key: int) -> None:
        """Tell players whose DMs are closed, in the channel, to use My hand (a ping)."""
        if not user_ids:
            return
        await self.notice(
            loaded,
            key,
            "dm.closed",
            mention=user_ids,
            mentions=", ".join(f"<@{user}>" for user in user_ids),
            button=t("button.my_hand", loaded.row.locale),
            count=len(user_ids),
        )

    # ---------------------------------------------------------------- hands

    async def show_hand(
        self,
        loaded: LoadedGame,
        seat: int,
        recent: Sequence[Sequence[Event]],
        *,
        ping_since: int | None = None,
    ) -> HandOutcome:
        """Bring seat's hand DM up to date.

        ``ping_since``: the version at which the seat got the turn. Unless a DM was already
        sent at or after it, the seat gets a *new* DM (a notification) and the old one goes;
        otherwise the existing DM is edited. Whatever was asked, a seat shown its turn is
        pinged for the turn it is in *now* (a delivery held back by Discord or a restart is
        coalesced with later ones, and may be the first to find the seat on turn), and a seat
        whose turn is over is not pinged. A player whose DMs are known to be closed is
        skipped; one whose DMs turn out closed now is remembered, and the caller tells them.
        """
        store = self.bot.store
        if (await store.current_version(loaded.id) or 0) > loaded.row.version:
            # A move came since the snapshot: a DM rendered from it would show a turn that
            # may be over already, and announce it.
            raise Outdated(f"game {loaded.id} moved on since seat {seat}'s hand was rendered")
        row = await self._current_seat(loaded, seat)
        if await store.dms_closed(row.user_id):
            return HandOutcome.KNOWN_CLOSED
        # While the AI plays an absent player's seat, their DM is kept up to date (with the
        # button to take the seat back) but does not ping them for every turn it plays.
        # Nor is a player pinged for a move the bot makes for them (their only one, and they
        # asked for that: ``bot/flows/forced_moves.py``).
        quiet = row.takeover or await self.bot.forced.will_play(loaded, seat)
        ping_since = None if quiet else await self._turn_to_ping(loaded, seat, ping_since)
        languages = await self.bot.languages.of_users([row.user_id])
        locale = languages.get(row.user_id, row.locale)
        content, _ = await self.bot.publisher.hand_content(
            loaded, seat, locale, recent, full=False, whole_menu=True
        )
        pinged = row.hand_version is not None and (
            ping_since is None or row.hand_version >= ping_since
        )
        try:
            # First the DM that a crash kept from being deleted, if any: the new DM below
            # would otherwise make its own predecessor the one to delete and forget this one.
            await self._delete_stale(loaded, seat)
            if row.hand_message_id is not None and row.hand_channel_id is not None and pinged:
                try:
                    await self._edit_hand(row.hand_channel_id, row.hand_message_id, content)
                except discord.NotFound:
                    await self._send_hand(loaded, seat, content, ping_since)
            else:
                await self._send_hand(loaded, seat, content, ping_since)
            await self._delete_stale(loaded, seat)
            if loaded.status is not GameStatus.ACTIVE:
                await self._tidy(loaded, seat)
        except discord.Forbidden as error:
            if error.code != CANNOT_DM:
                raise
            await store.set_dms_closed(row.user_id, True)
            return HandOutcome.FOUND_CLOSED
        return HandOutcome.SHOWN

    async def _edit_hand(self, channel_id: int, message_id: int, content: dict) -> None:
        """Edit a hand DM, unless it is known to show ``content`` already (``shown.py``)."""
        if self.shown.same(message_id, content) and not self.bot.store.shared:
            self.shown.skipped += 1
            return
        change = self.shown.begin(message_id)
        shown = None
        try:
            # Through the player's last click on it if it can (outside the token's budget).
            if not await self.clicks.edit(message_id, content, self.bot._connection):
                await self._dm(channel_id).get_partial_message(message_id).edit(**content)
            shown = content
        finally:
            self.shown.end(message_id, change, shown)

    async def _current_seat(self, loaded: LoadedGame, seat: int) -> SeatRow:
        """Seat's row as last written, put into ``loaded``.

        A snapshot's seat rows are the store's kept rows, which clicks and other deliveries
        update in place, until the store reads the game anew (after a lost race, say): then
        the snapshot keeps rows that no longer change. Which DM is the hand decides what is
        replaced and deleted, so it is always read fresh, never taken from a snapshot.
        """
        current = await self.bot.store.current_seat(loaded.id, seat)
        if current is not None:
            loaded.seats[seat] = current
        return loaded.seats[seat]

    async def _send_hand(
        self, loaded: LoadedGame, seat: int, content: dict, ping_since: int | None
    ) -> None:
        """Send seat's new hand DM, record it, and mark the one it replaces for deletion.

        The nonce names the DM this one replaces: if the process dies after Discord made it
        but before it was recorded, the next attempt gets that same message back from Discord
        instead of leaving it behind as a second hand. If that message announced an earlier
        turn than the one now to ping for, it becomes the hand to replace, and the turn gets a
        DM of its own (its notification).
        """
        row = loaded.seats[seat]
        version = loaded.row.version
        for _ in range(2):
            key = nonce(loaded.id, "hand", seat, row.hand_message_id or "first")
            try:
                message = await self.send_dm(row, content, key)
            except discord.NotFound as error:
                # The DM this nonce made is deleted already: something newer replaced it (a
                # seat's hand only moves to newer DMs, ``bot/storage/hand_adoption.py``).
                raise Outdated(f"game {loaded.id}: seat {seat}'s DM moved on") from error
            made_for = _made_for(message)
            if made_for == _made_for_content(content) and (
                made_for is not None or _footer(message) == _footer_of(content)
            ):
                break  # the message just made (or one showing just this)
            # Discord returned the DM this nonce made before: one a crash kept from recording,
            # unless a click has since made it the player's hand.
            current = await self.bot.store.current_seat(loaded.id, seat)
            if current is not None and current.hand_message_id == message.id:
                raise Outdated(f"game {loaded.id}: seat {seat} moved from DM {message.id}")
            if ping_since is not None and (made_for is None or made_for < ping_since):
                await self._record_hand(loaded, seat, message, made_for)
                await self._delete_stale(loaded, seat)
                continue
            change = self.shown.begin(message.id)
            try:
                message = await message.edit(**content)  # bring it up to date
            finally:
                self.shown.end(message.id, change, None)  # (rare: not worth remembering)
            break
        # A send can take long: discord.py may hold it before it goes out (a 429, a bucket or
        # the global limit in use) and, when its answer used up a bucket, return only after
        # the bucket's window (up to seconds after Discord made the DM). If a move came
        # meanwhile, the DM counts for the version the game was at when Discord made it, and
        # is shown again at once.
        found = await self.bot.store.game_with_seats(loaded.id)
        now = max(version, found[0].version if found is not None else 0)
        if now > version and found is not None:
            made = made_during(message.created_at, found[0].updated_at, version, now)
        else:
            made = now
        await self._record_hand(loaded, seat, message, made)
        if now > version:
            raise Outdated(f"game {loaded.id} moved on while seat {seat}'s DM was sent")

    async def send_dm(self, row: SeatRow, content: dict, key: int) -> discord.Message:
        """Send a DM to seat's player; a DM channel Discord does not know (any more) is
        forgotten and the DM opened again, once."""
        channel = await self._dm_of(row)
        try:
            return await channel.send(**for_new_message(content), nonce=key)
        except discord.HTTPException as error:
            if error.code not in UNUSABLE_DM_CHANNEL:
                raise
            log.info(
                "the DM channel %s of user %s is unusable (%s); opening the DM again",
                channel.id,
                row.user_id,
                error.code,
            )
        await self.bot.store.forget_dm_channel(row.user_id, channel.id)
        channel = await self._open_dm(row.user_id)
        return await channel.send(**for_new_message(content), nonce=key)

    async def _dm_of(self, row: SeatRow) -> discord.abc.Messageable:
        # The DM channel of a user never changes: reuse the one this game's DMs are in.
        if row.hand_channel_id is not None:
            return self._dm(row.hand_channel_id)
        return await self.dm_channel(row.user_id)

    async def dm_channel(self, user_id: int) -> discord.abc.Messageable:
        """The bot's DM channel with ``user_id``: discord.py's, else the stored one (sent to
        as a partial messageable, no REST call), else opened and stored.

        Opening a DM (``POST /users/@me/channels``) is one rate-limit bucket for the whole bot
        (on the order of 5 per 5 s), and discord.py forgets the channels it opened when the
        process stops, so without the store every player's first DM of every game after a
        restart would queue for that bucket.
        """
        user = self.bot.get_user(user_id)
        cached = user.dm_channel if user is not None else None
        if cached is not None:
            await self.bot.store.remember_dm_channel(user_id, cached.id)
            return cached
        stored = await self.bot.store.dm_channel(user_id)
        if stored is not None:
            return self._dm(stored)
        return await self._open_dm(user_id)

    async def _open_dm(self, user_id: int) -> discord.abc.Messageable:
        channel = await self.bot.create_dm(discord.Object(user_id))
        await self.bot.store.remember_dm_channel(user_id, channel.id)
        return channel

    async def _record_hand(
        self, loaded: LoadedGame, seat: int, message: discord.Message, version: int | None
    ) -> None:
        """Store ``message`` as seat's hand DM (sent at ``version``); the one it replaces is
        marked stale (if it already is the hand, the one waiting for deletion stays so)."""
        row = await self._current_seat(loaded, seat)
        if row.hand_message_id != message.id:
            # A DM still waiting for deletion goes now: the record below names only the one
            # it replaces (a click may have replaced the hand since this delivery began).
            if row.stale_hand_message_id != message.id:
                await self._delete_stale(loaded, seat)
            old = row.hand_message_id
        else:
            old = row.stale_hand_message_id
        await self.bot.store.set_hand_message(
            loaded.id, seat, message.channel.id, message.id, version, stale=old
        )
        await self.bot.store.remember_dm_channel(row.user_id, message.channel.id)
        row.hand_channel_id, row.hand_message_id = message.channel.id, message.id
        row.hand_version, row.stale_hand_message_id = version, old

    async def _tidy(self, loaded: LoadedGame, seat: int) -> None:
        """Once a game is over: delete every other hand DM of this game still in the seat's DM
        channel, so the player keeps only the final hand.

        Bookkeeping covers the DMs this bot knows of; this catches the ones it cannot: a DM
        Discord made for a request of a process that died, after the new process had moved on
        without asking for it again (its nonce), or one whose deletion a crash forgot.
        """
        row = loaded.seats[seat]
        if row.hand_channel_id is None or self.bot.user is None:
            return
        me = self.bot.user.id
        async for message in self._dm(row.hand_channel_id).history(limit=TIDY_MESSAGES):
            if (
                message.author.id == me
                and message.id != row.hand_message_id
                and _game_of(message) == loaded.id
            ):
                with contextlib.suppress(discord.NotFound):
                    await message.delete()

    async def _delete_stale(self, loaded: LoadedGame, seat: int) -> None:
        """Delete the hand DM a newer one replaced (after the new one, with its ping, is out)."""
        row = loaded.seats[seat]
        stale = row.stale_hand_message_id
        if stale is None or row.hand_channel_id is None or stale == row.hand_message_id:
            return
        current = await self.bot.store.current_seat(loaded.id, seat)
        if current is not None and current.hand_message_id == stale:
            return  # a click has made it the player's hand again since
        try:
            # Through the player's last click on it if it can (outside the token's budget).
            if not await self.clicks.delete(stale, self.bot.http):
                await self._dm(row.hand_channel_id).get_partial_message(stale).delete()
        except discord.NotFound:
            pass  # deleted already (by the player, or by a delivery a crash cut short)
        except discord.Forbidden:
            log.info("game %s: could not delete the old hand DM of seat %s", loaded.id, seat)
        # Forgotten in the store too (the next batch writes it): a delivery that reads the seat
        # from the database (the game's end, another process, a restart) must not delete it
        # again. Kept only in memory, every finished game deleted each seat's last replaced DM
        # a second time (a 404 and a request of the bot's global budget each).
        row.stale_hand_message_id = None
        await self.bot.store.stale_hand_deleted(loaded.id, seat, stale)


async def turn_began_at(bot: OutboxHost, loaded: LoadedGame) -> int | None:
    """The version at which the seat on turn got the turn it is in; ``None``: nobody is on
    turn, or its turn began before the moves the store keeps at hand."""
    if loaded.state is None or loaded.state.to_move is None:
        return None
    seat = loaded.state.to_move
    logged = await bot.store.recent_moves(loaded.id, KEPT_MOVES)
    if not logged:
        return 1  # the start of the game, when it logged no setup events
    # The moves up to the state shown (the store may be further on than a courier's snapshot).
    moves = [move for move in logged if move.version <= loaded.row.version]
    if not moves:
        return 1 if loaded.row.version <= 1 else None
    for move in reversed(moves):
        if move.seat != seat:
            return move.version  # the move that handed the turn over
    return 1 if moves[0].version <= 2 else None


def made_during(made_at: datetime, reached_at: datetime, sent_at: int, now: int) -> int:
    """The game version to count a DM for that was sent at version ``sent_at`` and that Discord
    made at ``made_at`` (its id's time), the game having reached version ``now`` at
    ``reached_at`` (the bot's clock).

    Made since the game reached ``now``: it notified the player of the game as it is now (a
    second DM for this turn would be a twin). Made before: ``sent_at``, the lower bound, so that
    a turn which began in between still gets its own DM (at worst one more than needed); the
    DM's answer coming back after the next moves says nothing of when Discord made it.
    Discord's ids count milliseconds, so the bot's time is cut to them.
    """
    if reached_at.tzinfo is None:
        reached_at = reached_at.replace(tzinfo=UTC)  # as stored by SQLite: UTC
    reached_at = reached_at.replace(microsecond=reached_at.microsecond // 1000 * 1000)
    return now if made_at >= reached_at else sent_at


def _walk(components: Sequence[Any]) -> Iterator[Any]:
    """Every component of a message, nested ones included (a V2 message's controls sit in
    action rows inside its container)."""
    stack = list(reversed(components))
    while stack:
        component = stack.pop()
        yield component
        stack.extend(reversed(getattr(component, "children", ()) or ()))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            stack.append(accessory)


SMALL_PRINT = "-# "


def _footer(message: discord.Message) -> str | None:
    """The footer line of a table or hand message: its embed's footer, or (V2) the text
    display written in small print (``render.layout.small``)."""
    if message.embeds:
        return message.embeds[0].footer.text
    for component in _walk(message.components):
        content = getattr(component, "content", None)
        if isinstance(content, str) and content.startswith(SMALL_PRINT):
            return content.removeprefix(SMALL_PRINT)
    return None


def _footer_of(content: dict) -> str | None:
    view = content.get("view")
    if isinstance(view, Layout):
        return view.footer
    embed = content.get("embed")
    return embed.footer.text if embed is not None else None


GAME_IN_FOOTER = re.compile(r"#(\d+) ·")
"""The game id in a hand's or table's footer ("Game #12 · move 7", in every language)."""


def _game_of(message: discord.Message) -> int | None:
    footer = _footer(message) or ""
    found = GAME_IN_FOOTER.search(footer)
    return int(found[1]) if found else None


def _made_for_content(content: dict) -> int | None:
    """The game version the move controls of ``content`` (a hand about to be sent) name."""
    view = content.get("view")
    if view is None:
        return None
    stack = list(view.to_components())
    custom_ids = []
    while stack:
        component = stack.pop()
        stack.extend(component.get("components") or ())
        custom_ids.append(component.get("custom_id") or "")
    return _version_named(custom_ids)


def _made_for(message: discord.Message) -> int | None:
    """The game version a hand message's controls were made for (``None``: no controls)."""
    return _version_named(getattr(c, "custom_id", None) or "" for c in _walk(message.components))


def _version_named(custom_ids: Iterable[str]) -> int | None:
    """The game version the first move control among ``custom_ids`` was made for."""
    for custom_id in custom_ids:
        kind, _, fields = custom_id.partition(":")[2].partition(":")
        if kind in ("m", "s"):
            target = parse_target(fields)
            if target is not None:
                return target.version
    return None
