"""The search queue in front of the AI workers (``bot/ai/queue.py``): AI moves go before hints,
hints take turns between games, the queue is bounded, a hint whose position is gone is dropped
before its search runs, and no more searches run at once than there are workers."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.ai.pool import Preempted
from bot.ai.queue import SHORTEST_MS, QueueFull, SearchQueue


class GatedPool:
    """A stand-in for ``SearchPool``: records what it is asked, answers when released."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.running = 0
        self.most_at_once = 0
        self.gate = asyncio.Event()
        self.preempts = 0

    def preempt(self) -> bool:
        self.preempts += 1
        return False  # a thread's search cannot be stopped

    async def decide(self, request: dict[str, Any], *, preemptible: bool = False) -> dict[str, Any]:
        self.asked.append(request["name"])
        self.running += 1
        self.most_at_once = max(self.most_at_once, self.running)
        try:
            await self.gate.wait()
        finally:
            self.running -= 1
        return {"answer": request["name"]}


def request(name: str) -> dict[str, Any]:
    return {"name": name}


async def always_fresh() -> bool:
    return True


async def settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


async def test_ai_moves_go_before_every_waiting_hint() -> None:
    pool = GatedPool()
    queue = SearchQueue(pool, slots=1)  # type: ignore[arg-type]
    busy = asyncio.ensure_future(queue.move(request("running")))
    await settle()
    hints = [queue.hint(game, request(f"hint {game}"), always_fresh) for game in (1, 2)]
    move = asyncio.ensure_future(queue.move(request("move")))
    await settle()
    assert pool.asked == ["running"]
    pool.gate.set()
    await asyncio.gather(busy, move, *hints)
    assert pool.asked == ["running", "move", "hint 1", "hint 2"]
    assert move.result() == {"answer": "move"}


async def test_hints_take_turns_between_games() -> None:
    pool = GatedPool()
    queue = SearchQueue(pool, slots=1)  # type: ignore[arg-type]
    busy = asyncio.ensure_future(queue.move(request("running")))
    await settle()
    names = [(1, "a1"), (1, "a2"), (1, "a3"), (2, "b1"), (3, "c1"), (2, "b2")]
    hints = [queue.hint(game, request(name), always_fresh) for game, name in names]
    pool.gate.set()
    await asyncio.gather(busy, *hints)
    assert pool.asked == ["running", "a1", "b1", "c1", "a2", "b2", "a3"]


async def test_the_queue_refuses_a_hint_beyond_its_bound_and_takes_one_again_later() -> None:
    pool = GatedPool()
    queue = SearchQueue(pool, slots=1, hint_limit=2)  # type: ignore[arg-type]
    busy = asyncio.ensure_future(queue.move(request("running")))
    await settle()
    first = queue.hint(1, request("first"), always_fresh)
    second = queue.hint(2, request("second"), always_fresh)
    with pytest.raises(QueueFull):
        queue.hint(3, request("third"), always_fresh)
    assert queue.waiting == (0, 2)
    pool.gate.set()
    await asyncio.gather(busy, first, second)
    assert queue.waiting == (0, 0)
    again = queue.hint(3, request("third"), always_fresh)
    assert await again == {"answer": "third"}


async def test_a_hint_whose_position_is_gone_is_dropped_before_its_search_runs() -> None:
    pool = GatedPool()
    pool.gate.set()
    queue = SearchQueue(pool, slots=1)  # type: ignore[arg-type]
    checked: list[str] = []

    async def gone() -> bool:
        checked.append("gone")
        return False

    stale = queue.hint(1, request("stale"), gone)
    fresh = queue.hint(2, request("fresh"), always_fresh)
    assert await stale is None
    assert await fresh == {"answer": "fresh"}
    assert checked == ["gone"] and pool.asked == ["fresh"]


async def test_a_hint_nobody_waits_for_any_more_is_not_searched() -> None:
    pool = GatedPool()
    queue = SearchQueue(pool, slots=1)  # type: ignore[arg-type]
    busy = asyncio.ensure_future(queue.move(request("running")))
    await settle()
    abandoned = queue.hint(1, request("abandoned"), always_fresh)
    kept = queue.hint(2, request("kept"), always_fresh)
    abandoned.cancel()
    pool.gate.set()
    await asyncio.gather(busy, kept)
    assert pool.asked == ["running", "kept"]


async def test_no_more_searches_run_at_once_than_there_are_workers() -> None:
    pool = GatedPool()
    queue = SearchQueue(pool, slots=2)  # type: ignore[arg-type]
    jobs = [asyncio.ensure_future(queue.move(request(f"move {n}"))) for n in range(3)]
    await settle()
    jobs += [queue.hint(n, request(f"hint {n}"), always_fresh) for n in range(3)]
    await settle()
    assert pool.running == 2
    pool.gate.set()
    await asyncio.gather(*jobs)
    assert pool.most_at_once == 2
    assert pool.asked[:3] == ["move 0", "move 1", "move 2"]


