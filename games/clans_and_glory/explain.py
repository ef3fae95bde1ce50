"""Short machine-readable reasons for a Clans and Glory action, for hints.

Each reason is ``{"token": word, **parameters}`` naming the most telling fact about the action
("claims the 4s on board 2 for 12 points", "becomes the lowest card of board 1"), for a UI to
phrase in the player's language. Only the mover's own hand and the public table are read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.clans_and_glory.actions import PlaceCard, PlaceFaceDown, PlaceShield, SkipShield
from games.clans_and_glory.cards import CARD_BY_TOKEN, value_of
from games.clans_and_glory.events import matching_neighbours
from games.core import JSON, Action

if TYPE_CHECKING:
    from games.clans_and_glory.state import ClansState


def explain(state: ClansState, action: Action) -> JSON | None:
    if isinstance(action, PlaceCard):
        return _place(state, action)
    if isinstance(action, PlaceFaceDown):
        return {"token": "nothing_fits", "card": action.card, "board": action.board}
    if isinstance(action, PlaceShield):
        return _shield(state)
    if isinstance(action, SkipShield):
        return {"token": "saves_shield", "left": state.shields_left[state.current]}  # type: ignore[index]
    return None


def _place(state: ClansState, action: PlaceCard) -> JSON:
    card = CARD_BY_TOKEN[action.card]
    value = value_of(card)
    values = {value_of(c) for c in state.face_up_cards_on(action.board)}
    if values and value < min(values):
        return {"token": "new_lowest", "board": action.board, "value": value}
    seat = state.table.index_by_name[action.position]
    return {
        "token": "matches",
        "card": action.card,
        "positions": matching_neighbours(state, seat, card),
    }


def _shield(state: ClansState) -> JSON:
    """What the shield would claim if the game ended now: the next value up on its board."""
    board = state.shield_board
    assert board is not None
    cards = state.face_up_cards_on(board)
    values = sorted({value_of(c) for c in cards})
    place = len(state.stacks[board])
    if place >= len(values):
        return {"token": "claims_nothing_yet", "board": board}
    value = values[place]
    count = sum(1 for c in cards if value_of(c) == value)
    return {
        "token": "claims_value",
        "board": board,
        "value": value,
        "cards": count,
        "points": value * count,
    }
