"""The events a turn produces, each carrying every fact a log line needs.

Public events never name a face-down card or a hand card; the owner of a face-down card gets a
separate ``face_down_card`` event with ``visible_to``. Leftover hand cards and face-down cards
are discarded unseen at the end, so ``game_ended`` only counts them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.clans_and_glory.cards import MATCHES, card_json
from games.core import Event

if TYPE_CHECKING:
    from games.clans_and_glory.state import ClansState


def game_started(state: ClansState, hand_sizes: list[int]) -> Event:
    """The public facts of the setup: who starts, the face-up start cards, how many cards each
    player was dealt (the hands themselves stay private)."""
    start_cards = [
        {
            "board": state.table.board_of(seat),
            "position": state.table.seats[seat].name,
            **card_json(card),
        }
        for seat, card in enumerate(state.cards)
        if card >= 0 and state.placed_by[seat] < 0
    ]
    return {
        "type": "game_started",
        "start_player": state.start_player,
        "hand_sizes": hand_sizes,
        "start_cards": start_cards,
    }


def card_placed(state: ClansState, player: int, card: int, seat: int, hidden: bool) -> list[Event]:
    table = state.table
    where = {"board": table.board_of(seat), "position": table.seats[seat].name}
    public: Event = {"type": "card_placed", "seat": player, **where, "face_down": hidden}
    if hidden:
        public.update({"card": None, "colour": None, "value": None, "matched": []})
        private: Event = {
            "type": "face_down_card",
            "visible_to": [player],
            "seat": player,
            **where,
            **card_json(card),
        }
        return [public, private]
    public.update(card_json(card))
    public["matched"] = matching_neighbours(state, seat, card)
    return [public]


def matching_neighbours(state: ClansState, seat: int, card: int) -> list[str]:
    """Positions of the related seats whose face-up card shares colour or value with ``card``."""
    names = []
    for near in state.table.related[seat]:
        other = state.cards[near]
        if other >= 0 and not state.face_down[near] and MATCHES[card] >> other & 1:
            names.append(state.table.seats[near].name)
    return names


def shield_decided(state: ClansState, player: int, board: int, placed: bool) -> Event:
    if not placed:
        return {"type": "shield_declined", "seat": player, "board": board}
    return {
        "type": "shield_placed",
        "seat": player,
        "board": board,
        "stack": list(state.stacks[board]),
        "shields_left": state.shields_left[player],
    }


def game_ended(state: ClansState) -> list[Event]:
    """The end of play, then one ``board_scored`` per board and the final ``result``."""
    log: list[Event] = [
        {
            "type": "game_ended",
            "last_seat": state.last_player,
            "hand_cards_discarded": [len(hand) for hand in state.hands],
            "face_down_discarded": sum(state.face_down),
        }
    ]
    for result in state.board_results():
        log.append(
            {"type": "board_scored", "stack": list(state.stacks[result.board]), **result.to_json()}
        )
    points, cards = state.totals()
    log.append({"type": "result", "points": points, "cards": cards, "winners": state.winners})
    return log
