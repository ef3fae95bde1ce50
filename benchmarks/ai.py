"""Strength and cost of the AI levels: duplicate tournaments against competent play.

Every deal (a ``new_state`` seed) is played once per seating, so the luck of the cards cancels
out: with two players each side plays each deal from both seats; with three or four the
candidate sits in every seat in turn among rules-based players; in four-player Kami its team
takes each side in turn. A deal with all its seatings is one unit (the games of one deal are not
independent). Win rates come with Wilson 95 % intervals; score shares (the candidate's share of
the table's points over an opponent seat's) with a delta-method interval over deals.

Opponents: ``rules`` is the repository's rules-based player (``games.ai.experts``, also the
``rules`` level); ``greedy`` is a second heuristic written apart from it and kept here
(``benchmarks/greedy_players.py``), so that the levels are not tuned against one opponent only;
``random`` is a uniformly random legal move. Levels play at their own budgets (the bot's) unless
``--budget-scale`` says otherwise.

Pairings (``--pairings``, comma separated):

* ``rules``: strong against the rules-based player, 2 players.
* ``levels``: easy and medium against the rules-based player, 2 players.
* ``greedy``: strong against the greedy player, 2 players.
* ``ladder``: medium against easy and strong against medium, 2 players (levels a human feels:
  the stronger should win 65 % or more); ``ladder-top`` and ``ladder-bottom`` run one step.
* ``multi``: strong among rules-based players at 3 and 4 players (Kami 4p: a strong team
  against a rules team), by score share (target: 1.25 times an opponent seat's).
* ``random``: strong against random play (a sanity check).

The candidate's searched decisions are timed (forced moves and wins on the spot are answered
without a search): wall clock, and the CPU time of the deciding thread, which is what one idle
core would take (the wall clock counts the other processes of a busy machine too).

    python benchmarks/ai.py --quick                          # a smoke run, one deal each
    python benchmarks/ai.py --jobs 2 --json out.json         # the full figures (hours)
    python benchmarks/ai.py --only kami --pairings rules --games 40 --budget-scale 0.5
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.greedy_players import greedy_action
from games import REGISTRY
from games.ai import LEVELS, Level, decide, decision_seed
from games.core import Action, State

Z = 1.96
LADDER_TARGET = 0.65
STRONG_TARGET = 0.70
SHARE_TARGET = 1.25


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
    a 95 % interval by the delta method. Infinite when the opponent seats scored nothing."""
    n = len(own)
    mean_own, mean_other = statistics.fmean(own), statistics.fmean(other)
    if mean_other == 0:
        return math.inf, math.inf, math.inf
    ratio = mean_own / mean_other
    if n < 2 or mean_own == 0:
        return ratio, -math.inf, math.inf
    var_own, var_other = statistics.variance(own), statistics.variance(other)
    cov = sum((a - mean_own) * (b - mean_other) for a, b in zip(own, other, strict=True)) / (n - 1)
    relative = var_own / mean_own**2 + var_other / mean_other**2 - 2 * cov / (mean_own * mean_other)
    half = Z * ratio * math.sqrt(max(relative, 0.0) / n)
    return ratio, ratio - half, ratio + half


# --------------------------------------------------------------------------- players


@dataclasses.dataclass(frozen=True)
class Player:
    """A seat's player: a level of ``games.ai`` or a benchmark-only opponent (``greedy``)."""

    name: str
    level: Level | None = None

    @property
    def searches(self) -> bool:
        return self.level is not None and self.level.iterations > 0

    def move(self, state: State, seat: int, seed: int) -> tuple[Action, float, float, bool]:
        """The move, its wall and CPU milliseconds, and whether it was a searched decision."""
        wall, cpu = time.perf_counter(), time.thread_time()
        if self.level is None:
            action = greedy_action(state, seat, random.Random(seed))
            searched = False
        else:
            decision = decide(state, seat, self.level, seed)
            action = decision.action
            searched = self.searches and not decision.forced and not decision.winning
        return (
            action,
            (time.perf_counter() - wall) * 1000,
            (time.thread_time() - cpu) * 1000,
            searched,
        )


def player(name: str, scale: float) -> Player:
    if name == "greedy":
        return Player("greedy")
    level = LEVELS[name]
    if scale != 1.0:
        level = level.scaled(scale)
    return Player(name, level)


