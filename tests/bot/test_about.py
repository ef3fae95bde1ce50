"""``/about`` for everyone, ``/health`` for a server's managers (issue 33), in every language."""

from __future__ import annotations

import discord
import pytest

from bot.i18n import LOCALES, t
from bot.loopback.discord_limits import CONTENT as MESSAGE_CONTENT
from bot.process.version import version
from tests.bot.driver import new_table, quick_game

GAMES = ("call_to_glory", "kami", "clans_and_glory")


@pytest.mark.parametrize("locale", LOCALES)
async def test_about_says_what_the_bot_plays_and_how_to_invite_it(
    simcord_env, client_locales, locale
) -> None:
    table = new_table(simcord_env, 1)
    member = table.players[0].member
    client_locales[member.id] = locale
    result = await member.slash(table.channel, "about")
    assert result.ephemeral
    text = result.response.content
    assert len(text) <= MESSAGE_CONTENT
    assert version() in text and version() != "unknown"
    for game in GAMES:
        assert t(f"{game}.name", locale) in text
    assert f"client_id={simcord_env.bot.application_id}" in text
    assert "https://github.com/glory-bot/glory" in text
    assert f"/{t('cmd.play.name', locale)}" in text
    assert f"/{t('cmd.health.name', locale)}" not in text  # not a manager
    assert result.response.message.mentions == []


async def test_about_points_a_manager_to_the_health_view(simcord_env) -> None:
    table = new_table(simcord_env, 1)
    managers = table.guild.create_role(
        "managers", permissions=discord.Permissions(manage_guild=True)
    )
    manager = table.guild.add_member(simcord_env.create_user("manager"), roles=[managers])
    result = await manager.slash(table.channel, "about")
    assert "/health shows how the bot is doing" in result.response.content


async def test_health_is_hidden_from_members_and_refused_even_when_granted(simcord_env) -> None:
    """``default_permissions`` hides /health from members who cannot manage the server; an
    owner may grant it to anyone (Integrations), and then the bot's own check refuses."""
    table = new_table(simcord_env, 1)
    member = table.players[0].member
    assert "health" not in member.available_commands(table.channel)
    assert "about" in member.available_commands(table.channel)
    command = simcord_env.backend.find_command("health", None)
    table.guild.set_command_permissions(int(command["id"]), {member: True})
    result = await member.slash(table.channel, "health")
    assert result.ephemeral
    assert result.response.content == t("health.manage_only", "en")


@pytest.mark.parametrize("locale", LOCALES)
async def test_health_shows_a_manager_how_the_bot_is_doing(
    simcord_env, client_locales, locale
) -> None:
    table = await quick_game(simcord_env, 2)
    managers = table.guild.create_role(
        "managers", permissions=discord.Permissions(manage_guild=True)
    )
    manager = table.guild.add_member(simcord_env.create_user("manager"), roles=[managers])
    client_locales[manager.id] = locale
    result = await manager.slash(table.channel, "health")
    assert result.ephemeral
    lines = result.response.content.splitlines()
    assert len(result.response.content) <= MESSAGE_CONTENT
    assert lines[0] == t("health.title", locale, version=version())
    assert lines[1].startswith(t("health.since", locale, since="<t:")[:-3])
    assert lines[1].endswith(":R>")
    assert t("health.servers", locale, count=len(simcord_env.bot.guilds)) in lines
    assert t("health.games", locale, count=1) in lines
    assert t("health.lobbies", locale, count=0) in lines
    assert t("health.database", locale, database="SQLite") in lines
    assert t("health.no_shards", locale) in lines
    latency = [line for line in lines if line.startswith(t("health.latency", locale, ms="")[:8])]
    assert len(latency) == 1
    assert t("health.outbox_empty", locale) in lines  # every move of the game is shown
    assert t("health.commands_global", locale, count=18) in lines
    # Nothing of a hand: numbers only.
    hands = (await table.loaded()).row.state
    assert "hands" not in result.response.content and str(hands)[:40] not in lines


@pytest.mark.parametrize("locale", LOCALES)
def test_health_of_one_shard_process_on_shared_postgresql(locale) -> None:
    """The other branches of the view, on a stand-in for a process running shards 0 and 2 of 4
    on a shared PostgreSQL, whose commands could not be registered and whose outbox has a
    backlog."""
    from datetime import UTC, datetime
    from types import SimpleNamespace

    from bot.interactions.command_sync import Registration
    from bot.process.about import health_text
    from bot.process.config import Settings
    from bot.storage.bot_status import StatusCounts

    settings = Settings(
        database_url="postgresql+asyncpg://glory@db/glory", shard_count=4, shard_ids=(0, 2)
    )
    bot = SimpleNamespace(
        settings=settings,
        store=SimpleNamespace(engine=SimpleNamespace(dialect=SimpleNamespace(name="postgresql")),
                              shared=True),
        guilds=[object()] * 3,
        latency=float("nan"),
        shard_count=4,
        registration=Registration(None, 17, uploaded=False, error="HTTP 429: rate limited"),
    )
    counts = StatusCounts(active_games=5, lobbies=2, outbox_entries=3, oldest_entry_seconds=7)
    text = health_text(bot, counts, locale, 2, datetime(2026, 1, 1, tzinfo=UTC))
    lines = text.splitlines()
    assert t("health.servers_shared", locale, count=3) in lines
    assert t("health.database_shared", locale, database="PostgreSQL") in lines
    assert t("health.shard", locale, shard=2, count=4, shards="0, 2") in lines
    assert t("health.latency_unknown", locale) in lines
    assert t("health.outbox", locale, count=3, seconds=7) in lines
    assert t("health.commands_failed", locale, reason="HTTP 429: rate limited") in lines
    assert "<t:1767225600:R>" in lines[1]
    assert len(text) <= MESSAGE_CONTENT
