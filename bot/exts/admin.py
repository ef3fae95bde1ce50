"""``/sync``: the application owner registers the slash commands again, now.

The bot registers them by itself at start-up when they changed
(``bot/interactions/command_sync.py``); this command (like ``glory sync``) is for a registration
someone removed by hand in the developer portal, which the bot's record cannot know about.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import GloryBot
from bot.i18n.commands import text
from bot.interactions.answers import Answer
from bot.interactions.replies import reply


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
        registration = await self.bot.sync_commands()
        if registration.error:
            await reply(interaction, "sync.failed", reason=registration.error)
            return
        await reply(interaction, "sync.done", count=registration.count)


async def setup(bot: GloryBot) -> None:
    await bot.add_cog(Admin(bot))