# --------------------------------------------------------------------------- games


@dataclasses.dataclass(frozen=True)
class Game:
    """One game of a tournament: who plays which seat of which deal."""

    pairing: int
    key: str
    players: int
    deal: int
    seats: tuple[Player, ...]
    candidates: tuple[int, ...]
    options: tuple[tuple[str, object], ...] = ()


@dataclasses.dataclass
class Outcome:
    pairing: int
    deal: int
    candidates: tuple[int, ...]
    scores: list[int]
    winners: list[int]
    sides: list[int]
    wall_ms: list[float]
    cpu_ms: list[float]
    forced: int


def play(game: Game) -> Outcome:
    """Play one game to the end; time the candidate seats' searched decisions."""
    state = REGISTRY[game.key].new_state(game.players, game.deal, dict(game.options))
    wall: list[float] = []
    cpu: list[float] = []
    forced = 0
    step = 0
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        who = game.seats[seat]
        seed = decision_seed(game.key, game.players, game.deal, step, seat, who.name)
        action, wall_ms, cpu_ms, searched = who.move(state, seat, seed)
        if seat in game.candidates and who.searches:
            if searched:
                wall.append(wall_ms)
                cpu.append(cpu_ms)
            else:
                forced += 1
        state.apply(action)
        step += 1
    return Outcome(
        game.pairing,
        game.deal,
        game.candidates,
        state.scores,
        state.winners,
        state.sides,
        wall,
        cpu,
        forced,
    )


# --------------------------------------------------------------------------- tournaments


@dataclasses.dataclass
class Pairing:
    """A tournament: ``candidate`` against ``opponent`` in one game and player count."""

    key: str
    players: int
    candidate: Player
    opponent: Player
    deals: range
    measure: str  # "wins" or "share"
    target: float
    options: tuple[tuple[str, object], ...] = ()

    @property
    def title(self) -> str:
        if self.players == 2:
            return f"{self.key} 2p: {self.candidate.name} vs {self.opponent.name}"
        if self.key == "kami" and self.players == 4:
            return f"{self.key} 4p: {self.candidate.name} team vs {self.opponent.name} team"
        others = self.players - 1
        return (
            f"{self.key} {self.players}p: {self.candidate.name} among {others} {self.opponent.name}"
        )

    def seatings(self) -> list[tuple[int, ...]]:
        if self.key == "kami" and self.players == 4:
            return [(0, 2), (1, 3)]
        return [(seat,) for seat in range(self.players)]

    def games(self, index: int) -> Iterator[Game]:
        for deal in self.deals:
            for candidates in self.seatings():
                seats = tuple(
                    self.candidate if seat in candidates else self.opponent
                    for seat in range(self.players)
                )
                yield Game(index, self.key, self.players, deal, seats, candidates, self.options)


def pairings(args: argparse.Namespace) -> list[Pairing]:
    """The tournaments asked for, the most telling first (strong against the rules-based
    player in every game, then the multiplayer settings, the ladder, the greedy opponent, the
    lower levels against the rules-based player), so a long run reports those first."""
    scale = args.budget_scale
    easy, medium, strong = (player(name, scale) for name in ("easy", "medium", "strong"))
    rules, greedy, random_player = (
        player("rules", 1.0),
        player("greedy", 1.0),
        player("random", 1.0),
    )
    keys = [args.only] if args.only else list(REGISTRY)
    first = args.first_deal
    two = range(first, first + math.ceil(args.games / 2))

    def options(key: str) -> tuple[tuple[str, object], ...]:
        return (("rounds", args.ctg_rounds),) if key == "call_to_glory" else ()

    def pairing(
        key: str,
        candidate: Player,
        opponent: Player,
        target: float = STRONG_TARGET,
        players: int = 2,
        measure: str = "wins",
        deals: range = two,
    ) -> Pairing:
        return Pairing(key, players, candidate, opponent, deals, measure, target, options(key))

    def multi(key: str) -> list[Pairing]:
        found = []
        for players in args.players:
            units = 2 if key == "kami" and players == 4 else players  # games per deal
            deals = range(first, first + math.ceil(args.multi_games / units))
            found.append(pairing(key, strong, rules, SHARE_TARGET, players, "share", deals))
        return found

    plan: list[tuple[str, list[Pairing]]] = [
        ("rules", [pairing(key, strong, rules) for key in keys]),
        ("multi", [found for key in keys for found in multi(key)]),
        ("ladder-top", [pairing(key, strong, medium, LADDER_TARGET) for key in keys]),
        ("ladder-bottom", [pairing(key, medium, easy, LADDER_TARGET) for key in keys]),
        ("greedy", [pairing(key, strong, greedy) for key in keys]),
        (
            "levels",
            [pairing(key, medium, rules, 0.5) for key in keys]
            + [pairing(key, easy, rules, 0.0) for key in keys],
        ),
        ("random", [pairing(key, strong, random_player, 0.95) for key in keys]),
    ]
    chosen = set(args.pairings)
    if "ladder" in chosen:
        chosen |= {"ladder-top", "ladder-bottom"}
    return [found for name, group in plan if name in chosen for found in group]


