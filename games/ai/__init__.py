"""A computer player for every game in ``games``: information-set Monte Carlo tree search.

Pure and deterministic given its seed (no I/O; a clock is read only for a caller's optional
millisecond cap). See ``docs/ai.md`` for how it works and how strong it is.

    from games.ai import decide
    decision = decide(state, seat=state.to_move, level="strong", seed=1234)
    state.apply(decision.action)

``decide_json`` is the same for a worker process (JSON in, JSON out).
"""

from games.ai.decide import Decision, decide, decide_json, decision_seed, level_named
from games.ai.levels import EASY, LEVELS, MEDIUM, RANDOM, STRONG, Level
from games.ai.search import RootStat, SearchResult, search

__all__ = [
    "EASY",
    "LEVELS",
    "MEDIUM",
    "RANDOM",
    "STRONG",
    "Decision",
    "Level",
    "RootStat",
    "SearchResult",
    "decide",
    "decide_json",
    "decision_seed",
    "level_named",
    "search",
]
