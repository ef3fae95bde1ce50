"""Run a bot as a separate OS process against the emulator, and kill it like a crash would.

Used by the process-level tests (the reference bot today, ``python -m bot`` once it exists)
and by benchmarks. Output goes to a log file so a failing test can show the bot's last words.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path

from . import Emulator

REPO_ROOT = Path(__file__).resolve().parents[2]


class BotProcess:
    """One run of a bot command; ``start`` again after ``kill`` for a restart on the same data."""

    def __init__(
        self,
        argv: Sequence[str],
        env: dict[str, str],
        log_path: Path,
        *,
        shards: Sequence[int] | None = None,
    ) -> None:
        """``shards``: the gateway shards this process runs (its ``SHARD_IDS``); ``None``: an
        unsharded bot, or one running every shard."""
        self.argv = list(argv)
        self.shards = None if shards is None else list(shards)
        self.env = {
            **env,
            "PYTHONPATH": os.pathsep.join([str(REPO_ROOT), env.get("PYTHONPATH", "")]),
        }
        self.log_path = log_path
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0

    async def start(self) -> None:
        self.starts += 1
        with self.log_path.open("ab") as log:
            log.write(f"--- start #{self.starts}: {' '.join(self.argv)}\n".encode())
            log.flush()
            self.process = await asyncio.create_subprocess_exec(
                *self.argv,
                cwd=REPO_ROOT,
                env=self.env,
                stdout=log,
                stderr=log,
                stdin=asyncio.subprocess.DEVNULL,
            )

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.returncode is None

    async def kill(self) -> None:
        """SIGKILL (``kill -9``): no cleanup, no flush, exactly like a crash or OOM kill."""
        if self.running:
            assert self.process is not None
            os.kill(self.process.pid, signal.SIGKILL)
            await asyncio.wait_for(self.process.wait(), timeout=10)

    async def stop(self, *, timeout: float = 5.0) -> None:
        """SIGTERM, then SIGKILL if the bot does not exit within ``timeout``."""
        if not self.running:
            return
        assert self.process is not None
        self.process.terminate()
        try:
            await asyncio.wait_for(self.process.wait(), timeout=timeout)
        except TimeoutError:
            await self.kill()

    def log_tail(self, lines: int = 40) -> str:
        if not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    async def wait_ready(self, emulator: Emulator, *, timeout: float = 20.0) -> None:
        """Wait for a fresh IDENTIFY from this run, of each of its shards (or fail with the
        bot's log)."""
        gateway = emulator.gateway
        identified_before = gateway.stats.identifies
        by_shard_before = dict(gateway.stats.identifies_by_shard)

        def ready() -> bool:
            if not self.running:
                raise AssertionError(f"the bot process exited:\n{self.log_tail()}")
            if self.shards is not None:
                return all(
                    gateway.is_connected(shard)
                    and gateway.stats.identifies_by_shard[shard] > by_shard_before.get(shard, 0)
                    for shard in self.shards
                )
            return gateway.connected and gateway.stats.identifies > identified_before

        try:
            await emulator.wait_for(ready, timeout=timeout, what="the bot process to connect")
        except AssertionError as error:
            raise AssertionError(f"{error}\n--- bot log ---\n{self.log_tail()}") from error


@contextlib.asynccontextmanager
async def bot_process(
    emulator: Emulator,
    log_path: Path,
    *,
    argv: Sequence[str] = (sys.executable, "-m", "bot"),
    database_url: str | None = None,
    ready_timeout: float = 20.0,
    settings: Mapping[str, str] | None = None,
    shards: Sequence[int] | None = None,
) -> AsyncIterator[BotProcess]:
    """Start a bot process pointed at ``emulator``; it is always stopped on exit.

    ``settings``: more environment variables for the bot (``AI_WORKERS`` …); ``shards``: the
    shards it runs (``SHARD_IDS``), whose sessions it must open before it counts as ready."""
    environment = {**emulator.bot_environment(database_url), **(settings or {})}
    process = BotProcess(argv, environment, log_path, shards=shards)
    await process.start()
    try:
        await process.wait_ready(emulator, timeout=ready_timeout)
        yield process
    finally:
        await process.stop()


GLORY_BOT = (sys.executable, "-m", "bot")
"""The bot as ``make run`` starts it: it registers its commands by itself (a new database has no
record of them, so the first start sends them; ``bot/interactions/command_sync.py``)."""


def glory_bot(
    emulator: Emulator, tmp_path: Path, settings: Mapping[str, str] | None = None
) -> contextlib.AbstractAsyncContextManager[BotProcess]:
    """The real bot (``python -m bot``) on a SQLite file in ``tmp_path``, without
    pictures unless ``settings`` ask for them (``PICTURES=on``): drawing every move costs CPU
    that made the timing of the other tests depend on the machine's load, as in SimCord's
    ``make_bot``; tests/loopback/test_pictures.py and the benchmarks draw them."""
    return bot_process(
        emulator,
        tmp_path / "bot.log",
        argv=GLORY_BOT,
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'glory.db'}",
        settings={"PICTURES": "off", **(settings or {})},
    )


@contextlib.asynccontextmanager
async def shard_bots(
    emulator: Emulator,
    workdir: Path,
    database_url: str,
    count: int,
    *,
    settings: Mapping[str, str] | None = None,
    ready_timeout: float = 60.0,
) -> AsyncIterator[list[BotProcess]]:
    """``count`` real bot processes on one database, process ``n`` running shard ``n`` of
    ``count`` (``SHARD_IDS=n``); started together, one of them registers the commands. Logs are
    ``workdir/bot-shard-n.log``, health files ``workdir/bot-shard-n.alive``. All are stopped on
    exit."""
    environment = {**emulator.bot_environment(database_url), **(settings or {})}
    processes = [
        BotProcess(
            GLORY_BOT,
            {
                **environment,
                "SHARD_COUNT": str(count),
                "SHARD_IDS": str(shard),
                "HEALTH_FILE": str(workdir / f"bot-shard-{shard}.alive"),
            },
            workdir / f"bot-shard-{shard}.log",
            shards=[shard],
        )
        for shard in range(count)
    ]
    try:
        for process in processes:
            await process.start()
        await asyncio.gather(
            *(process.wait_ready(emulator, timeout=ready_timeout) for process in processes)
        )
        await emulator.wait_for(lambda: emulator.commands.get(None), what="command sync")
        yield processes
    finally:
        for process in processes:
            await process.stop()
