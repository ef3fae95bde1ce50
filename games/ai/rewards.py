"""What a simulated future is worth to each side, as a number in [0, 1]: the game result first.

A simulation ends in one of three ways, and the reward keeps them apart so that no margin can
ever make up for the result:

* **The game ended.** A sole winner gets ``0.9`` or more, a loser ``0.1`` at most (shared wins
  are split; in three- and four-player games a loser gets a little for each side it beat). The
  score margin only moves a reward within its band, so winning now is always worth more than
  any round won without the game, and a loss less than any game still going.
* **The round ended, the game goes on** (Call to Glory, Kami). The reward is the side's chance
  to win the game from the new standings (``win_chances``), inside ``0.1 .. 0.9``, with the
  round's margin breaking ties.
* **Stopped mid-round** (Call to Glory, Clans and Glory: after a fixed number of simulated
  moves): the same, from the standings the table shows (``State.provisional_scores``).

The margin is the points a side gained since the decision against the others' average gain,
scaled per game (``MARGIN_SCALE``). Partners in a team game share their side's reward, so each
plays for the team (max^n backups over sides). ``docs/ai.md`` lists the values per game.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache

from games.core import State

MARGIN_SCALE: dict[str, float] = {
    "call_to_glory": 20.0,  # a round scores 30-70 points per seat
    "kami": 4.0,  # a round gives 1-10 points to one side
    "clans_and_glory": 12.0,  # a game scores 15-40 points per seat
}
DEFAULT_SCALE = 10.0

WIN_FLOOR = 0.9
"""A won game is worth at least this; the margin fills the rest up to 1."""
LOSS_CEILING = 0.1
"""A lost game is worth at most this (plus a little per side beaten with 3 or more sides)."""
PLACE_WEIGHT = 0.2
"""With three or more sides: what beating every other loser adds to a lost game, at most."""
MARGIN_IN_PLAY = 0.3
"""Share of the margin in the reward of a game still going (the rest is the chance to win)."""

POINTS_WEIGHT: dict[str, float] = {"call_to_glory": 1.0}
"""With three or more sides, by game: the share of the reward that is the points margin alone
(the points a side gained against the others' average, on ``POINTS_SCALE`` times the game's
margin scale), the rest being the result as above. In Call to Glory at 3 and 4 players the
result-first reward left a seat behind with every move worth about the same loss, so it drifted
(strong took 0.73x a rules-based seat's share at 4 players); the points margin keeps every point
worth having (``docs/ai.md``, "Call to Glory at 3 and 4 players")."""
POINTS_SCALE = 2.5
"""The points margin of ``POINTS_WEIGHT`` tells gains apart over +-50 points in Call to Glory
(a seat scores 0-70 in a round), so it does not flatten out when a seat is far behind."""

ROUND_SPREAD: dict[str, float] = {
    "call_to_glory": 17.0,  # SD of a seat's round score (rules-based play, 2-4 players)
    "clans_and_glory": 8.0,  # SD of a seat's final score
}
"""How much one seat's score still varies per round left (the spread of a round's score)."""

KAMI_ROUND_POINTS: tuple[tuple[int, float], ...] = (
    (1, 0.05),
    (2, 0.12),
    (3, 0.37),
    (4, 0.20),
    (5, 0.12),
    (6, 0.10),
    (8, 0.02),
    (10, 0.02),
)
"""How many points a Kami round gives its winner (measured over games of the rules-based
player); with the sides equally likely to win a round, this makes the chance of winning the
game from any standings (``kami_chances``)."""


class Evaluator:
    """Scores simulated positions for every side, relative to the position searched from."""

    def __init__(self, root: State) -> None:
        self.key = root.game_key
        self.base = root.scores
        self.sides = root.sides
        self.side_count = max(self.sides) + 1
        self.first_seat = [self.sides.index(side) for side in range(self.side_count)]
        self.scale = MARGIN_SCALE.get(root.game_key, DEFAULT_SCALE)
        weight = POINTS_WEIGHT.get(root.game_key, 0.0)
        self.points_weight = weight if self.side_count >= 3 else 0.0

    def margins(self, scores: Sequence[float], scale: float = 1.0) -> list[float]:
        """Per side: points gained since the root against the others' average gain, in [0, 1]
        (0.5 is even; ``scale`` widens the span of points it tells apart)."""
        gains = [scores[seat] - self.base[seat] for seat in self.first_seat]
        count = self.side_count
        total = sum(gains)
        span = 2 * self.scale * scale
        values = []
        for side in range(count):
            others = (total - gains[side]) / (count - 1)
            margin = 0.5 + (gains[side] - others) / span
            values.append(min(1.0, max(0.0, margin)))
        return values

    def _with_points(self, values: list[float], scores: Sequence[float]) -> list[float]:
        """Blend in the points margin with three or more sides (``POINTS_WEIGHT``)."""
        weight = self.points_weight
        if not weight:
            return values
        points = self.margins(scores, POINTS_SCALE)
        return [(1 - weight) * v + weight * p for v, p in zip(values, points, strict=True)]

    def rewards(self, world: State, *, provisional: bool = False) -> list[float]:
        """One reward per side; ``provisional`` scores a simulation stopped mid-round by what
        the table shows (``State.provisional_scores``)."""
        if world.is_over:
            return self.final(world)
        scores = (world.provisional_scores() if provisional else None) or world.scores
        margins = self.margins(scores)
        chances = win_chances(world, [scores[seat] for seat in self.first_seat], provisional)
        span = WIN_FLOOR - LOSS_CEILING
        values = [
            LOSS_CEILING + span * ((1 - MARGIN_IN_PLAY) * chance + MARGIN_IN_PLAY * margin)
            for chance, margin in zip(chances, margins, strict=True)
        ]
        return self._with_points(values, scores)

    def final(self, world: State) -> list[float]:
        """A finished game: the result decides the band, the margin the place within it."""
        scores = world.scores
        margins = self.margins(scores)
        winning = {self.sides[seat] for seat in world.winners}
        totals = [scores[seat] for seat in self.first_seat]
        values = []
        for side in range(self.side_count):
            margin = margins[side]
            if side in winning:
                share = 1.0 / len(winning)
                values.append(share * WIN_FLOOR + (1 - WIN_FLOOR) * margin)
                continue
            place = 0.0
            losers = self.side_count - len(winning)
            if losers > 1:
                beaten = sum(
                    1
                    for other in range(self.side_count)
                    if other not in winning and totals[other] < totals[side]
                )
                place = PLACE_WEIGHT * beaten / (losers - 1)
            values.append(place + LOSS_CEILING * margin)
        return self._with_points(values, scores)


def win_chances(world: State, totals: Sequence[float], provisional: bool) -> list[float]:
    """Each side's chance to win the game from these standings (one total per side)."""
    key = world.game_key
    if key == "kami":
        options = world.options  # type: ignore[attr-defined]
        target = options["target"]
        needs = tuple(max(1, target - total) for total in totals)
        return list(kami_chances(needs))
    spread = ROUND_SPREAD.get(key, 15.0)
    if key == "call_to_glory":
        rounds_left = world.rounds_total - world.rounds_finished  # type: ignore[attr-defined]
        if provisional:
            piles = world.draw_piles  # type: ignore[attr-defined]
            rounds_left -= 1
            rounds_left += min(1.0, min(len(piles[0]), len(piles[1])) / 50)
        variance = spread * spread * max(rounds_left, 0.05)
    else:  # a one-round game stopped part of the way
        left = _share_left(world)
        variance = spread * spread * max(left, 0.05)
    return normal_chances(totals, math.sqrt(variance))


