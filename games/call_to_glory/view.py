"""What one seat (or a spectator) may see of a Call to Glory position.

Public: everything on the table, including the whole content of both discard piles (every card
there was discarded face up), pile and hand sizes, the cards each hand is known to hold (taken
face up from a discard pile and not played since), miniatures and revealed tasks. Private to a
seat: its own hand and its own unrevealed task cards. Nobody sees draw-pile order, other hands,
other seats' unrevealed tasks or the RNG.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from games.call_to_glory.actions import SOURCES
from games.call_to_glory.cards import TASK_BONUS, VALUES
from games.call_to_glory.phases import OVER, REVEAL_TASK
from games.call_to_glory.scoring import display_points
from games.core import JSON

if TYPE_CHECKING:
    from games.call_to_glory.state import CallToGloryState


def _values(counts: list[int]) -> list[int]:
    return [value for value, count in zip(VALUES, counts, strict=True) for _ in range(count)]


def build_view(state: CallToGloryState, seat: int | None) -> JSON:
    players = range(state.num_players)
    pending = state.pending
    data: JSON = {
        "options": dict(state.options),
        "round": state.round_number,
        "rounds_total": state.rounds_total,
        "start_player": state.start_player,
        "start_reason": state.start_reason,
        "turn_seat": None if state.phase == OVER else state.current,
        "drawn_from": [SOURCES[source] for source in state.drawn],
        "values": list(VALUES),
        "minimum_set": list(state.minimum),
        "types_to_end": state.types_needed,
        "draw_piles": [len(pile) for pile in state.draw_piles],
        "discard_piles": [[VALUES[t] for t in pile] for pile in state.discard_piles],
        "displays": [
            [{"value": v, "count": c} for v, c in zip(VALUES, display, strict=True) if c]
            for display in state.displays
        ],
        "display_points": [display_points(display) for display in state.displays],
        "hand_sizes": [sum(hand) for hand in state.hands],
        # Cards the whole table saw each player take from a discard pile and not play since.
        "known_hand_cards": [_values(known) for known in state.known],
        "hand": None if seat is None else _values(state.hands[seat]),
        "pending_discard": None
        if pending is None
        else {
            "seat": pending.seat,
            "value": VALUES[pending.type_index],
            "count": pending.count,
            "reason": pending.reason,
        },
        "history": copy.deepcopy(state.history),
        "ninja": None,
        "tasks": None,
    }
    if state.ninja_on:
        data["ninja"] = {
            "supply": state.ninja_supply,
            "held": list(state.ninja_held),
            "gained_this_turn": state.gained_this_turn,
        }
    if state.tasks_on:
        data["tasks"] = {
            "unrevealed_counts": [len(state.tasks[s]) for s in players],
            "revealed": copy.deepcopy(state.revealed),
            "reveal_order": [(state.start_player + i) % state.num_players for i in players],
            "reveals_done": state.reveals_done if state.phase == REVEAL_TASK else 0,
            "mine": None
            if seat is None
            else [
                {"deck": deck, "value": VALUES[t], "bonus": TASK_BONUS[deck]}
                for deck, t in state.tasks[seat]
            ],
        }
    return data
