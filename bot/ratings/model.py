"""How one finished game changes its players' ratings: pure, no database.

The model is openskill's Plackett–Luce (the Weng–Lin model the library documents first and
uses by default; it rates free-for-all finishing orders and teams alike). A game becomes one
openskill match:

- **Sides are teams.** Seats that share a side (the partners of four-player Kami) form one
  team; every other seat is a team of one.
- **The finishing order.** The engine's winners share first place (its tie-breaks decided
  them); the other sides follow by points, best first, and sides with equal points share
  their place ("1, 2, 2, 4").
- **AI players are anchors.** Every AI seat plays with its level's rating (one rating per
  level, server and game: the easy AI is one player however many games it sits in). Their
  strength does not change, so they tie the scale down; two seats of one level in the same
  game each start from the level's rating, and the level then takes the mean of their new
  ratings.
- **Never a human's result when the AI played.** A human seat the AI was playing at the end
  (``autoplayed``) takes part with its player's rating, so the others are rated against the
  strength they met, but its own result changes nothing.
- **Leaving is losing.** A player who left the game (``/leave``, ``departed``) and did not
  come back is placed last, below every side still playing, whatever the AI made of the seat
  afterwards; that loss counts for them. The seat is a team of its own then (a Kami partner
  who stayed is ranked by the side's result alone), so the AI's play is credited to nobody.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import fmean

from openskill.models import PlackettLuce

from bot.ratings.tables import ANCHOR_USER, HUMAN

MODEL = PlackettLuce()
"""openskill's defaults: μ 25, σ 25/3, τ 25/300 (the σ added before every game)."""
Z = 3
"""The conservative rating is μ − Z·σ (openskill's ``ordinal``)."""

Player = tuple[int, str]
"""``(user_id, "")`` for a human, ``(0, level)`` for an AI level."""


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        return self.mu - Z * self.sigma


NEW = Rating(MODEL.mu, MODEL.sigma)


@dataclass(frozen=True)
class SeatResult:
    """One seat's stored result (a row of ``results``) as the rating reads it."""

    seat: int
    user_id: int
    score: int
    won: bool
    side: int | None = None
    ai_level: str | None = None
    autoplayed: bool = False
    departed: bool = False

    @property
    def player(self) -> Player:
        if self.ai_level is not None:
            return (ANCHOR_USER, self.ai_level)
        return (self.user_id, HUMAN)

    @property
    def team(self) -> int:
        """The side the seat is rated with (a player who left is a side of their own)."""
        if self.departed:
            return -1 - self.seat
        return self.seat if self.side is None else self.side


@dataclass(frozen=True)
class SeatChange:
    seat: int
    player: Player
    before: Rating
    after: Rating
    rank: int
    counted: bool
    """False for a seat whose result is nobody's (a human seat the AI played at the end, unless
    its player left: their loss counts)."""


def _openskill(rating: Rating) -> object:
    return MODEL.rating(rating.mu, rating.sigma)


def finishing_ranks(results: Sequence[SeatResult]) -> dict[int, int]:
    """Per side, its place (1 is best): winners first, then by points, ties shared; players who
    left share the last place."""
    staying = [r for r in results if not r.departed]
    won = {r.team for r in staying if r.won}
    points: dict[int, int] = {}
    for r in staying:
        points[r.team] = max(points.get(r.team, r.score), r.score)
    ranks = {team: 1 for team in won}
    others = [team for team in points if team not in won]
    for team in others:
        better = sum(1 for other in others if points[other] > points[team])
        ranks[team] = len(won) + 1 + better
    for r in results:
        if r.departed:
            ranks[r.team] = len(points) + 1
    return ranks


def rate_game(
    results: Sequence[SeatResult], current: Mapping[Player, Rating]
) -> tuple[list[SeatChange], dict[Player, Rating]]:
    """The change of every seat and each player's new rating after one finished game.

    ``current``: the ratings before the game (a player missing from it is new). Players whose
    rating does not change (an autoplayed seat's human) are left out of the new ratings. A
    game with fewer than two sides changes nothing.
    """
    ordered = sorted(results, key=lambda r: r.seat)
    ranks = finishing_ranks(ordered)
    if len(ranks) < 2:
        return [], {}
    teams = list(dict.fromkeys(r.team for r in ordered))
    members = {team: [r for r in ordered if r.team == team] for team in teams}
    before = {r.seat: current.get(r.player, NEW) for r in ordered}
    rated = MODEL.rate(
        [[_openskill(before[r.seat]) for r in members[team]] for team in teams],
        ranks=[ranks[team] for team in teams],
    )
    after: dict[int, Rating] = {}
    for team, new_team in zip(teams, rated, strict=True):
        for r, new in zip(members[team], new_team, strict=True):
            after[r.seat] = Rating(float(new.mu), float(new.sigma))
    changes: list[SeatChange] = []
    outcomes: dict[Player, list[Rating]] = {}
    for r in ordered:
        counted = r.ai_level is not None or not r.autoplayed or r.departed
        new = after[r.seat] if counted else before[r.seat]
        changes.append(SeatChange(r.seat, r.player, before[r.seat], new, ranks[r.team], counted))
        if counted:
            outcomes.setdefault(r.player, []).append(new)
    updated = {
        player: news[0]
        if len(news) == 1
        else Rating(fmean(n.mu for n in news), fmean(n.sigma for n in news))
        for player, news in outcomes.items()
    }
    return changes, updated
