"""What a strong decision costs at its real budget, and how much of that is the guided search.

Plays a few games per game of the strong level (one seat) against the rules-based player and
times every searched decision by the deciding thread's CPU time (forced moves and wins on the
spot are answered without a search and left out). Then the same loop runs the *unguided*
search at the same budget (random rollouts of 8 moves, no prior: strong as it was before the
rules-based players guided it), which tells a slow or busy machine apart from a costlier
search: compare its figures with an idle core's from ``docs/ai.md``.

    .venv/bin/python benchmarks/ai_cost.py            # one game per game (a few dozen positions)
    .venv/bin/python benchmarks/ai_cost.py --games 3 --only kami
    .venv/bin/python benchmarks/ai_cost.py --strong-only     # the strong level's figures alone
    .venv/bin/python benchmarks/ai_cost.py --strong-only --players 4 --only call_to_glory
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import REGISTRY
from games.ai import LEVELS, Level, decide
from games.ai.experts import expert_action
from games.ai.search import NO_GUIDANCE


def decision_times(key: str, level: Level, games: int, players: int = 2) -> list[float]:
    """CPU milliseconds of the searched decisions of ``level`` in ``games`` games of
    ``players`` players (one seat the level's, the others the rules-based player's)."""
    times: list[float] = []
    options = {"rounds": 1} if key == "call_to_glory" else {}
    for deal in range(games):
        state = REGISTRY[key].new_state(players, 900 + deal, options)
        rng = random.Random(deal)
        step = 0
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            if seat == deal % players:
                started = time.thread_time()
                decision = decide(state, seat, level, step)
                if not decision.forced and not decision.winning:
                    times.append((time.thread_time() - started) * 1000)
                state.apply(decision.action)
            else:
                state.apply(expert_action(state, seat, rng))
            step += 1
    return sorted(times)


def _percentile(values: list[float], share: float) -> float:
    return values[min(len(values) - 1, math.ceil(share * len(values)) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1, help="games per game and search")
    parser.add_argument("--only", choices=sorted(REGISTRY), help="one game")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4), help="seats")
    parser.add_argument(
        "--strong-only", action="store_true", help="leave out the unguided comparison"
    )
    args = parser.parse_args()
    strong = LEVELS["strong"]
    unguided = dataclasses.replace(strong, rollout_depth=8, guidance=NO_GUIDANCE)
    for key in [args.only] if args.only else sorted(REGISTRY):
        searches = (
            [("strong", strong)]
            if args.strong_only
            else [("strong", strong), ("unguided", unguided)]
        )
        for name, level in searches:
            times = decision_times(key, level, args.games, args.players)
            if not times:
                print(f"{key} {name}: no searched decision")
                continue
            print(
                f"{key} {args.players}p {name} {level.budget(key)} it: {len(times)} decisions, "
                f"CPU p50 {_percentile(times, 0.5):.0f} ms, p95 {_percentile(times, 0.95):.0f} ms, "
                f"max {times[-1]:.0f} ms",
                flush=True,
            )


if __name__ == "__main__":
    main()
