"""``/standings`` by rating, in pages, and the ``/profile`` embed.

Why pages: a server may have hundreds of rated players. A page shows ``PER_PAGE`` lines,
naming players by mention (a fixed length, and mentions in an embed never ping), so it stays
far inside Discord's limits; without a ``game`` the pages run through each game's board in
turn. The caller's own line follows the page when they rank elsewhere.

The buttons (⏮ ◀ ▶ ⏭) are ``StandingsPageButton``s, ``glory:st:<page>:<game>:<ai>:<button>``
(``game`` is a registry key or ``-`` for all games, ``ai`` is ``0`` or ``1``). Anyone reading
the public leaderboard may turn its pages: the click edits the message in place. Every part
is checked strictly; a custom_id that does not parse is answered as a damaged control.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord import ui

from bot.i18n import t
from bot.interactions.answers import Answer
from bot.interactions.components import Control, DamagedControl, number
from bot.interactions.replies import guarded
from bot.messages.controls import SentControls
from bot.messages.paging import step_buttons
from bot.ratings.queries import BoardEntry, GameRating, leaderboard, rated_games
from bot.render import presenter_for
from bot.render.limits import EMBED_DESCRIPTION, EMBED_TITLE, FIELD_VALUE, clip, first_lines
from games import REGISTRY

if TYPE_CHECKING:
    from bot.messages.languages import Languages
    from bot.storage.repository import Store


class BoardClient(Protocol):
    """What a ``/standings`` page finds on the client its click arrives on."""

    store: Store
    languages: Languages


PER_PAGE = 10
MAX_PAGE = 999_999
ALL_GAMES = "-"
SPARKS = "▁▂▃▄▅▆▇█"


def decimal(value: float, locale: str) -> str:
    """One decimal, with the reader's decimal sign (a comma in German and Russian)."""
    text = f"{value:.1f}".replace("-", "−")
    if text in ("−0.0",):
        text = "0.0"
    return text.replace(".", ",") if locale in ("de", "ru") else text


def player_label(entry: BoardEntry, locale: str) -> str:
    if entry.is_ai:
        return t("ratings.ai_player", locale, level=t(f"ai.level.{entry.ai_level}", locale))
    return f"<@{entry.user_id}>"


def rating_line(rank: int, entry: BoardEntry, locale: str) -> str:
    return t(
        "ratings.line",
        locale,
        rank=rank,
        user=player_label(entry, locale),
        rating=decimal(entry.rating, locale),
        count=entry.games,
        wins=t("standings.wins", locale, count=entry.wins),
    )


@dataclass(frozen=True)
class BoardPage:
    game_key: str
    first_rank: int
    entries: list[BoardEntry]
    board: list[BoardEntry]


def board_pages(boards: Sequence[tuple[str, list[BoardEntry]]]) -> list[BoardPage]:
    """Each board in pages of ``PER_PAGE``, one board after the other."""
    pages: list[BoardPage] = []
    for game_key, board in boards:
        for start in range(0, len(board), PER_PAGE):
            pages.append(BoardPage(game_key, start + 1, board[start : start + PER_PAGE], board))
    return pages


def standings_message(
    pages: Sequence[BoardPage],
    page: int,
    user_id: int,
    locale: str,
    *,
    game: str | None,
    with_ai: bool,
) -> dict[str, Any]:
    """Page ``page`` (from 1, clamped) of the leaderboard, with buttons when there are pages."""
    count = max(len(pages), 1)
    page = min(max(page, 1), count)
    shown_game = pages[page - 1].game_key if pages else game
    scope = (
        presenter_for(shown_game).game_name(locale)
        if shown_game
        else t("standings.all_games", locale)
    )
    if with_ai:
        scope = t("standings.with_ai", locale, scope=scope)
    embed = discord.Embed(title=clip(t("standings.title", locale, scope=scope), EMBED_TITLE))
    if not pages:
        embed.description = t("ratings.empty", locale)
        return {"embed": embed, "view": None}
    shown = pages[page - 1]
    lines = [
        rating_line(rank, entry, locale)
        for rank, entry in enumerate(shown.entries, shown.first_rank)
    ]
    mine = next(
        (
            rank
            for rank, entry in enumerate(shown.board, 1)
            if entry.user_id == user_id and not entry.is_ai
        ),
        None,
    )
    if mine is not None and not shown.first_rank <= mine < shown.first_rank + len(shown.entries):
        lines += [t("standings.gap", locale), rating_line(mine, shown.board[mine - 1], locale)]
    embed.description = first_lines(lines, EMBED_DESCRIPTION)
    footer = t("ratings.footer", locale)
    if count > 1:
        footer += "\n" + t("ratings.page", locale, page=page, pages=count)
    embed.set_footer(text=footer)
    if count == 1:
        return {"embed": embed, "view": None}
    return {"embed": embed, "view": page_buttons(page, count, game, with_ai)}


