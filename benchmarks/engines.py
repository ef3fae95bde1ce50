"""Random-playout throughput of every engine, per game and player count.

Run with ``make bench`` (or ``python benchmarks/engines.py --games 200``). Each sample is one
complete game with default options, started by ``new_state`` and played by uniformly random
legal actions; the figures are the median time per game, games per second and microseconds per
decision (``legal_actions`` + ``apply``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import REGISTRY


def play_one(key: str, players: int, seed: int) -> tuple[float, int]:
    chooser = random.Random(seed)
    start = time.perf_counter()
    state = REGISTRY[key].new_state(players, seed)
    decisions = 0
    while not state.is_over:
        state.apply(chooser.choice(state.legal_actions()))
        decisions += 1
    return time.perf_counter() - start, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per configuration")
    parser.add_argument("--only", choices=sorted(REGISTRY), help="benchmark one game")
    args = parser.parse_args()

    print(f"{'game':<18}{'players':>8}{'median ms/game':>16}{'games/s':>10}{'us/decision':>13}")
    for key, game in REGISTRY.items():
        if args.only and key != args.only:
            continue
        for players in game.player_counts:
            times, decisions = [], 0
            for seed in range(args.games):
                elapsed, steps = play_one(key, players, seed)
                times.append(elapsed)
                decisions += steps
            total = sum(times)
            print(
                f"{key:<18}{players:>8}{statistics.median(times) * 1000:>16.2f}"
                f"{len(times) / total:>10.0f}{total / decisions * 1e6:>13.1f}"
            )


if __name__ == "__main__":
    main()
