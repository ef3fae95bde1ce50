"""Small shared helpers for the Clans and Glory tests: actions in the spec's notation."""

from __future__ import annotations

from games.clans_and_glory.actions import PlaceCard, PlaceFaceDown
from games.clans_and_glory.state import ClansState
from tests.games.clans_and_glory.builders import token


def face_up(state: ClansState, short: str, seat: str) -> PlaceCard:
    """``R3`` on ``N0`` as an action (the board comes from the table)."""
    board = state.table.board_of(state.table.seat(seat.lower()))
    return PlaceCard(token(short), board, seat.lower())


def face_down(state: ClansState, short: str, seat: str) -> PlaceFaceDown:
    board = state.table.board_of(state.table.seat(seat.lower()))
    return PlaceFaceDown(token(short), board, seat.lower())


def reason(state: ClansState, action) -> str:
    assert not state.is_legal(action)
    return state.why_illegal(action)
