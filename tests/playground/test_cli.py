"""``glory playground`` as a developer runs it: it says where the page is, the page shows the
bot's registered commands, and SIGTERM stops the bot and the page and removes the temporary
directory."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import aiohttp

from bot.i18n import t

READY = re.compile(r"(http://127\.0\.0\.1:\d+/)")
ROOT = Path(__file__).resolve().parents[2]


def playground_command(*arguments: str) -> list[str]:
    return [sys.executable, "-m", "bot", "playground", *arguments]


def test_the_help_speaks_the_developers_language() -> None:
    env = {**os.environ, "LANG": "de_DE.UTF-8"}
    done = subprocess.run(
        playground_command("--help"), capture_output=True, text=True, env=env, timeout=60, cwd=ROOT
    )
    assert done.returncode == 0
    assert t("playground.cli.description", "de")[:40] in " ".join(done.stdout.split())
    assert "--port" in done.stdout and "--players" in done.stdout


def test_a_busy_port_is_refused_with_a_clear_message() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            playground_command("--port", str(port)),
            capture_output=True,
            text=True,
            env={**os.environ, "LANG": "en_US.UTF-8"},
            timeout=60,
            cwd=ROOT,
        )
    assert done.returncode == 2
    assert done.stderr.strip() == t("playground.cli.port_busy", "en", port=port)


async def test_the_playground_serves_the_page_and_stops_cleanly_on_sigterm() -> None:
    process = await asyncio.create_subprocess_exec(
        *playground_command("--port", "0", "--pictures", "off", "--players", "ann,ben"),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "LANG": "en_US.UTF-8"},
        cwd=ROOT,
    )
    assert process.stdout is not None
    output: list[str] = []
    try:
        url = None
        while url is None:
            line = (await asyncio.wait_for(process.stdout.readline(), 90)).decode()
            assert line, f"the playground ended early: {output}"
            output.append(line)
            if match := READY.search(line):
                url = match.group(1)
        log = Path((await process.stdout.readline()).decode().split(": ", 1)[1].strip())
        assert log.name == "bot.log" and log.exists()
        headers = {"Origin": url.rstrip("/")}
        async with (
            aiohttp.ClientSession() as page,
            page.get(url + "api/state", headers=headers) as r,
        ):
            state = await r.json()
        assert [p["name"] for p in state["players"]] == ["ann", "ben"]
        assert "play" in {command["name"] for command in state["commands"]}
    finally:
        process.send_signal(signal.SIGTERM)
        rest, errors = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 0, errors.decode()
    assert rest.decode().strip().splitlines()[-1] == t("playground.cli.stopped", "en")
    assert not log.parent.exists()  # the temporary database and log are gone
