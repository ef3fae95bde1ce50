"""Information-set Monte Carlo tree search (single observer, with partially observable moves).

One tree is grown from the deciding seat's point of view (Cowling, Powley & Whitehouse 2012).
Every iteration:

1. **Determinize.** ``state.determinize(seat, rng)`` deals everything the seat cannot see
   again, consistently with what it has seen, with a fresh engine RNG. The search never looks
   at the real hidden cards: the real state is only ever read through ``determinize``, the
   seat's own legal actions and public facts (scores, sides, round count).
2. **Select** down the tree, following only moves legal in this determinization. An edge is
   keyed by what the deciding seat observes of a move (``observed_action``): its own moves
   exactly, another player's face-down card only by where it went. The outcome of a move (a
   card the seat draws blind, a mercenary turned up) is keyed by the events the seat sees, so
   the seat's later decisions are conditioned on what it would really know then. UCB counts
   how often an edge was *available* rather than parent visits, since a move exists only in
   some determinizations.
3. **Expand** one new edge, then **roll out** with random legal moves until the round ends
   (or the game), and score the round for every side (``rewards``).
4. **Back up** each edge's reward for the side that chose it (max^n; partners share a side).

The move played is the root edge with the most visits. Everything random comes from one seeded
generator, and dictionaries keep insertion order, so an iteration budget gives the same move
for the same seed on every run; a millisecond cap makes the budget depend on the machine.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Hashable

from games.ai.rewards import Evaluator
from games.core import Action, State, events_for
from games.rng import Rng

ROLLOUT_STEPS = 600
"""Safety net for a rollout; a round of any of our games is far shorter."""
CLOCK_EVERY = 8
"""Iterations between two looks at the clock when a millisecond cap is set."""


class _Edge:
    """A move (or a class of moves the seat cannot tell apart) out of a tree node."""

    __slots__ = ("available", "outcomes", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.available = 0
        self.outcomes: dict[str, dict[Hashable, _Edge]] = {}
        """Observation of the move's outcome -> the next node's edges."""


@dataclasses.dataclass(frozen=True)
class RootStat:
    """How the search rated one of the seat's legal actions."""

    action: Action
    visits: int
    value: float
    """Mean reward in [0, 1] of the simulations through this action (0.5 if none)."""


@dataclasses.dataclass(frozen=True)
class SearchResult:
    stats: tuple[RootStat, ...]
    """One entry per legal action, in the engine's order."""
    best: Action
    iterations: int
    elapsed_ms: float = dataclasses.field(compare=False)


def choose_best(stats: tuple[RootStat, ...]) -> Action:
    """Most visits (the robust child); ties go to the higher value, then to the engine's order."""
    best = stats[0]
    for stat in stats[1:]:
        if (stat.visits, stat.value) > (best.visits, best.value):
            best = stat
    return best.action


def search(
    state: State,
    seat: int,
    iterations: int,
    seed: int,
    *,
    exploration: float = 0.7,
    rollout_depth: int | None = None,
    max_ms: float | None = None,
) -> SearchResult:
    """Search the decision of ``seat`` (which must be ``state.to_move``).

    Stops after ``iterations`` iterations or, when ``max_ms`` is given, once that much time has
    passed (checked every ``CLOCK_EVERY`` iterations, so the cap is overshot by at most a few).
    """
    if state.to_move != seat:
        raise ValueError(f"seat {seat} is not to move (seat {state.to_move} is)")
    started = time.perf_counter()
    deadline = None if max_ms is None else started + max_ms / 1000
    rand = random.Random(seed)
    evaluator = Evaluator(state)
    rounds_at_root = state.rounds_finished
    sides = state.sides
    if rollout_depth is None or state.provisional_scores() is None:
        rollout_depth = ROLLOUT_STEPS
    root: dict[Hashable, _Edge] = {}
    done = 0
    while done < iterations:
        if deadline is not None and done % CLOCK_EVERY == 0 and time.perf_counter() > deadline:
            break
        world = state.determinize(seat, Rng(rand.getrandbits(64)))
        _iterate(
            world, seat, root, rand, evaluator, rounds_at_root, sides, exploration, rollout_depth
        )
        done += 1
    stats = []
    for action in state.legal_actions():
        edge = root.get(action)
        visits = edge.visits if edge is not None else 0
        value = edge.total / visits if edge is not None and visits else 0.5
        stats.append(RootStat(action, visits, value))
    result = tuple(stats)
    elapsed = (time.perf_counter() - started) * 1000
    return SearchResult(result, choose_best(result), done, elapsed)


def _iterate(
    world: State,
    seat: int,
    root: dict[Hashable, _Edge],
    rand: random.Random,
    evaluator: Evaluator,
    rounds_at_root: int,
    sides: list[int],
    exploration: float,
    rollout_depth: int,
) -> None:
    path: list[tuple[_Edge, int]] = []
    edges = root
    while not world.is_over and world.rounds_finished == rounds_at_root:
        mover = world.to_move
        assert mover is not None
        actions = world.legal_actions()
        groups: dict[Hashable, list[Action]] = {}
        if mover == seat:
            for action in actions:
                groups[action] = [action]
        else:
            observe = world.observed_action
            for action in actions:
                groups.setdefault(observe(action, seat), []).append(action)
        fresh: list[Hashable] = []
        for key in groups:
            edge = edges.get(key)
            if edge is None:
                edge = edges[key] = _Edge()
            edge.available += 1
            if not edge.visits:
                fresh.append(key)
        # An untried move first (expansion), else the best upper confidence bound.
        key = fresh[int(rand.random() * len(fresh))] if fresh else _ucb(edges, groups, exploration)
        group = groups[key]
        action = group[0] if len(group) == 1 else group[int(rand.random() * len(group))]
        events = world.apply(action)
        edge = edges[key]
        path.append((edge, sides[mover]))
        if fresh:
            break
        seen = repr(events_for(events, seat))
        edges = edge.outcomes.get(seen)  # type: ignore[assignment]
        if edges is None:
            edges = edge.outcomes[seen] = {}
    finished = _roll_out(world, rand, rounds_at_root, rollout_depth)
    rewards = evaluator.rewards(world, provisional=not finished)
    for edge, side in path:
        edge.visits += 1
        edge.total += rewards[side]


def _ucb(edges: dict[Hashable, _Edge], groups: dict[Hashable, list[Action]], c: float) -> Hashable:
    best_key: Hashable = None
    best = -math.inf
    for key in groups:
        edge = edges[key]
        score = edge.total / edge.visits + c * math.sqrt(math.log(edge.available) / edge.visits)
        if score > best:
            best, best_key = score, key
    return best_key


def _roll_out(world: State, rand: random.Random, rounds_at_root: int, depth: int) -> bool:
    """Random legal moves until the round of the root ends, or the game, or ``depth`` moves
    were made; returns whether the round (or game) ended."""
    for _step in range(depth):
        if world.is_over or world.rounds_finished != rounds_at_root:
            return True
        actions = world.legal_actions()
        world.apply(actions[int(rand.random() * len(actions))])
    return world.is_over or world.rounds_finished != rounds_at_root
