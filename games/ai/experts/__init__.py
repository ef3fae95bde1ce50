"""Rules-based players, one per game: a move from the rules and documented strategy alone.

Each ``choose(state, seat, rng)`` reads only what ``seat`` may know (its own hand and the public
table), so it plays for any seat of a real game, and for every seat of a search's sampled
world: the search uses them as its rollout policy and as the prior that orders its first
tries (``games.ai.search``), and the ``rules`` level plays them directly. ``rng`` only breaks
ties, so the same position and seed give the same move.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.ai.experts import call_to_glory, clans_and_glory, kami
from games.core import Action, State

Expert = Callable[[State, int, random.Random], Action]

EXPERTS: dict[str, Expert] = {
    "call_to_glory": call_to_glory.choose,  # type: ignore[dict-item]
    "kami": kami.choose,  # type: ignore[dict-item]
    "clans_and_glory": clans_and_glory.choose,  # type: ignore[dict-item]
}


def expert_for(game_key: str) -> Expert:
    """The rules-based player of a game."""
    return EXPERTS[game_key]


def expert_action(state: State, seat: int, rng: random.Random) -> Action:
    """The rules-based player's move for ``seat`` (which must be the seat to move)."""
    return EXPERTS[state.game_key](state, seat, rng)
