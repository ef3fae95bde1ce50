"""The difficulty levels are a ladder: each searching level does strictly more than the one below
it in every game, and medium is a search of its own, not strong's search at a smaller budget.

Strength itself (strong beats medium, medium beats easy in 65 % of duplicate games) is measured
by ``benchmarks/ai.py --pairings ladder``; these tests hold the levels' definitions to the shape
those figures were measured with, and check that the levels really play differently.
"""

from __future__ import annotations

import random

import pytest

from games import REGISTRY
from games.ai import LEVELS, decide
from games.ai.experts import expert_action
from games.ai.search import NO_GUIDANCE

LADDER = ("easy", "medium", "strong")


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_every_game_gives_each_level_more_iterations_than_the_one_below(key: str) -> None:
    budgets = [LEVELS[name].budget(key) for name in LADDER]
    assert budgets == sorted(set(budgets)), budgets
    assert LEVELS["random"].budget(key) == LEVELS["rules"].budget(key) == 0


def test_each_level_is_guided_by_the_rules_based_player_more_than_the_one_below() -> None:
    easy, medium, strong = (LEVELS[name].guidance for name in LADDER)
    assert easy == NO_GUIDANCE
    # Rollouts: random (easy), half the rules-based player's (medium), mostly its (strong).
    assert 0 < medium.expert_share < strong.expert_share < 1
    # Only strong starts its tree where the rules-based player would look (progressive bias).
    assert medium.prior == 0 < strong.prior
    assert LEVELS["easy"].rollout_depth == LEVELS["medium"].rollout_depth
    assert LEVELS["strong"].rollout_depth > LEVELS["medium"].rollout_depth


def test_the_levels_are_named_as_the_bot_offers_them() -> None:
    assert list(LEVELS) == ["random", "rules", *LADDER]
    assert all(LEVELS[name].name == name for name in LEVELS)


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_medium_and_strong_play_differently_and_each_searches_its_own_budget(key: str) -> None:
    """On the first positions of a game between rules-based players, medium picks another move
    than strong somewhere: the two levels are not the same player (the old medium, strong's
    search at a quarter of its budget, often was)."""
    state = REGISTRY[key].new_state(2, 7, {"rounds": 1} if key == "call_to_glory" else {})
    rng = random.Random(7)
    differs = 0
    searched = 0
    while searched < 6 and not state.is_over:
        seat = state.to_move
        assert seat is not None
        if len(state.legal_actions()) > 1:
            moves = {}
            for name in ("medium", "strong"):
                decision = decide(state, seat, name, seed=searched)
                if not decision.winning:
                    assert decision.iterations == LEVELS[name].budget(key)
                moves[name] = decision.action
            differs += moves["medium"] != moves["strong"]
            searched += 1
        state.apply(expert_action(state, seat, rng))
    assert searched == 6
    assert differs >= 1
