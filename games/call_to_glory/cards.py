"""Card data of Call to Glory: the nine character types and the Imperial Task decks.

Zones keep cards as *type indexes* (0 … 8) because a list indexed by type is the cheapest
multiset in Python; values (6 … 20) appear only at the edges (actions, events, views, JSON).
"""

from __future__ import annotations

VALUES: tuple[int, ...] = (6, 7, 8, 9, 12, 14, 16, 18, 20)
"""Each type's value, which is also how many copies of it the deck holds."""

NAMES: tuple[str, ...] = (
    "Emperor",
    "Empress",
    "Daimyo",
    "Shogun",
    "Samurai",
    "Ninja",
    "Envoy",
    "Monk",
    "Farmer",
)

TYPES = len(VALUES)
INDEX_OF: dict[int, int] = {value: index for index, value in enumerate(VALUES)}
DECK_SIZE = sum(VALUES)  # 110
NINJA = INDEX_OF[14]
"""Laying a set of this type earns a ninja miniature in the Ninja variant."""

HAND_SIZE = 3
MINIATURES = 4

_THREE_CARD_VALUES = frozenset({12, 14, 16})
_TYPES_TO_END = {2: 6, 3: 5, 4: 4}


def full_deck() -> list[int]:
    """All 110 cards as type indexes, in a fixed order (the RNG shuffles it)."""
    return [index for index, value in enumerate(VALUES) for _ in range(value)]


def minimum_set(players: int) -> tuple[int, ...]:
    """Smallest legal set per type: 2, except 12/14/16 need 3 with three or four players
    (the multiplayer rule the publisher added, marked by dots on those cards)."""
    return tuple(3 if players >= 3 and value in _THREE_CARD_VALUES else 2 for value in VALUES)


def types_to_end(players: int) -> int:
    """Distinct types in one display that end the round: fewer players need more types."""
    return _TYPES_TO_END[players]


# --------------------------------------------------------------------------- Imperial Tasks

TASK_DECKS: dict[str, tuple[int, tuple[int, ...]]] = {
    # deck: (bonus per matching card, values printed on its four cards)
    #
    # PLACEHOLDER COMPOSITION. The rulebook's card images are lost, so only the deck sizes
    # (4 each), the bonuses (5/4/3) and one card (a "7" in deck A) are known. The values below
    # are the spec's proposal (rare, middle and common types per deck) and are the single place
    # to change once the real cards are known.
    "a": (5, (6, 7, 8, 9)),
    "b": (4, (9, 12, 14, 16)),
    "c": (3, (14, 16, 18, 20)),
}
TASK_DECK_ORDER: tuple[str, ...] = tuple(TASK_DECKS)
TASK_BONUS: dict[str, int] = {deck: bonus for deck, (bonus, _values) in TASK_DECKS.items()}
TASK_ROUNDS = 3
"""A game with Imperial Tasks lasts three rounds: one reveal per player and round."""
