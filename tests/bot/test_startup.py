"""Starting the bot: the command line, settings, endpoints and command sync."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import discord.gateway
import discord.http
import pytest

from bot.process.config import DEFAULT_DATABASE_URL, Settings
from bot.process.endpoints import use_endpoints
from tests.bot.conftest import closed_after_the_test

ROOT = Path(__file__).resolve().parents[2]


def test_without_a_token_it_explains_where_to_get_one(tmp_path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "https://discord.com/developers/applications" in done.stderr
    assert ".env" in done.stderr and "Traceback" not in done.stderr + done.stdout


def test_a_malformed_setting_is_explained(tmp_path) -> None:
    env = dict(os.environ, DISCORD_TOKEN="x", DEV_GUILD_ID="my server", PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "must be a whole number" in done.stderr
    assert "Traceback" not in done.stderr


def test_settings_from_the_environment() -> None:
    settings = Settings.from_env(
        {
            "DISCORD_TOKEN": " abc ",
            "DEV_GUILD_ID": "123456789012345678",
            "LOG_LEVEL": "debug",
            "DISCORD_API_BASE": "http://127.0.0.1:8123/api/v10",
            "DISCORD_GATEWAY_URL": "ws://127.0.0.1:8123/",
        },
        sync=True,
    )
    assert settings.token == "abc" and settings.dev_guild_id == 123456789012345678
    assert settings.log_level == "DEBUG" and settings.sync_commands
    assert settings.database_url == DEFAULT_DATABASE_URL
    assert settings.api_base == "http://127.0.0.1:8123/api/v10"
    assert Settings.from_env({}).dev_guild_id is None


@pytest.fixture
def restore_endpoints():
    base, gateway = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    yield
    discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = base, gateway


def test_endpoints_point_discord_py_elsewhere(restore_endpoints) -> None:
    use_endpoints("http://127.0.0.1:8123/api/v10/", "ws://127.0.0.1:8123/")
    assert discord.http.Route.BASE == "http://127.0.0.1:8123/api/v10"
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:8123/"
    route = discord.http.Route("GET", "/users/@me")
    assert route.url == "http://127.0.0.1:8123/api/v10/users/@me"


def test_no_endpoints_leave_discord_com(restore_endpoints) -> None:
    use_endpoints(None, None)
    assert discord.http.Route.BASE.startswith("https://discord.com/api")


NO_WORKERS = {"ai_workers": 0, "picture_workers": 0}
"""The bot starts its worker processes with it; SimCord's simulated loop cannot host them (the
real process starts them in tests/loopback), so these bots use threads, as ``make_bot`` does."""


@pytest.mark.simcord(strict_sync=True)
async def test_commands_are_synced_only_when_asked(simcord_env, database_url) -> None:
    from bot.app import GloryBot

    quiet = closed_after_the_test(
        GloryBot(Settings(token="t", database_url=database_url, sync_commands=False, **NO_WORKERS))
    )
    await simcord_env.restart_bot(quiet)
    puts = [r for r in simcord_env.http_requests if r.method == "PUT" and "commands" in r.path]
    assert len(puts) == 1  # only the first bot, built to register them, uploaded commands


@pytest.mark.simcord(strict_sync=True)
async def test_dev_guild_sync_goes_to_that_guild(simcord_env, database_url) -> None:
    from bot.app import GloryBot

    guild = simcord_env.create_guild()
    bot = closed_after_the_test(
        GloryBot(
            Settings(
                token="t",
                database_url=database_url,
                sync_commands=True,
                dev_guild_id=guild.id,
                **NO_WORKERS,
            )
        )
    )
    await simcord_env.restart_bot(bot)
    puts = [r.path for r in simcord_env.http_requests if r.method == "PUT"]
    assert puts[-1].endswith(f"/guilds/{guild.id}/commands")
