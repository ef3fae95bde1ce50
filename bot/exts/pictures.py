"""``/pictures hand:on|off``: whether the user's own hands carry a picture.

Why per user: a hand is private, and a player with a screen reader or a slow connection may
want text only while the rest of the server enjoys pictures (``/settings images`` decides for
the whole server, and a server without pictures shows none to anyone).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import GloryBot
from bot.exts.settings import HINT_CHOICES
from bot.i18n.commands import text
from bot.interactions.replies import guarded, reply


class Pictures(commands.Cog):
    def __init__(self, bot: GloryBot) -> None:
        self.bot = bot

    @app_commands.command(
        name=text("cmd.pictures.name"), description=text("cmd.pictures.description")
    )
    @app_commands.describe(hand=text("cmd.pictures.hand"))
    @app_commands.rename(hand=text("cmd.pictures.hand.name"))
    @app_commands.choices(hand=HINT_CHOICES)
    async def pictures(self, interaction: discord.Interaction, hand: str) -> None:
        async with guarded(interaction, None):
            on = hand == "on"
            await self.bot.store.set_hand_images(interaction.user.id, on)
            await reply(interaction, "pictures.hand.on" if on else "pictures.hand.off")


async def setup(bot: GloryBot) -> None:
    await bot.add_cog(Pictures(bot))
