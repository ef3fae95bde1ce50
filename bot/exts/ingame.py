"""Commands about this channel's game: /hand, /table, /scores, /leave, /cancel."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import GloryBot
from bot.i18n import t
from bot.i18n.commands import text
from bot.languages import user_locale
from bot.lobby import can_manage
from bot.render import presenter_for
from bot.render.common import round_lines, safe_names, score_line
from bot.replies import guarded, reply
from bot.session import LoadedGame, complete
from bot.storage.models import GameStatus


class InGame(commands.Cog):
    def __init__(self, bot: GloryBot) -> None:
        self.bot = bot

    async def _open_game(self, interaction: discord.Interaction) -> LoadedGame | None:
        row = await self.bot.store.open_game_in_channel(interaction.channel_id or 0)
        if row is None:
            await reply(interaction, "game.none_here")
            return None
        return await complete(self.bot.store, self.bot.registry, row)

    @app_commands.command(name=text("cmd.hand.name"), description=text("cmd.hand.description"))
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction) -> None:
        async with guarded(interaction, None):
            loaded = await self._open_game(interaction)
            if loaded is None:
                return
            await self.bot.moves.show_hand(interaction, loaded.id)

    @app_commands.command(name=text("cmd.table.name"), description=text("cmd.table.description"))
    @app_commands.guild_only()
    async def table(self, interaction: discord.Interaction) -> None:
        async with guarded(interaction, None):
            loaded = await self._open_game(interaction)
            if loaded is None:
                return
            if loaded.status is not GameStatus.ACTIVE:
                await reply(interaction, "game.not_started")
                return
            await reply(interaction, "table.reposted")
            await self.bot.publisher.post_table(loaded)

    @app_commands.command(name=text("cmd.scores.name"), description=text("cmd.scores.description"))
    @app_commands.guild_only()
    async def scores(self, interaction: discord.Interaction) -> None:
        async with guarded(interaction, None):
            row = await self.bot.store.latest_game_in_channel(interaction.channel_id or 0)
            if row is None or row.state is None:
                await reply(interaction, "game.none_here")
                return
            loaded = await complete(self.bot.store, self.bot.registry, row)
            assert loaded.state is not None
            locale = user_locale(interaction)
            view = loaded.view(None)
            names = safe_names(loaded.names)
            presenter = presenter_for(row.game_key)
            embed = discord.Embed(
                title=t("scores.title", locale, game=presenter.game_name(locale), id=loaded.id)
            )
            rounds = round_lines(view, names, locale)
            embed.add_field(
                name=t("scores.by_round", locale),
                value="\n".join(rounds) or t("scores.no_rounds", locale),
                inline=False,
            )
            embed.add_field(
                name=t("scores.total", locale), value=score_line(view, names, locale), inline=False
            )
            await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name=text("cmd.leave.name"), description=text("cmd.leave.description"))
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction) -> None:
        async with guarded(interaction, None):
            loaded = await self._open_game(interaction)
            if loaded is None:
                return
            if loaded.seat_of(interaction.user.id) is None:
                await reply(interaction, "hand.not_a_player")
                return
            if loaded.status is GameStatus.LOBBY:
                await reply(interaction, "leave.use_lobby_button")
                return
            await self.bot.moves.end_game(interaction, loaded, GameStatus.ABANDONED)

    @app_commands.command(name=text("cmd.cancel.name"), description=text("cmd.cancel.description"))
    @app_commands.guild_only()
    async def cancel(self, interaction: discord.Interaction) -> None:
        async with guarded(interaction, None):
            loaded = await self._open_game(interaction)
            if loaded is None:
                return
            if interaction.user.id != loaded.row.host_id and not can_manage(interaction):
                await reply(interaction, "cancel.not_allowed")
                return
            await self.bot.moves.end_game(interaction, loaded, GameStatus.CANCELLED)


async def setup(bot: GloryBot) -> None:
    await bot.add_cog(InGame(bot))
