"""``/standings [game] [with_ai]``: this server's leaderboard, top 10 plus the caller's own
rank; all-human games, or (``with_ai``) the humans' games with AI players, kept apart."""

from __future__ import annotations

from collections.abc import Sequence

import discord
from discord import app_commands
from discord.ext import commands

from bot.answers import Answer
from bot.app import PUBLIC_ANSWER, GloryBot
from bot.exts._choices import GAME_CHOICES
from bot.i18n import t
from bot.i18n.commands import text
from bot.render import presenter_for
from bot.render.limits import EMBED_DESCRIPTION, EMBED_TITLE, clip, first_lines
from bot.replies import guarded
from bot.storage.repository import Standing

TOP = 10


def standing_line(rank: int, standing: Standing, locale: str) -> str:
    return t(
        "standings.line",
        locale,
        rank=rank,
        user=f"<@{standing.user_id}>",
        count=standing.played,
        wins=t("standings.wins", locale, count=standing.wins),
        rate=round(standing.win_rate * 100),
        points=t("common.points", locale, count=standing.points),
    )


def standings_embed(
    table: Sequence[Standing], user_id: int, scope: str, locale: str
) -> discord.Embed:
    """The top ``TOP`` of ``table`` (best first), then the caller's own line if they rank below.

    However many players a server has, the message holds at most ``TOP`` + 2 lines, and they
    name players by mention (a fixed length), so it stays far inside Discord's limits; the
    description is sized all the same.
    """
    lines = [standing_line(rank, s, locale) for rank, s in enumerate(table[:TOP], 1)]
    mine = next((rank for rank, s in enumerate(table, 1) if s.user_id == user_id), None)
    if mine is not None and mine > TOP:
        lines += [t("standings.gap", locale), standing_line(mine, table[mine - 1], locale)]
    return discord.Embed(
        title=clip(t("standings.title", locale, scope=scope), EMBED_TITLE),
        description=first_lines(lines, EMBED_DESCRIPTION) or t("standings.empty", locale),
    )


class Standings(commands.Cog):
    def __init__(self, bot: GloryBot) -> None:
        self.bot = bot

    @app_commands.command(
        name=text("cmd.standings.name"),
        description=text("cmd.standings.description"),
        extras={PUBLIC_ANSWER: True},  # the leaderboard is posted in the channel
    )
    @app_commands.describe(game=text("cmd.standings.game"), with_ai=text("cmd.standings.with_ai"))
    @app_commands.rename(
        game=text("cmd.standings.game.name"), with_ai=text("cmd.standings.with_ai.name")
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def standings(
        self, interaction: discord.Interaction, game: str | None = None, with_ai: bool = False
    ) -> None:
        async with guarded(interaction, None):
            locale = await self.bot.languages.public(interaction)
            assert interaction.guild_id is not None
            table = await self.bot.store.standings(interaction.guild_id, game, with_ai=with_ai)
            scope = (
                presenter_for(game).game_name(locale) if game else t("standings.all_games", locale)
            )
            if with_ai:
                scope = t("standings.with_ai", locale, scope=scope)
            embed = standings_embed(table, interaction.user.id, scope, locale)
            await Answer.of(interaction).send(
                embed=embed, ephemeral=False, allowed_mentions=discord.AllowedMentions.none()
            )


async def setup(bot: GloryBot) -> None:
    await bot.add_cog(Standings(bot))
