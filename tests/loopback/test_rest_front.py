"""Requests count against Discord's limits when they arrive, not when the emulator's loop reads
them, nor when the door's thread does (``bot/loopback/rest_front.py``).

A client on a thread of its own (as the bot is a process of its own) sends requests well
within a global limit while the emulator's event loop is blocked, as the soak's players'
CPU blocks it, or while the door's own thread is not run, as when the machine does not run
the soak's process for a moment: read late, they all seem to arrive at once. The kernel's
receive time says when they arrived.
"""

from __future__ import annotations

import asyncio
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable

import pytest

from bot.loopback import Emulator, rest_front
from bot.loopback.ratelimits import RateLimits

LIMIT = 10
"""The global limit here: requests a second."""


def send_at(url: str, at: float, statuses: list[int]) -> None:
    time.sleep(max(0.0, at - time.monotonic()))
    request = urllib.request.Request(url, headers={"Authorization": "Bot loopback-token"})
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            statuses.append(answer.status)
    except urllib.error.HTTPError as error:
        statuses.append(error.code)


async def sent_within_the_limit_while_the_loop_is_late(emulator: Emulator) -> list[int]:
    """16 requests, 8 in each of two seconds (at most 9 in any second as sent), while the
    emulator's loop is blocked for the whole time they are sent; their answers' statuses."""

    async def block_the_loop(seconds: float) -> None:
        time.sleep(seconds)  # the loop is late: nothing handled

    return await sent_within_the_limit(emulator, block_the_loop)


async def sent_within_the_limit_while_the_door_is_not_run(emulator: Emulator) -> list[int]:
    """The same 16 requests while the door's thread is not run (it sleeps, holding no lock:
    as when the machine runs other processes); the emulator's loop is free."""

    async def block_the_door(seconds: float) -> None:
        front = emulator._front
        assert front is not None
        front._loop.call_soon_threadsafe(time.sleep, seconds)
        await asyncio.sleep(seconds)

    return await sent_within_the_limit(emulator, block_the_door)


async def sent_within_the_limit(
    emulator: Emulator, block: Callable[[float], Awaitable[None]]
) -> list[int]:
    url = f"{emulator.api_base}/users/@me"
    start = time.monotonic() + 0.3
    times = [start + i * 0.1 for i in range(8)] + [start + 1.05 + i * 0.1 for i in range(8)]
    statuses: list[int] = []
    threads = [threading.Thread(target=send_at, args=(url, at, statuses)) for at in times]
    for thread in threads:
        thread.start()
    await asyncio.sleep(0.1)
    await block(times[-1] - time.monotonic() + 0.3)
    for thread in threads:
        await asyncio.to_thread(thread.join, 20)
    return statuses


def assert_served_and_counted_as_they_arrived(
    statuses: list[int], limits: RateLimits, seen_late: list[float], calls: list
) -> None:
    """Every request answered, none by the global limit, though they were seen together (within
    half a second: ``seen_late``) while counted over the two seconds they were sent in."""
    assert statuses == [200] * 16
    assert limits.served_by_route.get("global", 0) == 0
    assert max(seen_late) - min(seen_late) < 0.5
    assert max(call.started for call in calls) - min(call.started for call in calls) > 1.5


async def test_requests_sent_within_the_global_limit_are_never_refused_while_the_loop_is_late() -> (
    None
):
    limits = RateLimits(global_limit=LIMIT)
    async with Emulator(rate_limits=limits, rest_thread=True) as emulator:
        statuses = await sent_within_the_limit_while_the_loop_is_late(emulator)
        calls = [call for call in emulator.rest_calls if call.path == "/users/@me"]
    # They were handled together once the loop was free, but counted as they arrived.
    assert_served_and_counted_as_they_arrived(statuses, limits, [c.handled for c in calls], calls)


async def test_without_a_door_of_its_own_the_late_loop_counts_them_as_arriving_at_once() -> None:
    """What the 300-game soak met (global 429s in clumps while its loop was late): the
    emulator's loop read the requests late and counted them in one window."""
    limits = RateLimits(global_limit=LIMIT)
    async with Emulator(rate_limits=limits, rest_thread=False) as emulator:
        statuses = await sent_within_the_limit_while_the_loop_is_late(emulator)
    assert statuses.count(429) == limits.served_by_route["global"] > 0


async def test_requests_count_when_the_kernel_received_them_while_the_door_is_not_run() -> None:
    limits = RateLimits(global_limit=LIMIT)
    async with Emulator(rate_limits=limits, rest_thread=True) as emulator:
        statuses = await sent_within_the_limit_while_the_door_is_not_run(emulator)
        calls = [call for call in emulator.rest_calls if call.path == "/users/@me"]
    # The door's thread read them together once it ran again; they count as they arrived.
    assert_served_and_counted_as_they_arrived(statuses, limits, [c.read for c in calls], calls)
    assert all(call.started <= call.read for call in calls)


async def test_stamped_when_the_door_reads_them_they_seem_to_arrive_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What the door did before it asked the kernel (the 300-game soaks' global 429s after a
    restart, on a machine with twice as much to run as it has cores)."""
    monkeypatch.setattr(rest_front, "kernel_stamps", lambda sock: False)
    limits = RateLimits(global_limit=LIMIT)
    async with Emulator(rate_limits=limits, rest_thread=True) as emulator:
        statuses = await sent_within_the_limit_while_the_door_is_not_run(emulator)
    assert statuses.count(429) == limits.served_by_route["global"] > 0
