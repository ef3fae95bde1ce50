"""The four decisions of a turn: a card face up, a forced card face down, a shield, or none.

A placement's menu goes card, then board, then seat, so no level offers more than 25 choices
(at most 9 hand cards, 6 boards, 7 seats per board). Placement actions are immutable and their
number is bounded (42 cards x 38 seats), so move generation hands out instances built once per
table instead of building new objects on every turn.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from games.core import Action, ActionCodec


@dataclasses.dataclass(frozen=True, slots=True)
class PlaceCard(Action):
    """Put ``card`` (e.g. ``red-5``) face up on the free table seat ``position`` (e.g. ``n4``)
    of ``board``. The API says "position" for a table seat because "seat" means a player."""

    kind: ClassVar[str] = "place"
    card: str
    board: int
    position: str

    @property
    def menu_path(self) -> tuple[str, ...]:
        return ("place", f"card:{self.card}", f"board:{self.board}", f"position:{self.position}")


@dataclasses.dataclass(frozen=True, slots=True)
class PlaceFaceDown(Action):
    """Put ``card`` face down on ``position``; legal only when no hand card fits anywhere face
    up."""

    kind: ClassVar[str] = "place_face_down"
    card: str
    board: int
    position: str

    @property
    def menu_path(self) -> tuple[str, ...]:
        return (
            "place_face_down",
            f"card:{self.card}",
            f"board:{self.board}",
            f"position:{self.position}",
        )


@dataclasses.dataclass(frozen=True, slots=True)
class PlaceShield(Action):
    """Put one of your shields on top of the stack of the board you just played on."""

    kind: ClassVar[str] = "shield"

    @property
    def menu_path(self) -> tuple[str, ...]:
        return ("shield",)


@dataclasses.dataclass(frozen=True, slots=True)
class SkipShield(Action):
    """End the turn without a shield."""

    kind: ClassVar[str] = "no_shield"

    @property
    def menu_path(self) -> tuple[str, ...]:
        return ("no_shield",)


CODEC = ActionCodec(PlaceCard, PlaceFaceDown, PlaceShield, SkipShield)
SHIELD = PlaceShield()
NO_SHIELD = SkipShield()
SHIELD_CHOICES: tuple[Action, ...] = (SHIELD, NO_SHIELD)


def place_action(card: str, board: int, position: str, face_down: bool) -> Action:
    """One placement; the state builds each of these once per table and shares them."""
    return (PlaceFaceDown if face_down else PlaceCard)(card, board, position)
