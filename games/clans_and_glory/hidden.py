"""Fast copies and determinizations of a Clans and Glory position, for searching players.

What a player knows: their own hand and their own face-down cards, every face-up card, the
shield stacks, every hand size, and what each face-down placement proved (``cannot_be``: no
card that fitted somewhere face up at that moment was in that hand). What they cannot know: the
other hands, the others' face-down cards and the undealt cards.

A copy shares the immutable table and move tables with the original; copying them (as
``deepcopy`` or pickling does) is what makes this game's states look expensive to copy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.clans_and_glory.cards import deck_for
from games.rng import Rng

if TYPE_CHECKING:
    from games.clans_and_glory.state import ClansState

GREEDY_ATTEMPTS = 20
"""Random constrained deals tried before falling back to a matching, which always succeeds."""


def copy_state(state: ClansState) -> ClansState:
    """An independent copy: lists the engine mutates are copied, the table, the shared move
    tables, the options and a finished game's board results are shared."""
    cls = type(state)
    copy = cls.__new__(cls)
    copy.num_players = state.num_players
    copy.options = state.options
    copy.table = state.table
    copy.rng = Rng(state.rng.state)
    copy.start_player = state.start_player
    copy.hands = [hand[:] for hand in state.hands]
    copy.undealt = state.undealt[:]
    copy.cards = state.cards[:]
    copy.face_down = state.face_down[:]
    copy.placed_by = state.placed_by[:]
    copy.stacks = [stack[:] for stack in state.stacks]
    copy.shields_left = state.shields_left[:]
    copy.current = state.current
    copy.phase = state.phase
    copy.shield_board = state.shield_board
    copy.cannot_be = state.cannot_be[:]
    copy._result = state._result
    copy._free = state._free[:]
    copy._accepts = state._accepts[:]
    copy._face_up_moves = state._face_up_moves
    copy._face_down_moves = state._face_down_moves
    copy._legal_cache = state._legal_cache  # immutable once built
    return copy


def determinize(state: ClansState, seat: int, rng: Rng) -> ClansState:
    """A copy with the other hands, the others' face-down cards and the undealt cards redealt
    from the cards ``seat`` has not seen, respecting every ``cannot_be``.

    The unseen cards are listed in deck order before they are shuffled, so the result depends
    only on what ``seat`` knows and on ``rng``. Constrained places (a face-down card, the hand
    of a player who could not follow) are filled first, most constrained first, with a random
    allowed card; the rest is dealt uniformly. If random filling runs into a dead end
    ``GREEDY_ATTEMPTS`` times, a matching finds an allowed deal, which always exists because the
    real position is one.
    """
    copy = copy_state(state)
    copy.rng = Rng(rng.next_u64())
    copy._legal_cache = None
    seen = set(state.hands[seat])
    hidden_seats: list[int] = []
    for place, card in enumerate(state.cards):
        if card < 0:
            continue
        if state.face_down[place] and state.placed_by[place] != seat:
            hidden_seats.append(place)
        else:
            seen.add(card)
    pool = [card for card in deck_for(state.num_players) if card not in seen]
    rng.shuffle(pool)

    # Places to fill, each with the mask of cards it must not get: ("hand", player) slots
    # repeated per card, and ("seat", index) for a face-down card.
    places: list[tuple[str, int, int]] = []
    for player in range(state.num_players):
        if player != seat:
            excluded = state.excluded_from_hand(player)
            places += [("hand", player, excluded)] * len(state.hands[player])
    places += [("seat", place, state.cannot_be[place]) for place in hidden_seats]
    places += [("undealt", 0, 0)] * len(state.undealt)
    assert len(places) == len(pool), "every unseen card has exactly one hidden place"

    filling = _fill(places, pool, rng)
    hands: dict[int, list[int]] = {p: [] for p in range(state.num_players) if p != seat}
    undealt = []
    for (kind, where, _excluded), card in zip(places, filling, strict=True):
        if kind == "hand":
            hands[where].append(card)
        elif kind == "seat":
            copy.cards[where] = card
        else:
            undealt.append(card)
    for player, hand in hands.items():
        copy.hands[player] = sorted(hand)
    copy.undealt = sorted(undealt)
    return copy


def _fill(places: list[tuple[str, int, int]], pool: list[int], rng: Rng) -> list[int]:
    """A card for every place (same order), none of them excluded there."""
    constrained = [index for index, place in enumerate(places) if place[2]]
    if not constrained:
        return pool
    for _attempt in range(GREEDY_ATTEMPTS):
        filling = _fill_greedily(places, constrained, pool, rng)
        if filling is not None:
            return filling
    return _fill_by_matching(places, constrained, pool)


def _fill_greedily(
    places: list[tuple[str, int, int]], constrained: list[int], pool: list[int], rng: Rng
) -> list[int] | None:
    left = pool[:]
    # The place with the fewest allowed cards first, so it is not left with none.
    order = sorted(constrained, key=lambda i: sum(1 for c in left if not places[i][2] >> c & 1))
    filling: list[int | None] = [None] * len(places)
    for index in order:
        allowed = [position for position, c in enumerate(left) if not places[index][2] >> c & 1]
        if not allowed:
            return None
        filling[index] = left.pop(allowed[rng.below(len(allowed))])
    rng.shuffle(left)
    for index, card in enumerate(filling):
        if card is None:
            filling[index] = left.pop()
    return filling  # type: ignore[return-value]


def _fill_by_matching(
    places: list[tuple[str, int, int]], constrained: list[int], pool: list[int]
) -> list[int]:
    """Kuhn's augmenting paths between constrained places and pool cards; the pool is already
    shuffled, so among allowed deals the one found is still a random one."""
    owner_of: dict[int, int] = {}  # pool position -> constrained place

    def augment(index: int, visited: set[int]) -> bool:
        excluded = places[index][2]
        for position, card in enumerate(pool):
            if excluded >> card & 1 or position in visited:
                continue
            visited.add(position)
            if position not in owner_of or augment(owner_of[position], visited):
                owner_of[position] = index
                return True
        return False

    for index in constrained:
        if not augment(index, set()):
            raise AssertionError("no deal fits what the table saw; the position is inconsistent")
    filling: list[int | None] = [None] * len(places)
    for position, index in owner_of.items():
        filling[index] = pool[position]
    rest = [card for position, card in enumerate(pool) if position not in owner_of]
    for index, card in enumerate(filling):
        if card is None:
            filling[index] = rest.pop()
    return filling  # type: ignore[return-value]
