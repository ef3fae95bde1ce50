"""The emulated Discord world: users, guilds, channels (text, DM, public thread) and messages.

Everything the bot ever sent is kept here with its edit history, so a test can read the
current state of a table message, the DMs a player got, or how a message changed over time.
The model is plain data; turning it into wire payloads lives in ``payloads.py``.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1_420_070_400_000

GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11

MESSAGE_FLAG_EPHEMERAL = 64
MESSAGE_FLAG_LOADING = 128
MESSAGE_FLAG_SUPPRESS_EMBEDS = 4
MESSAGE_FLAG_COMPONENTS_V2 = 1 << 15
ATTACHMENT_BASE = "https://cdn.loopback.invalid/attachments"
"""Where the emulator says an attachment is when it did not keep its bytes (nothing is served
there); a kept upload's ``url`` is the emulator's own (``uploads.py``)."""


class SnowflakeFactory:
    """Issues real-looking, strictly increasing snowflakes.

    discord.py derives ``created_at`` from ids and uses message age for rate-limit
    sub-buckets, so ids must encode a plausible timestamp.
    """

    def __init__(self) -> None:
        self._counter = itertools.count(1)

    def next(self) -> int:
        millis = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (millis << 22) | (next(self._counter) & 0x3FFFFF)

    def next_on_shard(self, shard: int, shard_count: int) -> int:
        """A snowflake whose guild would live on ``shard``: ``(id >> 22) % shard_count ==
        shard``. Its timestamp is at most ``shard_count - 1`` ms in the past (the counter bits
        keep it unique)."""
        if not 0 <= shard < shard_count:
            raise ValueError(f"shard {shard} is not one of {shard_count} shards")
        millis = int(time.time() * 1000) - DISCORD_EPOCH_MS
        millis -= (millis - shard) % shard_count
        return (millis << 22) | (next(self._counter) & 0x3FFFFF)


NOT_SHOWN = frozenset({"required"})
"""Component members a message's answer leaves out: ``required`` (sent by discord.py for
every select; only a modal's selects use it)."""


