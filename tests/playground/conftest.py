"""Fixtures: the playground's page server on an emulator (without the bot, for the server and
the rendering), and headless Chromium for the tests that use a real browser."""

from __future__ import annotations

import importlib.util
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp
import pytest

from bot.playground.browser import find_chromium
from bot.playground.session import Playground, PlaygroundOptions
from bot.playground.web import PageServer


def browser_or_skip() -> str:
    """The Chromium to drive; the test is skipped without one (or without Playwright), unless
    ``GLORY_REQUIRE_BROWSER=1`` (CI), where that is a failure."""
    path = find_chromium()
    missing = None
    if importlib.util.find_spec("playwright") is None:
        missing = "Playwright is not installed (pip install -e .[dev])"
    elif path is None:
        missing = "no Chromium on this machine (apt-get install chromium)"
    if missing is not None:
        if os.environ.get("GLORY_REQUIRE_BROWSER") == "1":
            pytest.fail(missing)
        pytest.skip(missing)
    assert path is not None
    return path


@dataclass
class Served:
    """A playground whose emulator listens and whose page is served, with no bot process."""

    playground: Playground
    server: PageServer

    @property
    def url(self) -> str:
        return self.server.url

    @property
    def origin(self) -> str:
        return self.server.url.rstrip("/")

    def client(self) -> aiohttp.ClientSession:
        """An HTTP client that looks like the page itself (same origin, JSON)."""
        return aiohttp.ClientSession(
            base_url=self.url, headers={"Origin": self.origin, "Sec-Fetch-Site": "same-origin"}
        )


@pytest.fixture
async def served() -> AsyncIterator[Served]:
    playground = Playground(PlaygroundOptions(players=("alice", "bob"), rate_limits=False))
    playground.emulator.interaction_deadline = 0.5  # nobody answers here: fail quickly
    async with playground.emulator, PageServer(playground, 0) as server:
        yield Served(playground, server)
