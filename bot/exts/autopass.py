"""``/autopass mode:on|off``: whether the bot makes a player's forced moves for them.

Why per user and a command of its own: it is the player's choice for all their games (a
forced pass in Kami tells nothing about the next hand), and a player who turned it on with the
button on a hand whose only move is a pass needs a place to turn it off
(``bot/flows/forced_moves.py``).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import GloryBot
from bot.exts.settings import HINT_CHOICES
from bot.i18n.commands import text
from bot.interactions.replies import guarded, reply


class AutoPass(commands.Cog):
    def __init__(self, bot: GloryBot) -> None:
        self.bot = bot

    @app_commands.command(
        name=text("cmd.autopass.name"), description=text("cmd.autopass.description")
    )
    @app_commands.describe(mode=text("cmd.autopass.mode"))
    @app_commands.rename(mode=text("cmd.autopass.mode.name"))
    @app_commands.choices(mode=HINT_CHOICES)
    async def autopass(self, interaction: discord.Interaction, mode: str) -> None:
        async with guarded(interaction, None):
            on = mode == "on"
            await self.bot.store.set_auto_pass(interaction.user.id, on)
            await reply(interaction, "flow.autopass.on" if on else "flow.autopass.off")


async def setup(bot: GloryBot) -> None:
    await bot.add_cog(AutoPass(bot))
