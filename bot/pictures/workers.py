"""Where pictures are drawn: worker processes (or threads, for tests), one lane per kind.

Why processes: Pillow holds the interpreter lock for much of a drawing (text, pasting,
palette mapping), so a picture drawn in a thread of the bot still stalled its event loop;
at 100 moves/s the clicks' p99 went from 5 ms to 345 ms in ``benchmarks/bot_load.py``. Why
lanes: a click's answer waits for the player's hand, which must not queue behind the tables
the couriers draw, so hands and tables have a worker each.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.worker_processes import settle_worker

log = logging.getLogger(__name__)

NICENESS = {"tables": 10, "hands": 0}
"""A table's picture may wait (the courier shows the game as it is once it is drawn, so
tables drawn late are drawn less often); a hand answers a click. On a small host the table
worker yields the CPU to the bot and to the hands (``benchmarks/bot_load.py``)."""


def _start_worker(niceness: int) -> None:
    """Load the drawing code and its font before the first picture; then as every worker."""
    from bot.pictures import draw  # noqa: F401
    from bot.pictures.fonts import font

    font(14)
    settle_worker(niceness)


class PictureWorkers:
    """``processes`` worker processes per lane (0: one thread per lane)."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self._executors: dict[str, Executor] = {}

    def _executor(self, lane: str) -> Executor:
        executor = self._executors.get(lane)
        if executor is None:
            if self.processes <= 0:
                executor = ThreadPoolExecutor(1, thread_name_prefix=f"pictures-{lane}")
            else:
                context = multiprocessing.get_context("forkserver")
                context.set_forkserver_preload(["bot.pictures.draw"])
                executor = ProcessPoolExecutor(
                    self.processes,
                    mp_context=context,
                    initializer=_start_worker,
                    initargs=(NICENESS.get(lane, 0),),
                )
            self._executors[lane] = executor
        return executor

    def start(self, lanes: Sequence[str]) -> None:
        """Start the lanes' worker processes now, at start-up (see ``SearchPool.start``)."""
        if self.processes > 0:
            for lane in lanes:
                self._executor(lane).submit(int)

    async def run(self, lane: str, draw: Callable[[Any], bytes], scene: Any) -> bytes:
        """``draw(scene)`` in the lane's worker; a broken pool is replaced and asked again."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(lane), draw, scene)
        except BrokenProcessPool:
            log.warning("a picture worker died; starting a new one")
            self._executors.pop(lane, None)
            return await loop.run_in_executor(self._executor(lane), draw, scene)

    def close(self) -> None:
        for executor in self._executors.values():
            executor.shutdown(wait=False, cancel_futures=True)
        self._executors.clear()
