"""What a picture is drawn from: a view and the words around it, nothing else.

A scene holds the engine's view for one seat (or the public view), the players' names, the
language, the status line and the public events of the last move. Layouts get a scene and a
canvas, never a state, so a public picture cannot show what ``view(None)`` hides.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import t
from bot.pictures.palette import DARK, Theme

JSON = dict[str, Any]
MARKDOWN = re.compile(r"\*\*|__|\\(?=[\\*_~`|>])")
VALUE_SUFFIX = re.compile(r"\s*\(\d+\)$")


def plain(text: str) -> str:
    """Catalog text without Markdown (pictures show it as it reads)."""
    return MARKDOWN.sub("", text)


@dataclass(frozen=True)
class TableScene:
    game_key: str
    view: JSON
    """``view(None)``: the public view."""
    names: Sequence[str]
    locale: str
    status: str
    """Whose turn, or the result (plain text)."""
    last_events: Sequence[JSON] = ()
    """The public events of the last move (``events_for(events, None)``)."""
    score_labels: Sequence[tuple[str, int]] = ()
    """Who keeps a score: ``(label, column of view["scores"])`` (teams in Kami team games)."""
    theme: Theme = DARK


@dataclass(frozen=True)
class HandScene:
    game_key: str
    view: JSON
    """``view(seat)`` of the hand's own seat."""
    names: Sequence[str]
    locale: str
    playable: frozenset[str] = field(default_factory=frozenset)
    """Card tokens the seat may play now (from its own legal moves; empty while it waits)."""
    theme: Theme = DARK

    @property
    def on_turn(self) -> bool:
        return self.view["to_move"] == self.view["seat"] and not self.view["is_over"]


@dataclass(frozen=True)
class ChartScene:
    game_key: str
    round_scores: Sequence[Sequence[int]]
    sides: Sequence[tuple[str, int]]
    """``(label, column)`` per side that keeps a score."""
    locale: str
    title: str
    result: str
    theme: Theme = DARK
    rounds: bool = True
    """Whether the game is played in rounds (its points are shown after each); Clans and
    Glory's are counted once, at the end."""


@dataclass(frozen=True)
class TrendScene:
    """A player's conservative rating after each of their recent rated games, per game."""

    series: Sequence[tuple[str, Sequence[float]]]
    """``(game name, ratings oldest first)`` per game with at least two rated games."""
    locale: str
    title: str
    theme: Theme = DARK


def card_name(key: str, locale: str) -> str:
    """A card's catalog name without the value in brackets ("Samurai (12)" → "Samurai")."""
    return VALUE_SUFFIX.sub("", t(key, locale))
