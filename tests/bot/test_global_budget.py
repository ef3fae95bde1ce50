"""Discord's global budget (``bot/outbox/budget.py``): every token request paced within the
limit, turn DMs first, then hands, then tables, games taking turns, nothing starved."""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import time
from typing import Any

import aiohttp
import discord
import discord.http
import pytest

from bot.loopback import Emulator
from bot.loopback.client_overrides import discord_py_pointed_at
from bot.outbox import budget
from bot.outbox.budget import BURST, PROMOTE_SECONDS, GlobalBudget, pace_requests


class Clock:
    """A clock that moves only when the pacer sleeps (so the tests take no time)."""

    def __init__(self) -> None:
        self.now = 0.0
        self.served: list[tuple[float, str]] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)


async def requests(pacer: GlobalBudget, clock: Clock, wanted: list[tuple[int, int, str]]) -> None:
    async def one(priority: int, game: int, name: str) -> None:
        await pacer.acquire(priority, game, track=True)
        clock.served.append((clock.now, name))
        pacer.went_out()

    await asyncio.gather(*(one(*request) for request in wanted))


async def test_below_the_budget_nothing_waits() -> None:
    clock = Clock()
    pacer = GlobalBudget(50, clock=clock, sleep=clock.sleep)
    burst = int(pacer.burst)
    await requests(pacer, clock, [(budget.TABLE, 1, f"t{n}") for n in range(burst)])
    assert [at for at, _ in clock.served] == [0.0] * burst
    assert pacer.waited == 0


async def test_no_second_holds_more_than_the_limit() -> None:
    """Over any window of a second (Discord's need not start with ours) at most the limit."""
    clock = Clock()
    pacer = GlobalBudget(50, clock=clock, sleep=clock.sleep)
    await requests(pacer, clock, [(budget.HAND, n % 7, str(n)) for n in range(400)])
    times = [at for at, _ in clock.served]
    for start in times:
        assert sum(1 for at in times if start <= at < start + 1.0) <= 50
    assert times[-1] >= (400 - pacer.burst) / pacer.rate - 1e-6


async def test_turn_dms_go_first_then_hands_then_tables() -> None:
    clock = Clock()
    pacer = GlobalBudget(10, clock=clock, sleep=clock.sleep)
    burst = int(pacer.burst)
    await requests(pacer, clock, [(budget.TABLE, 1, "busy")] * burst)  # the burst is used up
    wanted = [(budget.TABLE, 2, "table"), (budget.HAND, 3, "hand"), (budget.TURN, 4, "turn")]
    await requests(pacer, clock, wanted)
    assert [name for _, name in clock.served[burst:]] == ["turn", "hand", "table"]


async def test_games_take_turns_within_a_priority() -> None:
    """A game with many waiting requests does not crowd out another: they alternate."""
    clock = Clock()
    pacer = GlobalBudget(10, clock=clock, sleep=clock.sleep)
    burst = int(pacer.burst)
    await requests(pacer, clock, [(budget.TABLE, 9, "x")] * burst)
    busy = [(budget.HAND, 1, "busy")] * 6
    quiet = [(budget.HAND, 2, "quiet")] * 2
    await requests(pacer, clock, busy + quiet)
    order = [name for _, name in clock.served[burst:]]
    assert order[:4] == ["busy", "quiet", "busy", "quiet"]


async def test_a_waiting_table_is_promoted_and_never_starved() -> None:
    """Under a flood of turn DMs (each answered by a new one, as moves go on) a table still
    goes out, once it has waited a few seconds."""
    clock = Clock()
    pacer = GlobalBudget(10, clock=clock, sleep=clock.sleep)
    burst = int(pacer.burst)
    await requests(pacer, clock, [(budget.TABLE, 9, "x")] * burst)
    left = [300]

    async def turns(game: int) -> None:
        while left[0] > 0:
            left[0] -= 1
            await pacer.acquire(budget.TURN, game)
            clock.served.append((clock.now, "turn"))

    async def table() -> None:
        await pacer.acquire(budget.TABLE, 1)
        clock.served.append((clock.now, "table"))

    await asyncio.gather(table(), *(turns(game) for game in range(20)))
    table_at = next(at for at, name in clock.served if name == "table")
    assert table_at <= 3 * PROMOTE_SECONDS  # two levels up, behind turns waiting meanwhile
    assert clock.served[-1][1] == "turn"  # the flood went on after it


