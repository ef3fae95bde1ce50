"""What a player missed: the moves since their own last move, as their hand tells them.

A player on a phone reads the game in their DMs; the channel's table is a scroll away. So a
hand lists what happened since that player last moved (the others' moves, as the table's log
words them), and whose turn it is. Built from the events each move logged, filtered for the
reader (``games.events_for(events, seat)``): the public events and the reader's own private
ones, never another seat's.

Only the moves kept in memory are read (``RecentMoves``, the last ``KEPT_MOVES`` of the game):
no database read on a click's path. When the reader's last move is older than those, the hand
says "latest moves" instead of "since your last move".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from bot.i18n import t
from bot.render.base import Presenter
from games import Event, events_for

STORY_LINES = 12
"""At most this many lines (the newest); the message's text budget may cut more."""
PRIVATE_MOVES = 2
"""The hand's "only you saw" lines come from this many of the latest moves."""


class LoggedMove(Protocol):
    seat: int
    events: list[dict[str, Any]]


class RecentMoves(list[list[Event]]):
    """The events of a game's latest moves (oldest first), and who made each move.

    A list of event lists, as the table's log reads them; ``moves`` keeps the logged moves
    for the story, which needs to know whose they were."""

    def __init__(self, moves: Sequence[LoggedMove] = ()) -> None:
        super().__init__(move.events for move in moves)
        self.moves = tuple(moves)


class Story:
    """A seat's story at one position: its lines and title, and its private lines (what only
    the seat saw in the latest moves, outside the story)."""

    def __init__(self, lines: list[str], title: str | None, private: list[str]) -> None:
        self.lines, self.title, self.private = lines, title, private


def story_of(
    presenter: Presenter,
    recent: Sequence[Sequence[Event]],
    seat: int,
    names: Sequence[str],
    locale: str,
) -> Story:
    """What ``seat`` missed since its last move among ``recent`` (a ``RecentMoves``; plain
    event lists tell nothing of whose moves they were, and get no story), and the private
    lines of the latest moves it does not cover."""
    moves = getattr(recent, "moves", None)
    if moves is None:
        return Story(
            [], None, private_lines(presenter, recent[-PRIVATE_MOVES:], seat, names, locale)
        )
    own = [index for index, move in enumerate(moves) if move.seat == seat]
    start = own[-1] + 1 if own else 0
    missed = [move.events for move in moves[start:]]
    lines: list[str] = []
    for events in missed:
        for event in events_for(events, seat):
            line = presenter.event_line(event, names, locale)
            if line:
                lines.append(t("table.log_line", locale, line=line))
    title = t("hand.story" if own else "hand.story_latest", locale) if lines else None
    room = max(PRIVATE_MOVES - len(missed), 0)
    before = [move.events for move in moves[:start]][-room:] if room else []
    return Story(lines[-STORY_LINES:], title, private_lines(presenter, before, seat, names, locale))


def private_lines(
    presenter: Presenter,
    moves: Sequence[Sequence[Event]],
    seat: int,
    names: Sequence[str],
    locale: str,
) -> list[str]:
    """Events of ``moves`` that only ``seat`` could see (what they drew …)."""
    lines: list[str] = []
    for events in moves:
        for event in events_for(events, seat):
            if "visible_to" not in event:
                continue
            line = presenter.event_line(event, names, locale)
            if line:
                lines.append(t("table.log_line", locale, line=line))
    return lines[-STORY_LINES:]


def story_key(recent: Sequence[Sequence[Event]]) -> tuple[int, ...]:
    """What a story is made from besides the state: the moves it read (for the state's memo)."""
    moves = getattr(recent, "moves", None)
    return (-1, len(recent)) if moves is None else (len(moves), moves[-1].version if moves else 0)