def numbered(components: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """``components`` as Discord keeps them: every component has a numeric ``id``, unique in
    its message (those sent keep theirs; the others are numbered in order, nested ones too),
    and members sent as ``null`` are left out, as Discord's answers leave them out."""
    if not components:
        return []
    taken: set[int] = set()
    stack = list(components)
    while stack:
        component = stack.pop()
        if isinstance(component.get("id"), int):
            taken.add(component["id"])
        stack.extend(component.get("components") or ())
        if component.get("accessory"):
            stack.append(component["accessory"])
    counter = itertools.count(1)

    def copy(component: dict[str, Any]) -> dict[str, Any]:
        shown = {
            key: without_nulls(value)
            for key, value in component.items()
            if value is not None and key not in NOT_SHOWN
        }
        if not isinstance(shown.get("id"), int):
            number = next(counter)
            while number in taken:
                number = next(counter)
            shown["id"] = number
        if "components" in shown:
            shown["components"] = [copy(child) for child in shown["components"]]
        if "accessory" in shown:
            shown["accessory"] = copy(shown["accessory"])
        return with_discords_defaults(shown)

    return [copy(component) for component in components]


SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
CONTAINER, SEPARATOR, MEDIA_GALLERY, THUMBNAIL = 17, 14, 12, 11


def with_discords_defaults(component: dict[str, Any]) -> dict[str, Any]:
    """``component`` with the members Discord's answers always carry filled in when the bot
    left them out (a container's ``spoiler`` and ``accent_color``, a separator's ``spacing``
    and ``divider``, a select's value counts, a media item's ``description`` and ``spoiler``):
    its API description marks them required in every answer."""
    kind = component.get("type")
    if kind == CONTAINER:
        component.setdefault("spoiler", False)
        component.setdefault("accent_color", None)
    elif kind == SEPARATOR:
        component.setdefault("spacing", 1)
        component.setdefault("divider", True)
    elif kind in SELECT_TYPES:
        component.setdefault("min_values", 1)
        component.setdefault("max_values", 1)
    elif kind == MEDIA_GALLERY:
        component["items"] = [_media_with_defaults(item) for item in component.get("items", [])]
    elif kind == THUMBNAIL:
        _media_with_defaults(component)
    return component


def _media_with_defaults(item: dict[str, Any]) -> dict[str, Any]:
    item.setdefault("description", None)
    item.setdefault("spoiler", False)
    media = item.get("media")
    if isinstance(media, dict):
        media.setdefault("id", "0")
        media.setdefault("proxy_url", media.get("url", ""))
    return item


def without_nulls(value: Any) -> Any:
    """``value`` with every ``null`` member of its objects left out, at every depth."""
    if isinstance(value, dict):
        return {k: without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [without_nulls(item) for item in value]
    return value


def shown_embeds(embeds: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """``embeds`` as Discord keeps them: of type ``rich`` unless they say otherwise, without
    the members sent as ``null``."""
    return [{"type": "rich", **without_nulls(embed)} for embed in embeds or []]


@dataclass
class User:
    id: int
    name: str
    bot: bool = False
    dms_open: bool = True


@dataclass
class Channel:
    id: int
    type: int
    name: str = ""
    guild_id: int | None = None
    recipient_id: int | None = None
    position: int = 0
    message_ids: list[int] = field(default_factory=list)
    parent_id: int | None = None
    """For a thread: the text channel it belongs to."""
    owner_id: int | None = None
    """For a thread: the user who started it."""
    member_ids: list[int] = field(default_factory=list)
    """For a thread: who has joined it (the owner, on creation)."""
    created_at: float = field(default_factory=time.time)
    archived: bool = False
    """For a thread: archived (read-only until someone who may post there sends a message)."""
    locked: bool = False
    """For a thread: locked (only thread managers may unarchive it; the bot is not one here)."""
    archive_changed_at: float | None = None
    """For a thread: when it was last archived or unarchived (``archive_timestamp``)."""
    bot_may_attach: bool = True
    """A guild channel in which the bot holds Attach Files (a thread: its parent's decides).
    Without it Discord refuses a message that uploads a file, 403 / 50013."""

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    @property
    def is_thread(self) -> bool:
        return self.type == PUBLIC_THREAD


@dataclass
class Guild:
    id: int
    name: str
    channel_ids: list[int] = field(default_factory=list)
    """Text channels only; Discord lists a guild's active threads separately."""
    thread_ids: list[int] = field(default_factory=list)
    member_ids: list[int] = field(default_factory=list)


@dataclass
class MessageRevision:
    """One past state of a message, kept so tests can see every edit the bot made."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    flags: int
    at: float


@dataclass
class Message:
    id: int
    channel_id: int
    author_id: int
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    created_at: float = field(default_factory=time.time)
    edited_at: float | None = None
    deleted: bool = False
    interaction_id: int | None = None
    webhook_id: int | None = None
    viewer_id: int | None = None
    """For an ephemeral message: the only user who can see it."""
    nonce: str | None = None
    """The ``nonce`` it was created with (echoed in the create answer and MESSAGE_CREATE)."""
    history: list[MessageRevision] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & MESSAGE_FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & MESSAGE_FLAG_LOADING)

    def iter_components(self) -> Iterator[dict[str, Any]]:
        """Every interactive component, flattened out of action rows and containers."""
        stack = list(reversed(self.components))
        while stack:
            component = stack.pop()
            children = component.get("components")
            if children is not None:
                stack.extend(reversed(children))
            accessory = component.get("accessory")
            if accessory is not None:
                stack.append(accessory)
            if "custom_id" in component:
                yield component

    def apply(self, body: dict[str, Any]) -> None:
        """Apply an edit body (message PATCH or callback type 7), remembering the old state."""
        self.history.append(
            MessageRevision(self.content, self.embeds, self.components, self.flags, time.time())
        )
        if "content" in body:
            self.content = body["content"] or ""
        if "embeds" in body:
            self.embeds = shown_embeds(body["embeds"])
        if "components" in body:
            self.components = numbered(body["components"])
        if "attachments" in body:
            self.attachments = body["attachments"] or []
        if "flags" in body and body["flags"] is not None:
            # An edit changes only SUPPRESS_EMBEDS and may set IS_COMPONENTS_V2 (never clear
            # it: validation refuses that); every other flag stays as it was.
            editable = MESSAGE_FLAG_SUPPRESS_EMBEDS | MESSAGE_FLAG_COMPONENTS_V2
            keep = self.flags & ~editable | self.flags & MESSAGE_FLAG_COMPONENTS_V2
            self.flags = (int(body["flags"]) & editable) | keep
        self.flags &= ~MESSAGE_FLAG_LOADING
        self.edited_at = time.time()


class World:
    """All users, guilds, channels and messages of one emulator instance."""

    def __init__(self, snowflakes: SnowflakeFactory) -> None:
        self.snowflakes = snowflakes
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self._dm_by_user: dict[int, int] = {}
        self._ephemerals_by_user: dict[int, list[int]] = {}

    def add_user(self, name: str, *, bot: bool = False, user_id: int | None = None) -> User:
        user = User(id=user_id or self.snowflakes.next(), name=name, bot=bot)
        self.users[user.id] = user
        return user

    def add_guild(self, name: str, *, guild_id: int | None = None) -> Guild:
        guild = Guild(id=guild_id or self.snowflakes.next(), name=name)
        self.guilds[guild.id] = guild
        return guild

    def add_text_channel(self, guild: Guild, name: str) -> Channel:
        channel = Channel(
            id=self.snowflakes.next(),
            type=GUILD_TEXT,
            name=name,
            guild_id=guild.id,
            position=len(guild.channel_ids),
        )
        self.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        return channel

    def add_public_thread(self, parent: Channel, name: str, owner: User) -> Channel:
        """A public thread under a text channel, started without a starter message (so its
        id is a fresh snowflake rather than a message id); its owner is its first member."""
        if parent.type != GUILD_TEXT or parent.guild_id is None:
            raise ValueError(f"threads live under guild text channels, not {parent!r}")
        thread = Channel(
            id=self.snowflakes.next(),
            type=PUBLIC_THREAD,
            name=name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=owner.id,
            member_ids=[owner.id],
        )
        self.channels[thread.id] = thread
        self.guilds[parent.guild_id].thread_ids.append(thread.id)
        return thread

    def add_member(self, guild: Guild, user: User) -> None:
        if user.id not in guild.member_ids:
            guild.member_ids.append(user.id)

    def dm_channel(self, user: User) -> Channel:
        """The DM channel between the bot and ``user``, created on first use like Discord does."""
        channel_id = self._dm_by_user.get(user.id)
        if channel_id is not None:
            return self.channels[channel_id]
        channel = Channel(id=self.snowflakes.next(), type=DM, recipient_id=user.id)
        self.channels[channel.id] = channel
        self._dm_by_user[user.id] = channel.id
        return channel

    def existing_dm_channel(self, user: User) -> Channel | None:
        channel_id = self._dm_by_user.get(user.id)
        return None if channel_id is None else self.channels[channel_id]

    def attachments(
        self, channel_id: int, declared: Any, kept: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """A message body's ``attachments`` as Discord shows them: a file uploaded with the
        request (``size`` recorded by the REST layer) becomes a new attachment with its own
        snowflake and url; ``{"id": ...}`` of one the message already has keeps that one."""
        by_id = {attachment["id"]: attachment for attachment in kept}
        shown = []
        for attachment in declared or []:
            if "size" in attachment:
                attachment_id = str(self.snowflakes.next())
                filename = attachment.get("filename") or "file"
                # Where the emulator serves the bytes it kept (uploads.py), else a CDN-like name.
                url = (
                    attachment.get("url")
                    or f"{ATTACHMENT_BASE}/{channel_id}/{attachment_id}/{filename}"
                )
                shown.append(
                    {
                        "id": attachment_id,
                        "filename": filename,
                        "size": int(attachment["size"]),
                        "url": url,
                        "proxy_url": url,
                    }
                )
            elif str(attachment.get("id")) in by_id:
                shown.append(by_id[str(attachment.get("id"))])
        return shown

    def create_message(
        self,
        channel: Channel,
        author: User,
        body: dict[str, Any],
        *,
        extra_flags: int = 0,
        interaction_id: int | None = None,
        webhook_id: int | None = None,
        viewer_id: int | None = None,
    ) -> Message:
        message = Message(
            id=self.snowflakes.next(),
            channel_id=channel.id,
            author_id=author.id,
            content=body.get("content") or "",
            embeds=shown_embeds(body.get("embeds")),
            components=numbered(body.get("components")),
            attachments=self.attachments(channel.id, body.get("attachments"), []),
            flags=int(body.get("flags") or 0) | extra_flags,
            interaction_id=interaction_id,
            webhook_id=webhook_id,
            nonce=None if body.get("nonce") is None else str(body["nonce"]),
        )
        self.messages[message.id] = message
        channel.message_ids.append(message.id)
        if message.ephemeral and viewer_id is not None:
            message.viewer_id = viewer_id
            self._ephemerals_by_user.setdefault(viewer_id, []).append(message.id)
        return message

    def ephemerals_for(self, user: User) -> list[Message]:
        """Ephemeral messages shown to ``user`` (in any channel), oldest first."""
        found = (self.messages[mid] for mid in self._ephemerals_by_user.get(user.id, []))
        return [m for m in found if not m.deleted]

    def messages_in(self, channel: Channel, *, include_deleted: bool = False) -> list[Message]:
        """The channel's messages, oldest first."""
        found = (self.messages[mid] for mid in channel.message_ids)
        return [m for m in found if include_deleted or not m.deleted]
