"""Discord's global budget: every request the bot's token makes, paced within
``GLOBAL_REQUESTS_PER_SECOND`` (50 by default), turn DMs first, then hands, then tables.

Why: Discord allows a bot token about 50 requests a second in all, shared by every shard and
process (interaction callbacks and their webhooks aside). Past it Discord answers 429 with
``global: true``, and discord.py then stops every bot-route call until the window is over:
the rate-limited soak at 150 games ended in thousands of global 429s and a stalled game. A
pacer of our own keeps the bot under the limit, so the 429s never come, and chooses what goes
first when the bot needs more than it has:

- **Priorities**: a turn's DM (the ping that tells a player to move) first, then other hand
  DMs, then tables (and anything else). A waiting request is promoted after ``PROMOTE_SECONDS``
  per level, so under saturation the tables slow down but are never starved.
- **Fair between games**: within a priority the waiting games take turns (round robin), so a
  busy game cannot crowd out a quiet one; under saturation every game slows down evenly.
- **Within the limit in any second**: Discord counts requests in windows of a second that
  need not start when ours do; at most ``rate`` a second plus a burst go out in any second,
  ``rate`` being ``SHARE`` of the setting and the burst at most half the rest (``BURST``
  where the setting leaves room for it, fewer at 50 a second or less, one at least): the
  other half is for requests that arrive at Discord closer together than they were sent.
- **Several processes** on one PostgreSQL split the budget: each takes ``1/n`` of it, ``n``
  being the processes alive (``bot/storage/budget_shares.py`` keeps the count in PostgreSQL;
  no other service). One process (SQLite) takes it all.

The hook (``pace_requests``) is a trace on discord.py's HTTP session that every attempt of a
bot-route request waits in, retries included (interaction callbacks and webhooks share the
session but are outside Discord's global limit, and are not paced). The courier names what
each request is for with ``purpose(...)`` (a context variable, so the calls discord.py makes
inside inherit it).
Below the budget a request waits for nothing: the fast path is one clock read.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import os
import re
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import aiohttp

log = logging.getLogger(__name__)

TURN, HAND, TABLE = 0, 1, 2
"""Priorities: a turn's DM, another hand DM, a table (or anything else)."""
PRIORITY_NAMES = ("turn", "hand", "table")
DEFAULT_GLOBAL_REQUESTS_PER_SECOND = 50.0
SHARE = 0.9
"""The part of Discord's limit the pacer uses: with ``BURST`` on top it stays within it."""
BURST = 4
"""Requests that any second may hold on top of the steady rate (``GlobalBudget.ceiling``),
where the limit leaves room for them (``GlobalBudget.burst``)."""
JITTER_SHARE = 0.5
"""Of the part of the limit ``SHARE`` leaves, what a burst may take; the rest is for the way to
Discord: requests sent a moment apart can arrive together (a slow network, a busy event loop
on either side), and Discord counts them when they arrive. (The rate-limited soak in CI, with
a limit of 20 a second and a burst of 2, met a global 429 every minute or so.)"""
CATCH_UP_SECONDS = 0.25
"""What the budget saves up at most, in seconds of its steady rate (``saved_up``): a busy
event loop wakes the pacer late, and a bucket that held only the burst lost what the rate
gave meanwhile (the restarted bot of a 300-game soak, its loop late by tens of milliseconds
at every wake, let 15 to 40 requests a second through with a hundred waiting, and a game's
last table waited 45 s). The window of a second (``ceiling``) holds whatever the bucket."""
REFRESH_SECONDS = 5.0
"""How often, at most, a busy process counts again the processes it shares the budget with."""
PROMOTE_SECONDS = 4.0
"""A request waiting this long is served as if one priority higher (no starvation)."""

WINDOW_SECONDS = 1.0
"""Discord's global limit counts the requests of a second."""
UNSENT_SECONDS = 10.0
"""A request let through but never seen going out after this long is forgotten (it was
cancelled before it was sent)."""

WHOLE = 1.0 - 1e-9
"""One request's worth of budget (less a rounding error of the refill's arithmetic)."""

_PURPOSE: contextvars.ContextVar[tuple[int, int]] = contextvars.ContextVar(
    "glory_request_purpose", default=(TABLE, 0)
)