async def test_a_failed_search_reaches_its_waiter_and_frees_the_worker() -> None:
    class FailingPool(GatedPool):
        async def decide(
            self, request: dict[str, Any], *, preemptible: bool = False
        ) -> dict[str, Any]:
            if request["name"] == "broken":
                raise RuntimeError("the worker died")
            return await super().decide(request, preemptible=preemptible)

    pool = FailingPool()
    pool.gate.set()
    queue = SearchQueue(pool, slots=1)  # type: ignore[arg-type]
    with pytest.raises(RuntimeError, match="worker died"):
        await queue.move(request("broken"))
    assert await queue.move(request("next")) == {"answer": "next"}
    assert queue.running == 0


class PreemptiblePool(GatedPool):
    """A stand-in whose ``preempt`` stops the running hint as a worker process's would."""

    def __init__(self) -> None:
        super().__init__()
        self.stoppable: list[asyncio.Future[None]] = []

    def preempt(self) -> bool:
        for stop in self.stoppable:
            if not stop.done():
                stop.set_result(None)
                return True
        return False

    async def decide(self, request: dict[str, Any], *, preemptible: bool = False) -> dict[str, Any]:
        if not preemptible:
            return await super().decide(request)
        self.asked.append(request["name"])
        stop = asyncio.get_running_loop().create_future()
        self.stoppable.append(stop)
        gate = asyncio.ensure_future(self.gate.wait())
        await asyncio.wait([stop, gate], return_when=asyncio.FIRST_COMPLETED)
        if stop.done():
            gate.cancel()
            raise Preempted
        stop.cancel()
        return {"answer": request["name"]}


async def test_an_ai_move_preempts_a_running_hint_which_is_searched_again_after_it() -> None:
    pool = PreemptiblePool()
    queue = SearchQueue(pool, slots=1)  # type: ignore[arg-type]
    hint = queue.hint(1, request("hint"), always_fresh)
    await settle()
    assert pool.asked == ["hint"]
    move = asyncio.ensure_future(queue.move(request("move")))
    await settle()
    assert pool.asked == ["hint", "move"], "the move runs at once, the hint stopped"
    pool.gate.set()
    assert await move == {"answer": "move"}
    assert await hint == {"answer": "hint"}
    assert pool.asked == ["hint", "move", "hint"], "the hint searched again, from the start"


async def test_a_move_never_preempts_another_move() -> None:
    pool = PreemptiblePool()
    queue = SearchQueue(pool, slots=1)  # type: ignore[arg-type]
    first = asyncio.ensure_future(queue.move(request("first")))
    await settle()
    second = asyncio.ensure_future(queue.move(request("second")))
    await settle()
    assert pool.asked == ["first"]
    pool.gate.set()
    assert await asyncio.gather(first, second) == [{"answer": "first"}, {"answer": "second"}]


async def test_a_late_move_gets_only_the_time_left_or_if_too_little_its_rules_based_move() -> None:
    limits: list[float] = []

    class LimitPool(GatedPool):
        async def decide(
            self, request: dict[str, Any], *, preemptible: bool = False
        ) -> dict[str, Any]:
            limits.append(request["max_ms"])
            return await super().decide(request, preemptible=preemptible)

    pool = LimitPool()
    queue = SearchQueue(pool, slots=1)  # type: ignore[arg-type]
    now = asyncio.get_running_loop().time()
    busy = asyncio.ensure_future(queue.move({"name": "running", "max_ms": 450}))
    await settle()
    on_time = asyncio.ensure_future(
        queue.move({"name": "on time", "max_ms": 450}, deadline=now + 10)
    )
    late = asyncio.ensure_future(queue.move({"name": "late", "max_ms": 450}, deadline=now + 0.3))
    overdue = asyncio.ensure_future(queue.move({"name": "overdue", "max_ms": 450}, deadline=now))
    instead = asyncio.ensure_future(
        queue.move(
            {"name": "too late to search", "max_ms": 450},
            deadline=now,
            late={"name": "the rules-based move", "max_ms": None},
        )
    )
    pool.gate.set()
    await asyncio.gather(busy, on_time, late, overdue, instead)
    assert limits[:2] == [450, 450], "no deadline, and one far enough away: the whole limit"
    assert SHORTEST_MS <= limits[2] <= 300
    assert limits[3] == SHORTEST_MS, "overdue and nothing else to play: the shortest search"
    assert instead.result() == {"answer": "the rules-based move"}
    assert "too late to search" not in pool.asked


async def test_hints_nobody_waits_for_no_longer_count_against_the_bound() -> None:
    pool = GatedPool()
    queue = SearchQueue(pool, slots=1, hint_limit=2)  # type: ignore[arg-type]
    busy = asyncio.ensure_future(queue.move(request("running")))
    await settle()
    given_up = [queue.hint(game, request(f"given up {game}"), always_fresh) for game in (1, 2)]
    for hint in given_up:
        hint.cancel()  # their players were told to ask again later
    asked_again = queue.hint(1, request("asked again"), always_fresh)
    assert queue.waiting == (0, 1)
    pool.gate.set()
    await asyncio.gather(busy, asked_again)
    assert pool.asked == ["running", "asked again"]
