"""The 42 clan cards as small integers, and the colour-or-value matching rule as bit masks.

A card is ``colour_index * 6 + (value - 3)``; a set of cards is an int bit mask. Matching is the
hot path of move generation, so ``MATCHES[card]`` holds, for every card, the mask of all cards
that share its colour or its value: a seat accepts card ``c`` face up exactly when ``c`` is in the
union of ``MATCHES`` over the face-up cards related to that seat.
"""

from __future__ import annotations

COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow", "purple", "orange", "black")
"""No source names the printed colours; these stand in for the spec's R, B, G, Y, P, O, K."""

LOWEST_VALUE = 3
HIGHEST_VALUE = 8
VALUES: tuple[int, ...] = tuple(range(LOWEST_VALUE, HIGHEST_VALUE + 1))
CARD_COUNT = len(COLOURS) * len(VALUES)


def card_id(colour: str, value: int) -> int:
    return COLOURS.index(colour) * len(VALUES) + (value - LOWEST_VALUE)


def colour_of(card: int) -> str:
    return COLOURS[card // len(VALUES)]


def value_of(card: int) -> int:
    return LOWEST_VALUE + card % len(VALUES)


def card_token(card: int) -> str:
    """The stable text name of a card, e.g. ``red-5``; used in actions, menus, events and JSON."""
    return f"{colour_of(card)}-{value_of(card)}"


CARD_BY_TOKEN: dict[str, int] = {card_token(card): card for card in range(CARD_COUNT)}


def card_json(card: int) -> dict[str, object]:
    """A card as the views and events show it."""
    return {"card": card_token(card), "colour": colour_of(card), "value": value_of(card)}


def highest_value_for(players: int) -> int:
    """Fewer players leave out the top values: 2 players use 3–6, 3 use 3–7, 4 use 3–8."""
    return players + 4


def deck_for(players: int) -> list[int]:
    """Every colour with the values 3 up to ``players + 4``, in id order (unshuffled)."""
    top = highest_value_for(players)
    return [card for card in range(CARD_COUNT) if value_of(card) <= top]


def _matches(card: int) -> int:
    mask = 0
    for other in range(CARD_COUNT):
        if colour_of(other) == colour_of(card) or value_of(other) == value_of(card):
            mask |= 1 << other
    return mask


MATCHES: tuple[int, ...] = tuple(_matches(card) for card in range(CARD_COUNT))


def cards_in(mask: int) -> list[int]:
    """The cards of a bit mask, lowest id first."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards
