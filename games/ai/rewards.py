"""What a simulated future is worth to each side, as a number in [0, 1].

A simulation stops when the round of the decision ends (or the game), because each of our games
reshuffles between rounds and a longer random future mostly adds noise. It is then scored by
the points each side gained since the decision, compared with the other sides' average gain:
0.5 is an even round, 1 a round won by ``MARGIN_SCALE`` points or more. When the game itself
ended, winning counts for most of the reward. Partners in a team game share their side's
reward, so each plays for the team (max^n backups over sides).
"""

from __future__ import annotations

from games.core import State

MARGIN_SCALE: dict[str, float] = {
    "call_to_glory": 20.0,  # a round scores 30-70 points per seat
    "kami": 4.0,  # a round gives 1-10 points to one side
    "clans_and_glory": 12.0,  # a game scores 15-40 points per seat
}
DEFAULT_SCALE = 10.0
WIN_WEIGHT = 0.75
"""Share of the reward decided by winning the game, when a simulation reaches its end."""


class Evaluator:
    """Scores simulated positions relative to the position searched from."""

    def __init__(self, root: State) -> None:
        self.base = root.scores
        self.sides = root.sides
        self.side_count = max(self.sides) + 1
        self.first_seat = [self.sides.index(side) for side in range(self.side_count)]
        self.scale = MARGIN_SCALE.get(root.game_key, DEFAULT_SCALE)

    def rewards(self, world: State, *, provisional: bool = False) -> list[float]:
        """One reward per side; ``provisional`` scores a simulation stopped mid-round by what
        the table shows (``State.provisional_scores``)."""
        scores = (world.provisional_scores() if provisional else None) or world.scores
        gains = [scores[seat] - self.base[seat] for seat in self.first_seat]
        count = self.side_count
        total = sum(gains)
        values = []
        for side in range(count):
            others = (total - gains[side]) / (count - 1)
            margin = 0.5 + (gains[side] - others) / (2 * self.scale)
            values.append(min(1.0, max(0.0, margin)))
        if world.is_over:
            winning = {self.sides[seat] for seat in world.winners}
            for side in range(count):
                won = 1 / len(winning) if side in winning else 0.0
                values[side] = WIN_WEIGHT * won + (1 - WIN_WEIGHT) * values[side]
        return values