async def test_no_second_holds_more_than_a_low_limit_or_a_processs_part_of_it() -> None:
    """The burst on top of the steady rate fits in what the limit leaves: at 20 a second, and
    for each of several processes (each has a burst of its own), as at 50."""
    for limit, processes in ((20, 1), (10, 1), (50, 2), (50, 3)):
        clock = Clock()
        pacer = GlobalBudget(limit, processes=processes, clock=clock, sleep=clock.sleep)
        await requests(pacer, clock, [(budget.HAND, n % 5, str(n)) for n in range(200)])
        times = [at for at, _ in clock.served]
        part = limit / processes
        for start in times:
            assert sum(1 for at in times if start <= at < start + 1.0) <= part, (limit, processes)
    assert GlobalBudget(50).burst == pytest.approx(2.5)  # BURST would leave nothing for the way
    assert GlobalBudget(1000).burst == BURST


async def test_processes_sharing_the_limit_each_take_their_part() -> None:
    pacer = GlobalBudget(50)
    alone = pacer.rate
    pacer.share_with(4)
    assert pacer.rate == alone / 4


async def test_requests_a_late_loop_sends_together_never_pass_the_ceiling_within_a_second() -> None:
    """A busy process (a restart resuming hundreds of deliveries) lets requests through at
    the pace but sends them later and together: those let through and not yet out count as
    going out now, so no second holds more than the ceiling as sent (Discord counts them as
    they arrive)."""
    clock = Clock()
    pacer = GlobalBudget(50, clock=clock, sleep=clock.sleep)
    sent: list[float] = []

    async def one() -> None:
        await pacer.acquire(track=True)
        while clock.now < 1.0:  # the loop is busy: nothing goes out before 1 s
            await asyncio.sleep(0)
        pacer.went_out()
        sent.append(clock.now)

    await asyncio.gather(*(one() for _ in range(150)))
    sent.sort()
    busiest = max(bisect.bisect_left(sent, at + 1.0) - i for i, at in enumerate(sent))
    assert busiest <= pacer.ceiling
    assert sum(1 for at in sent if at < 1.05) >= 45, "the late ones went out together"


async def test_a_busy_event_loop_still_gets_the_whole_rate_and_never_passes_the_ceiling() -> None:
    """The restarted bot of a 300-game soak woke its pacer tens of milliseconds late at every
    turn of its busy event loop: one request a turn, and a bucket that saved up only the
    burst, let 15 to 40 requests a second through while a hundred waited (a game's last table
    waited 45 s). Here every turn of the loop takes 50 ms and every sleep wakes 100 ms late:
    the pacer still lets most of its rate through (what a late wake loses of the window of a
    second is lost), and no second holds more than its ceiling."""
    clock = Clock()

    async def late_sleep(seconds: float) -> None:
        await clock.sleep(seconds + 0.1)

    pacer = GlobalBudget(50, clock=clock, sleep=late_sleep)
    done = False

    async def busy_loop() -> None:
        while not done:
            clock.now += 0.05  # every turn of the event loop: the other tasks' work
            await asyncio.sleep(0)

    busy = asyncio.create_task(busy_loop())
    try:
        await requests(pacer, clock, [(budget.HAND, n % 7, str(n)) for n in range(450)])
    finally:
        done = True
        await busy
    times = sorted(at for at, _ in clock.served)
    busiest = max(bisect.bisect_left(times, at + 1.0) - i for i, at in enumerate(times))
    assert busiest <= pacer.ceiling
    # three quarters of the rate at least (it was under half: one request a turn, 20 a second)
    assert times[-1] <= 450 / (0.75 * pacer.rate)