@dataclasses.dataclass
class Report:
    title: str
    budget: str
    games: int
    line: str
    target: str
    met: bool
    met_with_confidence: bool
    cost: str
    cpu_p95: float | None


def report(pairing: Pairing, outcomes: list[Outcome]) -> Report:
    wins = 0.0
    own_shares: list[float] = []
    other_shares: list[float] = []
    by_deal: dict[int, list[Outcome]] = {}
    wall: list[float] = []
    cpu: list[float] = []
    forced = 0
    for outcome in outcomes:
        by_deal.setdefault(outcome.deal, []).append(outcome)
        wall += outcome.wall_ms
        cpu += outcome.cpu_ms
        forced += outcome.forced
        won = [seat for seat in outcome.winners if seat in outcome.candidates]
        if won:
            sides = {outcome.sides[seat] for seat in outcome.winners}
            wins += 1.0 / len(sides)
    for deal_outcomes in by_deal.values():
        own = other = 0.0
        for outcome in deal_outcomes:
            table = sum(outcome.scores) or 1
            mine = outcome.candidates
            rest = [seat for seat in range(len(outcome.scores)) if seat not in mine]
            own += sum(outcome.scores[seat] for seat in mine) / len(mine) / table
            other += sum(outcome.scores[seat] for seat in rest) / len(rest) / table
        own_shares.append(own / len(deal_outcomes))
        other_shares.append(other / len(deal_outcomes))
    games = len(outcomes)
    low, high = wilson(wins, games)
    rate = wins / games if games else 0.0
    win_text = f"wins {rate:.1%} (95% CI {low:.1%}-{high:.1%}, {wins:g}/{games})"
    if pairing.measure == "share":
        mean, s_low, s_high = ratio_interval(own_shares, other_shares)
        line = (
            f"score share {mean:.2f}x an opponent seat's (95% CI {s_low:.2f}-{s_high:.2f} "
            f"over {len(own_shares)} deals); {win_text}"
        )
        met, sure = mean >= pairing.target, s_low >= pairing.target
        target = f"share >= {pairing.target:.2f}x"
    else:
        line = win_text
        met, sure = rate >= pairing.target, low >= pairing.target
        target = f"wins >= {pairing.target:.0%}" if pairing.target else "(no target)"
    return Report(
        pairing.title,
        ", ".join(
            f"{p.name} {p.level.budget(pairing.key)} it" if p.searches else p.name  # type: ignore[union-attr]
            for p in (pairing.candidate, pairing.opponent)
        ),
        games,
        line,
        target,
        met,
        sure,
        _cost(wall, cpu, forced),
        _percentile(sorted(cpu), 0.95) if cpu else None,
    )


def _percentile(values: list[float], share: float) -> float:
    return values[min(len(values) - 1, math.ceil(share * len(values)) - 1)]


def _cost(wall: list[float], cpu: list[float], forced: int) -> str:
    if not wall:
        return "no searched decision"
    wall, cpu = sorted(wall), sorted(cpu)
    return (
        f"{len(wall)} searched decisions ({forced} answered without a search): CPU p50 "
        f"{_percentile(cpu, 0.5):.0f} ms, p95 {_percentile(cpu, 0.95):.0f} ms, max "
        f"{cpu[-1]:.0f} ms; wall p95 {_percentile(wall, 0.95):.0f} ms"
    )


