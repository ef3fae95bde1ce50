"""Strength and cost of the AI (``games.ai``): duplicate tournaments with seat rotation.

Every deal (a ``new_state`` seed) is played once per seating, so luck of the cards cancels out:
with two players the candidate plays each deal from both seats; with three or four it sits in
every seat in turn among baseline players; in four-player Kami its team takes each side in turn.
Win rates come with Wilson 95 % intervals; score shares (the candidate's share of the table's
points over a baseline seat's) with a delta-method interval over deals.
The candidate's decision times (searched decisions only; a forced move is answered at once) and
its iterations per second are reported per game.

    python benchmarks/ai.py --games 100 --budget 120          # reduced budget tournaments
    python benchmarks/ai.py --full --games 30                 # the levels' own budgets
    python benchmarks/ai.py --only kami --games 20 --budget 50  # a quick look
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import REGISTRY
from games.ai import LEVELS, Level, decide, decision_seed

Z = 1.96


def wilson(successes: float, n: int) -> tuple[float, float]:
    """Wilson score interval at 95 % for a proportion (a shared win counts as half a win)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = p + Z * Z / (2 * n)
    spread = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return (centre - spread) / (1 + Z * Z / n), (centre + spread) / (1 + Z * Z / n)


def ratio_interval(own: list[float], other: list[float]) -> tuple[float, float, float]:
    """Ratio of the mean shares, mean(own) / mean(other), over independent units (deals), with
    a 95 % interval by the delta method. Infinite when the baseline seats scored nothing."""
    n = len(own)
    mean_own, mean_other = statistics.fmean(own), statistics.fmean(other)
    if mean_other == 0:
        return math.inf, math.inf, math.inf
    ratio = mean_own / mean_other
    if n < 2:
        return ratio, -math.inf, math.inf
    var_own, var_other = statistics.variance(own), statistics.variance(other)
    cov = sum((a - mean_own) * (b - mean_other) for a, b in zip(own, other, strict=True)) / (n - 1)
    relative = var_own / mean_own**2 + var_other / mean_other**2 - 2 * cov / (mean_own * mean_other)
    half = Z * ratio * math.sqrt(max(relative, 0.0) / n)
    return ratio, ratio - half, ratio + half


