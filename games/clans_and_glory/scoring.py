"""End-of-game scoring: each board's shield stack claims that board's values from the lowest up.

Reading the stack in placement order is the same as flipping it: the first shield placed takes
every face-up card of the lowest value on the board, the next shield the next value that is
actually present, and so on. Shields beyond the number of distinct values get nothing; values
beyond the number of shields go to nobody. Face-down cards never get here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from games.clans_and_glory.cards import card_token, value_of


@dataclasses.dataclass(frozen=True)
class Claim:
    """What one shield of a stack took: ``cards`` may be empty for a shield placed too late."""

    player: int
    value: int | None
    cards: tuple[int, ...]

    @property
    def points(self) -> int:
        return sum(value_of(card) for card in self.cards)


@dataclasses.dataclass(frozen=True)
class BoardResult:
    board: int
    claims: tuple[Claim, ...]
    unclaimed: tuple[int, ...]

    def to_json(self) -> dict[str, object]:
        """The shape shared by the ``board_scored`` event and the view's ``result``."""
        return {
            "board": self.board,
            "claims": [
                {
                    "seat": claim.player,
                    "value": claim.value,
                    "cards": [card_token(card) for card in claim.cards],
                    "points": claim.points,
                }
                for claim in self.claims
            ],
            "unclaimed": [card_token(card) for card in self.unclaimed],
        }


def score_board(board: int, face_up: Sequence[int], stack: Sequence[int]) -> BoardResult:
    """Hand out the face-up cards of one board to the shields of its stack (placement order).
    Claimed cards are listed in card order (colour, then value) for a stable display."""
    face_up = sorted(face_up)
    values = sorted({value_of(card) for card in face_up})
    claims = []
    for position, player in enumerate(stack):
        if position < len(values):
            value = values[position]
            taken = tuple(card for card in face_up if value_of(card) == value)
            claims.append(Claim(player, value, taken))
        else:
            claims.append(Claim(player, None, ()))
    left = values[len(stack) :]
    unclaimed = tuple(card for card in face_up if value_of(card) in left)
    return BoardResult(board, tuple(claims), unclaimed)


def totals(results: Sequence[BoardResult], players: int) -> tuple[list[int], list[int]]:
    """Points and number of cards won per player over all boards."""
    points = [0] * players
    cards = [0] * players
    for result in results:
        for claim in result.claims:
            points[claim.player] += claim.points
            cards[claim.player] += len(claim.cards)
    return points, cards


def winners(points: Sequence[int], cards: Sequence[int]) -> list[int]:
    """Most points wins; among players tied on points, more cards wins; a remaining tie shares
    the victory."""
    best = max(zip(points, cards, strict=True))
    return [player for player, key in enumerate(zip(points, cards, strict=True)) if key == best]
