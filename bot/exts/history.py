"""``/history [game] [user]``, ``/profile [user]`` and ``/replay game``: looking back at a
server's ended games (``bot/messages/history.py``, ``bot/ratings``, ``bot/replays``). Each answers
privately, in the reader's language."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import GloryBot
from bot.exts._choices import GAME_CHOICES
from bot.i18n import t
from bot.i18n.commands import text
from bot.interactions.answers import Answer
from bot.interactions.replies import guarded
from bot.messages.history import EVERYONE, ended_games, history_line, show_history
from bot.messages.languages import user_locale
from bot.pictures.attach import TREND_FILE, attach
from bot.pictures.scene import TrendScene
from bot.ratings.board import profile_embed
from bot.ratings.queries import GameRating, profile
from bot.render import presenter_for
from bot.render.common import safe_names
from bot.replays.view import show_replay

RECENT_GAMES = 5
MAX_GAME_ID = 2**53 - 1
"""Discord bounds an integer option by ±(2**53 − 1) (a JavaScript number); a larger ``max_value``
makes Discord refuse the whole command sync (50035), so no command would register."""


class History(commands.Cog):
    def __init__(self, bot: GloryBot) -> None:
        self.bot = bot

    @app_commands.command(
        name=text("cmd.history.name"), description=text("cmd.history.description")
    )
    @app_commands.describe(game=text("cmd.history.game"), user=text("cmd.history.user"))
    @app_commands.rename(game=text("cmd.history.game.name"), user=text("cmd.history.user.name"))
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def history(
        self,
        interaction: discord.Interaction,
        game: str | None = None,
        user: discord.User | None = None,
    ) -> None:
        async with guarded(interaction, None):
            await show_history(
                self.bot,
                interaction,
                page=1,
                game=game,
                user=user.id if user else EVERYONE,
                user_name=safe_names([user.display_name])[0] if user else None,
                update=False,
            )

    @app_commands.command(
        name=text("cmd.profile.name"), description=text("cmd.profile.description")
    )
    @app_commands.describe(user=text("cmd.profile.user"))
    @app_commands.rename(user=text("cmd.profile.user.name"))
    @app_commands.guild_only()
    async def profile(
        self, interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        async with guarded(interaction, None):
            who = user or interaction.user
            guild_id = interaction.guild_id or 0
            locale = user_locale(interaction)
            ratings = await profile(self.bot.store, guild_id, who.id)
            games, _ = await ended_games(self.bot.store, guild_id, None, who.id, 1)
            recent = [history_line(game, locale) for game in games[:RECENT_GAMES]]
            name = safe_names([who.display_name])[0]
            embed = profile_embed(name, ratings, recent, locale)
            content = await self._with_trend({"embed": embed}, guild_id, who, ratings, locale)
            await Answer.of(interaction).send(**content)

    async def _with_trend(
        self,
        content: dict[str, Any],
        guild_id: int,
        who: discord.abc.User,
        ratings: Sequence[GameRating],
        locale: str,
    ) -> dict[str, Any]:
        """The profile with its rating trend drawn (``bot/pictures``), where the server shows
        pictures and a game has two rated games or more; else as it is (the text has it)."""
        series = [
            (presenter_for(rating.game_key).game_name(locale), tuple(rating.trend))
            for rating in ratings
            if len(rating.trend) > 1
        ]
        pictures = self.bot.publisher.pictures
        if not series or not pictures.enabled or not await pictures.shown_in(guild_id):
            return content
        scene = TrendScene(series, locale, t("pictures.trend.title", locale))
        png = await pictures.trend_png(scene, (guild_id, who.id, locale, tuple(series)))
        if png is None:
            return content
        alt = t("pictures.alt.trend", locale, name=who.display_name)
        return attach(content, png, TREND_FILE, alt)

    @app_commands.command(name=text("cmd.replay.name"), description=text("cmd.replay.description"))
    @app_commands.describe(game=text("cmd.replay.game"))
    @app_commands.rename(game=text("cmd.replay.game.name"))
    @app_commands.guild_only()
    async def replay(
        self,
        interaction: discord.Interaction,
        game: app_commands.Range[int, 1, MAX_GAME_ID],
    ) -> None:
        await show_replay(self.bot.replays, interaction, game)


async def setup(bot: GloryBot) -> None:
    await bot.add_cog(History(bot))
