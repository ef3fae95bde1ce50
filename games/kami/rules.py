"""Why an action is not legal now, as the reason codes listed in ``docs/rules/kami.md``.

Only called for actions outside the legal list, so it explains rather than decides: the legal
list in ``state.py`` stays the single source of truth and this module names the broken rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.core import Action
from games.kami import actions as act
from games.kami.cards import BY_NAME, COUNTERS, EMPRESS, SOLDIER, SPEAR

if TYPE_CHECKING:
    from games.kami.state import KamiState

_DEMORALIZED = (act.RevealSoldiers, act.KeepSoldiersHidden, act.AcceptRedeal, act.RefuseRedeal)
_COUNTERS = (act.Counter, act.CounterWithMercenary)
_LEADS = (act.Lead, act.LeadWithMercenary)
_ATTACKS = (act.Attack, act.AttackWithMercenary)
_FROM_MERCENARY = (act.CounterWithMercenary, act.LeadWithMercenary, act.AttackWithMercenary)


def illegal_reason(state: KamiState, action: Action) -> str:
    if state.seat is None:
        return "game_over"
    phase = state.phase
    demoralized_phase = phase in ("demoralized_reveal", "demoralized_consent")
    if isinstance(action, _DEMORALIZED):
        if not demoralized_phase:
            return "no_demoralized_decision"
        asks_reveal = isinstance(action, act.RevealSoldiers | act.KeepSoldiersHidden)
        if phase == "demoralized_consent":
            return "partner_decides" if asks_reveal else "reveal_first"
        # Keeping hidden is always legal here, so a refused reveal means too few Soldiers.
        return "too_few_soldiers" if asks_reveal else "reveal_first"
    if demoralized_phase:
        return "demoralized_pending"
    if isinstance(action, act.Pass):
        return "must_lead" if phase == "lead_defense" else "must_attack"
    if isinstance(action, _COUNTERS) and phase != "respond":
        return "must_lead" if phase == "lead_defense" else "must_attack"
    if isinstance(action, _LEADS) and phase != "lead_defense":
        return "must_counter_or_pass" if phase == "respond" else "must_attack"
    if isinstance(action, _ATTACKS) and phase not in ("lead_attack", "counter_attack"):
        return "defense_first"
    card = _card_named(state, action)
    if isinstance(card, str):
        return card
    seat = state.seat
    if isinstance(action, _COUNTERS):
        attack = state.attack_card
        assert attack is not None
        if not COUNTERS[card][attack]:
            if card == EMPRESS and attack in (SOLDIER, SPEAR):
                return "empress_cannot_counter"
            return "not_identical"
    if isinstance(action, _ATTACKS):
        last = not isinstance(action, _FROM_MERCENARY) and state.hand_sizes[seat] == 1
        if not state.attack_allowed(card, last_card=last, empress_open=state.empress_open):
            return "empress_locked"
        return "not_legal"
    if not isinstance(action, _FROM_MERCENARY) and state.stacks and state.hand_sizes[seat] < 2:
        return "last_card_must_attack"
    return "no_attack_follows"


def _card_named(state: KamiState, action: Action) -> int | str:
    """The card an action would place, or the reason it cannot be had."""
    if isinstance(action, _FROM_MERCENARY):
        stack = action.stack  # type: ignore[attr-defined]
        if not 0 <= stack < len(state.stacks) or not state.stacks[stack]:
            return "no_mercenary"
        return state.stacks[stack][-1]
    name = action.card  # type: ignore[attr-defined]
    if name not in BY_NAME:
        return "unknown_card"
    card = BY_NAME[name]
    assert state.seat is not None
    if not state.hands[state.seat][card]:
        return "not_in_hand"
    return card
