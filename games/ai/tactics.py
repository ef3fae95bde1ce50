"""Wins on the spot: a move (with the seat's own follow-up decisions) that ends the game won.

A search weighs every move by sampled futures; a game that can be won now should never be left
to sampling. ``winning_move`` looks at each legal action in a few determinizations (so it
reads only what the seat may know): if the game is over and won after it, or after the seat's
own next decision in the same round (a Kami lead is two decisions: the face-down card, then
the attack; a Clans and Glory turn is the card, then the shield), it is a win on the spot. It
must win in every sampled world, so a win that depends on a hidden card does not count.
"""

from __future__ import annotations

from games.core import Action, State
from games.rng import Rng

WORLDS = 2
"""Determinizations a win must hold in (the seat's own cards decide; two catch the rest)."""
DEPTH = 2
"""Own decisions in a row that may lead to the win (Kami's lead + attack, a card + a shield)."""


def winning_move(state: State, seat: int, seed: int) -> Action | None:
    """The first legal action (in the engine's order) that wins the game on the spot in every
    sampled world, or ``None``."""
    worlds = [state.determinize(seat, Rng(seed + index)) for index in range(WORLDS)]
    side = state.sides[seat]
    rounds = state.rounds_finished
    for action in state.legal_actions():
        if all(_wins(world, seat, side, rounds, action, DEPTH) for world in worlds):
            return action
    return None


def _wins(world: State, seat: int, side: int, rounds: int, action: Action, depth: int) -> bool:
    after = world.clone()
    if not after.is_legal(action):
        return False
    after.apply(action)
    if after.is_over:
        return side in {after.sides[winner] for winner in after.winners} and (
            len({after.sides[winner] for winner in after.winners}) == 1
        )
    if depth <= 1 or after.to_move != seat or after.rounds_finished != rounds:
        return False
    return any(
        _wins(after, seat, side, rounds, follow, depth - 1) for follow in after.legal_actions()
    )
