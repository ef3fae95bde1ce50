"""The difficulty levels: how much searching each one does, and how it plays out the future.

A level is an iteration budget, so that a level and a seed always give the same move. A caller
that must answer in time (the bot's worker pool) adds a millisecond cap on top; with a cap the
move may depend on the machine's speed, so tests and benchmarks use iterations alone.
"""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class Level:
    """``iterations`` is the search budget per decision (0: no search, pick a legal move at
    random); ``exploration`` is the UCB constant for rewards in [0, 1]; ``rollout_depth`` is
    how many random moves a simulation makes before it scores the position by what the table
    shows (``State.provisional_scores``), in games that can tell; ``None`` plays every
    simulation to the end of the round."""

    name: str
    iterations: int
    exploration: float = 0.7
    rollout_depth: int | None = 8

    def with_iterations(self, iterations: int) -> Level:
        """The same level at another budget (benchmarks run tournaments at reduced budgets)."""
        return dataclasses.replace(self, iterations=iterations)


RANDOM = Level("random", 0)
"""A uniformly random legal move: the baseline the benchmark measures against."""
EASY = Level("easy", 24)
"""A glance ahead: enough to take an obvious point, not enough to plan a round."""
MEDIUM = Level("medium", 150)
STRONG = Level("strong", 1200)
"""Calibrated so that a decision stays under half a second at the 95th percentile on one core
of the reference machine (see ``docs/ai.md``)."""

LEVELS: dict[str, Level] = {level.name: level for level in (RANDOM, EASY, MEDIUM, STRONG)}
