"""Commands register themselves: at start-up only when they changed (issue 33).

Through SimCord, which records every request: a bot on a fresh database registers its
commands, a restart with the same commands sends nothing, changed commands are sent again, the
development server's scope keeps a record of its own, and a registration Discord refuses
leaves the bot running and says so. The lock that makes processes sharing PostgreSQL register
once is in ``tests/store/test_command_syncs.py``.
"""

from __future__ import annotations

import discord
import pytest
from discord import app_commands

from bot.app import GloryBot
from bot.interactions.command_sync import fingerprint, register
from bot.process.config import Settings
from bot.process.startup import summary
from tests.bot.conftest import closed_after_the_test

NO_WORKERS = {"ai_workers": 0, "picture_workers": 0}
COMMANDS = 18


def command_puts(env, suffix: str = "/commands") -> list[str]:
    return [
        r.path for r in env.http_requests if r.method == "PUT" and r.path.endswith(suffix)
    ]


def new_bot(database_url: str, **settings) -> GloryBot:
    chosen = {**NO_WORKERS, "sync_commands": True, **settings}
    return closed_after_the_test(GloryBot(Settings(token="t", database_url=database_url, **chosen)))


@pytest.mark.simcord(strict_sync=True)
async def test_a_restart_with_unchanged_commands_sends_discord_nothing(
    simcord_env, database_url
) -> None:
    assert len(command_puts(simcord_env)) == 1  # the first start, on a new database
    first = simcord_env.bot.registration
    assert first is not None and first.uploaded and first.count == COMMANDS
    again = new_bot(database_url)
    await simcord_env.restart_bot(again)
    assert len(command_puts(simcord_env)) == 1
    assert again.registration is not None and not again.registration.uploaded
    assert again.registration.count == COMMANDS
    assert f"commands: {COMMANDS} registered globally (unchanged);" in summary(again, "1.0")


@pytest.mark.simcord(strict_sync=True)
async def test_changed_commands_are_registered_again(simcord_env, database_url) -> None:
    changed = new_bot(database_url)

    @app_commands.command(name="extra", description="A command the last start did not have")
    async def extra(interaction: discord.Interaction) -> None:  # pragma: no cover
        pass

    changed.tree.add_command(extra)
    await simcord_env.restart_bot(changed)
    assert len(command_puts(simcord_env)) == 2
    assert changed.registration is not None and changed.registration.uploaded
    assert changed.registration.count == COMMANDS + 1
    assert "extra" in [c.name for c in await changed.tree.fetch_commands()]


@pytest.mark.simcord(strict_sync=True)
async def test_the_development_server_has_a_record_of_its_own(simcord_env, database_url) -> None:
    guild = simcord_env.create_guild()
    for _ in range(2):
        bot = new_bot(database_url, dev_guild_id=guild.id)
        await simcord_env.restart_bot(bot)
    assert command_puts(simcord_env, f"/guilds/{guild.id}/commands") == [
        command_puts(simcord_env)[-1]
    ]
    assert len(command_puts(simcord_env)) == 2  # global once, the server once
    assert bot.registration is not None and bot.registration.guild_id == guild.id
    assert f"{COMMANDS} registered in server {guild.id} (unchanged)" in summary(bot, "1.0")
    # Back to global: its record is still current, so nothing is sent.
    back = new_bot(database_url)
    await simcord_env.restart_bot(back)
    assert len(command_puts(simcord_env)) == 2


@pytest.mark.logs_errors
@pytest.mark.simcord(strict_sync=True)
async def test_a_refused_registration_keeps_the_bot_running_and_is_retried(
    simcord_env, database_url
) -> None:
    changed = new_bot(database_url)

    @app_commands.command(name="extra", description="A command the last start did not have")
    async def extra(interaction: discord.Interaction) -> None:  # pragma: no cover
        pass

    changed.tree.add_command(extra)
    application = simcord_env.bot.application_id
    simcord_env.inject_error("PUT", f"/applications/{application}/commands", status=500)
    await simcord_env.restart_bot(changed)
    registration = changed.registration
    assert registration is not None and registration.error.startswith("HTTP 500")
    assert registration.count == COMMANDS  # what the record says is registered
    line = summary(changed, "1.0")
    assert "registering the current ones failed (HTTP 500" in line
    assert "run `glory sync`" in line
    assert changed.is_ready()
    # The record was left alone: the next start tries again, and succeeds.
    retried = new_bot(database_url)
    retried.tree.add_command(extra)
    await simcord_env.restart_bot(retried)
    assert retried.registration is not None and retried.registration.uploaded
    assert retried.registration.count == COMMANDS + 1


@pytest.mark.simcord(strict_sync=True)
async def test_forcing_registers_even_unchanged_commands(simcord_env) -> None:
    registration = await register(simcord_env.bot, force=True)
    assert registration.uploaded and registration.count == COMMANDS
    assert len(command_puts(simcord_env)) == 2


def test_the_fingerprint_ignores_key_order_but_not_content() -> None:
    one = [{"name": "play", "description": "Play", "options": []}]
    same = [{"options": [], "description": "Play", "name": "play"}]
    other = [{"name": "play", "description": "Play a game", "options": []}]
    assert fingerprint(one) == fingerprint(same) != fingerprint(other)
