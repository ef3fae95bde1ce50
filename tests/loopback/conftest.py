"""Fixtures: an emulator on an ephemeral port, and the reference bot connected to it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from bot.loopback import Emulator
from bot.loopback.client_overrides import discord_py_pointed_at
from bot.loopback.reference_bot import ReferenceBot

BOT_TOKEN = "loopback-test-token"
AUTH = {"Authorization": f"Bot {BOT_TOKEN}"}


class ErrorCollector(logging.Handler):
    """discord.py logs (rather than raises) exceptions in callbacks; collect them to fail on."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class RunningBot:
    """A reference bot on the test's event loop, with guards against a silent death."""

    def __init__(self, bot: ReferenceBot, task: asyncio.Task[None], errors: ErrorCollector):
        self.bot = bot
        self.task = task
        self.errors = errors

    def assert_healthy(self) -> None:
        if self.task.done():
            raise AssertionError(f"the bot stopped: {self.task.exception()!r}")
        messages = [r.getMessage() for r in self.errors.records]
        assert not messages, f"the bot logged errors: {messages}"


@contextlib.asynccontextmanager
async def running_reference_bot(
    emulator: Emulator, **bot_options: Any
) -> AsyncIterator[RunningBot]:
    """Start the reference bot against ``emulator`` and wait until it is ready and synced."""
    errors = ErrorCollector()
    discord_logger = logging.getLogger("discord")
    discord_logger.addHandler(errors)
    try:
        with discord_py_pointed_at(emulator.api_base, emulator.gateway_url):
            bot = ReferenceBot(**bot_options)
            task = asyncio.create_task(bot.start(emulator.token or BOT_TOKEN))
            running = RunningBot(bot, task, errors)
            try:
                await emulator.wait_for(
                    lambda: bot.is_ready() or task.done(), timeout=10, what="the bot's on_ready"
                )
                running.assert_healthy()
                await emulator.wait_for(lambda: emulator.commands.get(None), what="command sync")
                yield running
                running.assert_healthy()
            finally:
                await bot.close()
                with contextlib.suppress(asyncio.CancelledError, TimeoutError):
                    await asyncio.wait_for(task, timeout=5)
    finally:
        discord_logger.removeHandler(errors)


@pytest.fixture
async def emulator() -> AsyncIterator[Emulator]:
    async with Emulator(token=BOT_TOKEN) as emu:
        yield emu


@pytest.fixture
async def reference_bot(emulator: Emulator) -> AsyncIterator[RunningBot]:
    async with running_reference_bot(emulator) as running:
        yield running


@pytest.fixture
async def http(emulator: Emulator) -> AsyncIterator[aiohttp.ClientSession]:
    """A raw HTTP client on the emulator's ``/api/v10`` with the bot's token (no discord.py)."""
    async with aiohttp.ClientSession(base_url=emulator.api_base + "/", headers=AUTH) as session:
        yield session


async def sync_ping(http: aiohttp.ClientSession, emulator: Emulator) -> None:
    """Register ``/ping`` as the bot would (``tree.sync``), so actors can run it."""
    body = [{"name": "ping", "description": "p", "type": 1}]
    async with http.put(f"applications/{emulator.bot_user.id}/commands", json=body) as response:
        assert response.status == 200


async def post_json(
    http: aiohttp.ClientSession, path: str, body: dict[str, Any]
) -> tuple[int, dict[str, Any]]:
    """POST as discord.py does (``with_response=1`` on a callback, ``wait=1`` on a follow-up);
    the status and the JSON answer."""
    query = {"with_response": "1"} if path.endswith("/callback") else {"wait": "1"}
    async with http.post(path, json=body, params=query) as response:
        return response.status, await response.json()
