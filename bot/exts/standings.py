"""``/standings [game] [with_ai]``: this server's leaderboard by skill rating (``bot/ratings``),
in pages: one game's board, or every game's in turn; ``with_ai`` lists the AI levels too,
which anchor the ratings."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import PUBLIC_ANSWER, GloryBot
from bot.exts._choices import GAME_CHOICES
from bot.i18n.commands import text
from bot.interactions.answers import Answer
from bot.interactions.replies import guarded
from bot.ratings.board import load_pages, standings_message


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
            pages = await load_pages(self.bot, interaction.guild_id, game, with_ai=with_ai)
            content = standings_message(
                pages, 1, interaction.user.id, locale, game=game, with_ai=with_ai
            )
            await Answer.of(interaction).send(
                ephemeral=False, allowed_mentions=discord.AllowedMentions.none(), **content
            )


async def setup(bot: GloryBot) -> None:
    await bot.add_cog(Standings(bot))
