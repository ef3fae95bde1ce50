"""Messages every game shares: lobby, table, hand, scores and result lines.

Public builders take ``state.view(None)`` and public events only; the hand builder takes the
view of one seat. All text comes from the catalog.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

import discord
from discord.utils import escape_markdown, escape_mentions, format_dt

from bot.flows.clock import turn_time_text
from bot.flows.session import LoadedGame
from bot.i18n import t
from bot.render.base import Presenter
from bot.render.limits import (
    EMBED_DESCRIPTION,
    EMBED_TITLE,
    FIELD_VALUE,
    clip,
    first_lines,
    last_lines,
    room_left,
)
from bot.storage.models import GameStatus
from games import Event, Game, Option, events_for

JSON = dict[str, Any]
LOG_LINES = 8
COLOUR = discord.Colour.dark_gold()


def safe_names(names: Iterable[str]) -> list[str]:
    """Player names with Discord markdown and mentions neutralised.

    A display name may be ``<@123…>`` or ``@everyone``: shown as it is, it would render as a
    mention (and ping, where a message allows pings). No message the bot writes pings by
    accident anyway (``allowed_mentions`` is none by default), and here it does not even look
    like one.
    """
    return [_safe_name(name) for name in names]


def _host_name(loaded: LoadedGame, names: Sequence[str]) -> str:
    """The host's name (seat 0 of a lobby, except in a rematch opened by another player)."""
    for seat, name in zip(loaded.seats, names, strict=False):
        if seat.user_id == loaded.row.host_id:
            return name
    return names[0] if names else "?"


def shown_names(loaded: LoadedGame) -> tuple[str, ...]:
    """The seats' names as messages show them (``safe_names`` of ``LoadedGame.names``).

    Making them reads every seat's row, which costs more than a cached label: a message
    built from several parts (a hand's text, its menu, the choices made so far) takes them
    once and hands them to each part (``names=``)."""
    return tuple(safe_names(loaded.names))


@functools.lru_cache(maxsize=4096)
def _safe_name(name: str) -> str:
    """One name made safe; cached, since every message of a game shows the same few names."""
    return escape_mentions(escape_markdown(name))


def lobby_embed(loaded: LoadedGame, presenter: Presenter, locale: str) -> discord.Embed:
    row, game = loaded.row, loaded.game
    names = safe_names(loaded.names)
    embed = discord.Embed(
        title=clip(t("lobby.title", locale, game=presenter.game_name(locale)), EMBED_TITLE),
        colour=COLOUR,
    )
    lines = [
        t("lobby.host", locale, name=_host_name(loaded, names)),
        t("lobby.player_counts", locale, counts=_counts(game, locale)),
    ]
    for option in game.options:
        if not _may_apply(option, loaded):
            continue
        value = row.options.get(option.name, option.default)
        lines.append(
            t(
                "lobby.option",
                locale,
                option=presenter.option_label(option.name, locale),
                value=presenter.option_value(option.name, value, locale),
            )
        )
    lines.append(t("lobby.turn_time", locale, value=turn_time_text(row.turn_seconds, locale)))
    lines.append("")
    lines.append(t("lobby.seats", locale, count=len(names)))
    for seat, name in zip(loaded.seats, names, strict=True):
        if seat.ai_level is None:
            lines.append(t("lobby.seat", locale, number=seat.seat + 1, name=name))
        else:
            level = t(f"ai.level.{seat.ai_level}", locale)
            lines.append(t("lobby.seat_ai", locale, number=seat.seat + 1, name=name, level=level))
    status = loaded.status
    if status is GameStatus.LOBBY and row.expires_at is not None:
        lines.append("")
        lines.append(t("lobby.expires", locale, when=format_dt(_aware(row.expires_at), "R")))
    elif status is not GameStatus.LOBBY:
        lines.append("")
        lines.append(t(f"lobby.closed.{status.value}", locale))
    embed.description = first_lines(lines, EMBED_DESCRIPTION)
    embed.set_footer(text=t("common.game_id", locale, id=loaded.id))
    return embed


def _may_apply(option: Option, loaded: LoadedGame) -> bool:
    """Whether ``option`` can still matter: for a player count the lobby may yet reach (an
    open lobby fills and empties), or for the count a started game has."""
    seated = len(loaded.seats)
    if loaded.status is not GameStatus.LOBBY:
        return option.applies_to(seated)
    counts = loaded.game.player_counts
    return any(option.applies_to(n) for n in counts if n >= seated)


