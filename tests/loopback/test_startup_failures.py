"""A start that cannot work ends in one or two sentences, not a traceback (issue 15).

The real bot process (``python -m bot``) against the loopback emulator, or against nothing at
all: Discord unreachable, a token Discord refuses, a database that cannot be reached, refuses
the login, does not exist or (SQLite) cannot be written. Each ends with exit status 2 (a setting
or something else permanent to fix) or 3 (unreachable: a later try may work) and the catalog's
words as the last lines on stderr; ``LOG_LEVEL=DEBUG``
adds the traceback. The settings' own errors are in ``tests/bot/test_startup_messages.py``.
"""

from __future__ import annotations

import asyncio
import os
import socket
import sys
import uuid
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from bot.loopback import Emulator
from bot.loopback.bot_process import REPO_ROOT
from bot.process.config import SETTINGS, redact_url
from bot.storage.engine import normalise_url
from tests.store.postgres import fresh_database, server_url

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
        "Check DATABASE_URL and that the database server runs and accepts connections from this "
        "machine; the bot tries again when started again."
    )


async def test_sqlite_directory_cannot_be_made(tmp_path: Path) -> None:
    """Permanent: exit status 2, so systemd does not restart it every ten seconds."""
    (tmp_path / "data").write_text("a file where the directory should be")
    url = f"sqlite+aiosqlite:///{tmp_path}/data/glory.db"
    async with Emulator() as emulator:
        status, lines = await start(tmp_path, emulator_settings(emulator, DATABASE_URL=url))
    assert status == 2
    no_traceback(lines)
    assert lines[-2:] == [
        f"Could not open the SQLite file {tmp_path}/data/glory.db: File exists.",
        "Make its directory writable for the user the bot runs as (or point DATABASE_URL at "
        "another file) and start again.",
    ]


def unopenable_sqlite_file(root: Path) -> str:
    """A SQLite URL whose file SQLite cannot open or create: in a directory this user may not
    write to (for root, which may write anywhere, the file's name is taken by a directory:
    the same refusal from SQLite, "unable to open database file")."""
    data = root / "data"
    data.mkdir()
    if os.geteuid() == 0:
        (data / "glory.db").mkdir()
    else:
        data.chmod(0o555)
    return f"sqlite+aiosqlite:///{data}/glory.db"


UNDER_LOAD_RUNS = 50
AT_ONCE = 5


async def test_an_unwritable_sqlite_directory_never_prints_a_traceback_under_load(
    tmp_path: Path,
) -> None:
    """aiosqlite stops a connection that failed to open on its own thread; when the event loop
    closed first, that thread printed a traceback after the sentence (2 runs in 19 under
    load). 50 runs, five at a time on the shared cores: the sentence is always the last word."""

    async def one(number: int) -> tuple[int, list[str]]:
        home = tmp_path / f"run{number}"
        home.mkdir()
        url = unopenable_sqlite_file(home)
        return await start(home, emulator_settings(emulator, DATABASE_URL=url))

    async with Emulator() as emulator:
        results = []
        for first in range(0, UNDER_LOAD_RUNS, AT_ONCE):
            results += await asyncio.gather(
                *(one(number) for number in range(first, first + AT_ONCE))
            )
    for status, lines in results:
        assert status == 2, lines
        no_traceback(lines)
        assert not any("Event loop is closed" in line for line in lines), lines
        assert lines[-2].startswith("Could not open the SQLite file "), lines
        assert lines[-2].endswith("/glory.db: unable to open database file."), lines
        assert lines[-1].startswith("Make its directory writable"), lines


async def test_a_login_postgresql_refuses_is_permanent(tmp_path: Path) -> None:
    base = make_url(normalise_url(server_url()))
    url = base.set(username="glory_no_such_role", password="secret").render_as_string(False)
    async with Emulator() as emulator:
        status, lines = await start(tmp_path, emulator_settings(emulator, DATABASE_URL=url))
    assert status == 2
    no_traceback(lines)
    shown = redact_url(url)
    assert lines[-2].startswith(f"The database {shown} refused the login: "), lines
    assert "glory_no_such_role" in lines[-2] and "secret" not in "\n".join(lines)
    assert lines[-1].startswith("Check the user and password in DATABASE_URL and start again.")


async def test_a_user_who_may_not_create_tables_is_permanent(tmp_path: Path) -> None:
    """A user who may log in but not create tables in ``public`` (PostgreSQL 15's default for
    anyone but the database's owner) cannot run the migrations, and no restart changes that."""
    base = make_url(normalise_url(server_url()))
    role = f"glory_reader_{uuid.uuid4().hex[:8]}"
    admin = create_async_engine(base, isolation_level="AUTOCOMMIT")
    try:
        async with fresh_database() as url:
            owner = create_async_engine(url, isolation_level="AUTOCOMMIT")
            async with owner.connect() as db:
                await db.execute(text(f"CREATE ROLE {role} LOGIN"))
                await db.execute(text("REVOKE CREATE ON SCHEMA public FROM PUBLIC"))
            await owner.dispose()
            reader_url = make_url(url).set(username=role, password=None).render_as_string(False)
            async with Emulator() as emulator:
                status, lines = await start(
                    tmp_path, emulator_settings(emulator, DATABASE_URL=reader_url)
                )
    finally:
        async with admin.connect() as connection:
            await connection.execute(text(f"DROP ROLE IF EXISTS {role}"))
        await admin.dispose()
    assert status == 2, lines
    no_traceback(lines)
    shown = redact_url(reader_url)
    assert lines[-2].startswith(f"The database {shown} let the bot in but not create"), lines
    assert lines[-1].startswith("Give that user the right to create tables there")


async def test_a_missing_postgresql_database_is_permanent(tmp_path: Path) -> None:
    base = make_url(normalise_url(server_url()))
    url = base.set(database="glory_no_such_database").render_as_string(False)
    async with Emulator() as emulator:
        status, lines = await start(tmp_path, emulator_settings(emulator, DATABASE_URL=url))
    assert status == 2
    no_traceback(lines)
    assert lines[-2].startswith(f"The database {redact_url(url)} does not exist: "), lines
    assert lines[-1].startswith("Create it (createdb, or CREATE DATABASE)")


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
