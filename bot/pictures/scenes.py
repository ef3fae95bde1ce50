"""Scenes of a stored game: what the bot hands to the drawing code.

This is where the bot's game meets the pictures, and where hidden information is kept out:
the table scene takes ``view(None)`` and the public events of the last move, a hand scene
``view(seat)`` and the card tokens of that seat's own legal moves (what its move menu offers
anyway), never anything else of the state.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.flows.session import LoadedGame
from bot.i18n import t
from bot.pictures.palette import THEMES
from bot.pictures.scene import ChartScene, HandScene, TableScene, plain
from bot.render import presenter_for
from bot.render.common import result_line, status_line
from games import Event, events_for


def table_scene(
    loaded: LoadedGame, recent: Sequence[Sequence[Event]], locale: str, theme: str
) -> TableScene:
    view = loaded.view(None)
    presenter = presenter_for(loaded.row.game_key)
    names = loaded.names
    last = events_for(recent[-1], None) if recent else []
    return TableScene(
        game_key=loaded.row.game_key,
        view=view,
        names=names,
        locale=locale,
        status=plain(status_line(loaded, view, presenter, names, locale)),
        last_events=last,
        score_labels=presenter.score_sides(view, names),
        theme=THEMES[theme],
    )


def playable_cards(loaded: LoadedGame, seat: int) -> frozenset[str]:
    """The cards ``seat`` can play now: the ``card:`` tokens of its own legal moves (empty
    unless it is on turn)."""
    state = loaded.state
    if state is None or state.to_move != seat:
        return frozenset()
    return frozenset(
        token.partition(":")[2]
        for action in state.legal_actions()
        for token in action.menu_path
        if token.startswith("card:")
    )


def hand_scene(loaded: LoadedGame, seat: int, locale: str, theme: str) -> HandScene:
    return HandScene(
        game_key=loaded.row.game_key,
        view=loaded.view(seat),
        names=loaded.names,
        locale=locale,
        playable=playable_cards(loaded, seat),
        theme=THEMES[theme],
    )


def chart_title(view: dict) -> str:
    """The chart's title key: points after each round, or the final points of a game that
    has no rounds (Clans and Glory)."""
    return "pictures.chart.title" if "round" in view else "pictures.chart.title_final"


def chart_scene(loaded: LoadedGame, locale: str, theme: str) -> ChartScene | None:
    """The score chart's scene, or ``None`` while there is nothing to draw (no round scored:
    a chart of one point at zero per side says nothing)."""
    view = loaded.view(None)
    if not view["round_scores"]:
        return None
    presenter = presenter_for(loaded.row.game_key)
    names = loaded.names
    if view["is_over"] or loaded.row.status != "active":
        result = plain(status_line(loaded, view, presenter, names, locale))
    else:
        result = plain(result_line(view, names, locale)) if view["winners"] else ""
    return ChartScene(
        game_key=loaded.row.game_key,
        round_scores=view["round_scores"],
        sides=presenter.score_sides(view, names),
        locale=locale,
        title=f"{t(f'{loaded.row.game_key}.name', locale)} · {t(chart_title(view), locale)}",
        result=result,
        theme=THEMES[theme],
        rounds="round" in view,
    )
