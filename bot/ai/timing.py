"""Where an AI seat's move spends its time: one line per move on the ``bot.ai.timing`` logger.

An AI seat's move is meant to be shown a readable pause after the turn passed to it, and no
later than that pause plus one search, however many players ask for hints meanwhile (issue 31).
To see where a late move lost its time, each move is stamped at every step: the turn passed
to the seat (its task looked at the game), the search queued, handed to a worker, answered,
the pause over, the move committed. The line is logged at DEBUG (nothing is formatted unless
someone listens: ``benchmarks/hint_load.py`` does, through ``benchmarks/traced_bot.py``).
The stamps are ``time.time()``, so they compare with the database's and the emulator's.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, field

from bot.ai.queue import SearchTiming

log = logging.getLogger("bot.ai.timing")


@dataclass
class MoveTiming:
    """One AI move's steps (``None``: a step not reached)."""

    game_id: int
    turn: float = field(default_factory=time.time)
    """When the seat's task looked at the game after the turn passed to it."""
    search: SearchTiming | None = None
    paused: float | None = None
    committed: float | None = None
    version: int | None = None
    iterations: int | None = None

    def searching(self) -> SearchTiming:
        """The search's own stamps, from now (it is being queued)."""
        self.search = SearchTiming()
        return self.search

    def report(self, outcome: str) -> None:
        """Log the steps (``outcome``: ``moved`` or why the move was not stored)."""
        if not log.isEnabledFor(logging.DEBUG):
            return
        search = self.search or SearchTiming(queued=0.0)
        log.debug(
            "%s",
            json.dumps(
                {
                    "game": self.game_id,
                    "version": self.version,
                    "outcome": outcome,
                    "turn": self.turn,
                    "queued": search.queued or None,
                    "started": search.started,
                    "ended": search.ended,
                    "paused": self.paused,
                    "committed": self.committed,
                    "iterations": self.iterations,
                    "max_ms": search.max_ms,
                    "late": search.late,
                }
            ),
        )
