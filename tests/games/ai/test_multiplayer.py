"""Search settings by game and player count (``games.ai.multiplayer``): Call to Glory at 3 and 4
players ends the search's tree at the seat's own draws; every other game and player count
searches exactly as before (the pinned decisions below were taken before the change)."""

from __future__ import annotations

import json
import random
from collections.abc import Hashable

import pytest

from games import REGISTRY, State
from games.ai import LEVELS, decide, multiplayer
from games.ai.experts import EXPERTS
from games.ai.multiplayer import Budget, budget, own_leaf
from games.ai.rewards import Evaluator
from games.ai.search import _Edge, _Run
from games.call_to_glory import actions as act
from games.rng import Rng

GUIDED = LEVELS["strong"].with_iterations(60)

PINNED = [
    # (game, players, seed, stop at a draw, action, value): ``decide`` at GUIDED with seed
    # ``seed * 101``, computed with the search as it was before ``games.ai.multiplayer``.
    ("call_to_glory", 2, 3, False, '{"kind": "draw", "source": "draw1"}', 0.550617),
    ("call_to_glory", 2, 8, False, '{"kind": "discard", "pile": 2, "value": 16}', 0.777225),
    ("call_to_glory", 2, 5, True, '{"kind": "draw", "source": "discard1"}', 0.507419),
    ("call_to_glory", 2, 11, True, '{"kind": "draw", "source": "draw1"}', 0.668292),
    ("call_to_glory", 2, 17, True, '{"kind": "draw", "source": "draw1"}', 0.399805),
    ("call_to_glory", 2, 23, True, '{"kind": "draw", "source": "draw1"}', 0.534073),
    ("clans_and_glory", 2, 3, False, '{"kind": "no_shield"}', 0.408551),
    (
        "clans_and_glory",
        2,
        8,
        False,
        '{"board": 2, "card": "green-6", "kind": "place", "position": "s6"}',
        0.836538,
    ),
    ("clans_and_glory", 3, 3, False, '{"kind": "shield"}', 0.181068),
    (
        "clans_and_glory",
        3,
        8,
        False,
        '{"board": 2, "card": "blue-5", "kind": "place", "position": "s7"}',
        0.301652,
    ),
    ("clans_and_glory", 4, 3, False, '{"kind": "shield"}', 0.717341),
    (
        "clans_and_glory",
        4,
        8,
        False,
        '{"board": 1, "card": "yellow-5", "kind": "place", "position": "n5"}',
        0.888941,
    ),
    ("kami", 2, 3, False, '{"card": "spear", "kind": "counter"}', 0.426557),
    ("kami", 2, 8, False, '{"kind": "lead_mercenary", "stack": 7}', 0.559718),
    ("kami", 3, 3, False, '{"card": "soldier", "kind": "lead"}', 0.386474),
    ("kami", 3, 8, False, '{"card": "soldier", "kind": "lead"}', 0.49892),
    ("kami", 4, 3, False, '{"card": "gold_dragon", "kind": "counter"}', 0.546541),
    ("kami", 4, 8, False, '{"card": "silver_dragon", "kind": "counter"}', 0.548137),
]


def position(key: str, players: int, seed: int, at_a_draw: bool) -> State:
    """``seed * 3`` random moves from deal ``seed``, then on to a real choice (a draw if
    ``at_a_draw``)."""
    game = REGISTRY[key]
    state = game.new_state(players, seed, {"rounds": 1} if key == "call_to_glory" else {})
    rng = random.Random(seed)
    for _ in range(seed * 3):
        state.apply(rng.choice(state.legal_actions()))
    while len(state.legal_actions()) < 2 or (
        at_a_draw and state.decision not in ("draw", "draw_second")
    ):
        state.apply(rng.choice(state.legal_actions()))
    assert not state.is_over
    return state