def _share_left(world: State) -> float:
    hands = getattr(world, "hands", None)
    if not hands:
        return 0.5
    cards = sum(len(hand) for hand in hands)
    dealt = 9 * world.num_players
    return min(1.0, cards / dealt)


def normal_chances(totals: Sequence[float], spread: float) -> list[float]:
    """Chance of each side to finish highest when each total still moves by a normal amount
    with standard deviation ``spread`` (pairwise comparisons, normalised to add up to 1)."""
    count = len(totals)
    scale = spread * math.sqrt(2)
    raw = []
    for side in range(count):
        chance = 1.0
        for other in range(count):
            if other != side:
                chance *= _phi((totals[side] - totals[other]) / scale)
        raw.append(chance)
    total = sum(raw) or 1.0
    return [value / total for value in raw]


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2)))


@cache
def kami_chances(needs: tuple[int, ...]) -> tuple[float, ...]:
    """Kami: each side's chance to win when side ``i`` still needs ``needs[i]`` points, every
    round goes to one side (all equally likely) for ``KAMI_ROUND_POINTS``."""
    count = len(needs)
    chances = [0.0] * count
    for winner in range(count):
        for points, weight in KAMI_ROUND_POINTS:
            share = weight / count
            left = needs[winner] - points
            if left <= 0:
                chances[winner] += share
                continue
            after = (*needs[:winner], left, *needs[winner + 1 :])
            for side, chance in enumerate(kami_chances(after)):
                chances[side] += share * chance
    return tuple(chances)
