"""Short machine-readable reasons for a Kami action, for hints.

Each reason is ``{"token": word, **parameters}`` naming the most telling fact about the action
("wins the round for 10", "keeps your only Empress"), for a UI to phrase in the player's
language. Only the mover's own hand and the public table are read, so a reason leaks nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.core import JSON, Action
from games.kami import actions as act
from games.kami.cards import BY_NAME, EMPRESS, NAMES, VALUES

if TYPE_CHECKING:
    from games.kami.state import KamiState


def explain(state: KamiState, action: Action) -> JSON | None:
    seat = state.seat
    assert seat is not None
    kind = type(action)
    if kind is act.Attack or kind is act.AttackWithMercenary:
        return _attack(state, seat, action)
    if kind is act.Counter or kind is act.CounterWithMercenary:
        card = _card(state, action)
        attack = NAMES[state.attack_card]  # type: ignore[index]
        return {"token": "counters", "card": NAMES[card], "attack": attack}
    if kind is act.Lead or kind is act.LeadWithMercenary:
        return {"token": "hides_card", "card": NAMES[_card(state, action)]}
    if kind is act.Pass:
        attack = NAMES[state.attack_card]  # type: ignore[index]
        legal = state.legal_actions()
        if act.COUNTER[EMPRESS] in legal and state.hands[seat][EMPRESS] == 1:
            return {"token": "keeps_empress", "attack": attack}
        if any(type(other) is not act.Pass for other in legal):
            return {"token": "holds_back", "attack": attack}
        return {"token": "cannot_counter", "attack": attack}
    return None


def _card(state: KamiState, action: Action) -> int:
    if hasattr(action, "stack"):
        return state.stacks[action.stack][-1]
    return BY_NAME[action.card]  # type: ignore[attr-defined]


def _attack(state: KamiState, seat: int, action: Action) -> JSON:
    card = _card(state, action)
    if type(action) is act.Attack and state.hand_sizes[seat] == 1:
        defense, face_up, _mercenary = state.defense[seat][-1]
        doubled = state.phase == "lead_attack" and not face_up and defense == card
        points = VALUES[card] * (2 if doubled else 1)
        return {"token": "wins_round", "card": NAMES[card], "points": points, "doubled": doubled}
    if card == EMPRESS:
        return {"token": "empress_attack"}
    return {"token": "attacks_with", "card": NAMES[card]}
