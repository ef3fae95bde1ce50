"""Information-set Monte Carlo tree search (single observer, with partially observable moves),
guided by the game's rules-based player.

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
   some determinizations. **Progressive bias:** at every node the rules-based player of the
   game (``games.ai.experts``) names its move for the player to act, from that player's view
   of this determinization; the edge it names is tried first and keeps a bonus that fades as
   its visits grow (``prior / (visits + 1)``, Chaslot et al. 2008).
3. **Expand** one new edge, then **roll out**: every player plays the rules-based move (a
   random one with probability ``1 - expert_share``) until the round ends (or the game), or
   for ``rollout_depth`` moves where the table shows a provisional score; score it for every
   side (``rewards``). In Call to Glory at 3-4 players the tree also stops after the seat's
   own draws (``games.ai.multiplayer``): below a blind draw it would split into a subtree per
   card, each too thin to find its follow-up, and so rate blind draws below visible cards.
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
from collections.abc import Callable, Hashable

from games.ai.experts import EXPERTS
from games.ai.multiplayer import OwnLeaf, own_leaf
from games.ai.rewards import Evaluator
from games.core import Action, State, events_for
from games.rng import Rng

ROLLOUT_STEPS = 600
"""Safety net for a rollout; a round of any of our games is far shorter."""
CLOCK_EVERY = 8
"""Iterations between two looks at the clock when a millisecond cap is set."""

Policy = Callable[[State, int, random.Random], Action]


class _Edge:
    """A move (or a class of moves the seat cannot tell apart) out of a tree node."""

    __slots__ = ("available", "favoured", "outcomes", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.available = 0
        self.favoured = 0
        """How often the rules-based player chose this move when it was available."""
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


@dataclasses.dataclass(frozen=True)
class Guidance:
    """How the rules-based player steers a search (see the module docstring).

    ``expert_share``: share of rollout moves the rules-based player makes (the rest are
    uniformly random; 0 is a purely random rollout). ``prior``: weight of the progressive bias
    towards its move in the tree (0: none, and it is not consulted in the tree)."""

    expert_share: float = 0.0
    prior: float = 0.0


NO_GUIDANCE = Guidance()


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
    guidance: Guidance = NO_GUIDANCE,
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
    if rollout_depth is None or state.provisional_scores() is None:
        rollout_depth = ROLLOUT_STEPS
    expert = EXPERTS.get(state.game_key)
    run = _Run(
        seat=seat,
        rand=rand,
        evaluator=Evaluator(state),
        rounds_at_root=state.rounds_finished,
        sides=state.sides,
        exploration=exploration,
        rollout_depth=rollout_depth,
        expert=expert if guidance.prior > 0 else None,
        prior=guidance.prior,
        rollout_expert=expert if guidance.expert_share > 0 else None,
        expert_share=guidance.expert_share,
        own_leaf=own_leaf(state),
    )
    root: dict[Hashable, _Edge] = {}
    done = 0
    while done < iterations:
        if deadline is not None and done % CLOCK_EVERY == 0 and time.perf_counter() > deadline:
            break
        world = state.determinize(seat, Rng(rand.getrandbits(64)))
        run.iterate(world, root)
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


@dataclasses.dataclass
class _Run:
    """One search's settings and helpers (kept together so the loop reads few globals)."""

    seat: int
    rand: random.Random
    evaluator: Evaluator
    rounds_at_root: int
    sides: list[int]
    exploration: float
    rollout_depth: int
    expert: Policy | None
    prior: float
    rollout_expert: Policy | None
    expert_share: float
    own_leaf: OwnLeaf | None = None
    """The seat's own moves after which the tree stops (``games.ai.multiplayer``)."""

    def iterate(self, world: State, root: dict[Hashable, _Edge]) -> None:
        seat = self.seat
        rand = self.rand
        rounds_at_root = self.rounds_at_root
        sides = self.sides
        expert = self.expert
        own_leaf = self.own_leaf
        path: list[tuple[_Edge, int]] = []
        edges = root
        while not world.is_over and world.rounds_finished == rounds_at_root:
            mover = world.to_move
            assert mover is not None
            actions = world.legal_actions()
            groups: dict[Hashable, list[Action]] = {}
            observe = None if mover == seat else world.observed_action
            if observe is None:
                for action in actions:
                    groups[action] = [action]
            else:
                for action in actions:
                    groups.setdefault(observe(action, seat), []).append(action)
            favourite: Hashable = None
            chosen: Action | None = None
            if expert is not None and len(actions) > 1:
                chosen = expert(world, mover, rand)
                favourite = chosen if observe is None else observe(chosen, seat)
            fresh: list[Hashable] = []
            for key in groups:
                edge = edges.get(key)
                if edge is None:
                    edge = edges[key] = _Edge()
                edge.available += 1
                if key == favourite:
                    edge.favoured += 1
                if not edge.visits:
                    fresh.append(key)
            # An untried move first (the rules-based player's, if untried), else the best
            # upper confidence bound with the progressive bias.
            if fresh:
                key = favourite if favourite in fresh else fresh[int(rand.random() * len(fresh))]
            else:
                key = self._ucb(edges, groups)
            group = groups[key]
            if len(group) == 1:
                action = group[0]
            elif key == favourite and observe is not None and chosen in group:
                action = chosen
            else:
                action = group[int(rand.random() * len(group))]
            events = world.apply(action)
            edge = edges[key]
            path.append((edge, sides[mover]))
            if fresh or (mover == seat and own_leaf is not None and own_leaf(action)):
                break
            seen = repr(events_for(events, seat))
            edges = edge.outcomes.get(seen)  # type: ignore[assignment]
            if edges is None:
                edges = edge.outcomes[seen] = {}
        finished = self._roll_out(world)
        rewards = self.evaluator.rewards(world, provisional=not finished)
        for edge, side in path:
            edge.visits += 1
            edge.total += rewards[side]

    def _ucb(self, edges: dict[Hashable, _Edge], groups: dict[Hashable, list[Action]]) -> Hashable:
        c = self.exploration
        prior = self.prior
        best_key: Hashable = None
        best = -math.inf
        for key in groups:
            edge = edges[key]
            visits = edge.visits
            score = edge.total / visits + c * math.sqrt(math.log(edge.available) / visits)
            if prior and edge.favoured:
                score += prior * edge.favoured / edge.available / (visits + 1)
            if score > best:
                best, best_key = score, key
        return best_key

    def _roll_out(self, world: State) -> bool:
        """Rules-based (or random) moves until the round of the root ends, or the game, or
        ``rollout_depth`` moves were made; returns whether the round (or game) ended."""
        rand = self.rand
        rounds_at_root = self.rounds_at_root
        expert = self.rollout_expert
        share = self.expert_share
        for _step in range(self.rollout_depth):
            if world.is_over or world.rounds_finished != rounds_at_root:
                return True
            if expert is not None and (share >= 1.0 or rand.random() < share):
                world.apply(expert(world, world.to_move, rand))  # type: ignore[arg-type]
            else:
                actions = world.legal_actions()
                world.apply(actions[int(rand.random() * len(actions))])
        return world.is_over or world.rounds_finished != rounds_at_root
