"""discord.py's buckets are swept for idle ones once a minute
(bot/interactions/rate_limit_buckets.py).

These run discord.py's own ``HTTPClient.get_ratelimit``: they fail if a release stops sweeping
through ``_try_clear_expired_ratelimits`` or sweeps some other way.
"""

from __future__ import annotations

import asyncio

from discord.http import HTTPClient, Ratelimit

from bot.interactions.rate_limit_buckets import SWEEP_EVERY, sweep_idle_buckets_less_often

IDLE = 301.0
"""Seconds since its last request after which discord.py drops a bucket (300 in 2.7)."""


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _fill(http: HTTPClient, prefix: str, count: int, *, idle: bool) -> None:
    """Buckets as discord.py makes them, added without a sweep (as if made before it)."""
    for number in range(count):
        bucket = Ratelimit(None)
        if idle:
            bucket._last_request = asyncio.get_running_loop().time() - IDLE
        http._buckets[f"{prefix}{number}"] = bucket


async def test_discord_py_drops_idle_buckets_on_every_new_one_past_256() -> None:
    http = HTTPClient(asyncio.get_running_loop())
    _fill(http, "idle", 300, idle=True)
    http.get_ratelimit("new")
    assert set(http._buckets) == {"new"}  # the walk this module makes rarer


async def test_idle_buckets_are_swept_at_most_once_a_minute() -> None:
    http = HTTPClient(asyncio.get_running_loop())
    clock = Clock()
    sweep_idle_buckets_less_often(http, clock=clock)
    _fill(http, "idle", 300, idle=True)
    http.get_ratelimit("first")
    assert len(http._buckets) == 1  # the first new bucket swept the idle ones

    _fill(http, "more", 300, idle=True)
    clock.now += SWEEP_EVERY / 2
    http.get_ratelimit("second")
    assert len(http._buckets) == 302  # no walk: the last one was half a minute ago

    clock.now += SWEEP_EVERY / 2
    http.get_ratelimit("third")
    assert set(http._buckets) == {"first", "second", "third"}


async def test_buckets_in_use_are_never_swept() -> None:
    http = HTTPClient(asyncio.get_running_loop())
    clock = Clock()
    sweep_idle_buckets_less_often(http, clock=clock)
    _fill(http, "busy", 300, idle=False)
    clock.now += SWEEP_EVERY
    http.get_ratelimit("new")
    assert len(http._buckets) == 301


def test_the_bot_sweeps_its_buckets_less_often(simcord_bot) -> None:
    sweep = simcord_bot.http._try_clear_expired_ratelimits
    assert sweep.__qualname__.startswith(sweep_idle_buckets_less_often.__name__)
