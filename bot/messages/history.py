"""``/history [game] [user]``: the server's ended games, newest first, in pages.

Each line names the game's number (for ``/replay``), the game, the date (a Discord
timestamp, so every reader sees their own date format), the players, the result and the
length (moves, and minutes from the deal to the end). Pages are read from the database a page
at a time, ``PER_PAGE`` games each.

The buttons (⏮ ◀ ▶ ⏭) are ``HistoryPageButton``s,
``glory:hist:<page>:<game>:<user>:<button>`` (``game`` a registry key or ``-``, ``user`` a
Discord id or ``0`` for everyone); the answer is ephemeral and a click edits it in place.
A custom_id that does not parse exactly is answered as a damaged control and changes nothing.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

import discord
from discord import ui
from discord.utils import format_dt
from sqlalchemy import func
from sqlmodel import col, select

from bot.flows.session import seat_name
from bot.i18n import t
from bot.interactions.answers import Answer
from bot.interactions.components import Control, DamagedControl, number
from bot.interactions.replies import guarded
from bot.messages.controls import SentControls
from bot.messages.languages import user_locale
from bot.messages.paging import step_buttons
from bot.render import presenter_for
from bot.render.common import safe_names
from bot.render.limits import EMBED_DESCRIPTION, EMBED_TITLE, clip, first_lines
from bot.storage.models import GameRow, GameStatus, MoveRow, ResultRow, SeatRow
from bot.storage.repository import OPENING_SEAT, Store
from games import REGISTRY


class HasStore(Protocol):
    """What a ``/history`` page finds on the client its click arrives on."""

    store: Store


PER_PAGE = 10
MAX_PAGE = 999_999
ALL_GAMES = "-"
EVERYONE = 0
ENDED = (GameStatus.FINISHED.value, GameStatus.ABANDONED.value)
NAME_LENGTH = 40
LINE_LENGTH = 400
"""A line holds at most four names of up to 40 characters: ten lines stay inside an embed."""


@dataclass(frozen=True)
class EndedGame:
    row: GameRow
    seats: list[SeatRow]
    winners: list[int]
    moves: int
    started: datetime | None


def _aware(when: datetime | None) -> datetime | None:
    if when is not None and when.tzinfo is None:
        return when.replace(tzinfo=UTC)
    return when


async def ended_games(
    store: Store, guild_id: int, game_key: str | None, user_id: int | None, page: int
) -> tuple[list[EndedGame], int]:
    """Page ``page`` (from 1) of the server's finished and abandoned games, newest first,
    and how many such games there are."""
    conditions = [GameRow.guild_id == guild_id, col(GameRow.status).in_(ENDED)]
    if game_key is not None:
        conditions.append(GameRow.game_key == game_key)
    if user_id is not None:
        conditions.append(
            col(GameRow.id).in_(select(SeatRow.game_id).where(SeatRow.user_id == user_id))
        )
    async with store.session() as session:
        total = await session.scalar(select(func.count()).select_from(GameRow).where(*conditions))
        query = (
            select(GameRow)
            .where(*conditions)
            .order_by(col(GameRow.updated_at).desc(), col(GameRow.id).desc())
            .offset((page - 1) * PER_PAGE)
            .limit(PER_PAGE)
        )
        rows = list((await session.exec(query)).all())
        ids = [row.id for row in rows]
        seats = (
            await session.exec(
                select(SeatRow).where(col(SeatRow.game_id).in_(ids)).order_by(col(SeatRow.seat))
            )
        ).all()
        winners = (
            await session.exec(
                select(ResultRow.game_id, ResultRow.seat).where(
                    col(ResultRow.game_id).in_(ids), col(ResultRow.won).is_(True)
                )
            )
        ).all()
        lengths = (
            await session.exec(
                select(
                    MoveRow.game_id,
                    func.count(),
                    func.min(MoveRow.created_at),
                )
                .where(col(MoveRow.game_id).in_(ids))
                .group_by(MoveRow.game_id)
            )
        ).all()
        openings = set(
            (
                await session.exec(
                    select(MoveRow.game_id).where(
                        col(MoveRow.game_id).in_(ids), MoveRow.seat == OPENING_SEAT
                    )
                )
            ).all()
        )
    by_game: dict[int, list[SeatRow]] = {}
    for seat in seats:
        by_game.setdefault(seat.game_id, []).append(seat)
    won: dict[int, list[int]] = {}
    for game_id, seat_number in winners:
        won.setdefault(game_id, []).append(seat_number)
    length = {
        game_id: (count - (game_id in openings), _aware(first)) for game_id, count, first in lengths
    }
    games = [
        EndedGame(
            row,
            by_game.get(row.id or 0, []),
            sorted(won.get(row.id or 0, [])),
            *length.get(row.id or 0, (0, None)),
        )
        for row in rows
    ]
    return games, int(total or 0)


def history_line(game: EndedGame, locale: str) -> str:
    row = game.row
    names = [clip(name, NAME_LENGTH) for name in safe_names(seat_name(s) for s in game.seats)]
    if row.status == GameStatus.ABANDONED or not game.winners:
        result = t("history.abandoned", locale)
    else:
        winners = [names[seat] for seat in game.winners if seat < len(names)]
        result = t("history.won_by", locale, count=len(winners), names=", ".join(winners))
    moves = t("history.moves", locale, count=game.moves)
    ended = _aware(row.updated_at)
    length = moves
    if game.started is not None and ended is not None:
        minutes = max(math.ceil((ended - game.started).total_seconds() / 60), 1)
        length = t("history.minutes", locale, moves=moves, count=minutes)
    line = t(
        "history.line",
        locale,
        id=row.id,
        game=presenter_for(row.game_key).game_name(locale),
        date=format_dt(ended, "d") if ended is not None else "?",
        players=", ".join(names),
        result=result,
        length=length,
    )
    return clip(line, LINE_LENGTH)


def history_message(
    games: Sequence[EndedGame],
    total: int,
    page: int,
    locale: str,
    *,
    game: str | None,
    user: int,
    user_name: str | None,
) -> dict[str, Any]:
    count = max(math.ceil(total / PER_PAGE), 1)
    scope = presenter_for(game).game_name(locale) if game else t("standings.all_games", locale)
    if user_name is not None:
        scope = t("history.of_player", locale, scope=scope, name=user_name)
    embed = discord.Embed(title=clip(t("history.title", locale, scope=scope), EMBED_TITLE))
    lines = [history_line(ended, locale) for ended in games]
    embed.description = first_lines(lines, EMBED_DESCRIPTION) or t("history.empty", locale)
    footer = t("history.footer", locale)
    if count > 1:
        footer += "\n" + t("ratings.page", locale, page=min(page, count), pages=count)
    embed.set_footer(text=footer)
    if count == 1:
        return {"embed": embed, "view": None}
    return {"embed": embed, "view": page_buttons(min(page, count), count, game, user)}


def page_buttons(page: int, count: int, game: str | None, user: int) -> SentControls:
    return step_buttons(
        page,
        count,
        lambda target, button, emoji, disabled: HistoryPageButton(
            target, game or ALL_GAMES, user, button, emoji=emoji, disabled=disabled
        ),
    )


async def show_history(
    bot: HasStore,
    interaction: discord.Interaction,
    *,
    page: int,
    game: str | None,
    user: int,
    user_name: str | None,
    update: bool,
) -> None:
    """The page ``page`` of this server's history (a page past the end shows the last)."""
    locale = user_locale(interaction)
    guild_id = interaction.guild_id or 0
    selected = user or None
    games, total = await ended_games(bot.store, guild_id, game, selected, page)
    last = max(math.ceil(total / PER_PAGE), 1)
    if page > last:
        page = last
        games, total = await ended_games(bot.store, guild_id, game, selected, page)
    content = history_message(games, total, page, locale, game=game, user=user, user_name=user_name)
    if update:
        await Answer.of(interaction).update(**content)
    else:
        await Answer.of(interaction).send(**content)


