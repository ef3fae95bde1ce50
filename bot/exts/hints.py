"""``/hint``: privately, the move the strong AI would make now (the flow is
``bot/flows/hints.py``)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import GloryBot
from bot.i18n.commands import text


class Hints(commands.Cog):
    def __init__(self, bot: GloryBot) -> None:
        self.bot = bot

    @app_commands.command(name=text("cmd.hint.name"), description=text("cmd.hint.description"))
    @app_commands.guild_only()
    async def hint(self, interaction: discord.Interaction) -> None:
        await self.bot.hints.on_command(interaction)


async def setup(bot: GloryBot) -> None:
    await bot.add_cog(Hints(bot))
