"""A start that cannot work ends in one or two sentences, not a traceback (issue 15).

The real bot process (``python -m bot``) against the loopback emulator, or against nothing at
all: Discord unreachable, a token Discord refuses, a database that cannot be opened. Each ends
with exit status 2 (a setting to fix) or 3 (unreachable: a later try may work) and the catalog's
words as the last lines on stderr; ``LOG_LEVEL=DEBUG``
adds the traceback. The settings' own errors are in ``tests/bot/test_startup_messages.py``.
"""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from pathlib import Path

from bot.config import SETTINGS
from bot.loopback import Emulator
from bot.loopback.bot_process import REPO_ROOT

START_TIMEOUT = 60


def closed_port() -> int:
    """A port on 127.0.0.1 nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def environment(**settings: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {name for name, _ in SETTINGS} and key not in {"LC_ALL", "LC_MESSAGES"}
    }
    return {**env, "PYTHONPATH": str(REPO_ROOT), "LANG": "C.UTF-8", **settings}


async def start(cwd: Path, env: dict[str, str]) -> tuple[int, list[str]]:
    """Run ``python -m bot`` to its end; its exit status and the lines of its stderr."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=cwd,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        stdout, stderr = await asyncio.wait_for(process.communicate(), timeout=START_TIMEOUT)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert stdout == b""
    return process.returncode, stderr.decode().splitlines()


def emulator_settings(emulator: Emulator, **settings: str) -> dict[str, str]:
    return environment(
        **{
            "DISCORD_API_BASE": emulator.api_base,
            "DISCORD_GATEWAY_URL": emulator.gateway_url,
            "DISCORD_TOKEN": "loopback-token",
            **settings,
        }
    )


def no_traceback(lines: list[str]) -> None:
    assert not any("Traceback" in line for line in lines), "\n".join(lines)


async def test_discord_unreachable(tmp_path: Path) -> None:
    port = closed_port()
    api = f"http://127.0.0.1:{port}/api/v10"
    env = environment(
        DISCORD_TOKEN="x", DISCORD_API_BASE=api, DISCORD_GATEWAY_URL=f"ws://127.0.0.1:{port}/"
    )
    status, lines = await start(tmp_path, env)
    assert status == 3
    no_traceback(lines)
    first, second = lines[-2:]
    assert first.startswith(f"Could not reach Discord at {api}: Cannot connect to host 127.0.0.1:")
    assert first.endswith(".")
    assert second == (
        "Check this machine's internet connection (and DISCORD_API_BASE, if set) and start "
        "again; LOG_LEVEL=DEBUG shows the details."
    )
    assert not (tmp_path / "data").exists()  # nothing was opened before Discord answered


async def test_debug_shows_the_traceback_as_well(tmp_path: Path) -> None:
    port = closed_port()
    env = environment(
        DISCORD_TOKEN="x",
        DISCORD_API_BASE=f"http://127.0.0.1:{port}/api/v10",
        DISCORD_GATEWAY_URL=f"ws://127.0.0.1:{port}/",
        LOG_LEVEL="DEBUG",
    )
    status, lines = await start(tmp_path, env)
    assert status == 3
    assert any(line.startswith("Traceback") for line in lines)
    assert lines[-2].startswith("Could not reach Discord at")


async def test_a_token_discord_refuses(tmp_path: Path) -> None:
    async with Emulator(token="the-right-token") as emulator:
        status, lines = await start(tmp_path, emulator_settings(emulator, DISCORD_TOKEN="stale"))
    assert status == 2
    no_traceback(lines)
    assert lines[-1] == (
        "Discord rejected DISCORD_TOKEN. Copy a fresh token into .env and try again."
    )


async def test_postgresql_unreachable(tmp_path: Path) -> None:
    port = closed_port()
    url = f"postgresql+asyncpg://glory:secret@127.0.0.1:{port}/glory"
    async with Emulator() as emulator:
        status, lines = await start(tmp_path, emulator_settings(emulator, DATABASE_URL=url))
    assert status == 3
    no_traceback(lines)
    first, second = lines[-2:]
    shown = f"postgresql+asyncpg://glory:***@127.0.0.1:{port}/glory"
    assert first.startswith(f"Could not open the database {shown}: ")
    assert "secret" not in "\n".join(lines)
    assert second == (
        "Check DATABASE_URL, that the database server runs and accepts that user and password "
        "(or, for SQLite, that the directory is writable), and start again."
    )


async def test_sqlite_directory_cannot_be_made(tmp_path: Path) -> None:
    (tmp_path / "data").write_text("a file where the directory should be")
    url = f"sqlite+aiosqlite:///{tmp_path}/data/glory.db"
    async with Emulator() as emulator:
        status, lines = await start(tmp_path, emulator_settings(emulator, DATABASE_URL=url))
    assert status == 3
    no_traceback(lines)
    assert lines[-2] == f"Could not open the database {url}: File exists."


async def test_a_bot_discord_wants_sharded_is_told_to_set_shard_count(tmp_path: Path) -> None:
    """Discord closes an unsharded connection with 4011 once the bot is in too many servers
    (2,500; the emulator is told 1): the start ends saying which setting to use."""
    async with Emulator(max_guilds_per_shard=1) as emulator:
        await emulator.add_guild("second")
        status, lines = await start(tmp_path, emulator_settings(emulator))
    assert status == 2
    no_traceback(lines)
    assert lines[-1] == (
        "Discord requires sharding for a bot in this many servers (at most 2,500 per shard; "
        "shards now: none). Set SHARD_COUNT=auto, or a number of shards, and start again."
    )
