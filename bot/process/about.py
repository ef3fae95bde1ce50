"""What ``/about`` and ``/health`` say: the bot for everyone, its state for a server's managers.

``/about`` answers the questions of someone who just met the bot: which version, what it plays,
how to start, how to invite it elsewhere and where the guide is. ``/health`` answers an owner's
or a manager's "is it all right?" without a shell on the host: how long it has run, where it is
(servers, shard), what it carries (games, the outbox's backlog), what it runs on (database,
gateway latency) and whether its commands are registered. Both are plain text in the reader's
language, built here so the cog (``bot/exts/about.py``) only answers; the numbers come from the
running bot and two counting queries (``bot/storage/bot_status.py``), never from a game's
hidden state.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import TYPE_CHECKING

import discord

from bot.i18n import t
from bot.process.startup import invite_url
from bot.process.version import version
from bot.storage.bot_status import StatusCounts, status_counts

if TYPE_CHECKING:
    from bot.app import GloryBot

GUIDE_URL = "https://github.com/glory-bot/glory#readme"
"""The project's front page: playing, inviting, hosting (``pyproject.toml``'s Homepage)."""
DATABASE_NAMES = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}


def players_text(counts: tuple[int, ...]) -> str:
    """``2–4`` for a range of player counts, ``4`` for one."""
    low, high = min(counts), max(counts)
    return str(low) if low == high else f"{low}–{high}"


def about_text(bot: GloryBot, locale: str, *, manager: bool) -> str:
    """``/about``: version, the games, how to start and invite, the guide (and, for a server's
    managers, where to find the health view)."""
    lines = [t("about.title", locale, version=version()), t("about.plays", locale)]
    for key, game in bot.registry.items():
        lines.append(
            t(
                "about.game",
                locale,
                game=t(f"{key}.name", locale),
                players=players_text(game.player_counts),
            )
        )
    lines.append(
        t(
            "about.start",
            locale,
            play=t("cmd.play.name", locale),
            rules=t("cmd.rules.name", locale),
        )
    )
    if bot.application_id:
        lines.append(t("about.invite", locale, url=invite_url(bot.application_id)))
    lines.append(t("about.guide", locale, url=GUIDE_URL))
    if manager:
        lines.append(t("about.health_hint", locale, health=t("cmd.health.name", locale)))
    return "\n".join(lines)


def process_shards(bot: GloryBot) -> tuple[int, list[int]]:
    """How many shards the bot has in all, and which of them this process runs."""
    count = bot.shard_count or bot.settings.shard_count or 0
    if isinstance(bot, discord.AutoShardedClient) and bot.shards:
        return count, sorted(bot.shards)
    ids = bot.settings.shard_ids
    return count, list(ids) if ids is not None else list(range(count))


def gateway_latency(bot: GloryBot, shard_id: int | None) -> float | None:
    """The heartbeat's round trip in seconds on the shard that serves this server (``None``
    before the first heartbeat was answered)."""
    latency = bot.latency
    if isinstance(bot, discord.AutoShardedClient) and shard_id is not None:
        shard = bot.get_shard(shard_id)
        latency = shard.latency if shard is not None else math.nan
    return latency if math.isfinite(latency) else None


def _commands_line(bot: GloryBot, locale: str) -> str:
    registration = bot.registration
    if registration is None:
        return t("health.commands_unchecked", locale)
    if registration.error:
        return t("health.commands_failed", locale, reason=registration.error)
    if registration.guild_id is None:
        return t("health.commands_global", locale, count=registration.count)
    return t("health.commands_guild", locale, count=registration.count, guild=registration.guild_id)


def health_text(
    bot: GloryBot, counts: StatusCounts, locale: str, shard_id: int | None, started: datetime
) -> str:
    """``/health``'s lines from the bot and the database's ``counts``."""
    dialect = bot.store.engine.dialect.name
    database = DATABASE_NAMES.get(dialect, dialect)
    lines = [
        t("health.title", locale, version=version()),
        t("health.since", locale, since=discord.utils.format_dt(started, "R")),
        t(
            "health.servers_shared" if bot.settings.multi_process else "health.servers",
            locale,
            count=len(bot.guilds),
        ),
        t("health.games", locale, count=counts.active_games),
        t("health.lobbies", locale, count=counts.lobbies),
        t(
            "health.database_shared" if bot.store.shared else "health.database",
            locale,
            database=database,
        ),
    ]
    if bot.settings.sharded:
        count, ids = process_shards(bot)
        lines.append(
            t(
                "health.shard",
                locale,
                shard=shard_id if shard_id is not None else "?",
                count=count,
                shards=", ".join(map(str, ids)),
            )
        )
    else:
        lines.append(t("health.no_shards", locale))
    latency = gateway_latency(bot, shard_id)
    if latency is None:
        lines.append(t("health.latency_unknown", locale))
    else:
        lines.append(t("health.latency", locale, ms=round(latency * 1000)))
    if counts.outbox_entries:
        lines.append(
            t(
                "health.outbox",
                locale,
                count=counts.outbox_entries,
                seconds=counts.oldest_entry_seconds or 0,
            )
        )
    else:
        lines.append(t("health.outbox_empty", locale))
    lines.append(_commands_line(bot, locale))
    return "\n".join(lines)


async def health_report(bot: GloryBot, locale: str, shard_id: int | None) -> str:
    """Count what the database holds and describe the bot's health."""
    counts = await status_counts(bot.store.engine)
    return health_text(bot, counts, locale, shard_id, bot.started_at)
