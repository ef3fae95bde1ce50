"""Test-only construction of Clans and Glory positions in the spec's notation.

The spec writes cards as ``R5`` (colour letter R, B, G, Y, P, O, K and a value) and seats as
``N3``, ``S17``, ``HL``, ``HR``; ``position`` builds a legal, serialisable ``ClansState`` from
that: the cards not named anywhere go to the undealt pile, and each player's shields left are
5 minus the shields they have in the stacks, so every built state survives a JSON round trip.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from games.clans_and_glory import GAME
from games.clans_and_glory.cards import CARD_BY_TOKEN, COLOURS, deck_for
from games.clans_and_glory.setup import SHIELDS_PER_PLAYER
from games.clans_and_glory.state import EMPTY, PLACE, ClansState
from games.clans_and_glory.table import build_table
from games.rng import Rng

LETTERS = dict(zip("RBGYPOK", COLOURS, strict=True))

BASE_START_CARDS = {"N1": "R5", "N4": "B3", "N7": "G6", "N10": "Y4", "N13": "P8", "N16": "O7"}
"""The spec's default start cards (BASE4 for 4 players; fewer boards keep the first ones)."""


def token(short: str) -> str:
    """``R5`` -> ``red-5``."""
    return f"{LETTERS[short[0]]}-{short[1:]}"


def card(short: str) -> int:
    return CARD_BY_TOKEN[token(short)]


def base_start_cards(players: int) -> dict[str, str]:
    boards = players + 2
    return dict(list(BASE_START_CARDS.items())[:boards])


def position(
    players: int = 4,
    *,
    table: Mapping[str, str] | None = None,
    face_down: Mapping[str, str] | None = None,
    base: bool = True,
    hands: Mapping[int, Sequence[str]] | None = None,
    stacks: Mapping[int, Sequence[int]] | None = None,
    placed_by: int = 0,
    to_move: int = 0,
    start_player: int = 0,
    phase: str = PLACE,
    shield_board: int | None = None,
    options: Mapping[str, object] | None = None,
) -> ClansState:
    """A position: ``base`` adds the default start cards, ``table`` more face-up cards,
    ``face_down`` face-down cards (their owner is ``placed_by``, as is every card in ``table``),
    ``hands`` the hand of each player (others empty), ``stacks`` shields in placement order."""
    resolved = GAME.resolve_options(players, dict(options or {}))
    layout = build_table(players, resolved["cross_board_adjacency"])
    cards = [EMPTY] * layout.seat_count
    hidden = [False] * layout.seat_count
    owners = [EMPTY] * layout.seat_count

    def put(seat_name: str, short: str, owner: int, is_face_down: bool) -> None:
        seat = layout.seat(seat_name.lower())
        assert cards[seat] == EMPTY, f"{seat_name} is taken twice"
        cards[seat] = card(short)
        hidden[seat] = is_face_down
        owners[seat] = owner

    for seat_name, short in (base_start_cards(players) if base else {}).items():
        put(seat_name, short, EMPTY, False)
    for seat_name, short in (table or {}).items():
        put(seat_name, short, placed_by, False)
    for seat_name, short in (face_down or {}).items():
        put(seat_name, short, placed_by, True)
    hand_lists = [[card(short) for short in (hands or {}).get(p, ())] for p in range(players)]
    stack_lists = [list((stacks or {}).get(b, ())) for b in range(layout.board_count)]
    used = [c for c in cards if c != EMPTY] + [c for hand in hand_lists for c in hand]
    assert len(set(used)) == len(used), "a card is used twice"
    assert set(used) <= set(deck_for(players)), "a card is not in this player count's deck"
    return ClansState(
        players=players,
        options=resolved,
        rng=Rng(0),
        start_player=start_player,
        hands=hand_lists,
        undealt=sorted(set(deck_for(players)) - set(used)),
        cards=cards,
        face_down=hidden,
        placed_by=owners,
        stacks=stack_lists,
        shields_left=[
            SHIELDS_PER_PLAYER - sum(stack.count(p) for stack in stack_lists)
            for p in range(players)
        ],
        current=None if phase == "over" else to_move,
        phase=phase,
        shield_board=shield_board,
    )
