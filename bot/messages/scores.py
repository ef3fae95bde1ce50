"""``/scores`` in pages: every finished round, within Discord's limits, however long the game.

Why pages: one embed field holds 1,024 characters, and a long Kami game with long names needs
many times that. Each page shows up to ``ROUNDS_PER_PAGE`` rounds (fewer when the lines are
long), always with the totals below them, and "Page i of n" in the footer. A game whose rounds
fit on one page gets no buttons at all.

The buttons (⏮ ◀ ▶ ⏭) are ``DynamicItem``s whose custom_id names the game and the page they
lead to, so they work after a restart with nothing kept in memory; a click edits the ephemeral
message in place:

- ``glory:sc:<game>:<page>:<button>`` — ``page`` counts from 1; ``button`` (``first``,
  ``previous``, ``next``, ``last``) keeps the custom_ids of one message distinct when two
  buttons lead to the same page.

Pages are filled from the first round on, so a page keeps its rounds when later rounds are
added. A forged custom_id whose page is no page number gets a short ephemeral answer and
changes nothing; a page past the end shows the last page.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord import ui

from bot.flows.hints import hints_used_lines
from bot.flows.session import LoadedGame, load_game
from bot.i18n import t
from bot.interactions.answers import Answer
from bot.interactions.components import Control
from bot.interactions.replies import guarded, reply
from bot.messages.controls import SentControls
from bot.messages.languages import user_locale
from bot.messages.paging import step_buttons
from bot.render import presenter_for
from bot.render.base import JSON, Presenter
from bot.render.common import safe_names
from bot.render.limits import EMBED_TITLE, FIELD_VALUE, clip, first_lines

if TYPE_CHECKING:
    from bot.messages.publisher import Publisher
    from bot.storage.repository import Store
    from games import Game


class ScoresClient(Protocol):
    """What a ``/scores`` page finds on the client its click arrives on."""

    store: Store
    registry: Mapping[str, Game]
    publisher: Publisher


ROUNDS_PER_PAGE = 10
"""At most this many rounds on a page: a screen's worth on a phone."""
PAGE_NUMBER = re.compile(r"[1-9][0-9]{0,5}")
"""A page in a custom_id: ASCII digits only (``int`` would also read "٣", and "²" passes
``str.isdigit``), at most six of them; anything else is a forged or broken id."""
GAME_NUMBER = re.compile(r"[1-9][0-9]{0,18}")


def round_lines(presenter: Presenter, view: JSON, names: Sequence[str], locale: str) -> list[str]:
    """One line per finished round, naming each side's points (the presenter picks the sides)."""
    sides = presenter.score_sides(view, names)
    lines = []
    for number, points in enumerate(view["round_scores"], start=1):
        scores = ", ".join(
            t("scores.entry", locale, name=label, count=value)
            for label, value in presenter.round_entries(points, sides)
        )
        lines.append(t("scores.round", locale, number=number, scores=scores))
    return lines


def total_lines(presenter: Presenter, view: JSON, names: Sequence[str], locale: str) -> list[str]:
    """Each side's total ("Ann & Cem: 12 points" in a Kami team game)."""
    return [
        t("table.score", locale, name=label, count=view["scores"][seat])
        for label, seat in presenter.score_sides(view, names)
    ]


def paginate(lines: Sequence[str], limit: int, per_page: int) -> list[list[str]]:
    """``lines`` in pages of at most ``per_page`` lines and ``limit`` characters (joined by
    line breaks), filled in order; a line longer than ``limit`` is clipped, never dropped."""
    pages: list[list[str]] = []
    page: list[str] = []
    used = 0
    for line in lines:
        line = clip(line, limit)
        extra = len(line) + (1 if page else 0)
        if page and (len(page) == per_page or used + extra > limit):
            pages.append(page)
            page, used, extra = [], 0, len(line)
        page.append(line)
        used += extra
    if page:
        pages.append(page)
    return pages


