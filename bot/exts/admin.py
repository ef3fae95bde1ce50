"""``/sync``: the application owner uploads the slash commands on demand.

Why not on every start: Discord allows 200 command creations per day per guild, and a global
sync takes effect slowly; syncing is a deliberate act (this command or ``--sync``).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.answers import Answer
from bot.app import GloryBot
from bot.i18n.commands import text
from bot.replies import reply


class Admin(commands.Cog):
    def __init__(self, bot: GloryBot) -> None:
        self.bot = bot

    @app_commands.command(name=text("cmd.sync.name"), description=text("cmd.sync.description"))
    @app_commands.default_permissions(administrator=True)
    async def sync(self, interaction: discord.Interaction) -> None:
        if not await self.bot.is_owner(interaction.user):
            await reply(interaction, "sync.owner_only")
            return
        await Answer.of(interaction).defer()  # uploading takes longer than Discord waits
        names = await self.bot.sync_commands()
        await reply(interaction, "sync.done", count=len(names))


async def setup(bot: GloryBot) -> None:
    await bot.add_cog(Admin(bot))
