"""Kami's eight card types, their copies and points, and the one counter rule.

Cards of a type are interchangeable, so the engine stores a hand as eight counts indexed by the
type ids below; that keeps legal-move generation a loop over eight numbers instead of a hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

SOLDIER, SPEAR, HORSEMAN, SILVER_DRAGON, GOLD_DRAGON, TOWER, MADMAN, EMPRESS = range(8)
TYPES = range(8)

NAMES: tuple[str, ...] = (
    "soldier",
    "spear",
    "horseman",
    "silver_dragon",
    "gold_dragon",
    "tower",
    "madman",
    "empress",
)
BY_NAME: dict[str, int] = {name: index for index, name in enumerate(NAMES)}
COPIES: tuple[int, ...] = (10, 4, 4, 4, 4, 2, 2, 2)
VALUES: tuple[int, ...] = (1, 2, 2, 3, 3, 4, 4, 5)
DECK_SIZE = sum(COPIES)

# Types the Empress may not counter: the humble foot troops.
_EMPRESS_PROOF = frozenset({SOLDIER, SPEAR})

COUNTERS: tuple[tuple[bool, ...], ...] = tuple(
    tuple(
        defense == attack or (defense == EMPRESS and attack not in _EMPRESS_PROOF)
        for attack in TYPES
    )
    for defense in TYPES
)
"""``COUNTERS[defense][attack]``: precomputed because it sits on the hot path of every response."""


def can_counter(defense: int, attack: int) -> bool:
    """Identical types counter each other; the Empress also counters anything but Soldier and
    Spear. Silver and Gold Dragons are different types."""
    return COUNTERS[defense][attack]


def full_deck() -> list[int]:
    """The 32 cards as type ids, in a fixed order ready to be shuffled."""
    return [card for card in TYPES for _ in range(COPIES[card])]


def counts_of(cards: Iterable[int]) -> list[int]:
    """A hand as eight per-type counts."""
    counts = [0] * 8
    for card in cards:
        counts[card] += 1
    return counts


def cards_of(counts: Sequence[int]) -> list[int]:
    """Per-type counts back to a sorted list of type ids."""
    return [card for card in TYPES for _ in range(counts[card])]


def names_of(counts: Sequence[int]) -> list[str]:
    """Per-type counts as sorted card names, the form views and events use."""
    return [NAMES[card] for card in TYPES for _ in range(counts[card])]


def card_from_name(name: object) -> int:
    """The type id of a card name; ``ValueError`` for anything else."""
    if not isinstance(name, str) or name not in BY_NAME:
        raise ValueError(f"unknown Kami card {name!r}")
    return BY_NAME[name]
