"""Requests count against Discord's limits when they arrive, not when the emulator's loop reads
them (``bot/loopback/rest_front.py``).

A client on a thread of its own (as the bot is a process of its own) sends requests well
within a global limit while the emulator's event loop is blocked, as the soak's players'
CPU blocks it: read late, they all seem to arrive at once.
"""

from __future__ import annotations

import asyncio
import threading
import time
import urllib.error
import urllib.request

from bot.loopback import Emulator
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
    url = f"{emulator.api_base}/users/@me"
    start = time.monotonic() + 0.3
    times = [start + i * 0.1 for i in range(8)] + [start + 1.05 + i * 0.1 for i in range(8)]
    statuses: list[int] = []
    threads = [threading.Thread(target=send_at, args=(url, at, statuses)) for at in times]
    for thread in threads:
        thread.start()
    await asyncio.sleep(0.1)
    time.sleep(times[-1] - time.monotonic() + 0.3)  # the loop is late: nothing handled
    for thread in threads:
        await asyncio.to_thread(thread.join, 20)
    return statuses


async def test_requests_sent_within_the_global_limit_are_never_refused_while_the_loop_is_late() -> (
    None
):
    limits = RateLimits(global_limit=LIMIT)
    async with Emulator(rate_limits=limits, rest_thread=True) as emulator:
        statuses = await sent_within_the_limit_while_the_loop_is_late(emulator)
        calls = [call for call in emulator.rest_calls if call.path == "/users/@me"]
    assert statuses == [200] * 16
    assert limits.served_by_route.get("global", 0) == 0
    # They were handled together once the loop was free, but counted as they arrived.
    assert max(call.handled for call in calls) - min(call.handled for call in calls) < 0.5
    assert max(call.started for call in calls) - min(call.started for call in calls) > 1.5


async def test_without_a_door_of_its_own_the_late_loop_counts_them_as_arriving_at_once() -> None:
    """What the 300-game soak met (global 429s in clumps while its loop was late): the
    emulator's loop read the requests late and counted them in one window."""
    limits = RateLimits(global_limit=LIMIT)
    async with Emulator(rate_limits=limits, rest_thread=False) as emulator:
        statuses = await sent_within_the_limit_while_the_loop_is_late(emulator)
    assert statuses.count(429) == limits.served_by_route["global"] > 0
