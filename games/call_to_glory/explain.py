"""Short machine-readable reasons for a Call to Glory action, for hints.

Each reason is ``{"token": word, **parameters}`` naming the most telling fact about the action
("beats the 3×12 of seat 1", "ends the round"), for a UI to phrase in the player's language. Only
the mover's own hand and the public table are read, so a reason never leaks anything.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.call_to_glory import actions as act
from games.call_to_glory.cards import INDEX_OF, TASK_BONUS, TYPES, VALUES
from games.core import JSON, Action

if TYPE_CHECKING:
    from games.call_to_glory.state import CallToGloryState


def explain(state: CallToGloryState, action: Action) -> JSON | None:
    kind = type(action)
    if kind is act.Lay:
        return _lay(state, action)  # type: ignore[arg-type]
    if kind is act.Discard:
        return _discard(state, action)  # type: ignore[arg-type]
    if kind is act.Draw:
        return _draw(state, action)  # type: ignore[arg-type]
    if kind is act.UseNinja:
        return _ninja(state, action)  # type: ignore[arg-type]
    if kind is act.ChoosePile:
        pile = state.discard_piles[action.pile - 1]  # type: ignore[attr-defined]
        return {"token": "covers_card", "value": VALUES[pile[-1]]} if pile else None
    if kind is act.RevealTask:
        return _reveal(state, action)  # type: ignore[arg-type]
    return None


def _lay(state: CallToGloryState, action: act.Lay) -> JSON:
    t = INDEX_OF[action.value]
    seat = state.current
    holder = state.owner[t]
    types_after = sum(1 for u in range(TYPES) if state.displays[seat][u] or u == t)
    if types_after >= state.types_needed:
        return {"token": "ends_round", "value": action.value, "types": types_after}
    if holder >= 0 and holder != seat:
        beaten = state.displays[holder][t]
        return {"token": "beats_set", "value": action.value, "count": beaten, "seat": holder}
    if holder == seat:
        return {"token": "replaces_own_set", "value": action.value, "count": action.count}
    return {"token": "new_type", "value": action.value, "points": action.value}


def _discard(state: CallToGloryState, action: act.Discard) -> JSON:
    t = INDEX_OF[action.value]
    holder = state.owner[t]
    held = state.hands[state.current][t]
    if holder >= 0 and holder != state.current and state.displays[holder][t] >= held:
        count = state.displays[holder][t]
        return {"token": "cannot_beat", "value": action.value, "count": count, "seat": holder}
    return {"token": "least_needed", "value": action.value}


def _draw(state: CallToGloryState, action: act.Draw) -> JSON:
    source = act.SOURCES.index(action.source)
    if source < 2:
        return {"token": "draws_blind", "pile": source + 1}
    t = state.discard_piles[source - 2][-1]
    held = state.hands[state.current][t] + 1
    holder = state.owner[t]
    needed = state.minimum[t]
    if holder >= 0:
        needed = max(needed, state.displays[holder][t] + 1)
    if held >= needed:
        return {"token": "completes_set", "value": VALUES[t], "count": held}
    return {"token": "takes_card", "value": VALUES[t]}


def _ninja(state: CallToGloryState, action: act.UseNinja) -> JSON:
    left = state.displays[action.seat][INDEX_OF[action.value]] - 1
    return {"token": "ninja_removes", "seat": action.seat, "value": action.value, "left": left}


def _reveal(state: CallToGloryState, action: act.RevealTask) -> JSON:
    seat = state.revealing_seat
    t = next(t for deck, t in state.tasks[seat] if deck == action.deck)
    bonus = TASK_BONUS[action.deck]
    for holder, display in enumerate(state.displays):
        if display[t]:
            points = bonus * display[t]
            return {"token": "task_bonus", "value": VALUES[t], "seat": holder, "points": points}
    return {"token": "task_no_bonus", "value": VALUES[t]}
