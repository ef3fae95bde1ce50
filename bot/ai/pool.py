"""Searches run in worker processes, never on the event loop.

A strong decision is a few hundred milliseconds of pure Python; on the loop it would hold up
every click of every game. ``games.ai.decide_json`` takes and returns plain JSON, so a process
pool needs nothing else. Workers start from a fork server (a clean interpreter that has
imported the engines once), not by forking the bot with its sockets and threads.

A search cannot be stopped from outside once it runs, so every request carries its own time
limit (``max_ms``). A worker that dies (killed, out of memory) breaks the pool; the next
request starts a new one.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.process.worker_processes import settle_worker
from games.ai import decide_json

log = logging.getLogger(__name__)


WORKER_NICENESS = 10
"""A search may use a whole core for half a second; at a lower priority it yields the CPU the
moment the bot has a click to answer (on a small host they share the cores)."""


def _warm(bot_pid: int) -> None:
    """Import the engines and the search before the first request; then as every worker."""
    import games.ai  # noqa: F401

    settle_worker(WORKER_NICENESS, bot_pid)


class SearchPool:
    """``workers`` processes (0: one thread of this process, for tests and tiny hosts)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._executor: Executor | None = None

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.workers <= 0:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="glory-ai")
            else:
                context = multiprocessing.get_context("forkserver")
                context.set_forkserver_preload(["games", "games.ai"])
                self._executor = ProcessPoolExecutor(
                    self.workers, mp_context=context, initializer=_warm, initargs=(os.getpid(),)
                )
        return self._executor

    def start(self) -> None:
        """Start the worker processes now, at start-up, rather than at the first search.

        Workers are forked by multiprocessing's fork server, which the pictures' workers may
        have started already; a bot killed (kill -9) while it asks the fork server for a
        worker leaves the server printing a traceback into the bot's log. Asked at start-up,
        that moment is not in the middle of a game."""
        if self.workers > 0:
            self._pool().submit(int)

    async def decide(self, request: dict[str, Any]) -> dict[str, Any]:
        """``decide_json(request)`` in a worker; a broken pool is replaced and asked again."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(), decide_json, request)
        except BrokenProcessPool:
            log.warning("an AI worker died; starting new ones")
            self._executor = None
            return await loop.run_in_executor(self._pool(), decide_json, request)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