def page_buttons(page: int, count: int, game: str | None, with_ai: bool) -> SentControls:
    return step_buttons(
        page,
        count,
        lambda target, button, emoji, disabled: StandingsPageButton(
            target, game or ALL_GAMES, with_ai, button, emoji=emoji, disabled=disabled
        ),
    )


async def load_pages(
    bot: BoardClient, guild_id: int, game: str | None, *, with_ai: bool
) -> list[BoardPage]:
    keys = [game] if game else await rated_games(bot.store, guild_id)
    boards = [(key, await leaderboard(bot.store, guild_id, key, with_ai=with_ai)) for key in keys]
    return board_pages([(key, board) for key, board in boards if board])


STANDINGS_ID = re.compile(
    r"glory:st:(?P<page>[1-9][0-9]{0,5}):(?P<game>[a-z_]{1,40}|-):(?P<ai>[01])"
    r":(?P<button>first|previous|next|last)"
)


class StandingsPageButton(Control, ui.DynamicItem[ui.Button], template=r"glory:st:(?P<rest>.*)"):
    """Another page of ``/standings`` in the same message (see the module's docstring)."""

    def __init__(
        self,
        page: int,
        game: str,
        with_ai: bool,
        button: str = "next",
        *,
        emoji: str | None = None,
        disabled: bool = False,
    ) -> None:
        self.page, self.game, self.with_ai = page, game, with_ai
        super().__init__(
            ui.Button(
                emoji=emoji,
                style=discord.ButtonStyle.secondary,
                custom_id=f"glory:st:{page}:{game}:{int(with_ai)}:{button}",
                disabled=disabled,
                row=0,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Button, match: re.Match[str], /
    ) -> StandingsPageButton | DamagedControl:
        parsed = STANDINGS_ID.fullmatch(item.custom_id or "")
        if parsed is None:
            return DamagedControl(item)
        game = parsed["game"]
        if game != ALL_GAMES and game not in REGISTRY:
            return DamagedControl(item)
        page = number(parsed["page"], MAX_PAGE)
        assert page is not None
        return cls(page, game, parsed["ai"] == "1", parsed["button"])

    async def act(self, interaction: discord.Interaction) -> None:
        bot: BoardClient = interaction.client  # type: ignore[assignment]
        async with guarded(interaction, None):
            guild_id = interaction.guild_id or 0
            locale = await bot.languages.public(interaction)
            game = None if self.game == ALL_GAMES else self.game
            pages = await load_pages(bot, guild_id, game, with_ai=self.with_ai)
            content = standings_message(
                pages, self.page, interaction.user.id, locale, game=game, with_ai=self.with_ai
            )
            await Answer.of(interaction).update(**content)


# ---------------------------------------------------------------------- /profile


def sparkline(values: Sequence[float]) -> str:
    """A tiny chart of ``values`` in block characters (higher is taller)."""
    if not values:
        return ""
    low, high = min(values), max(values)
    span = high - low
    if span == 0:
        return SPARKS[len(SPARKS) // 2] * len(values)
    return "".join(SPARKS[round((v - low) / span * (len(SPARKS) - 1))] for v in values)


def profile_embed(
    name: str, ratings: Sequence[GameRating], recent: Sequence[str], locale: str
) -> discord.Embed:
    embed = discord.Embed(title=clip(t("profile.title", locale, name=name), EMBED_TITLE))
    if not ratings:
        embed.description = t("profile.no_ratings", locale)
    for rating in ratings:
        entry = rating.entry
        lines = [
            t(
                "profile.game",
                locale,
                rating=decimal(entry.rating, locale),
                mu=decimal(entry.mu, locale),
                sigma=decimal(entry.sigma, locale),
                rank=rating.rank,
                players=rating.players,
                count=entry.games,
                wins=t("standings.wins", locale, count=entry.wins),
            )
        ]
        if len(rating.trend) > 1:
            chart = sparkline(rating.trend)
            lines.append(t("profile.trend", locale, count=len(rating.trend), chart=chart))
        embed.add_field(
            name=presenter_for(rating.game_key).game_name(locale),
            value=first_lines(lines, FIELD_VALUE),
            inline=False,
        )
    if recent:
        embed.add_field(
            name=t("profile.recent", locale), value=first_lines(recent, FIELD_VALUE), inline=False
        )
    embed.set_footer(text=t("ratings.footer", locale))
    return embed


RATING_ITEMS = (StandingsPageButton,)