def _counts(game: Game, locale: str) -> str:
    return t("common.number_list", locale, numbers=", ".join(map(str, game.player_counts)))


def _aware(when: datetime) -> datetime:
    """SQLite hands back naive datetimes; they were stored in UTC."""
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def table_embed(
    loaded: LoadedGame,
    presenter: Presenter,
    moves: Sequence[Sequence[Event]],
    locale: str,
) -> discord.Embed:
    """The public table: whose turn, the public view, recent log lines and the scores.

    Sized to Discord's limits: the description keeps whole lines from the top, and the log
    keeps its newest lines in whatever room the rest of the embed leaves.
    """
    assert loaded.state is not None
    view = loaded.view(None)
    names = safe_names(loaded.names)
    embed = discord.Embed(
        title=clip(t("table.title", locale, game=presenter.game_name(locale)), EMBED_TITLE),
        colour=COLOUR,
    )
    lines = [status_line(loaded, view, presenter, names, locale), ""]
    lines.extend(presenter.table_lines(view, names, locale))
    embed.description = first_lines(lines, EMBED_DESCRIPTION)
    embed.add_field(
        name=t("table.scores", locale),
        value=first_lines(total_line(presenter, view, names, locale).split("\n"), FIELD_VALUE),
        inline=False,
    )
    embed.set_footer(text=t("table.footer", locale, id=loaded.id, move=moves_made(loaded)))
    log = log_lines(presenter, moves, names, locale)
    log_title = t("table.log", locale)
    room = min(FIELD_VALUE, room_left(embed) - len(log_title))
    if log and room > 0:
        embed.add_field(name=log_title, value=last_lines(log, room), inline=False)
    return embed


def status_line(
    loaded: LoadedGame, view: JSON, presenter: Presenter, names: Sequence[str], locale: str
) -> str:
    status = loaded.status
    if status in (GameStatus.CANCELLED, GameStatus.ABANDONED, GameStatus.EXPIRED):
        return t(f"table.ended.{status.value}", locale)
    if view["is_over"]:
        return result_line(view, names, locale)
    return t(
        "table.turn",
        locale,
        name=names[view["to_move"]],
        decision=presenter.decision(view["decision"], locale),
    )


def result_line(view: JSON, names: Sequence[str], locale: str) -> str:
    winners = [names[seat] for seat in view["winners"]]
    return t("table.winners", locale, count=len(winners), names=", ".join(winners))


def total_line(presenter: Presenter, view: JSON, names: Sequence[str], locale: str) -> str:
    """The score line, labelled: the points of the round in progress where a game shows
    them (Call to Glory's displays), then the totals, one entry per side (a Kami team once)."""
    sides = presenter.score_sides(view, names)
    lines = []
    this_round = presenter.round_points(view)
    if this_round is not None and not view["is_over"]:
        lines.append(_points_line("table.this_round", this_round, sides, locale))
    lines.append(_points_line("table.total", view["scores"], sides, locale))
    return "\n".join(lines)


def _points_line(
    key: str, points: Sequence[int], sides: Sequence[tuple[str, int]], locale: str
) -> str:
    entries = " · ".join(
        t("table.side_points", locale, name=label, count=points[seat]) for label, seat in sides
    )
    return t(key, locale, scores=entries)


def moves_made(loaded: LoadedGame) -> int:
    """How many moves the game has had: what the footer, ``/history`` and the replay count.

    The stored version counts the start (version 1 is the deal) and, for a game ended by
    ``/cancel`` or ``/leave``, that ending too; neither is a move."""
    version = loaded.row.version
    ended = loaded.state is not None and loaded.status in (
        GameStatus.CANCELLED,
        GameStatus.ABANDONED,
    )
    return max(version - 1 - (1 if ended else 0), 0)


def log_lines(
    presenter: Presenter, moves: Sequence[Sequence[Event]], names: Sequence[str], locale: str
) -> list[str]:
    """The public events of the given moves as plain sentences, newest last: the newest
    ``LOG_LINES`` (read from the newest move back, so older moves cost nothing)."""
    lines: list[str] = []
    for events in reversed(moves):
        phrased = [presenter.event_line(event, names, locale) for event in events_for(events, None)]
        lines[:0] = [t("table.log_line", locale, line=line) for line in phrased if line]
        if len(lines) >= LOG_LINES:
            break
    return lines[-LOG_LINES:]