async def test_every_attempt_of_discord_pys_requests_waits_for_the_budget_retries_too() -> None:
    """The hook on discord.py's HTTP session, with the purpose the courier names: a request
    Discord answers 429 is tried again inside discord.py, and that attempt waits too (Discord
    counts it); an interaction's callback (outside the global limit) does not wait."""
    pacer = GlobalBudget(50)
    async with Emulator() as emulator:
        with discord_py_pointed_at(emulator.api_base, emulator.gateway_url):
            http = discord.http.HTTPClient(asyncio.get_running_loop())
            pace_requests(http, pacer)
            try:
                await http.static_login("loopback-token")  # GET /users/@me
                assert pacer.granted == [0, 0, 1]  # outside any purpose: a table's priority
                emulator.faults.rate_limit("GET", r"^/users/\d+$", retry_after=0.01, times=1)
                with budget.purpose(budget.TURN, 5):
                    user = await http.get_user(emulator.bot_user.id)
                assert user["id"] == str(emulator.bot_user.id)
                assert len(emulator.calls("GET", f"/users/{emulator.bot_user.id}")) == 2
                assert pacer.granted == [2, 0, 1], "the retry after the 429 waited too"
                route = discord.http.Route("POST", "/interactions/1/token/callback")
                with contextlib.suppress(discord.HTTPException):
                    await http.request(route, json={"type": 6})
                assert emulator.calls("POST", "/interactions/"), "the callback was sent"
                assert pacer.granted == [2, 0, 1], "a callback is outside the budget"
            finally:
                await http.close()


async def test_a_request_counts_as_out_when_its_bytes_are_written_not_its_headers() -> None:
    """aiohttp holds a body's request headers back and writes them with the body's first
    chunk, in a task of its own that the event loop runs later: a busy loop (the restarted
    bot resuming hundreds of deliveries) wrote requests whose headers it had "sent" across
    a second together, and the pacer, counting them out at their headers, let through more
    than the limit within a second as Discord received them. Here the loop is busy for 0.3 s
    after each request's headers: a POST counts as out when Discord (the emulator's kernel)
    received it, not before; a GET, which has no body, as soon as its headers are written."""
    pacer = GlobalBudget(50)
    outs: list[float] = []
    counted = pacer.went_out

    def went_out() -> None:
        outs.append(time.monotonic())
        counted()

    pacer.went_out = went_out  # type: ignore[method-assign]
    headers_at: list[float] = []

    async def busy_after_the_headers(session: Any, context: Any, params: Any) -> None:
        headers_at.append(time.monotonic())
        asyncio.get_running_loop().call_soon(time.sleep, 0.3)  # the loop is busy meanwhile

    async with Emulator(rest_thread=True) as emulator:
        with discord_py_pointed_at(emulator.api_base, emulator.gateway_url):
            http = discord.http.HTTPClient(asyncio.get_running_loop())
            trace = aiohttp.TraceConfig()
            trace.on_request_headers_sent.append(busy_after_the_headers)
            http.http_trace = trace
            pace_requests(http, pacer)
            try:
                await http.static_login("loopback-token")  # GET /users/@me: no body
                route = discord.http.Route(
                    "POST", "/channels/{channel_id}/messages", channel_id=emulator.channel.id
                )
                await http.request(route, json={"content": "a turn's ping"})
            finally:
                await http.close()
        get = emulator.calls("GET", "/users/@me")[-1]
        post = emulator.calls("POST", f"/channels/{emulator.channel.id}/messages")[-1]
    get_out, post_out = outs
    get_headers, post_headers = headers_at
    # received is the kernel's time at the emulator's door, on the same clock (monotonic)
    assert get_out - get_headers < 0.1, "a request without a body goes with its headers"
    assert get_out <= get.started + 0.05
    assert post.started - post_headers >= 0.25, "the busy loop wrote the POST late"
    assert post_out >= post.started - 0.05, "counted out when it went out, not before"


def test_the_pacer_counts_in_the_systems_time_not_the_event_loops_milliseconds() -> None:
    """uvloop's ``loop.time()`` (the bot's loop) counts whole milliseconds: requests that went
    out within a millisecond a second ago left the window at its start, a millisecond early,
    and a clump of them let as many more through (a second with 49 requests as they were
    written, against the pacer's 47.5, in a 300-game soak)."""
    uvloop = pytest.importorskip("uvloop")

    async def two_readings() -> tuple[float, float]:
        pacer = GlobalBudget(50)
        first = pacer._clock()
        until = time.monotonic() + 0.0002
        while time.monotonic() < until:  # a fifth of a millisecond
            pass
        return first, pacer._clock()

    first, second = uvloop.run(two_readings())
    assert 0 < second - first < 0.001
