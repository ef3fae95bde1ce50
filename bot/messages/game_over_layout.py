"""The layout of the game-over message: a Components V2 message in the house style of the
table and the hands (``bot/render/layout.py``).

Kept apart from its content (``bot/messages/game_over.py``): the content says what the end is
(title, greeting, places, rounds, buttons), this module how it looks: one container in the winner's
colour (neutral when nobody or several won), the title and greeting as a heading, why the game
ended, the final scores under their label, the rounds, the final score chart where the game has
one (the picture the final table shows, with the totals as its alt text), and the buttons.

No footer line: the outbox recognises a table or hand by its footer ("Game #12 · move 7",
``outbox.delivery._footer``), and this message is neither.

The message pings exactly the users the content names (``allowed_mentions`` limited to them: a
display name such as "@everyone" or "<@123>" pings nobody).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.flows.session import LoadedGame
from bot.i18n import t
from bot.messages.game_over import GameOver
from bot.pictures.attach import CHART_FILE, picture_files
from bot.render import presenter_for
from bot.render.common import shown_names, total_line
from bot.render.layout import (
    JSON,
    Layout,
    Picture,
    TextBudget,
    container,
    gallery,
    heading,
    joined,
    seat_accent,
    separator,
    texts,
)
from bot.render.messages import HEADING_ROOM, LOG_ROOM, chart_picture
from bot.storage.models import GameStatus


def over_accent(loaded: LoadedGame) -> int:
    """The winner's colour for a game won by one seat; neutral otherwise (a team, a tie, a
    game that did not finish)."""
    if loaded.state is None or loaded.status is not GameStatus.FINISHED:
        return seat_accent(None)
    winners = loaded.view(None)["winners"]
    return seat_accent(winners[0] if len(winners) == 1 else None)


def scores_label(over: GameOver, locale: str) -> str:
    """The label over the places: the final total, or the total when the game stopped."""
    key = "over.scores.stopped" if over.reason else "over.scores.final"
    return t(key, locale)


def game_over_layout(
    over: GameOver,
    *,
    locale: str = "en",
    accent: int | None = None,
    chart: Picture | None = None,
) -> list[JSON]:
    """The message's one container: heading and greeting, why it ended, the labelled final
    scores, the rounds, the chart (``chart``: its file, when attached) and the buttons."""
    budget = TextBudget()
    top = budget.take(joined(heading(over.title), over.greeting), HEADING_ROOM)
    reason = budget.take(over.reason, LOG_ROOM) if over.reason else ""
    places = budget.section(scores_label(over, locale), over.places, cap=budget.left)
    rounds = budget.section(over.rounds_title, over.rounds, cap=budget.left)
    children = texts(top, reason)
    children += [separator(), *texts(places, rounds)]
    if chart is not None:
        children.append(gallery(chart))
    children.append({"type": 1, "components": list(over.buttons)})
    return [container(children, seat_accent(None) if accent is None else accent)]


def chart_alt(loaded: LoadedGame) -> str:
    """The final chart's alt text: what it plots and the totals in words, as on the table."""
    presenter = presenter_for(loaded.row.game_key)
    locale = loaded.row.locale
    totals = total_line(presenter, loaded.view(None), shown_names(loaded), locale)
    return chart_picture(presenter, locale, totals).description


def game_over_message(
    over: GameOver, loaded: LoadedGame, chart: bytes | None = None
) -> dict[str, Any]:
    """What ``channel.send`` takes: the layout of ``loaded``'s end with its chart (``chart``:
    the PNG, ``None`` without pictures or with nothing to draw), pinging the human players
    alone."""
    locale = loaded.row.locale
    picture = None
    files = []
    if chart is not None:
        picture = Picture(CHART_FILE, chart_alt(loaded))
        files = picture_files([picture], {CHART_FILE: chart})
    components = game_over_layout(over, locale=locale, accent=over_accent(loaded), chart=picture)
    content: dict[str, Any] = {
        "view": Layout(components, pictures=() if picture is None else (picture,)),
        "allowed_mentions": discord.AllowedMentions(
            everyone=False,
            roles=False,
            replied_user=False,
            users=[discord.Object(user) for user in over.mentions],
        ),
    }
    if files:
        content["files"] = files
    return content
