"""SimCord fixtures: the real bot against a simulated Discord and a SQLite file in tmp_path."""

from __future__ import annotations

import logging

import pytest

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