@contextlib.contextmanager
def purpose(priority: int, game_id: int = 0) -> Iterator[None]:
    """The requests made inside are for ``priority`` (``TURN``, ``HAND``, ``TABLE``) of
    ``game_id`` (their turn among the games waiting)."""
    token = _PURPOSE.set((priority, game_id))
    try:
        yield
    finally:
        _PURPOSE.reset(token)


class GlobalBudget:
    """Paces requests within ``per_second`` (this process's share of the global limit)."""

    def __init__(
        self,
        per_second: float = DEFAULT_GLOBAL_REQUESTS_PER_SECOND,
        *,
        processes: int = 1,
        clock: Callable[[], float] | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        """``clock``: ``time.monotonic`` by default (``_now``), not the event loop's
        ``time()``: uvloop's (the bot's loop) counts whole milliseconds, so requests that went
        out within a millisecond a second ago left the window a moment early, and a clump of
        them let as many more through (49 in a second as written, against 47.5, in a 300-game
        soak)."""
        self.limit = per_second
        self._sleep = sleep
        self.processes = max(1, processes)
        self._clock = clock or _now
        self._tokens = self.burst
        self._refilled: float | None = None
        self._out: deque[float] = deque()
        """When the requests of the last second went out (``went_out``), oldest first."""
        self._unsent: deque[float] = deque()
        """When the requests let through but not yet gone out were let through."""
        self._waiting: list[OrderedDict[int, deque[tuple[float, asyncio.Future[None], bool]]]] = [
            OrderedDict() for _ in PRIORITY_NAMES
        ]
        self._waiters = 0
        self._serving: asyncio.Task[None] | None = None
        self.counter: Callable[[], Awaitable[int]] | None = None
        """Counts the processes sharing the budget (several processes; ``share_with``)."""
        self._counting: asyncio.Task[None] | None = None
        self._count_due = 0.0
        self.granted = [0, 0, 0]
        """Requests let through, per priority (for tests and benchmarks)."""
        self.waited = 0
        """Requests that had to wait for the budget."""

    @property
    def rate(self) -> float:
        """Requests a second this process may make."""
        return self.limit * SHARE / self.processes

    @property
    def burst(self) -> float:
        """Requests a second may hold on top of the rate (and the budget at the start):
        ``BURST``, or fewer where ``rate`` and the burst together would leave less than
        ``JITTER_SHARE`` of what ``SHARE`` leaves of this process's part of the limit (a low
        setting, or several processes, each with a burst of its own); one at least."""
        room = self.limit * (1.0 - SHARE) * JITTER_SHARE / self.processes
        return max(1.0, min(float(BURST), room))

    @property
    def saved_up(self) -> float:
        """The most the budget holds after a quiet (or late) moment: the burst, or
        ``CATCH_UP_SECONDS`` of the rate where that is more. Whatever it holds, no second
        holds more than ``ceiling`` (``_room``)."""
        return max(self.burst, self.rate * CATCH_UP_SECONDS)

    @property
    def ceiling(self) -> float:
        """The most requests that may go out within any second: the steady rate and the burst.
        Requests are let through at that pace, but the event loop of a busy process can send
        several of them later and together (a kill -9's restart resuming hundreds of
        deliveries); the requests that went out in the last second and those let through but
        not yet out together stay below it (``went_out``)."""
        return self.rate + self.burst

    def went_out(self) -> None:
        """A request let through with ``acquire(track=True)`` went out (its headers were
        sent), or ended without going out."""
        if self._unsent:
            self._unsent.popleft()
        self._out.append(self._clock())

    def _room(self, now: float) -> bool:
        """Whether one more request may go out now without any second holding more than
        ``ceiling`` of them as sent."""
        while self._out and self._out[0] <= now - WINDOW_SECONDS:
            self._out.popleft()
        while self._unsent and self._unsent[0] <= now - UNSENT_SECONDS:
            self._unsent.popleft()
        return len(self._out) + len(self._unsent) + 1 <= self.ceiling + 1e-9

    def _room_in(self, now: float) -> float:
        """How long until ``_room`` may say yes (a short look again while only requests let
        through but not yet out fill the second)."""
        if self._out:
            return max(0.001, self._out[0] + WINDOW_SECONDS - now)
        return 0.01

    def share_with(self, processes: int) -> None:
        """``processes`` (this one included) share the limit from now on."""
        self.processes = max(1, processes)

    def _refill(self) -> None:
        now = self._clock()
        if self._refilled is not None:
            gained = (now - self._refilled) * self.rate
            self._tokens = min(self.saved_up, self._tokens + gained)
        self._refilled = now

    async def acquire(
        self, priority: int | None = None, game_id: int | None = None, *, track: bool = False
    ) -> None:
        """Wait for this request's turn (``priority`` and ``game_id`` default to the
        ``purpose`` the caller set); ``track``: the caller says when it went out
        (``went_out``), and until then it counts as going out now; otherwise it counts as
        gone out when let through."""
        if self.counter is not None:
            self._count_now_and_then()
        if priority is None or game_id is None:
            named_priority, named_game = _PURPOSE.get()
            priority = named_priority if priority is None else priority
            game_id = named_game if game_id is None else game_id
        if not self._waiters:
            self._refill()
            if self._tokens >= WHOLE and self._room(self._clock()):
                self._tokens -= 1.0
                self.granted[priority] += 1
                (self._unsent if track else self._out).append(self._clock())
                return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        queue = self._waiting[priority].setdefault(game_id, deque())
        queue.append((self._clock(), future, track))
        self._waiters += 1
        self.waited += 1
        if self._serving is None or self._serving.done():
            self._serving = asyncio.get_running_loop().create_task(self._serve())
        await future

    def describe(self) -> str:
        """The pacer's state in one line (``bot/outbox/inspect.py``)."""
        waiting = {
            PRIORITY_NAMES[p]: sum(len(q) for q in games.values())
            for p, games in enumerate(self._waiting)
        }
        serving = "none" if self._serving is None else "done" if self._serving.done() else "on"
        return (
            f"pacer: {self.rate:.1f}/s tokens {self._tokens:.2f} out in the last second "
            f"{len(self._out)} not yet out {len(self._unsent)} waiters {self._waiters} "
            f"{waiting} serving {serving} granted {self.granted} waited {self.waited}"
        )

    def _count_now_and_then(self) -> None:
        """Count the processes sharing the budget again, at most every ``REFRESH_SECONDS``
        and only while requests come (an idle process keeps no timer; it stays counted by
        the others while it lives, ``bot/storage/budget_shares.py``)."""
        now = self._clock()
        if now < self._count_due or (self._counting is not None and not self._counting.done()):
            return
        self._count_due = now + REFRESH_SECONDS
        self._counting = asyncio.get_running_loop().create_task(self._count())

    async def _count(self) -> None:
        assert self.counter is not None
        try:
            self.share_with(await self.counter())
        except Exception:  # the part stays as it was until the next count
            log.info("could not count the processes sharing Discord's budget", exc_info=True)

    async def _serve(self) -> None:
        """Hand out the budget to the waiting requests, one at a time, as it refills."""
        while self._waiters:
            self._refill()
            if self._tokens < WHOLE:
                await self._sleep((1.0 - self._tokens) / self.rate)
                continue
            now = self._clock()
            if not self._room(now):
                await self._sleep(self._room_in(now))
                continue
            picked = self._next()
            if picked is None:
                continue
            priority, future, track = picked
            if future.done():  # its caller gave up (cancelled)
                continue
            self._tokens -= 1.0
            self.granted[priority] += 1
            (self._unsent if track else self._out).append(now)
            future.set_result(None)
            # The next one at once if the budget has it: one a turn of a busy event loop
            # (tens of milliseconds) was fewer than the rate.

    def _next(self) -> tuple[int, asyncio.Future[None], bool] | None:
        """The next waiter: the highest priority (counting promotions for waiting), and
        within it the game whose turn it is (round robin)."""
        now = self._clock()
        best: tuple[float, int] | None = None
        for priority, games in enumerate(self._waiting):
            if not games:
                continue
            oldest = next(iter(games.values()))[0][0]
            effective = priority - (now - oldest) / PROMOTE_SECONDS
            if best is None or effective < best[0]:
                best = (effective, priority)
        if best is None:
            return None
        priority = best[1]
        games = self._waiting[priority]
        game_id, queue = next(iter(games.items()))
        _, future, track = queue.popleft()
        del games[game_id]
        if queue:
            games[game_id] = queue  # to the back: the other games' turn first
        self._waiters -= 1
        return priority, future, track


def _now() -> float:
    """The system's monotonic time to the nanosecond (the clock every process of the machine
    shares, and the emulator's kernel stamps are converted to)."""
    return time.monotonic()


_TOKEN_ROUTE = re.compile(r"/api/v\d+/(?!interactions/|webhooks/)")
"""A path of the bot's token: the API's, less interaction callbacks and webhooks (an
interaction's token, outside the global limit)."""


def pace_requests(http: Any, budget: GlobalBudget) -> None:
    """Make every request of discord.py's ``http`` (an ``HTTPClient``, before it logs in)
    wait for ``budget``: each attempt, as Discord counts each.

    The hook is a trace of the HTTP session (``on_request_start``, awaited before a request
    goes out): discord.py retries a request answered 429 or 5xx inside its own
    ``HTTPClient.request``, up to five times, and a hook around that method let those retries
    through unpaced (the 300-game soak's injected faults alone made about three a second, on
    top of the paced rate). Interaction callbacks and webhooks share the session and are let
    through (outside the global limit); so is the gateway's connection.

    A request counts as going out until its first bytes are written (``went_out``): for a
    request without a body that is when its headers are sent; a request with a body has its
    headers held back by aiohttp and written together with the body's first chunk, by a task
    of its own that the event loop runs later (``ClientRequest.write_bytes``), so it goes out
    with that chunk (``on_request_chunk_sent``, traced just before the chunk is written).
    ``GLORY_REQUEST_TIMES`` names a file that gets one line per paced request (when it was
    let through, its headers sent, it went out; ``time.monotonic()``, the clock every process
    of the machine shares): ``benchmarks/soak.py`` compares them with the emulator's."""
    trace = http.http_trace or aiohttp.TraceConfig()
    times = _request_times(os.environ.get(REQUEST_TIMES_ENV))

    async def paced(session: Any, context: Any, params: aiohttp.TraceRequestStartParams) -> None:
        if _TOKEN_ROUTE.search(params.url.path):
            await budget.acquire(track=True)
            context.glory_unsent = True
            if times is not None:
                context.glory_times = [time.monotonic(), 0.0, 0.0, params.method, params.url.path]

    def out(context: Any) -> None:
        if getattr(context, "glory_unsent", False):
            context.glory_unsent = False
            budget.went_out()

    def note(context: Any, which: int) -> None:
        stamps = getattr(context, "glory_times", None)
        if stamps is not None and not stamps[which]:
            stamps[which] = time.monotonic()

    async def headers_sent(
        session: Any, context: Any, params: aiohttp.TraceRequestHeadersSentParams
    ) -> None:
        note(context, 1)
        if not _has_body(params.headers):
            note(context, 2)
            out(context)  # aiohttp writes the headers at once

    async def chunk_sent(session: Any, context: Any, params: Any) -> None:
        note(context, 2)
        out(context)  # the body's first chunk, and the headers with it, written now

    async def ended(session: Any, context: Any, params: Any) -> None:
        out(context)  # ended (or failed) without its going out being seen
        if times is not None and hasattr(context, "glory_times"):
            granted, headers, written, method, path = context.glory_times
            del context.glory_times
            times(f"{granted:.6f} {headers:.6f} {written:.6f} {method} {path}\n")

    trace.on_request_start.append(paced)
    trace.on_request_headers_sent.append(headers_sent)
    trace.on_request_chunk_sent.append(chunk_sent)
    trace.on_request_end.append(ended)
    trace.on_request_exception.append(ended)
    http.http_trace = trace


REQUEST_TIMES_ENV = "GLORY_REQUEST_TIMES"


def _has_body(headers: Any) -> bool:
    """Whether a request with these headers has a body (aiohttp holds its headers back until
    the body's first chunk is written)."""
    length = headers.get("Content-Length")
    if length is not None:
        return length.strip() != "0"
    return "chunked" in headers.get("Transfer-Encoding", "").lower()


def _request_times(path: str | None) -> Callable[[str], Any] | None:
    """A line writer to ``path`` (appended, each line written at once, so that a kill -9
    loses none), or None."""
    if not path:
        return None
    file = open(path, "a", buffering=1)  # noqa: SIM115 - open for the process's life
    return file.write
