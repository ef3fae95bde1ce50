"""What the bot says when it is ready: who it is, where, with which database, how many slash
commands are registered where, how to invite it.

``python -m bot`` registers ``announce`` for ``on_ready``; the line is logged once per process
(discord.py calls ``on_ready`` again after a new gateway session).

Why exactly these permissions (``PERMISSIONS``, the invite URL's ``permissions=``): everything
a player sees of a game outside their own clicks is a message the bot posts or edits itself.

- **View Channels**: without it the bot cannot see the channel a game runs in at all.
- **Send Messages**: the lobby and the table are messages of the bot in the channel (the
  answers to slash commands and clicks need no permission, but the table is posted anew by the
  outbox after every restart and when it went missing).
- **Send Messages in Threads**: the same in threads; a new message there also reopens an
  archived thread, which an edit cannot.
- **Embed Links**: the lobby and several answers are embeds; without it Discord shows them
  empty.
- **Attach Files**: the table's picture is uploaded with the table message the outbox posts and
  edits in the channel; without it Discord refuses that upload (403, 50013).
- **Read Message History**: the bot edits its own earlier messages (the table after every
  move, the lobby, the closed-DM notice) and Discord's access to messages already in a channel
  is this permission.

Nothing else: no Manage Messages (the bot deletes only its own DMs), no reactions, no mentions
of roles or everyone, and no privileged intents.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

import discord

from bot.health import heartbeat
from bot.i18n import t
from bot.process.config import redact_url

if TYPE_CHECKING:
    from bot.app import GloryBot

log = logging.getLogger("bot")

PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
)
"""The bot permissions the invite asks for (274878024704); see the module's docstring."""
SCOPES = ("bot", "applications.commands")


def invite_url(application_id: int) -> str:
    """The OAuth2 URL that adds the bot to a server with ``PERMISSIONS`` and slash commands."""
    return discord.utils.oauth_url(application_id, permissions=PERMISSIONS, scopes=SCOPES)


def summary(bot: GloryBot, version: str) -> str:
    """One log line: the bot, its servers, the games, the database, the slash commands and the
    invite URL."""
    games = ", ".join(t(f"{key}.name") for key in bot.registry)
    user = bot.user
    name = f"{user} (id {user.id})" if user is not None else "?"
    invite = invite_url(bot.application_id) if bot.application_id else "?"
    servers = len(bot.guilds)
    settings = bot.settings
    # Sharded: which of the shards this process runs (SHARD_COUNT=auto: how many Discord gave).
    shards = f"shards: {shards_text(bot)}; " if settings.sharded else ""
    return (
        f"Glory {version} ready as {name} in {servers} server{'' if servers == 1 else 's'}; "
        f"games: {games}; {shards}database: {redact_url(settings.database_url)}; "
        f"commands: {commands_text(bot)}; invite: {invite}"
    )


def commands_text(bot: GloryBot) -> str:
    """``18 registered globally (unchanged)``, or why none may be
    (``bot/interactions/command_sync.py``)."""
    registration = bot.registration
    if registration is None:
        return "not checked (this start registers none)"
    return registration.describe()


def shards_text(bot: GloryBot) -> str:
    """The shards this process runs once connected: ``0,2 of 4``, or ``all 4``."""
    if isinstance(bot, discord.AutoShardedClient) and bot.shard_count and bot.shards:
        ids = sorted(bot.shards)
        if ids == list(range(bot.shard_count)):
            return f"all {bot.shard_count}"
        return f"{','.join(map(str, ids))} of {bot.shard_count}"
    return bot.settings.shards_text()


def connected(bot: GloryBot) -> bool:
    """Ready, with an open gateway connection (sharded: every shard's connection open)."""
    if not bot.is_ready() or bot.is_closed():
        return False
    if isinstance(bot, discord.AutoShardedClient):
        shards = bot.shards.values()
        return bool(shards) and not any(shard.is_closed() for shard in shards)
    ws = bot.ws
    return ws is not None and ws.open


def announce(bot: GloryBot, version: str) -> Callable[[], Awaitable[None]]:
    """An ``on_ready`` listener that logs ``summary`` the first time only (and starts the
    health file's heartbeat when ``HEALTH_FILE`` is set)."""
    done = False
    tasks: set[asyncio.Task[None]] = set()

    async def on_ready() -> None:
        nonlocal done
        if done:
            return
        done = True
        log.info("%s", summary(bot, version))
        if bot.settings.health_file:
            task = asyncio.create_task(heartbeat(bot, Path(bot.settings.health_file)))
            tasks.add(task)
            task.add_done_callback(tasks.discard)

    return on_ready
