"""``/about`` for everyone and ``/health`` for a server's managers (texts:
``bot/process/about.py``).

Both answer privately: ``/about`` because it is one person's question, ``/health`` because it
names numbers (servers, backlog) a server's members need not see in the channel.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import GloryBot
from bot.flows.lobby import can_manage
from bot.i18n.commands import text
from bot.interactions.answers import Answer
from bot.interactions.replies import guarded, reply
from bot.messages.languages import user_locale
from bot.process.about import about_text, health_report


class About(commands.Cog):
    def __init__(self, bot: GloryBot) -> None:
        self.bot = bot

    @app_commands.command(name=text("cmd.about.name"), description=text("cmd.about.description"))
    async def about(self, interaction: discord.Interaction) -> None:
        async with guarded(interaction, None):
            locale = user_locale(interaction)
            manager = interaction.guild_id is not None and can_manage(interaction)
            await Answer.of(interaction).send(about_text(self.bot, locale, manager=manager))

    @app_commands.command(
        name=text("cmd.health.name"), description=text("cmd.health.description")
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def health(self, interaction: discord.Interaction) -> None:
        async with guarded(interaction, None):
            # default_permissions only hides the command; Discord lets server owners re-grant it.
            if interaction.guild_id is None or not can_manage(interaction):
                await reply(interaction, "health.manage_only")
                return
            count = self.bot.shard_count
            # Discord's rule for which shard receives a server's events.
            shard_id = (interaction.guild_id >> 22) % count if count else None
            report = await health_report(self.bot, user_locale(interaction), shard_id)
            await Answer.of(interaction).send(report)


async def setup(bot: GloryBot) -> None:
    await bot.add_cog(About(bot))
