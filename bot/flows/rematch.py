"""Rematch: one click on a game-over message brings the same table back.

The first Rematch click opens a lobby in the game's channel with the same game, options and
turn time, and the same seats in the same order (AI seats kept; ``bot/storage/rematch.py``).
Its clicker hosts it (and is seated: at their old seat, or a free one if they were not at the
table). Every other player of the last game confirms their kept seat with one click (Rematch
again, or the lobby's Join); a double click confirms once. Someone who was not at the table
takes a free seat if there is one, and is told why not otherwise. The host starts when they
like: seats still unconfirmed then are given up. A rematch lobby expires like any lobby.

A click changes the lobby under the lobby's lock, in one transaction with the outbox entry that
shows the lobby again (the click itself was on the game-over message).
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

import discord

from bot.flows.session import LoadedGame, load_game
from bot.interactions.replies import guarded, reply
from bot.messages.languages import user_locale
from bot.outbox.entries import LOBBY, Publication
from bot.storage.models import GameStatus, utcnow
from bot.storage.rematch import Taken
from bot.storage.repository import ChannelBusy, StorageConflict

if TYPE_CHECKING:
    from collections.abc import Mapping

    from bot.flows.game_locks import GameLocks
    from bot.flows.lobby import LobbyFlow
    from bot.outbox.dispatch import Outbox
    from bot.process.config import Settings
    from bot.replays.source import Replays
    from bot.storage.repository import Store
    from games import Game

ANSWERS = {
    Taken.CONFIRMED: "flow.rematch.confirmed",
    Taken.JOINED: "flow.rematch.joined",
    Taken.ALREADY: "flow.rematch.already",
    Taken.FULL: "flow.rematch.full",
}


class RematchFlow:
    def __init__(
        self,
        *,
        store: Store,
        registry: Mapping[str, Game],
        settings: Settings,
        outbox: Outbox,
        locks: GameLocks,
        lobby: LobbyFlow,
        replays: Replays,
    ) -> None:
        self.store = store
        self.registry = registry
        self.settings = settings
        self.outbox = outbox
        self.locks = locks
        self.lobby = lobby
        self.replays = replays

    async def on_over_button(
        self, interaction: discord.Interaction, button: str, game_id: int
    ) -> None:
        """A button of a game-over message: Rematch, Replay (the ended game move by move) or
        Scores (its scores by round), the latter two privately, as their commands answer."""
        from bot.messages.game_over import REMATCH, REPLAY
        from bot.messages.scores import send_scores
        from bot.replays.view import show_replay

        if button == REMATCH:
            await self.on_click(interaction, game_id)
        elif button == REPLAY:
            await show_replay(self.replays, interaction, game_id)
        else:
            async with guarded(interaction, game_id):
                loaded = await load_game(self.store, self.registry, game_id)
                if loaded is None or loaded.state is None:
                    await reply(interaction, "error.game_gone")
                    return
                await send_scores(interaction, loaded)

    async def on_click(self, interaction: discord.Interaction, game_id: int) -> None:
        """The game-over message's Rematch button: open the rematch, or take a seat in it."""
        async with guarded(interaction, game_id):
            old = await load_game(self.store, self.registry, game_id)
            if old is None:
                await reply(interaction, "error.game_gone")
                return
            if old.state is None or old.status in (GameStatus.LOBBY, GameStatus.ACTIVE):
                await reply(interaction, "flow.rematch.not_over")
                return
            if interaction.channel_id != old.row.channel_id:
                await reply(interaction, "error.damaged_control")
                return
            async with await self.locks.locked(interaction, game_id):
                for _ in range(2):  # a rematch opened by another process meanwhile: join it
                    current = await self.store.open_game_in_channel(old.row.channel_id)
                    if current is None:
                        if await self._open(interaction, old):
                            return
                        continue
                    if current.rematch_of != game_id:
                        await reply(interaction, "flow.rematch.channel_busy")
                        return
                    if current.status != GameStatus.LOBBY:
                        await reply(interaction, "flow.rematch.started")
                        return
                    assert current.id is not None
                    await self._take_seat(interaction, current.id)
                    return
                await reply(interaction, "lobby.changed")

    async def _open(self, interaction: discord.Interaction, old: LoadedGame) -> bool:
        """Open the rematch lobby with the clicker as its host; False if the channel got an
        open game meanwhile (the caller looks again)."""
        user = interaction.user
        try:
            row = await self.store.open_rematch(
                old.row,
                old.seats,
                host_id=user.id,
                host_name=user.display_name,
                host_locale=user_locale(interaction),
                capacity=max(old.game.player_counts),
                expires_at=utcnow() + timedelta(minutes=self.settings.lobby_minutes),
            )
        except ChannelBusy:
            return False
        if row is None:
            await reply(interaction, "flow.rematch.full")
            return True
        await self.lobby.show_new(interaction, row)
        return True

    async def _take_seat(self, interaction: discord.Interaction, lobby_id: int) -> None:
        entry = None
        async with await self.locks.locked(interaction, lobby_id):
            lobby = await load_game(self.store, self.registry, lobby_id)
            if lobby is None or lobby.status is not GameStatus.LOBBY:
                await reply(interaction, "flow.rematch.started")
                return
            try:
                taken, entry = await self.store.take_rematch_seat(
                    lobby_id,
                    interaction.user.id,
                    interaction.user.display_name,
                    user_locale(interaction),
                    capacity=max(lobby.game.player_counts),
                    publication=Publication(LOBBY),
                )
            except StorageConflict:
                await reply(interaction, "flow.rematch.started")
                return
            await reply(interaction, ANSWERS[taken], game=lobby_id)
        if entry is not None:
            self.outbox.deliver([entry])
