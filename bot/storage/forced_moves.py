"""What forced moves made for a player read and write (``bot/flows/forced_moves.py``).

- ``users.auto_pass``: the player's choice (``/autopass``, or the button on a hand whose only
  move is a pass). Read when a forced move is due, never on a click's path, so it is not kept
  in memory; other processes read it from the database the same way.
- How long the players of a game took for their decisions: the time from the move before to
  each of their moves (``moves.created_at``, the commit time of each). A forced move is made
  after a delay drawn from these, so its timing tells the others nothing.
"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime

from sqlmodel import col, select

from bot.storage.models import MoveRow, UserRow
from bot.storage.users import Users

AUTOPLAY_EVENT = "autoplay"
"""The log's mark of a move the AI made for an absent player (``bot/render/base.py``)."""
DECISIONS_READ = 400
"""How many of a game's latest moves the decision times are read from."""


def _aware(when: datetime) -> datetime:
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


class ForcedMoveSettings(Users):
    """The store's part that forced moves read and write."""

    async def auto_pass(self, user_id: int) -> bool:
        """Whether the user lets the bot make their forced moves (default: no)."""
        async with self.session() as session:
            row = await session.get(UserRow, user_id)
            return bool(row is not None and row.auto_pass)

    async def set_auto_pass(self, user_id: int, on: bool) -> None:
        async with self._writing_user(user_id) as session:
            await session.exec(self._upsert(UserRow, "user_id", user_id=user_id, auto_pass=on))

    async def decision_seconds(self, game_id: int) -> dict[int, list[float]]:
        """Per seat, the seconds each of its recent moves took from the move before it (the
        start of its turn), oldest first. Moves the AI made for an absent player are left out;
        so is the first move after the deal (the time it took the DMs to arrive counts there)."""
        async with self.session() as session:
            query = (
                select(MoveRow.version, MoveRow.seat, MoveRow.created_at, MoveRow.events)
                .where(MoveRow.game_id == game_id)
                .order_by(col(MoveRow.version).desc())
                .limit(DECISIONS_READ)
            )
            rows = list(reversed((await session.exec(query)).all()))
        found: dict[int, list[float]] = {}
        for before, move in itertools.pairwise(rows):
            _, seat, made, events = move
            if before[1] < 0 or seat < 0:
                continue  # the deal: no decision, or the first one after it
            if any(event.get("type") == AUTOPLAY_EVENT for event in events or ()):
                continue
            seconds = (_aware(made) - _aware(before[2])).total_seconds()
            if seconds > 0:
                found.setdefault(seat, []).append(seconds)
        return found
