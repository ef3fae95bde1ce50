"""discord.py's rate-limit buckets are swept for idle ones once a minute, not with every new one.

discord.py keeps one ``Ratelimit`` per route and major parameter, and a DM channel is a major
parameter: every player gives the bot a bucket for sending, one for editing and one for
deleting in their DM. Once it holds 256 buckets, discord.py walks all of them each time it
makes a new one, to drop those idle for five minutes (``HTTPClient.get_ratelimit``). A bot
with a few hundred active players holds thousands, makes new ones with every new player, and
nearly none are idle: in ``benchmarks/bot_load.py`` at 300 clicks a second those walks took
3 % of the bot's CPU (py-spy), each one holding the event loop a millisecond or more, longer
the more players are active. Idle buckets are still dropped, at most ``SWEEP_EVERY`` seconds
after they turned idle.

``HTTPClient._try_clear_expired_ratelimits`` is discord.py's internal API; the lock files pin
discord.py, and tests/bot/test_rate_limit_buckets.py fails if a release stops calling it.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from discord.http import HTTPClient

SWEEP_EVERY = 60.0
"""Seconds between two sweeps for idle buckets (discord.py drops a bucket idle for 300 s)."""


def sweep_idle_buckets_less_often(
    http: HTTPClient,
    every: float = SWEEP_EVERY,
    clock: Callable[[], float] = time.monotonic,
) -> None:
    """Make ``http`` sweep its idle buckets at most once every ``every`` seconds."""
    sweep: Callable[[], None] = http._try_clear_expired_ratelimits
    last_sweep: float | None = None

    def sweep_now_and_then() -> None:
        nonlocal last_sweep
        now = clock()
        if last_sweep is not None and now - last_sweep < every:
            return
        last_sweep = now
        sweep()

    http._try_clear_expired_ratelimits = sweep_now_and_then  # type: ignore[method-assign]
