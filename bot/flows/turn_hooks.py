"""What the play flows ask of the AI's autoplay, as protocols: a turn changed, who plays it.

Every flow that ends a turn (a move, a lobby's start, a seat handed over, the turn clock, a
forced move) tells the autoplay, which decides whether the AI (or the clock, or a forced
move) plays next; the autoplay in turn plays through those flows. The flows name only the
calls they make, so none of them imports the autoplay, and ``bot/app.py`` wires the object.
"""

from __future__ import annotations

from typing import Protocol

from bot.flows.session import LoadedGame


class TurnChanges(Protocol):
    def turn_changed(self, game_id: int, after: LoadedGame | None = None) -> None:
        """Someone may have to play now (``after``: the game as the change left it)."""


class TurnPlayer(TurnChanges, Protocol):
    async def claim_turn(self, loaded: LoadedGame) -> bool:
        """Whether this process is the one to play the turn ``loaded`` is in."""

    async def play(
        self, loaded: LoadedGame, seat: int, level: str, *, autoplay: str | None
    ) -> bool:
        """Search and commit ``seat``'s move at ``level``; True if the move was stored."""
