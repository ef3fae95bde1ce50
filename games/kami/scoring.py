"""How a round's points change a side's total under the three ending rules.

Only the side that ended the round scores, so there is never a tie for the win.
"""

from __future__ import annotations

ENDINGS = ("soldier", "lord", "kami")


def settle(total: int, points: int, *, target: int, ending: str, lord_clamp: bool) -> int:
    """The new total after scoring ``points``.

    ``soldier``: plain addition (reaching the target wins). ``lord``: a total past the target
    gives back twice the overshoot, so it bounces off the target (the rulebook's own example:
    17 is 15 + 2, take off 4, land on 13); floored at 0 when ``lord_clamp`` (our ruling, the
    physical game has no negative track). ``kami``: a total past the target falls back to 0.
    """
    new = total + points
    if ending == "soldier" or new <= target:
        return new
    if ending == "lord":
        new -= 2 * (new - target)
        return max(new, 0) if lord_clamp else new
    return 0


def has_won(total: int, *, target: int, ending: str) -> bool:
    """Soldier needs the target or more; Lord and Kami need it exactly."""
    return total >= target if ending == "soldier" else total == target
