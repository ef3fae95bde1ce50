"""The actions of Call to Glory and a cache of their instances.

Actions name cards by value (``value=20``, menu token ``card:20``) and discard piles by number
1 or 2, as players do at the table; seats are the engine's 0-based seat numbers. The engine
builds legal-action lists from the pre-made instances below, so a list allocates no actions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from games.call_to_glory.cards import TASK_DECK_ORDER, VALUES
from games.core import Action, ActionCodec

SOURCES: tuple[str, ...] = ("draw1", "draw2", "discard1", "discard2")
"""Where a card may be drawn from; the position in this tuple is the engine's source index."""
PILES: tuple[int, ...] = (1, 2)


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Take the top card of one source (a turn draws twice, from two different sources)."""

    kind: ClassVar[str] = "draw"
    source: str

    @property
    def menu_path(self) -> tuple[str, ...]:
        return ("draw", f"source:{self.source}")


@dataclass(frozen=True, slots=True)
class Lay(Action):
    """Action 2a: put ``count`` cards of value ``value`` from the hand into one's display."""

    kind: ClassVar[str] = "lay"
    value: int
    count: int

    @property
    def menu_path(self) -> tuple[str, ...]:
        return ("lay", f"card:{self.value}", f"count:{self.count}")


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Action 2b: put one card of value ``value`` from the hand onto discard pile ``pile``."""

    kind: ClassVar[str] = "discard"
    value: int
    pile: int

    @property
    def menu_path(self) -> tuple[str, ...]:
        return ("discard", f"card:{self.value}", f"pile:{self.pile}")


@dataclass(frozen=True, slots=True)
class UseNinja(Action):
    """Ninja variant: spend a miniature to remove one ``value`` card from ``seat``'s display."""

    kind: ClassVar[str] = "ninja"
    seat: int
    value: int

    @property
    def menu_path(self) -> tuple[str, ...]:
        return ("ninja", f"seat:{self.seat}", f"card:{self.value}")


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """Finish a turn whose Action 2 is done while ninja miniatures could still be used."""

    kind: ClassVar[str] = "end_turn"

    @property
    def menu_path(self) -> tuple[str, ...]:
        return ("end_turn",)


@dataclass(frozen=True, slots=True)
class ChoosePile(Action):
    """The owner of discarded display cards (beaten set, ninja victim) picks their pile."""

    kind: ClassVar[str] = "choose_pile"
    pile: int

    @property
    def menu_path(self) -> tuple[str, ...]:
        return (f"pile:{self.pile}",)


@dataclass(frozen=True, slots=True)
class RevealTask(Action):
    """Imperial Tasks: reveal one's unrevealed task card of deck ``deck`` (``a``, ``b``, ``c``)."""

    kind: ClassVar[str] = "reveal_task"
    deck: str

    @property
    def menu_path(self) -> tuple[str, ...]:
        return (f"task:{self.deck}",)


CODEC = ActionCodec(Draw, Lay, Discard, UseNinja, EndTurn, ChoosePile, RevealTask)

# --------------------------------------------------------------------------- cached instances
# Indexed by engine indexes (source index, type index, pile index 0/1, seat) for speed.

MAX_SEATS = 4

DRAWS: tuple[Draw, ...] = tuple(Draw(source) for source in SOURCES)
LAYS: tuple[tuple[Lay, ...], ...] = tuple(
    tuple(Lay(value, count) for count in range(value + 1)) for value in VALUES
)
DISCARDS: tuple[tuple[Discard, ...], ...] = tuple(
    tuple(Discard(value, pile) for pile in PILES) for value in VALUES
)
NINJAS: tuple[tuple[UseNinja, ...], ...] = tuple(
    tuple(UseNinja(seat, value) for value in VALUES) for seat in range(MAX_SEATS)
)
END_TURN = EndTurn()
CHOOSE_PILES: tuple[ChoosePile, ...] = tuple(ChoosePile(pile) for pile in PILES)
REVEALS: dict[str, RevealTask] = {deck: RevealTask(deck) for deck in TASK_DECK_ORDER}
