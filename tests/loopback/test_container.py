"""The container as written, without Docker (issue 33): the environment the bot sees under
compose, and the image's health check run against a started bot.

There is no Docker engine where the tests run, so the test does what Docker does with these
files: the image's ``ENV`` lines, then ``env_file:`` (which overrides them, an empty value
too), then the service's ``environment:`` (which overrides both, with ``${VAR:?}``
interpolation from the same ``.env``). That effective environment starts the real bot
(``python -m bot``), and the ``HEALTHCHECK``'s own command, taken from the Dockerfile, must
call it healthy once the bot is connected and unhealthy when its file goes stale: with
``HEALTH_FILE=`` empty (as the example file used to set it, which left containers unhealthy
forever) and with a file of one's own. Only what cannot exist here is replaced: the database
(compose's is PostgreSQL at the host ``postgres``), Discord (the emulator) and the container's
``/tmp`` (a directory of the test, through ``TMPDIR``, where both processes look for it).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from dotenv import dotenv_values

from bot.loopback import Emulator
from bot.loopback.bot_process import REPO_ROOT, BotProcess
from bot.process.config import SETTINGS

DOCKERFILE = REPO_ROOT / "Dockerfile"
COMPOSE = REPO_ROOT / "compose.yaml"
EXAMPLE = REPO_ROOT / ".env.example"
STALE_SECONDS = 100
"""Older than the check's 90 s."""


def image_environment() -> dict[str, str]:
    """The final stage's ``ENV`` (``NAME=value`` pairs, continued lines joined)."""
    text = DOCKERFILE.read_text().replace("\\\n", " ")
    final = text.split("\nFROM ")[-1]
    env: dict[str, str] = {}
    for line in final.splitlines():
        if line.startswith("ENV "):
            for name, value in re.findall(r"(\w+)=(\S+)", line[4:]):
                env[name] = value
    return env


def image_workdir() -> str:
    final = DOCKERFILE.read_text().split("\nFROM ")[-1]
    (workdir,) = re.findall(r"^WORKDIR (\S+)$", final, re.M)
    return workdir


def health_command() -> list[str]:
    """The ``HEALTHCHECK``'s ``CMD`` in exec form."""
    text = DOCKERFILE.read_text().replace("\\\n", " ")
    match = re.search(r"^HEALTHCHECK .*?CMD (\[.*\])$", text, re.M)
    assert match, "the Dockerfile has a HEALTHCHECK in exec form"
    return json.loads(match.group(1))


def compose_service(name: str) -> tuple[str, dict[str, str]]:
    """``env_file`` and ``environment`` of one service in compose.yaml (a reader for the plain
    block mappings the file uses: no YAML library is installed)."""
    lines = COMPOSE.read_text().splitlines()
    start = lines.index(f"  {name}:")
    env_file = ""
    environment: dict[str, str] = {}
    in_environment = False
    for line in lines[start + 1 :]:
        if line and not line.startswith("    "):
            break
        stripped = line.strip()
        if line.startswith("    ") and not line.startswith("      "):
            in_environment = stripped == "environment:"
            if stripped.startswith("env_file:"):
                env_file = stripped.split(":", 1)[1].strip()
        elif in_environment and stripped:
            key, value = stripped.split(":", 1)
            environment[key.strip()] = value.strip()
    return env_file, environment


def interpolate(value: str, variables: dict[str, str]) -> str:
    """Compose's ``${VAR:?message}`` and ``${VAR:-default}``."""

    def one(match: re.Match[str]) -> str:
        name, kind, rest = match.group(1), match.group(2), match.group(3)
        given = variables.get(name) or ""
        if kind == ":?" and not given:
            raise AssertionError(f"compose refuses to start: {rest}")
        return given or (rest if kind == ":-" else "")

    return re.sub(r"\$\{(\w+)(:\?|:-)?([^}]*)\}", one, value)


def effective_environment(env_file: Path) -> dict[str, str]:
    """What the glory service's process sees: image ENV < env_file < environment."""
    name, overrides = compose_service("glory")
    assert name == ".env"
    from_file = {key: value or "" for key, value in dotenv_values(env_file).items()}
    return {
        **image_environment(),
        **from_file,
        **{key: interpolate(value, from_file) for key, value in overrides.items()},
    }


def env_file_from_example(path: Path, health_line: str) -> Path:
    """The example file as a host fills it in, with ``health_line`` for HEALTH_FILE."""
    text = EXAMPLE.read_text()
    text = text.replace("DISCORD_TOKEN=\n", "DISCORD_TOKEN=loopback-token\n")
    text = text.replace("POSTGRES_PASSWORD=\n", "POSTGRES_PASSWORD=0123abcd\n")
    text = re.sub(r"^#?HEALTH_FILE=.*$", health_line, text, flags=re.M)
    path.write_text(text)
    return path


async def run_health_check(env: dict[str, str], cwd: Path) -> tuple[int, str]:
    argv = health_command()
    if argv[0] == "python":
        argv = [sys.executable, *argv[1:]]
    process = await asyncio.create_subprocess_exec(
        *argv, cwd=cwd, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    out, err = await asyncio.wait_for(process.communicate(), timeout=60)
    assert err == b"", err.decode()
    return process.returncode or 0, out.decode().strip()


def test_the_database_lands_on_the_volume_as_documented(tmp_path: Path) -> None:
    """``docker run --env-file .env`` with the example file: the image's SQLite file on /data;
    and an env file that sets DATABASE_URL empty (or to the old example's ./data/glory.db)
    lands there too, relative to the image's working directory."""
    env = {**image_environment(), **dotenv_values(env_file_from_example(tmp_path / ".env", ""))}
    assert env["DATABASE_URL"] == "sqlite+aiosqlite:////data/glory.db"
    default = next(default for name, default in SETTINGS if name == "DATABASE_URL")
    relative = str(default).removeprefix("sqlite+aiosqlite:///")
    assert os.path.normpath(os.path.join(image_workdir(), relative)) == "/data/glory.db"
    assert "VOLUME [\"/data\"]" in DOCKERFILE.read_text()


@pytest.fixture
def short_tmp() -> Iterator[Path]:
    """A directory of the test with a short path (``tmp_path`` is long under xdist)."""
    path = Path(tempfile.mkdtemp(prefix="glory-tmp-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.mark.parametrize("health", ["empty", "set"])
async def test_the_health_check_sees_the_bot_compose_starts(
    tmp_path: Path, short_tmp: Path, health: str
) -> None:
    # The container's /tmp must be a short path: the AI pool's forkserver puts its socket in
    # TMPDIR, and a Unix socket's path holds at most 107 bytes (pytest's own tmp_path under
    # xdist is already about 70).
    container_tmp = short_tmp
    own = tmp_path / "state" / "alive"
    own.parent.mkdir()
    line = "HEALTH_FILE=" if health == "empty" else f"HEALTH_FILE={own}"
    effective = effective_environment(env_file_from_example(tmp_path / ".env", line))
    assert effective["HEALTH_FILE"] == ("" if health == "empty" else str(own))
    assert effective["DATABASE_URL"] == "postgresql+asyncpg://glory:0123abcd@postgres/glory"
    expected = container_tmp / "glory-alive" if health == "empty" else own

    base = {
        key: value
        for key, value in os.environ.items()
        if key not in {name for name, _ in SETTINGS} and key not in {"LC_ALL", "LANG"}
    }
    async with Emulator() as emulator:
        env = {
            **base,
            **effective,
            "PATH": os.environ["PATH"],
            "PYTHONPATH": str(REPO_ROOT),
            "TMPDIR": str(container_tmp),
            "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/glory.db",
            "DISCORD_API_BASE": emulator.api_base,
            "DISCORD_GATEWAY_URL": emulator.gateway_url,
            "PICTURES": "off",
        }
        workdir = tmp_path / "workdir"
        workdir.mkdir()
        status, said = await run_health_check(env, workdir)
        assert status == 1 and said.startswith(f"unhealthy: {expected} does not exist"), said

        bot = BotProcess((sys.executable, "-m", "bot"), env, tmp_path / "bot.log")
        await bot.start()
        try:
            await bot.wait_ready(emulator, timeout=60)
            await emulator.wait_for(expected.exists, timeout=30, what="the health file")
            status, said = await run_health_check(env, workdir)
            assert status == 0 and said.startswith(f"healthy: {expected} touched "), said
        finally:
            await bot.stop()
    stale = time.time() - STALE_SECONDS
    os.utime(expected, (stale, stale))
    status, said = await run_health_check(env, workdir)
    assert status == 1 and said.startswith(f"unhealthy: {expected} was last touched "), said