def run(args: argparse.Namespace) -> list[Report]:
    chosen = pairings(args)
    games = [game for index, pairing in enumerate(chosen) for game in pairing.games(index)]
    # Longest first, so the pool's last minutes are not one long game on one core.
    games.sort(
        key=lambda game: -sum(p.level.budget(game.key) if p.level else 0 for p in game.seats)
    )
    outcomes: dict[int, list[Outcome]] = {index: [] for index in range(len(chosen))}
    started = time.perf_counter()
    done = 0
    reports: list[Report] = []
    log = args.log.open("a") if args.log else None
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        for outcome in pool.imap_unordered(play, games):
            if log is not None:
                title = chosen[outcome.pairing].title
                log.write(json.dumps({"title": title, **dataclasses.asdict(outcome)}) + "\n")
                log.flush()
            outcomes[outcome.pairing].append(outcome)
            done += 1
            pairing = chosen[outcome.pairing]
            if len(outcomes[outcome.pairing]) == len(pairing.deals) * len(pairing.seatings()):
                result = report(pairing, outcomes[outcome.pairing])
                reports.append(result)
                minutes = (time.perf_counter() - started) / 60
                print(
                    f"{result.title} [{result.budget}], {result.games} games "
                    f"({done}/{len(games)} done, {minutes:.0f} min)"
                )
                mark = "met" if result.met else "NOT MET"
                if result.met and not result.met_with_confidence:
                    mark = "met by the point estimate; the 95% CI reaches below"
                print(f"    {result.line}  target {result.target}: {mark}")
                print(f"    {result.cost}", flush=True)
    return reports


def from_logs(paths: list[Path]) -> None:
    """The figures of the games logged by ``--log`` (runs stopped early or played in parts),
    per pairing title; a share is over the deals whose every seating was played."""
    logged: dict[str, list[Outcome]] = {}
    for path in paths:
        for line in path.read_text().splitlines():
            data = json.loads(line)
            title = data.pop("title")
            data["candidates"] = tuple(data["candidates"])
            logged.setdefault(title, []).append(Outcome(**data))
    for title, found in logged.items():
        seatings = max(
            len({o.candidates for o in found if o.deal == d}) for d in {o.deal for o in found}
        )
        by_deal: dict[int, list[Outcome]] = {}
        for outcome in found:
            by_deal.setdefault(outcome.deal, []).append(outcome)
        complete = [o for games in by_deal.values() if len(games) == seatings for o in games]
        players = len(found[0].scores)
        measure = "share" if players > 2 else "wins"
        pairing = Pairing("", players, Player("a"), Player("b"), range(0), measure, SHARE_TARGET)
        result = report(pairing, complete)
        print(f"{title}: {result.games} games ({len(found)} logged)")
        print(f"    {result.line}")
        print(f"    {result.cost}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per 2-player pairing")
    parser.add_argument("--multi-games", type=int, default=40, help="games per 3-4p setting")
    parser.add_argument("--only", choices=sorted(REGISTRY), help="one game")
    parser.add_argument(
        "--players", default="3,4", help="player counts of the multi pairing (comma list)"
    )
    parser.add_argument(
        "--pairings", default="rules,greedy,ladder,multi", help="comma list (see the docstring)"
    )
    parser.add_argument(
        "--budget-scale",
        type=float,
        default=1.0,
        help="multiply every searching level's iterations (development runs)",
    )
    parser.add_argument(
        "--ctg-rounds", type=int, default=1, choices=(1, 4), help="Call to Glory's rounds"
    )
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (processes)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: few games, 1/4 budgets")
    parser.add_argument("--first-deal", type=int, default=1, help="seed of the first deal")
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    parser.add_argument("--log", type=Path, help="append every finished game to this file")
    parser.add_argument(
        "--from-logs", type=Path, nargs="+", help="only report the games of these --log files"
    )
    args = parser.parse_args()
    if args.from_logs:
        from_logs(args.from_logs)
        return
    if args.quick:
        args.games, args.multi_games = 2, 2  # one deal per setting
        args.budget_scale = min(args.budget_scale, 0.1)
    args.pairings = set(args.pairings.split(","))
    args.players = [int(count) for count in args.players.split(",")]
    print(f"# {' '.join(sys.argv)}", flush=True)
    reports = run(args)
    if args.json:
        args.json.write_text(json.dumps([dataclasses.asdict(r) for r in reports], indent=2))


if __name__ == "__main__":
    main()
