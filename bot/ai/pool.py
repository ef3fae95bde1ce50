"""Searches run in worker processes, never on the event loop.

A strong decision is a few hundred milliseconds of pure Python; on the loop it would hold up
every click of every game. ``games.ai.decide_json`` takes and returns plain JSON, so a process
pool needs nothing else. Workers start from a fork server (a clean interpreter that has
imported the engines once), not by forking the bot with its sockets and threads.

Each worker is a pool of one process of its own (a *lane*), so the bot knows which process runs
which search. That is what lets an AI seat's move pre-empt a hint (issue 31): a hint's search
is started as ``preemptible`` with a number of its own; ``preempt`` writes that number into
the lane's shared stop word and sends its worker ``SIGUSR1``, whose handler raises
``Preempted`` inside that search. A signal that comes before the search began is caught by the
search's first look at the stop word, and one that comes after it ended names a search that is
no longer running and stops nothing. The worker is free at once for the move, and the hint is
asked again later, at its full budget (``bot/ai/queue.py``). With ``workers=0`` (one thread of
the bot's process, for tests and tiny hosts) nothing can be pre-empted.

A search cannot be stopped from outside otherwise, so every request carries its own time
limit (``max_ms``). A worker that dies (killed, out of memory) breaks its lane; the next
request starts a new one.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import multiprocessing
import os
import signal
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from types import FrameType
from typing import Any

from bot.process.worker_processes import settle_worker
from games.ai import decide_json

log = logging.getLogger(__name__)


WORKER_NICENESS = 10
"""A search may use a whole core for half a second; at a lower priority it yields the CPU the
moment the bot has a click to answer (on a small host they share the cores)."""


PREEMPT_SIGNAL = signal.SIGUSR1
"""What ``preempt`` sends a worker running a hint's search."""

Search = Callable[[dict[str, Any]], dict[str, Any]]


class Preempted(Exception):
    """The search was stopped for an AI seat's move; ask for it again later."""


_running = 0
"""In a worker: the number of the preemptible search running now (0: none, or a move's)."""
_stop: Any = None
"""In a worker: its lane's stop word (shared memory), the number of the search to stop."""

WorkerPid = Any
"""A lane's shared word in which its worker writes its process id when it starts: the pool's
own way to know whom to signal (a ``ProcessPoolExecutor`` does not say which processes it
runs, except through a private attribute)."""


def _stopped() -> bool:
    return bool(_running) and _stop is not None and _stop.value == _running


def _on_preempt(signum: int, frame: FrameType | None) -> None:
    if _stopped():
        raise Preempted


def _warm(bot_pid: int, stop: Any = None, pid: WorkerPid = None) -> None:
    """Import the engines and the search before the first request; then as every worker."""
    import games.ai  # noqa: F401

    global _stop
    _stop = stop
    if pid is not None:
        pid.value = os.getpid()
    settle_worker(WORKER_NICENESS, bot_pid)
    signal.signal(PREEMPT_SIGNAL, _on_preempt)


def _search(function: Search, request: dict[str, Any], number: int) -> dict[str, Any]:
    """Run in a worker: ``function(request)``, stoppable by ``PREEMPT_SIGNAL`` if ``number``
    (a preemptible search's) is not 0."""
    global _running
    _running = number
    try:
        if _stopped():
            raise Preempted  # stopped before it began
        return function(request)
    finally:
        _running = 0


class SearchPool:
    """``workers`` processes, one lane each (0: one thread of this process, for tests and tiny
    hosts). ``function``: what a worker runs for a request (``decide_json``; tests give a
    stand-in, importable by the workers)."""

    def __init__(self, workers: int, function: Search = decide_json) -> None:
        self.workers = workers
        self.function = function
        self._executors: dict[int, Executor] = {}
        self._stops: dict[int, Any] = {}
        """Lane -> its stop word, shared with its worker process."""
        self._pids: dict[int, WorkerPid] = {}
        """Lane -> the word its worker process writes its id into."""
        self._busy: dict[int, int] = {}
        """Lane -> the number of the preemptible search running there (0: a move's)."""
        self._stopping: set[int] = set()
        self._numbers = itertools.count(1)

    @property
    def lanes(self) -> int:
        return max(1, self.workers)

    def _pool(self, lane: int = 0) -> Executor:
        executor = self._executors.get(lane)
        if executor is None:
            if self.workers <= 0:
                executor = ThreadPoolExecutor(1, thread_name_prefix="glory-ai")
            else:
                context = multiprocessing.get_context("forkserver")
                context.set_forkserver_preload(["games", "games.ai"])
                stop = self._stops.setdefault(lane, context.RawValue("q", 0))
                pid = self._pids[lane] = context.RawValue("q", 0)
                executor = ProcessPoolExecutor(
                    1, mp_context=context, initializer=_warm, initargs=(os.getpid(), stop, pid)
                )
            self._executors[lane] = executor
        return executor

    def start(self) -> None:
        """Start the worker processes now, at start-up, rather than at the first search.

        Workers are forked by multiprocessing's fork server, which the pictures' workers may
        have started already; a bot killed (kill -9) while it asks the fork server for a
        worker leaves the server printing a traceback into the bot's log. Asked at start-up,
        that moment is not in the middle of a game."""
        if self.workers > 0:
            for lane in range(self.lanes):
                self._pool(lane).submit(int)

    async def decide(self, request: dict[str, Any], *, preemptible: bool = False) -> dict[str, Any]:
        """``function(request)`` in a free worker; a broken one is replaced and asked again.
        Raises ``Preempted`` if ``preemptible`` and ``preempt`` stopped it. The caller (the
        search queue) runs at most ``lanes`` searches at once."""
        free = [lane for lane in range(self.lanes) if lane not in self._busy]
        if not free:  # more at once than lanes (not through the queue): wait in lane 0's line
            return await asyncio.get_running_loop().run_in_executor(
                self._pool(0), _search, self.function, request, 0
            )
        lane = free[0]
        number = next(self._numbers) if preemptible else 0
        self._busy[lane] = number
        loop = asyncio.get_running_loop()
        call = (_search, self.function, request, number)
        try:
            try:
                return await loop.run_in_executor(self._pool(lane), *call)
            except BrokenProcessPool:
                self._executors.pop(lane, None)  # the next request starts a new worker
                if lane in self._stopping:
                    raise Preempted from None  # it died as it was stopped: ask again later
                log.warning("an AI worker died; starting a new one")
                return await loop.run_in_executor(self._pool(lane), *call)
        finally:
            self._busy.pop(lane, None)
            self._stopping.discard(lane)

    def worker_pid(self, lane: int = 0) -> int:
        """The process id of ``lane``'s worker (0: none started yet, or threads)."""
        pid = self._pids.get(lane)
        return int(pid.value) if pid is not None else 0

    def preempt(self) -> bool:
        """Stop one running preemptible search (a hint's) to free its worker; False when none
        runs or nothing can be stopped here (threads)."""
        if self.workers <= 0:
            return False
        for lane, number in self._busy.items():
            if not number or lane in self._stopping or lane not in self._stops:
                continue
            self._stops[lane].value = number
            self._stopping.add(lane)
            pid = self.worker_pid(lane)
            if pid:  # 0: not started yet; its search's first look at the stop word stops it
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, PREEMPT_SIGNAL)
            return True
        return False

    def close(self) -> None:
        for executor in self._executors.values():
            executor.shutdown(wait=False, cancel_futures=True)
        self._executors.clear()
