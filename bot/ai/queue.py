"""The order in which searches reach the AI workers: AI seats' own moves first, then hints, one
game at a time in turn, never more waiting than the queue holds, nothing searched for a
position that is already gone.

Without it every search went straight to the worker pool's own first-come queue, which has no
bound: a player clicking Hint over and over filled it with searches for positions the game had
left, and the AI seats of every game waited behind them (issue 31). Here a search is handed to
the pool only when a worker is free (``slots`` at a time), so the queue's order is what counts:

* **AI moves before hints, and a move pre-empts a running hint.** A move is what a table waits
  for; a hint is one player's wish. An AI seat never waits for queued hints, and when every
  worker is busy and one of them runs a hint, that hint's search is stopped at once
  (``SearchPool.preempt``) and goes back to the front of its game's line, to be searched
  again, at its full budget, once the moves are done. So an AI seat waits only for other AI
  seats' moves (in worker processes; with ``AI_WORKERS=0``, a thread, it may also wait for
  the one search running).
* **Hints fair between games.** Each game has its own line of hints, and the lines take turns,
  so one busy table cannot starve the others.
* **Bounded.** At most ``hint_limit`` hints wait at once; one more is refused at once
  (``QueueFull``), and the player is told to ask again in a moment.
* **Stale hints dropped before they run.** A hint carries a check (``fresh``) made just before
  its search would start; if the game moved on meanwhile, the search is skipped and the hint
  answers ``None``.

Remembering hints already searched and one hint at a time per player are the hint flow's part
(``bot/flows/hints.py``); this module only orders and bounds the searches.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.ai.pool import Preempted, SearchPool

log = logging.getLogger(__name__)

SHORTEST_MS = 100.0
"""The least time worth a search for a move (see ``move``): with less left before the move is
due, the seat plays its ``late`` request instead (the rules-based player: no search)."""
HINT_LIMIT = 16
"""Hints that may wait for a worker at once (each game's player on turn asks for one position
at a time, so this is about as many games with a hint pending)."""

Fresh = Callable[[], Awaitable[bool]]


class QueueFull(Exception):
    """Too many hints are waiting for a search; ask again in a moment."""


@dataclass
class SearchTiming:
    """When a search was queued, handed to a worker and answered (``time.time()``, so the
    stamps compare with the database's and the emulator's); ``None`` for a step not reached."""

    queued: float = field(default_factory=time.time)
    started: float | None = None
    ended: float | None = None
    preempted: int = 0
    """How often the search was stopped for an AI seat's move and queued again (a hint)."""
    max_ms: float | None = None
    """The time limit the search was given when it started."""
    late: bool = False
    """Whether it started too late for a search, and the ``late`` request was decided."""


