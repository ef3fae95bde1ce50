"""``/standings [game]``: this server's leaderboard, top 10 plus the caller's own rank."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import GloryBot
from bot.exts._choices import GAME_CHOICES
from bot.i18n import t
from bot.i18n.commands import text
from bot.render import presenter_for
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


class Standings(commands.Cog):
    def __init__(self, bot: GloryBot) -> None:
        self.bot = bot

    @app_commands.command(
        name=text("cmd.standings.name"), description=text("cmd.standings.description")
    )
    @app_commands.describe(game=text("cmd.standings.game"))
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def standings(self, interaction: discord.Interaction, game: str | None = None) -> None:
        async with guarded(interaction, None):
            locale = await self.bot.languages.public(interaction)
            assert interaction.guild_id is not None
            table = await self.bot.store.standings(interaction.guild_id, game)
            scope = (
                presenter_for(game).game_name(locale) if game else t("standings.all_games", locale)
            )
            lines = [standing_line(rank, s, locale) for rank, s in enumerate(table[:TOP], 1)]
            mine = next(
                (rank for rank, s in enumerate(table, 1) if s.user_id == interaction.user.id), None
            )
            if mine is not None and mine > TOP:
                lines += [t("standings.gap", locale), standing_line(mine, table[mine - 1], locale)]
            embed = discord.Embed(
                title=t("standings.title", locale, scope=scope),
                description="\n".join(lines) or t("standings.empty", locale),
            )
            await interaction.response.send_message(
                embed=embed, allowed_mentions=discord.AllowedMentions.none()
            )


async def setup(bot: GloryBot) -> None:
    await bot.add_cog(Standings(bot))
