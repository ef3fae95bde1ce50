"""Commands about this channel's game: /hand, /table, /scores, /leave, /cancel."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import PUBLIC_ANSWER, GloryBot
from bot.flows.lobby import can_manage
from bot.flows.session import LoadedGame, complete
from bot.i18n.commands import text
from bot.interactions.replies import guarded, reply
from bot.messages.scores import send_scores
from bot.outbox.entries import REPOST, Publication
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
            entry = await self.bot.store.publish(loaded.id, Publication(REPOST))
            await reply(interaction, "table.reposted")
            self.bot.outbox.deliver([entry])

    @app_commands.command(name=text("cmd.scores.name"), description=text("cmd.scores.description"))
    @app_commands.guild_only()
    async def scores(self, interaction: discord.Interaction) -> None:
        async with guarded(interaction, None):
            row = await self.bot.store.latest_game_in_channel(interaction.channel_id or 0)
            if row is None or row.state is None:
                await reply(interaction, "game.none_here")
                return
            await send_scores(interaction, await complete(self.bot.store, self.bot.registry, row))

    @app_commands.command(
        name=text("cmd.leave.name"),
        description=text("cmd.leave.description"),
        extras={PUBLIC_ANSWER: True},  # the channel is told
    )
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
            # The AI takes the seat while others play on (bot/flows/seat_handover.py).
            await self.bot.handover.leave(interaction, loaded)

    @app_commands.command(
        name=text("cmd.cancel.name"),
        description=text("cmd.cancel.description"),
        extras={PUBLIC_ANSWER: True},  # the channel is told
    )
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
