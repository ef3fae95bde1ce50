"""Scoring and the between-round decisions, as pure functions of plain lists.

Kept apart from the state so the tie-break rules can be tested on bare numbers, exactly as the
rulebook states them, without building a whole position.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.call_to_glory.cards import VALUES


def display_points(display: Sequence[int]) -> int:
    """A display scores each type it holds once, however many cards of it lie there."""
    return sum(value for value, count in zip(VALUES, display, strict=True) if count)


def task_awards(
    bonus: int, type_index: int, displays: Sequence[Sequence[int]]
) -> list[tuple[int, int, int]]:
    """``(seat, cards, points)`` for everyone holding the task's type in their display.

    Only display cards count, whoever revealed the task; with one set per type on the table at
    most one seat gains.
    """
    return [
        (seat, display[type_index], bonus * display[type_index])
        for seat, display in enumerate(displays)
        if display[type_index]
    ]


def next_start_player(
    totals: Sequence[int], last_round: Sequence[int], previous_start: int
) -> tuple[int, str]:
    """Who starts the next round, and which rule decided it.

    Lowest cumulative total; among the tied players only, the lowest score of the round just
    played; if still tied (our choice, the rules are silent), the first of them clockwise after
    the previous start player, who therefore counts last.
    """
    players = len(totals)
    lowest = min(totals)
    tied = [seat for seat in range(players) if totals[seat] == lowest]
    if len(tied) == 1:
        return tied[0], "lowest_total"
    lowest_round = min(last_round[seat] for seat in tied)
    tied = [seat for seat in tied if last_round[seat] == lowest_round]
    if len(tied) == 1:
        return tied[0], "lowest_round_score"
    for step in range(1, players + 1):
        seat = (previous_start + step) % players
        if seat in tied:
            return seat, "clockwise_after_previous"
    raise AssertionError("unreachable: a tied seat always exists")


def game_winners(totals: Sequence[int], rounds: Sequence[Sequence[int]]) -> tuple[list[int], str]:
    """The winning seats and the deciding rule.

    Highest total; among the tied players only, the highest single-round score; if still tied
    (our choice), every remaining player shares the win.
    """
    best = max(totals)
    tied = [seat for seat, total in enumerate(totals) if total == best]
    if len(tied) == 1:
        return tied, "highest_total"
    best_round = {seat: max((row[seat] for row in rounds), default=0) for seat in tied}
    top = max(best_round.values())
    tied = [seat for seat in tied if best_round[seat] == top]
    if len(tied) == 1:
        return tied, "best_round"
    return tied, "shared"