@dataclass
class _Job:
    request: dict[str, Any]
    fresh: Fresh | None
    timing: SearchTiming = field(default_factory=SearchTiming)
    game_id: int = 0
    deadline: float | None = None
    late: dict[str, Any] | None = None
    future: asyncio.Future[dict[str, Any] | None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class SearchQueue:
    """Orders the searches sent to ``pool``: ``slots`` run at once (one per worker)."""

    def __init__(self, pool: SearchPool, slots: int, hint_limit: int = HINT_LIMIT) -> None:
        self.pool = pool
        self.slots = max(1, slots)
        self.hint_limit = hint_limit
        self.running = 0
        self._moves: deque[_Job] = deque()
        self._hints: OrderedDict[int, deque[_Job]] = OrderedDict()
        self._waiting_hints = 0
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def waiting(self) -> tuple[int, int]:
        """Moves and hints waiting for a worker (not the ones running)."""
        return len(self._moves), self._waiting_hints

    async def move(
        self,
        request: dict[str, Any],
        timing: SearchTiming | None = None,
        *,
        deadline: float | None = None,
        late: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """An AI seat's decision: ahead of every waiting hint (``timing``: filled in as the
        search goes, for the AI's timing log).

        ``deadline`` (the event loop's time): when the answer is due. A search that starts
        late, behind other seats' moves, is given only the time left until then instead of its
        whole ``max_ms``; with less than ``SHORTEST_MS`` left, ``late`` is decided instead
        (when given). So when more moves come than the workers can search at full length,
        searches get shorter and the line shrinks again, rather than every table waiting
        longer and longer."""
        job = _Job(request, None, timing or SearchTiming(), deadline=deadline, late=late)
        self._moves.append(job)
        self._pump()
        if self._moves and self.running >= self.slots:
            self.pool.preempt()  # a hint's worker, if one runs a hint, is free in a moment
        answer = await job.future
        assert answer is not None  # a move has no freshness check, so it is never dropped
        return answer

    def hint(
        self, game_id: int, request: dict[str, Any], fresh: Fresh
    ) -> asyncio.Future[dict[str, Any] | None]:
        """A hint's search, in ``game_id``'s line; resolves to ``None`` when ``fresh()`` says,
        just before the search would start, that the position is gone. Raises ``QueueFull``
        when ``hint_limit`` hints wait already."""
        if self._waiting_hints >= self.hint_limit:
            self._forget_abandoned()
        if self._waiting_hints >= self.hint_limit:
            raise QueueFull
        job = _Job(request, fresh, game_id=game_id)
        self._hints.setdefault(game_id, deque()).append(job)
        self._waiting_hints += 1
        self._pump()
        return job.future

    def _forget_abandoned(self) -> None:
        """Take out the hints nobody waits for any more (their player was told to ask again
        later), so that they no longer count against the bound."""
        for game_id in list(self._hints):
            line = self._hints[game_id]
            kept = deque(job for job in line if not job.future.done())
            self._waiting_hints -= len(line) - len(kept)
            if kept:
                self._hints[game_id] = kept
            else:
                del self._hints[game_id]

    def _next(self) -> _Job | None:
        if self._moves:
            return self._moves.popleft()
        while self._hints:
            game_id, line = next(iter(self._hints.items()))
            job = line.popleft()
            self._waiting_hints -= 1
            if line:
                self._hints.move_to_end(game_id)  # the next game's turn
            else:
                del self._hints[game_id]
            if not job.future.done():  # a cancelled waiter needs no search
                return job
        return None

    def _pump(self) -> None:
        while self.running < self.slots:
            job = self._next()
            if job is None:
                return
            self.running += 1
            task = asyncio.get_running_loop().create_task(self._run(job))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _run(self, job: _Job) -> None:
        try:
            if job.fresh is not None and not await job.fresh():
                answer = None  # the position is gone: no search for it
            elif job.fresh is not None and self._moves:
                self._again(job)  # a move came while the position was checked: it goes first
                return
            else:
                job.timing.started = time.time()
                request = job.request
                if job.deadline is not None:
                    left = (job.deadline - asyncio.get_running_loop().time()) * 1000
                    limit = request.get("max_ms")
                    if left < SHORTEST_MS and job.late is not None:
                        request, job.timing.late = job.late, True
                    else:
                        shortened = max(SHORTEST_MS, left if limit is None else min(limit, left))
                        request = {**request, "max_ms": shortened}
                job.timing.max_ms = request.get("max_ms")
                if job.fresh is None:
                    answer = await self.pool.decide(request)
                else:
                    answer = await self.pool.decide(job.request, preemptible=True)
                job.timing.ended = time.time()
        except Preempted:
            job.timing.preempted += 1
            self._again(job)
        except Exception as error:  # noqa: BLE001 - handed to whoever waits for it
            if not job.future.done():
                job.future.set_exception(error)
        else:
            if not job.future.done():
                job.future.set_result(answer)
        finally:
            self.running -= 1
            self._pump()

    def _again(self, job: _Job) -> None:
        """A pre-empted hint goes back to the front of its game's line (beyond the bound, if
        need be: it had its place already)."""
        if job.future.done():
            return
        self._hints.setdefault(job.game_id, deque()).appendleft(job)
        self._hints.move_to_end(job.game_id, last=False)
        self._waiting_hints += 1

    async def close(self) -> None:
        """Cancel what waits and what runs (a search in a worker finishes on its own)."""
        for job in self._moves:
            job.future.cancel()
        for line in self._hints.values():
            for job in line:
                job.future.cancel()
        self._moves.clear()
        self._hints.clear()
        self._waiting_hints = 0
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
