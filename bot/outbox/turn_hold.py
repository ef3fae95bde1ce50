"""The table waits while its player goes on with their turn.

Why: every showing of a table is an edit of its channel message, a request of the bot's token
against Discord's global budget of about 50 a second (``budget.py``). At a human pace every
move was shown on its own, one edit per move, while a turn lasts about two moves (Call to
Glory's draw, then the lay or the discard): the others gain little from seeing a turn's first
move a few seconds before its last. So after a move whose seat decides next too (the engine's
``to_move`` says so: no game rule here, ``Publication.move(turn_goes_on=…)``), the table's
showing waits, and is done with the move that passes the decision to another seat, with the
game's end, or at the latest ``TABLE_TURN_HOLD_SECONDS`` after the first move it held,
whichever comes first. The table's log names each move, so the turn's moves are seen together.
The player on turn is not affected: their own hand answers their click at once.

What a hold is: a "not before" on the table's delivery, nothing more. The entry stays in the
outbox like any other until the table has shown it, and the time of the move is stored in it
(Unix time, so a restarted process, or another one, holds it for what is left and no longer).
Anything for the table that is not a held move (a move that passes the turn, the game's end, a
``/table``, a resync, the lobby) ends the wait at once, and the one edit shows all. The table's
pace and the tables' budget (``pace.py``) come after the hold, as for any showing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

HELD = "held"
"""Marks a showing of the table that may wait: ``(SHOW, HELD, when)``."""


def held(op: tuple[Any, ...]) -> bool:
    """Whether ``op`` is a showing of the table that may wait (a move whose turn goes on)."""
    return len(op) == 3 and op[1] == HELD


def held_until(ops: Iterable[tuple[Any, ...]], seconds: float) -> float | None:
    """Until when (Unix time) the table may wait with ``ops``, everything pending for it: the
    first held move's time plus ``seconds``; ``None`` when it goes at once (something other
    than a held move is pending, or the hold is off)."""
    if seconds <= 0:
        return None
    first: float | None = None
    for op in ops:
        if not held(op):
            return None
        first = op[2] if first is None else min(first, op[2])
    return None if first is None else first + seconds