@pytest.mark.parametrize(("key", "players", "seed", "at_a_draw", "action", "value"), PINNED)
def test_two_players_and_kami_and_clans_decide_exactly_as_before(
    key: str,
    players: int,
    seed: int,
    at_a_draw: bool,
    action: str,
    value: float,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Clans and Glory at 3-4 players searches fewer iterations since (``CLANS_ITERATIONS_SHARE``,
    tested below); at the same iterations its search is what it was."""
    monkeypatch.setattr(multiplayer, "CLANS_ITERATIONS_SHARE", {})
    state = position(key, players, seed, at_a_draw)
    decision = decide(state, state.to_move, GUIDED, seed * 101)  # type: ignore[arg-type]
    assert json.dumps(decision.action.to_json(), sort_keys=True) == action
    assert decision.value == pytest.approx(value, abs=1e-6)


@pytest.mark.parametrize(("key", "players"), [("call_to_glory", 2), ("kami", 3), ("kami", 4)])
def test_only_call_to_glory_at_three_and_four_players_stops_the_tree(
    key: str, players: int
) -> None:
    assert own_leaf(REGISTRY[key].new_state(players, 1, {})) is None
    assert own_leaf(REGISTRY["clans_and_glory"].new_state(3, 1, {})) is None


@pytest.mark.parametrize("players", [3, 4])
def test_call_to_glory_at_three_and_four_players_stops_at_the_seats_draws(players: int) -> None:
    state = REGISTRY["call_to_glory"].new_state(players, 1, {"rounds": 1})
    leaf = own_leaf(state)
    assert leaf is not None
    assert leaf(act.DRAWS[0]) and leaf(act.DRAWS[2])
    assert not leaf(act.DISCARDS[0][0]) and not leaf(act.END_TURN)


def grown_tree(state: State, iterations: int) -> dict[Hashable, _Edge]:
    """The root's edges after ``iterations`` iterations of the strong level's search."""
    seat = state.to_move
    assert seat is not None
    expert = EXPERTS[state.game_key]
    rand = random.Random(5)
    run = _Run(
        seat=seat,
        rand=rand,
        evaluator=Evaluator(state),
        rounds_at_root=state.rounds_finished,
        sides=state.sides,
        exploration=0.7,
        rollout_depth=16,
        expert=expert,
        prior=0.5,
        rollout_expert=expert,
        expert_share=0.9,
        own_leaf=own_leaf(state),
    )
    root: dict[Hashable, _Edge] = {}
    for _ in range(iterations):
        run.iterate(state.determinize(seat, Rng(rand.getrandbits(64))), root)
    return root


def test_a_three_player_draw_is_scored_by_its_rollouts_not_by_a_tree_below_it() -> None:
    """At a draw of the seat's own, 3 players: every root edge is a leaf (no outcomes grown
    below it), so a blind card and a visible one are both scored by the same rules-based
    continuation. At 2 players the tree grows below the draws as before."""
    for players, grows in ((3, False), (2, True)):
        state = position("call_to_glory", players, 11, at_a_draw=True)
        root = grown_tree(state, 120)
        assert sum(edge.visits for edge in root.values()) == 120
        assert any(edge.outcomes for edge in root.values()) is grows


def test_a_three_player_lay_or_discard_still_grows_its_tree_to_the_next_draw() -> None:
    state = position("call_to_glory", 3, 11, at_a_draw=True)
    rng = random.Random(2)
    while state.decision != "lay_or_discard":
        state.apply(rng.choice(state.legal_actions()))
    root = grown_tree(state, 200)
    assert any(edge.outcomes for edge in root.values())


def test_strongs_call_to_glory_searches_at_three_and_four_players_roll_out_further() -> None:
    """Twice the rollout (32 moves: about three of the seat's turns at 3 players) for 0.55 of
    the iterations, so a decision costs about the same; medium and easy (rollouts half or
    wholly random), 2 players and the other games keep the level's own budget."""
    three = REGISTRY["call_to_glory"].new_state(3, 1, {"rounds": 1})
    four = REGISTRY["call_to_glory"].new_state(4, 1, {"rounds": 1})
    strong, medium, easy = LEVELS["strong"], LEVELS["medium"], LEVELS["easy"]
    assert budget(three, 600, 16, strong.guidance.expert_share) == Budget(330, 32)
    assert budget(four, 150, 16, strong.guidance.expert_share) == Budget(82, 32)
    for level in (medium, easy):
        own = level.budget("call_to_glory")
        share = level.guidance.expert_share
        assert budget(three, own, level.rollout_depth, share) == Budget(own, level.rollout_depth)
        assert budget(four, own, level.rollout_depth, share) == Budget(own, level.rollout_depth)
    for key, players in (("call_to_glory", 2), ("kami", 3), ("kami", 4), ("clans_and_glory", 2)):
        state = REGISTRY[key].new_state(players, 1, {})
        assert budget(state, 600, 16, strong.guidance.expert_share) == Budget(600, 16)


@pytest.mark.parametrize(("players", "iterations"), [(2, 500), (3, 400), (4, 375)])
def test_strong_searches_less_in_clans_and_glory_at_three_and_four_players(
    players: int, iterations: int
) -> None:
    """An iteration costs more with more seats: strong's 500 become 400 and 375, so a decision
    costs what a 2-player one does; medium's and easy's smaller budgets stay their own."""
    state = REGISTRY["clans_and_glory"].new_state(players, 1, {})
    strong, medium = LEVELS["strong"], LEVELS["medium"]
    own = strong.budget("clans_and_glory")
    assert budget(state, own, 16, strong.guidance.expert_share) == Budget(iterations, 16)
    cheap = medium.budget("clans_and_glory")
    assert budget(state, cheap, 8, medium.guidance.expert_share) == Budget(cheap, 8)


def test_strong_at_three_players_spends_the_reduced_budget() -> None:
    state = position("call_to_glory", 3, 11, at_a_draw=True)
    seat = state.to_move
    assert seat is not None
    decision = decide(state, seat, LEVELS["strong"].with_iterations(60), 1)
    assert decision.iterations == 33
    assert sum(stat.visits for stat in decision.alternatives) < 33
