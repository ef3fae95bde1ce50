"""What the end of a game says: the content of its game-over message and of each last DM.

Why a message of its own: the final table and the DMs are only *edited* when a game ends, and
nobody is notified. So the end is published as a **new** channel message that pings the human
players (only them), with the places, the final scores (by round where the game has rounds),
each player's rating change, and the buttons that bring everyone back: **Rematch**, **Replay**
and **Scores**. An abandoned or cancelled game gets the same message, saying so.

Content only: plain text pieces and the buttons' JSON (``GameOver``). How they are laid out in
a Components V2 message is ``bot/messages/game_over_layout.py`` (the house style of V2 messages
belongs to the messages' layout; keeping the two apart lets it change alone). Built from the game as
stored (the finished state, the seats, the rating changes), never from a click.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import discord

from bot.flows.session import LoadedGame
from bot.i18n import t
from bot.messages.scores import round_lines
from bot.ratings.board import decimal
from bot.ratings.model import SeatResult, finishing_ranks
from bot.ratings.queries import SeatRatingChange
from bot.render import presenter_for
from bot.render.common import safe_names
from bot.render.limits import clip
from bot.storage.models import GameStatus

REMATCH = "rematch"
REPLAY = "replay"
SCORES = "scores"
BUTTONS = (REMATCH, REPLAY, SCORES)
"""The game-over message's buttons: ``glory:over:<button>:<game>``
(``bot/interactions/components.py``)."""
LINE = 300
"""A line is clipped here (a place with a 100-character name and its rating)."""
ROUND_LINES = 12
"""At most this many rounds are listed (the latest; ``Scores`` has them all)."""


@dataclass(frozen=True)
class GameOver:
    """The pieces of a game-over message, in the game's public language."""

    title: str
    greeting: str
    """The line that pings the human players ("Good game, @Ann, @Bob!")."""
    mentions: tuple[int, ...]
    """The users it pings: the human players, nobody else."""
    reason: str | None
    """Why an abandoned or cancelled game ended."""
    places: tuple[str, ...]
    rounds: tuple[str, ...]
    rounds_title: str
    buttons: tuple[dict[str, Any], ...]


def over_button_id(button: str, game_id: int) -> str:
    return f"glory:over:{button}:{game_id}"


def seat_results(loaded: LoadedGame) -> list[SeatResult]:
    """The seats' results as the rating reads them (who left, who won, by side)."""
    state = loaded.state
    assert state is not None
    winners = set(state.winners) if loaded.status is GameStatus.FINISHED else set()
    return [
        SeatResult(
            seat=row.seat,
            user_id=row.user_id,
            score=state.scores[row.seat],
            won=row.seat in winners and not row.departed,
            side=state.sides[row.seat],
            ai_level=row.ai_level,
            autoplayed=row.takeover,
            departed=row.departed,
        )
        for row in loaded.seats
    ]


def places(loaded: LoadedGame) -> dict[int, int]:
    """Per seat, its place in a finished game (1 is best; partners and ties share one)."""
    results = seat_results(loaded)
    ranks = finishing_ranks(results)
    return {r.seat: ranks[r.team] for r in results}


def humans(loaded: LoadedGame) -> list[int]:
    """The user ids of the game's human players, once each, in seat order."""
    return list(dict.fromkeys(row.user_id for row in loaded.seats if row.ai_level is None))


def game_over(
    loaded: LoadedGame,
    changes: Mapping[int, SeatRatingChange],
    why: str | None = None,
) -> GameOver:
    """The game-over message of ``loaded`` (finished, abandoned or cancelled, after it started),
    in the game's public language; ``changes``: its rating changes by seat."""
    state = loaded.state
    assert state is not None
    locale = loaded.row.locale
    presenter = presenter_for(loaded.row.game_key)
    status = loaded.status
    names = safe_names(loaded.names)
    game = presenter.game_name(locale)
    title = t(f"flow.over.title.{status.value}", locale, game=game, id=loaded.id)
    mentions = tuple(humans(loaded))
    greeting = t("flow.over.greeting", locale, players=", ".join(f"<@{u}>" for u in mentions))
    reason = None
    if status is GameStatus.ABANDONED:
        reason = t("flow.over.why.everyone_left", locale)
    elif status is GameStatus.CANCELLED:
        reason = t("flow.over.why.cancelled", locale)
    finished = status is GameStatus.FINISHED
    placed = places(loaded) if finished else {}
    order = sorted(range(len(loaded.seats)), key=lambda s: (placed.get(s, 0), s))
    lines = []
    for seat in order:
        row = loaded.seats[seat]
        note = ""
        if row.departed:
            note = t("flow.over.note.left", locale)
        change = changes.get(seat)
        if change is not None:
            if change.counted:
                note += t("flow.over.note.rating", locale, delta=_signed(change.delta, locale))
            else:
                note += t("flow.over.note.not_rated", locale)
        points = state.scores[seat]
        if finished:
            line = t(
                "flow.over.place",
                locale,
                place=placed[seat],
                name=names[seat],
                count=points,
                note=note,
            )
        else:
            line = t("flow.over.score", locale, name=names[seat], count=points, note=note)
        lines.append(clip(line, LINE))
    view = loaded.view(None)
    rounds: list[str] = []
    if len(view.get("round_scores") or ()) > 1:
        rounds = round_lines(presenter, view, names, locale)
        if len(rounds) > ROUND_LINES:
            rounds = ["…", *rounds[-ROUND_LINES:]]
    return GameOver(
        title=title,
        greeting=greeting,
        mentions=mentions,
        reason=reason,
        places=tuple(lines),
        rounds=tuple(clip(line, LINE) for line in rounds),
        rounds_title=t("scores.by_round", locale),
        buttons=tuple(over_buttons(loaded.id, locale)),
    )


def over_buttons(game_id: int, locale: str) -> list[dict[str, Any]]:
    """Rematch, Replay, Scores as Discord's JSON (one action row's components)."""
    styles = {
        REMATCH: discord.ButtonStyle.success,
        REPLAY: discord.ButtonStyle.secondary,
        SCORES: discord.ButtonStyle.secondary,
    }
    return [
        {
            "type": discord.ComponentType.button.value,
            "style": styles[button].value,
            "label": t(f"flow.button.{button}", locale),
            "custom_id": over_button_id(button, game_id),
        }
        for button in BUTTONS
    ]


def final_line(loaded: LoadedGame, seat: int, locale: str) -> str | None:
    """The line a player's last DM starts with: how the game ended and their place."""
    state = loaded.state
    status = loaded.status
    if state is None or status in (GameStatus.LOBBY, GameStatus.ACTIVE):
        return None
    if status is GameStatus.CANCELLED:
        return t("flow.over.dm.cancelled", locale)
    if status is not GameStatus.FINISHED:
        return t("flow.over.dm.abandoned", locale)
    if loaded.seats[seat].departed:
        return t("flow.over.dm.left", locale)
    placed = places(loaded)
    names = safe_names(loaded.names)
    winners = [names[s] for s in sorted(placed) if placed[s] == 1]
    return " ".join(
        (
            t("flow.over.dm.won_by", locale, names=", ".join(winners), count=len(winners)),
            t(
                "flow.over.dm.place",
                locale,
                place=placed[seat],
                places=len(set(placed.values())),
                count=state.scores[seat],
            ),
        )
    )


def _signed(value: float, locale: str) -> str:
    text = decimal(value, locale)
    return text if text.startswith("−") or text in ("0.0", "0,0") else f"+{text}"
