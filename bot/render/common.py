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

from bot.clock import turn_time_text
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
from bot.session import LoadedGame
from bot.storage.models import GameStatus
from games import Event, Game, events_for

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
        value=first_lines(score_line(view, names, locale).split("\n"), FIELD_VALUE),
        inline=False,
    )
    embed.set_footer(text=t("table.footer", locale, id=loaded.id, move=loaded.row.version))
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


def score_line(view: JSON, names: Sequence[str], locale: str) -> str:
    return "\n".join(
        t("table.score", locale, name=name, count=score)
        for name, score in zip(names, view["scores"], strict=True)
    )


def log_lines(
    presenter: Presenter, moves: Sequence[Sequence[Event]], names: Sequence[str], locale: str
) -> list[str]:
    """The public events of the given moves as plain sentences, newest last."""
    lines: list[str] = []
    for events in moves:
        for event in events_for(events, None):
            line = presenter.event_line(event, names, locale)
            if line:
                lines.append(t("table.log_line", locale, line=line))
    return lines[-LOG_LINES:]


def private_log_lines(
    presenter: Presenter,
    moves: Sequence[Sequence[Event]],
    seat: int,
    names: Sequence[str],
    locale: str,
) -> list[str]:
    """Events of the given moves that only ``seat`` could see (what they drew …)."""
    lines: list[str] = []
    for events in moves:
        for event in events_for(events, seat):
            if "visible_to" not in event:
                continue
            line = presenter.event_line(event, names, locale)
            if line:
                lines.append(t("table.log_line", locale, line=line))
    return lines[-LOG_LINES:]


def hand_embed(
    loaded: LoadedGame,
    presenter: Presenter,
    seat: int,
    locale: str,
    *,
    private_log: Sequence[str] = (),
    notice: str | None = None,
    full: bool = True,
    names: tuple[str, ...] | None = None,
) -> discord.Embed:
    """One player's private message: their view, whose turn, and what to decide.

    ``full=False`` (a DM while the player waits) leaves out everything that changes with other
    players' moves, so the message stays true without an edit after every move.
    """
    state = loaded.state
    assert state is not None
    names = shown_names(loaded) if names is None else names
    full = full or state.to_move == seat or state.is_over  # the same text either way then
    # The hand's text is made once per state, seat, language, names and status: the hand DM
    # the courier sends the player on turn leaves it for the clicks in that DM (which then
    # need not compute the seat's view at all).
    key = ("hand", seat, locale, names, full, loaded.status)
    title, body = loaded.derived(
        key,
        lambda: _hand_text(loaded, presenter, loaded.view(seat), seat, names, locale, full=full),
    )
    embed = discord.Embed(title=title, colour=COLOUR)
    lines = [notice, "", *body] if notice else list(body)
    if private_log:
        lines += ["", t("hand.private_log", locale), *private_log]
    embed.description = first_lines(lines, EMBED_DESCRIPTION)
    embed.set_footer(text=t("table.footer", locale, id=loaded.id, move=loaded.row.version))
    return embed


def _hand_text(
    loaded: LoadedGame,
    presenter: Presenter,
    view: JSON,
    seat: int,
    names: Sequence[str],
    locale: str,
    *,
    full: bool,
) -> tuple[str, tuple[str, ...]]:
    """A hand's title and its lines below the notice and above the private log."""
    title = clip(
        t("hand.title", locale, game=presenter.game_name(locale), name=names[seat]), EMBED_TITLE
    )
    lines = []
    if loaded.status is not GameStatus.ACTIVE or view["is_over"]:
        lines.append(status_line(loaded, view, presenter, names, locale))
    elif view["to_move"] == seat:
        decision = presenter.decision(view["decision"], locale)
        lines.append(t("hand.your_turn", locale, decision=decision))
    elif not full:
        lines.append(t("hand.waiting_quiet", locale))
    else:
        decision = presenter.decision(view["decision"], locale)
        lines.append(t("hand.waiting", locale, name=names[view["to_move"]], decision=decision))
    lines.append("")
    lines.extend(presenter.hand_lines(view, names, locale))
    if full:
        lines += ["", *presenter.table_lines(view, names, locale)]
    return title, tuple(lines)
