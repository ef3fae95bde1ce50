"""The emulator as its own process, driven over its control API, with a bot process on it."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.loopback.bot_process import REPO_ROOT, BotProcess


@pytest.fixture
async def standalone() -> AsyncIterator[dict[str, str]]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.loopback",
        "--port",
        "0",
        cwd=REPO_ROOT,
        stdout=asyncio.subprocess.PIPE,
        stdin=asyncio.subprocess.DEVNULL,
    )
    try:
        assert process.stdout is not None
        line = await asyncio.wait_for(process.stdout.readline(), timeout=15)
        yield json.loads(line)
    finally:
        if process.returncode is None:
            process.terminate()
        assert await asyncio.wait_for(process.wait(), timeout=10) == 0


async def call(
    session: aiohttp.ClientSession, method: str, url: str, body: Any = None
) -> dict[str, Any]:
    async with session.request(method, url, json=body) as response:
        assert response.status == 200, await response.text()
        return await response.json()


async def test_standalone_emulator_with_bot_process(
    standalone: dict[str, str], tmp_path: Path
) -> None:
    control = standalone["control_url"]
    env = {
        **os.environ,
        "DISCORD_API_BASE": standalone["api_base"],
        "DISCORD_GATEWAY_URL": standalone["gateway_url"],
        "DISCORD_TOKEN": "any",
    }
    bot = BotProcess(
        [sys.executable, "-m", "bot.loopback.reference_bot"], env, tmp_path / "bot.log"
    )
    await bot.start()
    try:
        async with aiohttp.ClientSession() as session:
            for _ in range(200):  # bounded: 200 x 50 ms = 10 s
                state = await call(session, "GET", f"{control}/state")
                if state["connected"] and state["commands"]:
                    break
                await asyncio.sleep(0.05)
            else:
                raise AssertionError(f"bot never connected:\n{bot.log_tail()}")

            alice = await call(session, "POST", f"{control}/users", {"name": "alice"})
            slash = await call(
                session,
                "POST",
                f"{control}/act/slash",
                {
                    "user_id": alice["user_id"],
                    "command": "table create",
                    "options": {"seats": 2},
                },
            )
            answer = await call(
                session,
                "GET",
                f"{control}/interactions/{slash['interaction_id']}?wait=settled&timeout=5",
            )
            table = answer["response_message"]
            assert table["content"] == "Table: 0/2 seated"

            click = await call(
                session,
                "POST",
                f"{control}/act/click",
                {
                    "user_id": alice["user_id"],
                    "message_id": table["id"],
                    "label": "Join",
                },
            )
            clicked = await call(
                session,
                "GET",
                f"{control}/interactions/{click['interaction_id']}?wait=acknowledged",
            )
            assert clicked["callback_type"] == 7
            assert clicked["response_message"]["content"] == "Table: 1/2 seated"
            dms = await call(
                session, "GET", f"{control}/channels/{alice['dm_channel_id']}/messages"
            )
            assert [m["content"] for m in dms] == ["You took seat 1 of 2."]

            await call(session, "POST", f"{control}/gateway/drop", {"code": 4000})
            ping = await call(
                session,
                "POST",
                f"{control}/act/slash",
                {
                    "user_id": alice["user_id"],
                    "command": "ping",
                },
            )
            pong = await call(
                session,
                "GET",
                f"{control}/interactions/{ping['interaction_id']}?wait=settled",
            )
            assert pong["response_message"]["content"] == "pong"
            assert (await call(session, "GET", f"{control}/state"))["resumes"] == 1
    finally:
        await bot.stop()
