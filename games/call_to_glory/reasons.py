"""Why an action is not legal now, as a stable reason code a UI can translate.

Only called for actions already known to be illegal, so speed does not matter here; the checks
go from the broadest (wrong moment) to the most specific (rule of the set).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.call_to_glory import actions as act
from games.call_to_glory.cards import INDEX_OF
from games.call_to_glory.phases import (
    AFTER_DRAWS,
    CHOOSE_PILE,
    DRAWING,
    LAY_OR_DISCARD,
    NINJA_OR_END,
    REVEAL_TASK,
    TURN_PHASES,
)
from games.core import Action

if TYPE_CHECKING:
    from games.call_to_glory.state import CallToGloryState


def why_illegal(state: CallToGloryState, action: Action) -> str:
    kind = type(action)
    if kind is act.Draw:
        return _draw(state, action)  # type: ignore[arg-type]
    if kind is act.Lay or kind is act.Discard:
        return _lay_or_discard(state, action)  # type: ignore[arg-type]
    if kind is act.UseNinja:
        return _ninja(state, action)  # type: ignore[arg-type]
    if kind is act.EndTurn:
        if state.phase in DRAWING or state.phase == LAY_OR_DISCARD:
            return "turn_not_finished"
        return "wrong_decision"
    if kind is act.ChoosePile:
        if state.phase != CHOOSE_PILE:
            return "wrong_decision"
        return "no_such_pile"
    if kind is act.RevealTask:
        if state.phase != REVEAL_TASK:
            return "wrong_decision"
        return "no_such_task"
    return "not_legal"


def _draw(state: CallToGloryState, action: act.Draw) -> str:
    if state.phase in AFTER_DRAWS:
        return "already_drew"
    if state.phase not in DRAWING:
        return "wrong_decision"
    if action.source not in act.SOURCES:
        return "no_such_source"
    source = act.SOURCES.index(action.source)
    if source in state.drawn:
        return "same_source"
    return "empty_source"


def _lay_or_discard(state: CallToGloryState, action: act.Lay | act.Discard) -> str:
    if state.phase in DRAWING:
        return "must_draw_first"
    if state.phase == NINJA_OR_END:
        return "action_done"
    if state.phase != LAY_OR_DISCARD:
        return "wrong_decision"
    t = INDEX_OF.get(action.value)
    if t is None:
        return "no_such_value"
    hand = state.hands[state.current]
    if isinstance(action, act.Discard):
        if hand[t] < 1:
            return "not_in_hand"
        if action.pile not in act.PILES:
            return "no_such_pile"
        return "must_fill_empty_slot"
    if action.count < state.minimum[t]:
        return "set_too_small"
    if hand[t] < action.count:
        return "not_in_hand"
    return "must_beat"


def _ninja(state: CallToGloryState, action: act.UseNinja) -> str:
    if not state.ninja_on:
        return "ninja_off"
    if state.phase not in TURN_PHASES:
        return "wrong_decision"
    seat = state.current
    if state.ninja_held[seat] == 0:
        return "no_ninja"
    if state.ninja_held[seat] <= state.gained_this_turn:
        return "ninja_gained_this_turn"
    if action.seat == seat:
        return "own_display"
    if not 0 <= action.seat < state.num_players:
        return "no_such_seat"
    t = INDEX_OF.get(action.value)
    if t is None or not state.displays[action.seat][t]:
        return "no_such_card"
    return "not_legal"