HISTORY_ID = re.compile(
    r"glory:hist:(?P<page>[1-9][0-9]{0,5}):(?P<game>[a-z_]{1,40}|-):(?P<user>0|[1-9][0-9]{0,19})"
    r":(?P<button>first|previous|next|last)"
)


class HistoryPageButton(Control, ui.DynamicItem[ui.Button], template=r"glory:hist:(?P<rest>.*)"):
    def __init__(
        self,
        page: int,
        game: str,
        user: int,
        button: str = "next",
        *,
        emoji: str | None = None,
        disabled: bool = False,
    ) -> None:
        self.page, self.game, self.user = page, game, user
        super().__init__(
            ui.Button(
                emoji=emoji,
                style=discord.ButtonStyle.secondary,
                custom_id=f"glory:hist:{page}:{game}:{user}:{button}",
                disabled=disabled,
                row=0,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Button, match: re.Match[str], /
    ) -> HistoryPageButton | DamagedControl:
        parsed = HISTORY_ID.fullmatch(item.custom_id or "")
        if parsed is None:
            return DamagedControl(item)
        user = number(parsed["user"])
        if (parsed["game"] != ALL_GAMES and parsed["game"] not in REGISTRY) or user is None:
            return DamagedControl(item)
        page = number(parsed["page"], MAX_PAGE)
        assert page is not None
        return cls(page, parsed["game"], user, parsed["button"])

    async def act(self, interaction: discord.Interaction) -> None:
        bot: HasStore = interaction.client  # type: ignore[assignment]
        async with guarded(interaction, None):
            game = None if self.game == ALL_GAMES else self.game
            name = None
            if self.user:
                seat = await _any_seat(bot.store, self.user)
                name = safe_names([seat.display_name])[0] if seat else f"<@{self.user}>"
            await show_history(
                bot,
                interaction,
                page=self.page,
                game=game,
                user=self.user,
                user_name=name,
                update=True,
            )


async def _any_seat(store: Store, user_id: int) -> SeatRow | None:
    async with store.session() as session:
        query = (
            select(SeatRow).where(SeatRow.user_id == user_id).order_by(col(SeatRow.game_id).desc())
        )
        return (await session.exec(query)).first()


HISTORY_ITEMS = (HistoryPageButton,)