@dataclasses.dataclass
class Cost:
    """Decision times and iterations of the candidate's searched decisions."""

    times_ms: list[float] = dataclasses.field(default_factory=list)
    iterations: int = 0
    forced: int = 0

    def add(self, other: Cost) -> None:
        self.times_ms += other.times_ms
        self.iterations += other.iterations
        self.forced += other.forced

    def summary(self) -> str:
        if not self.times_ms:
            return "no searched decision"
        times = sorted(self.times_ms)
        p50 = times[len(times) // 2]
        p95 = times[min(len(times) - 1, math.ceil(0.95 * len(times)) - 1)]
        rate = self.iterations / (sum(times) / 1000)
        return (
            f"{len(times)} searched decisions ({self.forced} forced, answered at once): "
            f"p50 {p50:.0f} ms, p95 {p95:.0f} ms, max {times[-1]:.0f} ms; {rate:,.0f} iterations/s"
        )


def play(
    key: str, players: int, deal: int, levels: list[Level], candidates: set[int]
) -> tuple[list[int], list[int], Cost]:
    """One game; ``levels[seat]`` plays ``seat``. Returns the scores, winners and the cost of
    the candidate seats' decisions."""
    state = REGISTRY[key].new_state(players, deal)
    cost = Cost()
    step = 0
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        seed = decision_seed(key, players, deal, step, seat, levels[seat].name)
        decision = decide(state, seat, levels[seat], seed)
        if seat in candidates and levels[seat].iterations > 0:
            if decision.forced:
                cost.forced += 1
            else:
                cost.times_ms.append(decision.elapsed_ms)
                cost.iterations += decision.iterations
        state.apply(decision.action)
        step += 1
    return state.scores, state.winners, cost


def seatings(key: str, players: int) -> list[set[int]]:
    """The candidate's seats in each game of a duplicate set."""
    if key == "kami" and players == 4:
        return [{0, 2}, {1, 3}]  # the candidate team takes each side of the table in turn
    return [{seat} for seat in range(players)]


@dataclasses.dataclass
class Result:
    title: str
    budget: str
    games: int
    line: str
    cost: Cost
    passed: bool | None
    """The point estimate meets the target (``None``: no target)."""
    target: str
    passed_with_confidence: bool | None = None
    """The whole 95 % interval meets the target."""


def _win_rate(
    key: str, players: int, candidate: Level, baseline: Level, deals: range, target: float
) -> Result:
    wins = 0.0
    games = 0
    cost = Cost()
    for deal in deals:
        for seats in seatings(key, players):
            levels = [candidate if seat in seats else baseline for seat in range(players)]
            _scores, winners, game_cost = play(key, players, deal, levels, seats)
            cost.add(game_cost)
            won = [seat for seat in winners if seat in seats]
            if won:
                wins += 1.0 if len(won) == len(winners) else 0.5
            games += 1
    low, high = wilson(wins, games)
    rate = wins / games
    who = "team" if players == 4 else "seat"
    return Result(
        title=f"{key} {players}p: {candidate.name} {who} vs {baseline.name}",
        budget=_budget(candidate, baseline),
        games=games,
        line=f"wins {rate:.1%} (95% CI {low:.1%}-{high:.1%}, {wins:g}/{games})",
        cost=cost,
        passed=rate >= target,
        target=f">= {target:.0%}",
        passed_with_confidence=low >= target,
    )


def score_share(key: str, players: int, candidate: Level, baseline: Level, deals: range) -> Result:
    """Three or four players, one candidate among baselines: its share of the table's points
    against a baseline seat's (all seatings of one deal form one unit; a game in which nobody
    scored counts as no share for anyone)."""
    own_shares: list[float] = []
    other_shares: list[float] = []
    wins = 0.0
    games = 0
    cost = Cost()
    for deal in deals:
        own = other = 0.0
        for seats in seatings(key, players):
            levels = [candidate if seat in seats else baseline for seat in range(players)]
            scores, winners, game_cost = play(key, players, deal, levels, seats)
            cost.add(game_cost)
            table = sum(scores) or 1
            (seat,) = seats
            own += scores[seat] / table
            other += sum(scores[s] for s in range(players) if s != seat) / (players - 1) / table
            if seat in winners:
                wins += 1 / len(winners)
            games += 1
        own_shares.append(own / players)
        other_shares.append(other / players)
    mean, low, high = ratio_interval(own_shares, other_shares)
    w_low, w_high = wilson(wins, games)
    return Result(
        title=f"{key} {players}p: {candidate.name} seat vs {players - 1} {baseline.name}",
        budget=_budget(candidate, baseline),
        games=games,
        line=(
            f"score share {mean:.2f}x a {baseline.name} seat's (95% CI {low:.2f}-{high:.2f} "
            f"over {len(own_shares)} deals; mean share {statistics.fmean(own_shares):.1%} "
            f"against {statistics.fmean(other_shares):.1%}); wins {wins / games:.1%} "
            f"(95% CI {w_low:.1%}-{w_high:.1%}; an even seat wins {1 / players:.0%})"
        ),
        cost=cost,
        passed=mean >= 1.5,
        target="share >= 1.5x",
        passed_with_confidence=low >= 1.5,
    )


def _budget(*levels: Level) -> str:
    return ", ".join(
        f"{level.name} {level.iterations} it" if level.iterations else level.name
        for level in levels
    )


def tournaments(args: argparse.Namespace) -> Iterator[Result]:
    strong = LEVELS["strong"]
    easy = LEVELS["easy"]
    if not args.full:
        strong = strong.with_iterations(args.budget)
        easy = easy.with_iterations(args.easy_budget)
    random_level = LEVELS["random"]
    keys = [args.only] if args.only else list(REGISTRY)
    for key in keys:
        two_player_deals = range(args.first_deal, args.first_deal + math.ceil(args.games / 2))
        if "random" in args.pairings:
            yield _win_rate(key, 2, strong, random_level, two_player_deals, 0.95)
        if "easy" in args.pairings:
            yield _win_rate(key, 2, strong, easy, two_player_deals, 0.70)
        if "multi" in args.pairings:
            for players in (3, 4):
                deals = range(args.first_deal, args.first_deal + math.ceil(args.games / players))
                if key == "kami" and players == 4:  # teams: the target is a win rate
                    yield _win_rate(key, 4, strong, random_level, two_player_deals, 0.90)
                else:
                    yield score_share(key, players, strong, random_level, deals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per pairing (min)")
    parser.add_argument("--budget", type=int, default=120, help="strong's iterations")
    parser.add_argument("--easy-budget", type=int, default=LEVELS["easy"].iterations)
    parser.add_argument("--full", action="store_true", help="the levels' own budgets")
    parser.add_argument("--only", choices=sorted(REGISTRY), help="one game")
    parser.add_argument(
        "--pairings",
        default="random,easy,multi",
        help="comma list of: random (strong vs random, 2p), easy (strong vs easy, 2p), "
        "multi (strong among random players, 3p and 4p; Kami 4p as teams)",
    )
    parser.add_argument("--first-deal", type=int, default=1, help="seed of the first deal")
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    args = parser.parse_args()
    args.pairings = set(args.pairings.split(","))
    print(f"# {' '.join(sys.argv)}", flush=True)
    records = []
    started = time.perf_counter()
    for result in tournaments(args):
        minutes = (time.perf_counter() - started) / 60
        started = time.perf_counter()
        mark = {True: "met", False: "NOT MET", None: ""}[result.passed]
        if result.passed and result.passed_with_confidence is False:
            mark = "met by the point estimate; the 95% CI reaches below"
        print(f"{result.title} [{result.budget}], {result.games} games, {minutes:.1f} min")
        print(f"    {result.line}  target {result.target} {mark}".rstrip())
        print(f"    {result.cost.summary()}", flush=True)
        records.append(
            {
                "title": result.title,
                "budget": result.budget,
                "games": result.games,
                "result": result.line,
                "target": result.target,
                "met": result.passed,
                "met_with_confidence": result.passed_with_confidence,
                "cost": result.cost.summary(),
            }
        )
    if args.json:
        args.json.write_text(json.dumps(records, indent=2))


if __name__ == "__main__":
    main()
