"""``/rules``: a short paged guide to a game, in our own words (ephemeral;
``bot/messages/guide.py``)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import GloryBot
from bot.exts._choices import GAME_CHOICES
from bot.i18n.commands import text
from bot.interactions.replies import guarded, reply
from bot.messages.guide import GUIDE_ITEMS, PAGES, send_guide


class Rules(commands.Cog):
    def __init__(self, bot: GloryBot) -> None:
        self.bot = bot

    @app_commands.command(name=text("cmd.rules.name"), description=text("cmd.rules.description"))
    @app_commands.describe(game=text("cmd.rules.game"))
    @app_commands.rename(game=text("cmd.rules.game.name"))
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        async with guarded(interaction, None):
            if game not in PAGES:
                await reply(interaction, "play.unknown_game")
                return
            await send_guide(interaction, game)


async def setup(bot: GloryBot) -> None:
    # The guide's page buttons route by custom_id, also on messages older than this process.
    bot.add_dynamic_items(*GUIDE_ITEMS)
    await bot.add_cog(Rules(bot))
