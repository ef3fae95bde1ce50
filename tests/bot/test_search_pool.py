"""The AI's worker processes (``bot/ai/pool.py``): a hint's search is stopped at once when an
AI seat's move needs its worker, a move's search never is, and a stop that comes when the
search is over leaves the worker as it was."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator

import pytest

from bot.ai.pool import PREEMPT_SIGNAL, Preempted, SearchPool
from tests.bot.search_stand_ins import waits


@pytest.fixture
async def pool() -> AsyncIterator[SearchPool]:
    search = SearchPool(1, function=waits)
    search.start()
    assert await search.decide({"name": "ready", "seconds": 0}) == {"answer": "ready"}
    yield search
    search.close()


async def running(search: SearchPool) -> None:
    for _ in range(500):
        if search._busy:
            await asyncio.sleep(0.2)  # the worker has taken the request
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the search never started")


async def test_a_preempted_hint_search_stops_at_once_and_frees_its_worker(pool) -> None:
    hint = asyncio.ensure_future(pool.decide({"name": "hint", "seconds": 60}, preemptible=True))
    await running(pool)
    began = time.monotonic()
    assert pool.preempt()
    with pytest.raises(Preempted):
        await hint
    assert await pool.decide({"name": "move", "seconds": 0}) == {"answer": "move"}
    assert time.monotonic() - began < 10, "stopped, not run to its end"


async def test_a_moves_search_is_never_preempted(pool) -> None:
    move = asyncio.ensure_future(pool.decide({"name": "move", "seconds": 0.5}))
    await running(pool)
    assert not pool.preempt()
    assert await move == {"answer": "move"}


async def test_a_stop_that_comes_after_the_search_leaves_the_worker_serving(pool) -> None:
    assert await pool.decide({"name": "before", "seconds": 0}) == {"answer": "before"}
    pid = pool.worker_pid(0)
    assert pid and pid != os.getpid()
    os.kill(pid, PREEMPT_SIGNAL)  # the worker is idle: nothing to stop
    await asyncio.sleep(0.2)
    assert await pool.decide({"name": "after", "seconds": 0}) == {"answer": "after"}
    assert pool.worker_pid(0) == pid, "the same worker serves on"
