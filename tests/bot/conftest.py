"""SimCord fixtures: the real bot against a simulated Discord and a SQLite file in tmp_path."""

from __future__ import annotations

import logging

import pytest
import simcord.env
import simcord.interactions

from bot.app import GloryBot
from bot.config import Settings


def make_bot(database_url: str) -> GloryBot:
    """A bot like ``make run --sync`` builds, on the given database."""
    return GloryBot(Settings(token="test", database_url=database_url, sync_commands=True))


@pytest.fixture
def database_url(tmp_path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path}/glory.db"


@pytest.fixture
def simcord_bot(database_url):
    return make_bot(database_url)


def pytest_configure(config) -> None:
    config.addinivalue_line("markers", "logs_errors: the test provokes errors the bot logs")


@pytest.fixture(autouse=True)
def no_logged_errors(request, caplog):
    """The bot logs every swallowed exception; a test fails if one happened unexpectedly."""
    yield
    if request.node.get_closest_marker("logs_errors"):
        return
    errors = [
        record
        for record in caplog.get_records("call")
        if record.levelno >= logging.ERROR and record.name.startswith("bot")
    ]
    assert not errors, [record.getMessage() for record in errors]


@pytest.fixture
def client_locales(monkeypatch) -> dict[int, str]:
    """Per-user client languages for SimCord, which sends ``en-US`` in every interaction.

    Real Discord sends the user's client language as ``locale`` and the server's language as
    ``guild_locale``; this patches SimCord's interaction payload to do the same: ``locale`` from
    the returned mapping (user id → Discord locale, ``en-US`` if absent) and ``guild_locale``
    from the simulated guild's ``preferred_locale``.
    """
    languages: dict[int, str] = {}
    original = simcord.interactions.base_payload

    def with_languages(backend, **kwargs):  # type: ignore[no-untyped-def]
        record, payload = original(backend, **kwargs)
        payload["locale"] = languages.get(kwargs["user_id"], "en-US")
        if kwargs["guild_id"] is not None:
            payload["guild_locale"] = backend.get_guild(kwargs["guild_id"]).preferred_locale
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", with_languages)
    return languages


SETTLE_POLL_SECONDS = 0.002


@pytest.fixture(autouse=True)
def quick_settling(monkeypatch) -> None:
    """Poll SimCord's settling every 2 ms instead of 50 ms.

    After each action SimCord waits until the bot is idle. When it finds only a ready callback
    queued (discord.py's done-callback of a finished item task, for one), it sleeps its whole
    poll interval instead of yielding once, which made every click cost ~50 ms of idle time
    whenever the timing lined up. A shorter poll changes nothing else: settling still needs
    the same idle or parked state.
    """
    original = simcord.env.Env._settle_internal

    async def settle(self, *, idle: float = SETTLE_POLL_SECONDS, **kwargs):  # type: ignore[no-untyped-def]
        await original(self, idle=min(idle, SETTLE_POLL_SECONDS), **kwargs)

    monkeypatch.setattr(simcord.env.Env, "_settle_internal", settle)
