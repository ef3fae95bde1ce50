"""What one player (or a spectator) may see: the whole table, their own hand, nobody else's.

Besides the cards, a face-down position lists the cards it cannot be (``cannot_be``): it was
placed only because no card of that hand fitted anywhere face up, which everyone could check.

The seat graph is included per seat (``related``) so that a UI never has to re-derive the
geometry, which stays correctable in ``table.py`` alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.clans_and_glory.cards import card_json, card_token, cards_in
from games.core import JSON

if TYPE_CHECKING:
    from games.clans_and_glory.state import ClansState


def view_of(state: ClansState, viewer: int | None) -> JSON:
    points, cards_won = state.totals()
    return {
        "options": dict(state.options),
        "start_player": state.start_player,
        "turn_order": state.turn_order,
        "last_seat": state.last_player,
        "placements_made": sum(1 for player in state.placed_by if player >= 0),
        "shield_board": state.shield_board,
        "columns": state.table.column_count,
        "boards": [_board_view(state, board, viewer) for board in range(state.table.board_count)],
        "shields_left": list(state.shields_left),
        "hand_sizes": [len(hand) for hand in state.hands],
        "hand": None if viewer is None else [card_json(card) for card in state.hands[viewer]],
        "cards_won": cards_won,
        "points": points,
        "result": _result_view(state),
    }


def _board_view(state: ClansState, board: int, viewer: int | None) -> JSON:
    table = state.table
    return {
        "board": board,
        "outer": table.is_outer(board),
        "stack": list(state.stacks[board]),
        "positions": [_seat_view(state, seat, viewer) for seat in table.board_seats[board]],
    }


def _seat_view(state: ClansState, seat: int, viewer: int | None) -> JSON:
    table = state.table
    info = table.seats[seat]
    card = state.cards[seat]
    placed_by = state.placed_by[seat]
    shown: JSON = {"card": None, "colour": None, "value": None}
    face_down = card >= 0 and state.face_down[seat]
    if card >= 0 and (not face_down or (viewer is not None and viewer == placed_by)):
        shown = card_json(card)
    return {
        "position": info.name,
        "row": info.row,
        "column": info.column,
        "related": [table.seats[near].name for near in table.related[seat]],
        "occupied": card >= 0,
        "face_down": face_down,
        "placed_by": placed_by if placed_by >= 0 else None,
        **shown,
        # A face-down card: every card that fitted somewhere face up when it (or an earlier
        # face-down card of its owner) was placed, which the table therefore knows it is not.
        "cannot_be": [card_token(c) for c in cards_in(state.cannot_be[seat])] if face_down else [],
    }


def _result_view(state: ClansState) -> list[JSON] | None:
    """Per board, which shield took which value (``None`` until the game is over)."""
    if not state.is_over:
        return None
    return [result.to_json() for result in state.board_results()]