def scores_message(loaded: LoadedGame, locale: str, page: int = 1) -> dict[str, Any]:
    """The ``/scores`` message at ``page`` (counted from 1; clamped to the pages there are):
    ``embed`` and ``view`` (``None`` when every round fits on one page). Once a player used a
    hint, every page also says how many hints each player used."""
    presenter = presenter_for(loaded.row.game_key)
    view = loaded.view(None)
    names = safe_names(loaded.names)
    pages = paginate(round_lines(presenter, view, names, locale), FIELD_VALUE, ROUNDS_PER_PAGE)
    count = max(len(pages), 1)
    page = min(max(page, 1), count)
    title = t("scores.title", locale, game=presenter.game_name(locale), id=loaded.id)
    embed = discord.Embed(title=clip(title, EMBED_TITLE))
    if presenter.has_rounds:  # a game without rounds (Clans and Glory) has its totals only
        rounds = "\n".join(pages[page - 1]) if pages else t("scores.no_rounds", locale)
        embed.add_field(name=t("scores.by_round", locale), value=rounds, inline=False)
    embed.add_field(
        name=t("scores.total", locale),
        value=first_lines(total_lines(presenter, view, names, locale), FIELD_VALUE),
        inline=False,
    )
    hints = hints_used_lines(loaded, names, locale)
    if hints:
        embed.add_field(
            name=t("scores.hints", locale), value=first_lines(hints, FIELD_VALUE), inline=False
        )
    if count == 1:
        return {"embed": embed, "view": None}
    embed.set_footer(text=t("scores.page", locale, page=page, pages=count))
    return {"embed": embed, "view": page_buttons(loaded.id, page, count)}


def page_buttons(game_id: int, page: int, count: int) -> SentControls:
    """⏮ ◀ ▶ ⏭ for ``page`` of ``count``; those leading nowhere are greyed out."""
    return step_buttons(
        page,
        count,
        lambda target, button, emoji, disabled: ScorePageButton(
            game_id, target, button, emoji=emoji, disabled=disabled
        ),
    )


class ScorePageButton(
    Control,
    ui.DynamicItem[ui.Button],
    template=r"glory:sc:(?P<game>[^:]*):(?P<page>[^:]*)(?::(?P<button>.*))?",
):
    """Shows another page of ``/scores`` in the same ephemeral message.

    The template takes any text where the game and page go, so that a forged or broken id is
    answered (see ``show_page``) instead of leaving the click unanswered.
    """

    def __init__(
        self,
        game: int | str,
        page: int | str,
        button: str = "next",
        *,
        emoji: str | None = None,
        disabled: bool = False,
    ) -> None:
        self.game = str(game)
        self.page = str(page)
        super().__init__(
            ui.Button(
                emoji=emoji,
                style=discord.ButtonStyle.secondary,
                custom_id=f"glory:sc:{game}:{page}:{button}",
                disabled=disabled,
                row=0,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Button, match: re.Match[str], /
    ) -> ScorePageButton:
        return cls(match["game"], match["page"], match["button"] or "next")

    async def act(self, interaction: discord.Interaction) -> None:
        bot: ScoresClient = interaction.client  # type: ignore[assignment]
        await show_page(bot, interaction, self.game, self.page)


async def show_page(
    bot: ScoresClient, interaction: discord.Interaction, game_text: str, page_text: str
) -> None:
    """Edit the clicked ``/scores`` message to the page ``page_text`` of game ``game_text``.

    Both come from a custom_id, which a tampered client can forge: each is checked before use
    and a bad one is answered ephemerally, leaving the message as it was.
    """
    if not GAME_NUMBER.fullmatch(game_text):
        await reply(interaction, "error.unknown_control")
        return
    game_id = int(game_text)
    async with guarded(interaction, game_id):
        if not PAGE_NUMBER.fullmatch(page_text):
            await reply(interaction, "scores.bad_page")
            return
        loaded = await load_game(bot.store, bot.registry, game_id)
        if loaded is None or loaded.state is None:
            await reply(interaction, "error.game_gone")
            return
        if loaded.row.channel_id != interaction.channel_id:
            await reply(interaction, "error.unknown_control")  # not this channel's game
            return
        locale = user_locale(interaction)
        content = scores_message(loaded, locale, int(page_text))
        # The chart stays with every page (drawn once; an edit names the attachments it keeps).
        content = await bot.publisher.pictures.with_chart(content, loaded, locale)
        await Answer.of(interaction).update(**content)


async def send_scores(interaction: discord.Interaction, loaded: LoadedGame) -> None:
    """Answer ``/scores`` with the first page, in the reader's language (only they see it)."""
    bot: ScoresClient = interaction.client  # type: ignore[assignment]
    locale = user_locale(interaction)
    content = scores_message(loaded, locale)
    content = await bot.publisher.pictures.with_chart(content, loaded, locale)
    await Answer.of(interaction).send(**content)


SCORE_ITEMS = (ScorePageButton,)
"""The dynamic items of this module, registered in the bot's ``setup_hook``."""
