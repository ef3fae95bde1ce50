"""A rules-based Clans and Glory player: claim boards where you lead, feed your own claims,
spoil the others', and spend the five shields where they take the most.

Written from the rules (``/work/shared/rules/clans_and_glory.md``): each board's shields claim
its face-up values from the lowest up, in the order they were placed. So every placement and
shield is judged by what the boards would give each player if the game ended now (the engine's
scoring, board by board), as the difference between the seat's points and the others' average:

* a card is worth placing where its value is (or becomes) a claim of the seat's, and not where
  it adds to someone else's claim; a low card dropped under an opponent's first shield shifts
  what every shield of that board takes (the rules' own strategic note);
* a shield is placed when what it takes now beats what a shield kept for later is likely to
  take; with as many turns left as shields there is no reason to keep one;
* a card that must go face down goes where it blocks the seat the others could use best next
  to the seat's claims, and the card given up is the one that fits least elsewhere.

It reads only its own hand and the public table (face-up cards, the shield stacks, shields and
hand sizes), never another hand or someone else's face-down card.
"""

from __future__ import annotations

import random

from games.clans_and_glory.actions import PlaceCard, PlaceFaceDown
from games.clans_and_glory.cards import CARD_BY_TOKEN, MATCHES, value_of
from games.clans_and_glory.state import EMPTY, SHIELD, ClansState
from games.core import Action

SHIELD_RESERVE = 5.0
"""What a shield kept for later is worth when shields are scarcer than the turns left."""
UNCERTAIN = 0.15
"""Share of a claim's points discounted per empty seat of its board (later cards may shift it)."""


def choose(state: ClansState, seat: int, rng: random.Random) -> Action:
    """The rules-based player's move for ``seat`` (the seat to move)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    if state.phase == SHIELD:
        board = state.shield_board
        assert board is not None
        gain = _shield_gain(state, seat, board)
        return legal[0] if gain > _shield_reserve(state, seat) else legal[1]
    if type(legal[0]) is PlaceFaceDown:
        return _face_down(state, seat, legal, rng)
    return _place(state, seat, legal, rng)


def _board_points(
    state: ClansState, board: int, extra: tuple[int, int] | None, stack: list[int]
) -> list[float]:
    """What each player would take from ``board`` if the game ended now (with ``extra``, a
    ``(seat, card)`` placed face up, and ``stack`` as the shield stack), each claim discounted
    a little for every free seat left on the board (a later card may shift it)."""
    values, free = _board_values(state, board)
    if extra is not None:
        values = dict(values)
        value = _VALUE[extra[1]]
        values[value] = values.get(value, 0) + value
        free -= 1
    return _claims(values, free, stack, state.num_players)


def _board_values(state: ClansState, board: int) -> tuple[dict[int, int], int]:
    """Points on show per value on ``board`` (face-up cards), and its free seats."""
    values: dict[int, int] = {}
    cards = state.cards
    face_down = state.face_down
    free = 0
    for position in state.table.board_seats[board]:
        card = cards[position]
        if card == EMPTY:
            free += 1
        elif not face_down[position]:
            value = _VALUE[card]
            values[value] = values.get(value, 0) + value
    return values, free


def _claims(values: dict[int, int], free: int, stack: list[int], players: int) -> list[float]:
    points = [0.0] * players
    ordered = sorted(values)
    discount = max(0.2, 1.0 - UNCERTAIN * free)
    for index, owner in enumerate(stack):
        if index >= len(ordered):
            break
        points[owner] += values[ordered[index]] * discount
    return points


_VALUE = [value_of(card) for card in range(42)]


def _margin(points: list[float], seat: int) -> float:
    others = len(points) - 1
    return points[seat] - (sum(points) - points[seat]) / others


def _turns_left(state: ClansState, seat: int) -> int:
    """Turns the seat still has, this one included."""
    hand = len(state.hands[seat])
    return hand if seat == state.last_player else hand - 1


def _shield_reserve(state: ClansState, seat: int) -> float:
    shields = state.shields_left[seat]
    turns = _turns_left(state, seat)
    if shields <= 0:
        return 1e9
    if shields >= turns:
        return -0.5
    return SHIELD_RESERVE * (1.0 - shields / turns)


def _shield_gain(state: ClansState, seat: int, board: int) -> float:
    stack = state.stacks[board]
    before = _margin(_board_points(state, board, None, stack), seat)
    after = _margin(_board_points(state, board, None, [*stack, seat]), seat)
    return after - before


def _place(state: ClansState, seat: int, legal: list[Action], rng: random.Random) -> Action:
    table = state.table
    reserve = _shield_reserve(state, seat)
    can_shield = state.shields_left[seat] > 0
    players = state.num_players
    best: list[Action] = []
    best_value = -1e9
    boards: dict[int, tuple[dict[int, int], int, float]] = {}
    worth: dict[tuple[int, int], float] = {}
    for action in legal:
        assert isinstance(action, PlaceCard)
        card = CARD_BY_TOKEN[action.card]
        board = action.board
        value = _VALUE[card]
        key = (board, value)
        gain = worth.get(key)
        if gain is None:
            stack = state.stacks[board]
            if board not in boards:
                values, free = _board_values(state, board)
                before = _margin(_claims(values, free, stack, players), seat)
                boards[board] = (values, free, before)
            values, free, before = boards[board]
            values = dict(values)
            values[value] = values.get(value, 0) + value
            placed = _margin(_claims(values, free - 1, stack, players), seat)
            gain = placed - before
            if can_shield:
                shielded = _margin(_claims(values, free - 1, [*stack, seat], players), seat)
                gain += max(0.0, shielded - placed - reserve)
            worth[key] = gain
        position = table.index_by_name[action.position]
        total = gain - 0.15 * _openings(state, position, card)
        if total > best_value + 1e-9:
            best, best_value = [action], total
        elif total > best_value - 1e-9:
            best.append(action)
    return best[0] if len(best) == 1 else best[rng.randrange(len(best))]


def _openings(state: ClansState, position: int, card: int) -> int:
    """Free seats next to ``position`` this card would open to the others' cards (a rough count
    of the choices handed to the next players)."""
    opened = 0
    cards = state.cards
    for near in state.table.related[position]:
        if cards[near] == EMPTY and MATCHES[card] & ~state._accepts[near]:
            opened += 1
    return opened


def _face_down(state: ClansState, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """Give up the card that fits least (the highest value among equals keeps the low cards
    that can still shift boards), on the seat that blocks most next to the seat's own claims."""
    table = state.table
    mine = [board for board, stack in enumerate(state.stacks) if seat in stack]
    best: list[Action] = []
    best_key = None
    for action in legal:
        card = CARD_BY_TOKEN[action.card]  # type: ignore[attr-defined]
        position = table.index_by_name[action.position]  # type: ignore[attr-defined]
        board = action.board  # type: ignore[attr-defined]
        near_claim = 1 if board in mine else 0
        neighbours = sum(
            1
            for near in table.related[position]
            if state.cards[near] != EMPTY and not state.face_down[near]
        )
        key = (near_claim, neighbours, -value_of(card))
        if best_key is None or key > best_key:
            best, best_key = [action], key
        elif key == best_key:
            best.append(action)
    return best[0] if len(best) == 1 else best[rng.randrange(len(best))]
