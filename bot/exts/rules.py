"""``/rules``: a short summary of a game's rules, in our own words (ephemeral)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.answers import Answer
from bot.app import GloryBot
from bot.exts._choices import GAME_CHOICES
from bot.i18n.commands import text
from bot.languages import user_locale
from bot.render import presenter_for


def rules_embed(game_key: str, locale: str) -> discord.Embed:
    """The rules summary of ``game_key`` (a catalog text, well inside an embed's limits)."""
    presenter = presenter_for(game_key)
    return discord.Embed(title=presenter.game_name(locale), description=presenter.rules(locale))


class Rules(commands.Cog):
    def __init__(self, bot: GloryBot) -> None:
        self.bot = bot

    @app_commands.command(name=text("cmd.rules.name"), description=text("cmd.rules.description"))
    @app_commands.describe(game=text("cmd.rules.game"))
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        embed = rules_embed(game, user_locale(interaction))
        await Answer.of(interaction).send(embed=embed)


async def setup(bot: GloryBot) -> None:
    await bot.add_cog(Rules(bot))
