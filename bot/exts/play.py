"""``/play``: open a lobby for a game in this channel."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import PUBLIC_ANSWER, GloryBot
from bot.exts._choices import GAME_CHOICES
from bot.i18n.commands import text


class Play(commands.Cog):
    def __init__(self, bot: GloryBot) -> None:
        self.bot = bot

    @app_commands.command(
        name=text("cmd.play.name"),
        description=text("cmd.play.description"),
        extras={PUBLIC_ANSWER: True},  # the lobby is the answer
    )
    @app_commands.describe(game=text("cmd.play.game"), options=text("cmd.play.options"))
    @app_commands.rename(game=text("cmd.play.game.name"), options=text("cmd.play.options.name"))
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def play(
        self, interaction: discord.Interaction, game: str, options: str | None = None
    ) -> None:
        await self.bot.lobby.create(interaction, game, options)


async def setup(bot: GloryBot) -> None:
    await bot.add_cog(Play(bot))
