"""Time to draw one table picture (and one hand), per game and player count, and PNG size.

Run with ``python benchmarks/pictures.py`` (``--positions 60``). For every game and player
count it plays random games with a fixed seed, takes positions along the way (start, middle,
end), and draws each position's public table as the bot does (``draw.table_png``: layout,
text, cards and the PNG, in one thread), then the hand of the seat on turn.
Targets (issue 16): table p50 <= 15 ms, p99 <= 40 ms, PNG <= 150 KB.

Besides the wall-clock times it reports the CPU time of each drawing (``time.thread_time``):
under load the drawing workers compete with the bot for the machine's cores, so their CPU time
is what costs, and it is far less disturbed than wall-clock time when other processes share the
machine. Compare two versions by running them alternately (A, B, A, B), not once each.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.pictures import draw
from bot.pictures.scene import HandScene, TableScene
from games import REGISTRY, events_for

NAMES = ["Анна-Мария", "Jürgen Weiß", "Chloé", "Дмитрий"]


def positions(key: str, players: int, count: int) -> list:
    rng = random.Random(f"{key}{players}")
    found = []
    while len(found) < count:
        state = REGISTRY[key].new_state(players, rng.getrandbits(32))
        events: list = []
        moves = 0
        while not state.is_over and len(found) < count:
            if moves % 7 == 0:
                found.append((state.clone(), events))
            events = state.apply(rng.choice(state.legal_actions()))
            moves += 1
    return found


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=60, help="positions per game and count")
    args = parser.parse_args()
    draw.table_png(
        TableScene("kami", REGISTRY["kami"].new_state(2, 1).view(None), NAMES[:2], "en", "x")
    )  # fonts loaded once, as in a running bot
    print(
        f"{'game':<16} {'n':>2} {'p50 ms':>7} {'p99 ms':>7} {'max KB':>7} {'hand p50':>9}"
        f" {'cpu table':>10} {'cpu hand':>9} {'mean KB':>8}"
    )
    everything: list[float] = []
    cpu_tables: list[float] = []
    cpu_hands: list[float] = []
    table_bytes: list[int] = []
    hand_bytes: list[int] = []
    largest = 0
    for key, game in REGISTRY.items():
        for players in game.player_counts:
            times, sizes, hands, cpu_table, cpu_hand = [], [], [], [], []
            for index, (state, events) in enumerate(positions(key, players, args.positions)):
                locale = ("en", "de", "ru")[index % 3]
                scene = TableScene(
                    key,
                    state.view(None),
                    NAMES[:players],
                    locale,
                    "status",
                    events_for(events, None),
                )
                start, cpu = time.perf_counter(), time.thread_time()
                png = draw.table_png(scene)
                cpu_table.append((time.thread_time() - cpu) * 1000)
                times.append((time.perf_counter() - start) * 1000)
                sizes.append(len(png))
                if state.to_move is not None:
                    hand = HandScene(key, state.view(state.to_move), NAMES[:players], locale)
                    start, cpu = time.perf_counter(), time.thread_time()
                    hand_png = draw.hand_png(hand)
                    cpu_hand.append((time.thread_time() - cpu) * 1000)
                    hands.append((time.perf_counter() - start) * 1000)
                    hand_bytes.append(len(hand_png))
            everything += times
            cpu_tables += cpu_table
            cpu_hands += cpu_hand
            table_bytes += sizes
            largest = max(largest, *sizes)
            print(
                f"{key:<16} {players:>2} {statistics.median(times):7.1f} "
                f"{percentile(times, 0.99):7.1f} {max(sizes) / 1024:7.1f} "
                f"{statistics.median(hands):9.1f} {statistics.median(cpu_table):10.2f} "
                f"{statistics.median(cpu_hand):9.2f} {statistics.mean(sizes) / 1024:8.1f}"
            )
    print(
        f"all tables: p50 {statistics.median(everything):.1f} ms, "
        f"p99 {percentile(everything, 0.99):.1f} ms, largest PNG {largest / 1024:.1f} KB"
    )
    print(
        f"CPU per picture: table p50 {statistics.median(cpu_tables):.2f} ms "
        f"(mean {statistics.mean(cpu_tables):.2f}), hand p50 {statistics.median(cpu_hands):.2f} ms "
        f"(mean {statistics.mean(cpu_hands):.2f}); PNG mean: table "
        f"{statistics.mean(table_bytes) / 1024:.1f} KB, "
        f"hand {statistics.mean(hand_bytes) / 1024:.1f} KB"
    )


if __name__ == "__main__":
    main()
