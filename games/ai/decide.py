"""The entry points: a decision for a seat, from a state or from JSON in another process.

``decide(state, seat, level, seed)`` returns the action and, where the engine can give one, a
short machine-readable reason, plus the search's figures for a hint ("wins about 60% of
simulations; next best 48%"). ``decide_json`` wraps it for a worker process: state JSON, seat,
level and seed in; the decision as JSON out. Same input, same output, on any machine, unless
the caller adds a millisecond cap.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
import time
from collections.abc import Mapping
from typing import Any

from games.ai.experts import expert_action
from games.ai.levels import LEVELS, Level
from games.ai.multiplayer import budget
from games.ai.search import RootStat, search
from games.ai.tactics import winning_move
from games.core import JSON, Action, State

CLOSE_CALL = 0.03
"""Two moves whose simulated values differ by less than this are both fine (a hint says so)."""


@dataclasses.dataclass(frozen=True)
class Decision:
    """What the AI plays, and why.

    ``reason`` is the engine's ``explain`` of the action (``{"token": ..., **parameters}``) or
    ``None``. ``value`` is the mean simulated reward of the action in [0, 1] (about the share of
    simulations it does well in); ``alternatives`` lists the other searched actions, best first.
    ``forced`` is true when the action was the only legal one (no search was made).
    """

    action: Action
    reason: JSON | None
    level: str
    iterations: int
    forced: bool = False
    value: float | None = None
    winning: bool = False
    """The action wins the game on the spot (``games.ai.tactics``): played without a search."""
    alternatives: tuple[RootStat, ...] = ()
    elapsed_ms: float = dataclasses.field(default=0.0, compare=False)

    @property
    def close_call(self) -> bool:
        """The runner-up did about as well: a hint should say that both moves are fine."""
        if self.value is None or not self.alternatives:
            return False
        runner_up = self.alternatives[0]
        return runner_up.visits > 0 and self.value - runner_up.value < CLOSE_CALL

    def to_json(self) -> JSON:
        return {
            "action": self.action.to_json(),
            "reason": self.reason,
            "level": self.level,
            "iterations": self.iterations,
            "forced": self.forced,
            "winning": self.winning,
            "value": self.value,
            "close_call": self.close_call,
            "alternatives": [
                {"action": stat.action.to_json(), "visits": stat.visits, "value": stat.value}
                for stat in self.alternatives
            ],
            "elapsed_ms": self.elapsed_ms,
        }


def level_named(level: str | Level) -> Level:
    if isinstance(level, Level):
        return level
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    return LEVELS[level]


def decide(
    state: State,
    seat: int,
    level: str | Level = "strong",
    seed: int = 0,
    *,
    max_ms: float | None = None,
) -> Decision:
    """The action ``level`` plays for ``seat``, which must be the seat to move.

    The decision depends only on what ``seat`` may know (``view(seat)``), ``level`` and
    ``seed``: the search sees the hidden cards only through ``state.determinize``.
    The level's budget holds except where ``games.ai.multiplayer.budget`` sets one for the game
    and player count (Call to Glory at 3-4 players). A forced move
    (one legal action) returns at once. ``max_ms`` caps the thinking time for callers that
    must answer in time; without it the result is reproducible everywhere.
    """
    chosen = level_named(level)
    if state.to_move != seat:
        raise ValueError(f"seat {seat} is not to move (seat {state.to_move} is)")
    actions = state.legal_actions()
    if len(actions) == 1:
        return Decision(actions[0], state.explain(actions[0]), chosen.name, 0, forced=True)
    if chosen.iterations <= 0:
        if chosen.policy == "rules":
            action = expert_action(state, seat, random.Random(seed))
        else:
            action = actions[random.Random(seed).randrange(len(actions))]
        return Decision(action, state.explain(action), chosen.name, 0)
    started = time.perf_counter()
    win = winning_move(state, seat, seed)
    if win is not None:
        elapsed = (time.perf_counter() - started) * 1000
        return Decision(
            win, state.explain(win), chosen.name, 0, value=1.0, winning=True, elapsed_ms=elapsed
        )
    spend = budget(
        state, chosen.budget(state.game_key), chosen.rollout_depth, chosen.guidance.expert_share
    )
    result = search(
        state,
        seat,
        spend.iterations,
        seed,
        exploration=chosen.exploration,
        rollout_depth=spend.rollout_depth,
        max_ms=max_ms,
        guidance=chosen.guidance,
    )
    best = next(stat for stat in result.stats if stat.action == result.best)
    others = sorted(
        (stat for stat in result.stats if stat.action != result.best),
        key=lambda stat: (-stat.visits, -stat.value),
    )
    return Decision(
        action=result.best,
        reason=state.explain(result.best),
        level=chosen.name,
        iterations=result.iterations,
        value=best.value,
        alternatives=tuple(others),
        elapsed_ms=result.elapsed_ms,
    )


def decide_json(request: Mapping[str, Any]) -> JSON:
    """``decide`` for a worker process: ``{"state": <to_json()>, "seat": int, "level": str,
    "seed": int, "max_ms": float | None}`` in, ``Decision.to_json()`` out. Everything crossing
    the process boundary is plain JSON, so a pool needs nothing but this function."""
    from games import REGISTRY

    data = request["state"]
    game = REGISTRY[data["game"]]
    state = game.state_from_json(data)
    decision = decide(
        state,
        request["seat"],
        request.get("level", "strong"),
        request.get("seed", 0),
        max_ms=request.get("max_ms"),
    )
    return decision.to_json()


def decision_seed(*parts: object) -> int:
    """A stable 64-bit seed from, say, (game id, decision number, seat, AI version).

    ``hash()`` of a string changes between processes, so a seed derived from it would make a
    decision irreproducible; a cryptographic digest of the parts' text does not.
    """
    text = "\x1f".join(str(part) for part in parts)
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")
