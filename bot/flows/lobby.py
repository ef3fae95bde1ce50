"""Lobbies: create, join, leave, set options, start, cancel and expire.

Why timers are rebuilt from the database: a lobby's deadline (``expires_at``) is stored, so a
restarted bot re-arms every open lobby's expiry instead of leaving it open forever.

Why every change goes through the store's lobby version: Join, Leave, option changes, Start and
Cancel can arrive at the same moment (a double click, four players joining at once, Leave and
Start together). Each is checked and written in one transaction that bumps the lobby's version,
and Start compares that version, so the engine always starts with exactly the stored seats.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot.ai.autoplay import AI_LEVELS, ai_name, ai_user_id
from bot.flows.clock import TURN_TIMES
from bot.flows.options import OptionsTextError, parse_options
from bot.flows.session import LoadedGame, load_game
from bot.interactions.answers import Answer, AnswerState
from bot.interactions.replies import guarded, reply
from bot.messages.languages import user_locale
from bot.messages.option_help import invalid_options_params
from bot.outbox.entries import EXPIRE, START, Entry, Publication
from bot.render import presenter_for
from bot.storage.models import GameRow, GameStatus, utcnow
from bot.storage.rematch import unconfirmed
from bot.storage.repository import ChannelBusy, LobbyFull, StorageConflict
from games import Game, InvalidOptions

if TYPE_CHECKING:
    from collections.abc import Mapping

    from bot.flows.clock import TurnClock
    from bot.flows.game_locks import GameLocks
    from bot.flows.turn_hooks import TurnChanges
    from bot.messages.languages import Languages
    from bot.messages.publisher import Publisher
    from bot.outbox.dispatch import Outbox
    from bot.process.config import Settings
    from bot.storage.repository import Store
    from games import Game

log = logging.getLogger(__name__)

REARM_SECONDS = 300.0
"""With other processes: how often to arm the expiry of lobbies this process does not time (one
created by a process that stopped and did not come back)."""


def can_manage(interaction: discord.Interaction) -> bool:
    """Server managers may cancel any game in their server."""
    permissions = getattr(interaction.user, "guild_permissions", None)
    return bool(permissions and permissions.manage_guild)


async def refuse_options(
    interaction: discord.Interaction,
    game: Game,
    error: InvalidOptions,
    options: Mapping[str, Any],
    players: int,
) -> None:
    """Tell the user why the engine refused ``options``: a conflict names the options that clash
    and the reason, in the reader's language (``bot/messages/option_help.py``)."""
    counts = ", ".join(map(str, game.player_counts))
    key, params = invalid_options_params(game, error, options, user_locale(interaction))
    await reply(interaction, key, counts=counts, count=players, **params)


class LobbyFlow:
    def __init__(
        self,
        *,
        store: Store,
        registry: Mapping[str, Game],
        settings: Settings,
        outbox: Outbox,
        languages: Languages,
        publisher: Publisher,
        locks: GameLocks,
        clock: TurnClock,
        autoplay: TurnChanges,
    ) -> None:
        self.store = store
        self.registry = registry
        self.settings = settings
        self.outbox = outbox
        self.languages = languages
        self.publisher = publisher
        self.locks = locks
        self.clock = clock
        self.autoplay = autoplay
        self._timers: dict[int, asyncio.Task[None]] = {}
        self._rearming: asyncio.Task[None] | None = None

    # ---------------------------------------------------------------- /play

    async def create(
        self, interaction: discord.Interaction, game_key: str, options_text: str | None = None
    ) -> None:
        """``/play``: a lobby in this channel, unless the channel is busy or options are bad."""
        async with guarded(interaction, None):
            await self._create(interaction, game_key, options_text)

    async def _create(
        self, interaction: discord.Interaction, game_key: str, options_text: str | None
    ) -> None:
        if interaction.guild_id is None or interaction.channel_id is None:
            await reply(interaction, "play.guild_only")
            return
        if game_key not in self.registry:
            await reply(interaction, "play.unknown_game")
            return
        store = self.store
        if await store.open_game_in_channel(interaction.channel_id) is not None:
            await reply(interaction, "play.busy")
            return
        game = self.registry[game_key]
        public = await self.languages.public(interaction)
        try:
            options = {o.name: o.default for o in game.options}
            # The writer's language, and the server's, which the lobby's menus show.
            written = parse_options(
                game, options_text, presenter_for(game_key), user_locale(interaction), also=[public]
            )
            options.update(written)
            problem = self.check(game, options)
            if problem is not None:
                raise problem
        except OptionsTextError as error:
            await reply(interaction, error.key, **error.params)
            return
        except InvalidOptions as error:
            await refuse_options(interaction, game, error, options, 1)
            return
        try:
            row = await store.create_lobby(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                host_id=interaction.user.id,
                host_name=interaction.user.display_name,
                host_locale=user_locale(interaction),
                game_key=game_key,
                options=options,
                locale=public,
                expires_at=utcnow() + timedelta(minutes=self.settings.lobby_minutes),
            )
        except ChannelBusy:
            await reply(interaction, "play.busy")
            return
        await self.show_new(interaction, row)

    async def show_new(self, interaction: discord.Interaction, row: GameRow) -> None:
        """Show a lobby just stored as the interaction's public answer, and time it; without
        its message the lobby is closed again (nobody could join or cancel it)."""
        store = self.store
        assert row.id is not None
        loaded = await load_game(store, self.registry, row.id)
        assert loaded is not None
        answer = Answer.of(interaction)
        try:
            # Discord returns the message it created; asking for it again costs a round trip
            # during which the lobby is visible but unknown to the store.
            content = self.publisher.lobby_content(loaded)
            message_id = await answer.send(**content, ephemeral=False)
            if message_id is None and answer.state is AnswerState.ANSWERED:
                message_id = (await interaction.original_response()).id
        except Exception:
            await store.end(row.id, GameStatus.CANCELLED)
            raise
        if message_id is None:
            # Without its message nobody could join or cancel: close it so the channel is free.
            await store.end(row.id, GameStatus.CANCELLED)
            log.warning("game %s: the lobby could not be shown; closed", row.id)
            return
        await store.set_message(loaded.id, lobby_message_id=message_id)
        self.arm_expiry(loaded.id, row.expires_at)

    # ---------------------------------------------------------------- buttons

    async def on_button(self, interaction: discord.Interaction, action: str, game_id: int) -> None:
        """Join, Leave, Start or Cancel: one at a time per lobby (under the game's lock), each
        checked and written in one transaction that bumps the lobby's version."""
        handler = {
            "join": self._join,
            "leave": self._leave,
            "start": self._start,
            "cancel": self._cancel,
        }.get(action)
        entry: Entry | None = None
        async with guarded(interaction, game_id):
            if handler is None:
                await reply(interaction, "error.unknown_control")
                return
            async with await self.locks.locked(interaction, game_id):
                loaded = await load_game(self.store, self.registry, game_id)
                if loaded is None:
                    await reply(interaction, "error.game_gone")
                    return
                if loaded.status is not GameStatus.LOBBY:
                    await reply(interaction, f"lobby.closed.{loaded.status.value}")
                    return
                entry = await handler(interaction, loaded)
        if entry is not None:
            self.outbox.deliver([entry])
            self.autoplay.turn_changed(game_id)  # an AI or a clock may start the game

    async def _join(self, interaction: discord.Interaction, loaded: LoadedGame) -> None:
        mine = next((row for row in loaded.seats if row.user_id == interaction.user.id), None)
        if mine is not None and not mine.confirmed:
            # A player of the last game, in its rematch lobby: Join confirms their seat.
            try:
                await self.store.take_rematch_seat(
                    loaded.id,
                    interaction.user.id,
                    interaction.user.display_name,
                    user_locale(interaction),
                    capacity=max(loaded.game.player_counts),
                    publication=None,  # the click's answer shows the lobby
                )
            except StorageConflict:
                await reply(interaction, "lobby.changed")
                return
            await self._show(interaction, loaded.id)
            return
        try:
            _, joined = await self.store.join(
                loaded.id,
                interaction.user.id,
                interaction.user.display_name,
                user_locale(interaction),
                capacity=max(loaded.game.player_counts),
            )
        except LobbyFull:
            await reply(interaction, "lobby.full")
            return
        except StorageConflict:
            await reply(interaction, "lobby.changed")
            return
        if not joined:
            await reply(interaction, "lobby.already_joined")
            return
        await self._show(interaction, loaded.id)

    async def _leave(self, interaction: discord.Interaction, loaded: LoadedGame) -> None:
        if interaction.user.id == loaded.row.host_id:
            await reply(interaction, "lobby.host_cannot_leave")
            return
        try:
            left = await self.store.leave_lobby(loaded.id, interaction.user.id)
        except StorageConflict:
            await reply(interaction, "lobby.changed")
            return
        if not left:
            await reply(interaction, "lobby.not_joined")
            return
        await self._show(interaction, loaded.id)

    async def _show(self, interaction: discord.Interaction, game_id: int, focus: int = 0) -> None:
        loaded = await load_game(self.store, self.registry, game_id)
        assert loaded is not None
        await Answer.of(interaction).update(**self.publisher.lobby_content(loaded, focus))

    async def _start(self, interaction: discord.Interaction, loaded: LoadedGame) -> Entry | None:
        if interaction.user.id != loaded.row.host_id:
            await reply(interaction, "lobby.only_host_starts")
            return None
        if unconfirmed(loaded.seats):
            # A rematch: who did not confirm the seat kept for them does not play.
            try:
                for row in unconfirmed(loaded.seats):
                    await self.store.leave_lobby(loaded.id, row.user_id)
            except StorageConflict:
                await reply(interaction, "lobby.changed")
                return None
            reloaded = await load_game(self.store, self.registry, loaded.id)
            assert reloaded is not None
            loaded = reloaded
        players = len(loaded.seats)
        seed = secrets.randbits(63)
        try:
            state = loaded.game.new_state(players, seed, loaded.row.options)
        except InvalidOptions as error:
            await refuse_options(interaction, loaded.game, error, loaded.row.options, players)
            return None
        everyone = list(range(players))
        try:
            # Only if the lobby is still exactly as read: these seats, these options.
            entry = await self.store.start(
                loaded.id,
                expected_version=loaded.row.version,
                seed=seed,
                state=state.to_json(),
                publication=Publication(START, {"hands": everyone, "fresh": everyone}),
                opening_events=list(state.opening_events),
                deadline=self.clock.deadline_after(loaded, state),
            )
        except StorageConflict:
            await reply(interaction, "lobby.changed")
            return None
        self.disarm(loaded.id)
        started = await load_game(self.store, self.registry, loaded.id)
        assert started is not None
        await Answer.of(interaction).update(**self.publisher.lobby_content(started))
        return entry

    async def _cancel(self, interaction: discord.Interaction, loaded: LoadedGame) -> None:
        if interaction.user.id != loaded.row.host_id and not can_manage(interaction):
            await reply(interaction, "cancel.not_allowed")
            return
        try:
            await self.store.end(loaded.id, GameStatus.CANCELLED)
        except StorageConflict:
            await reply(interaction, "lobby.changed")
            return
        self.disarm(loaded.id)
        await self._show(interaction, loaded.id)

    # ---------------------------------------------------------------- AI players, turn time

    async def on_seats(
        self, interaction: discord.Interaction, game_id: int, kind: str, index: int
    ) -> None:
        """The host's seats menu: add an AI player (``a``, a level), remove one (``r``, a
        seat) or set the turn time (``c``, a choice); each one lobby change like Join."""
        async with (
            guarded(interaction, game_id),
            await self.locks.locked(interaction, game_id),
        ):
            loaded = await self._host_lobby(interaction, game_id, "lobby.only_host_seats")
            if loaded is None:
                return
            store = self.store
            try:
                if kind == "a" and index < len(AI_LEVELS):
                    await store.join(
                        loaded.id,
                        ai_user_id(),
                        ai_name([row.display_name for row in loaded.seats]),
                        loaded.row.locale,
                        capacity=max(loaded.game.player_counts),
                        ai_level=AI_LEVELS[index],
                    )
                elif kind == "r" and index < len(loaded.seats) and loaded.seats[index].ai_level:
                    await store.leave_lobby(loaded.id, loaded.seats[index].user_id)
                elif kind == "c" and index < len(TURN_TIMES):
                    await store.set_turn_clock(
                        loaded.id, TURN_TIMES[index], expected_version=loaded.row.version
                    )
                else:
                    await reply(interaction, "lobby.seat_choice_gone")
                    return
            except LobbyFull:
                await reply(interaction, "lobby.full")
                return
            except StorageConflict:
                await reply(interaction, "lobby.changed")
                return
            await self._show(interaction, loaded.id)

    # ---------------------------------------------------------------- options

    async def _host_lobby(
        self,
        interaction: discord.Interaction,
        game_id: int,
        refusal: str = "lobby.only_host_options",
    ) -> LoadedGame | None:
        """The open lobby, if the caller is its host (else explain and return ``None``)."""
        loaded = await load_game(self.store, self.registry, game_id)
        if loaded is None:
            await reply(interaction, "error.game_gone")
            return None
        if loaded.status is not GameStatus.LOBBY:
            await reply(interaction, f"lobby.closed.{loaded.status.value}")
            return None
        if interaction.user.id != loaded.row.host_id:
            await reply(interaction, refusal)
            return None
        return loaded

    async def on_option_focus(
        self, interaction: discord.Interaction, game_id: int, focus: int
    ) -> None:
        async with guarded(interaction, game_id):
            loaded = await self._host_lobby(interaction, game_id)
            if loaded is None:
                return
            if not 0 <= focus < len(loaded.game.options):
                await reply(interaction, "options.invalid.unknown_option")
                return
            await self._show(interaction, game_id, focus)

    async def on_option(
        self, interaction: discord.Interaction, game_id: int, option_index: int, choice: int
    ) -> None:
        async with (
            guarded(interaction, game_id),
            await self.locks.locked(interaction, game_id),
        ):
            loaded = await self._host_lobby(interaction, game_id)
            if loaded is None:
                return
            options = loaded.game.options
            if not 0 <= option_index < len(options) or not 0 <= choice < len(
                options[option_index].choices
            ):
                await reply(interaction, "options.invalid.bad_value")
                return
            option = options[option_index]
            chosen = dict(loaded.row.options, **{option.name: option.choices[choice]})
            problem = self.check(loaded.game, chosen)
            if problem is not None:
                await refuse_options(interaction, loaded.game, problem, chosen, len(loaded.seats))
                return
            try:
                await self.store.set_options(loaded.id, chosen, expected_version=loaded.row.version)
            except StorageConflict:
                await reply(interaction, "lobby.changed")
                return
            await self._show(interaction, loaded.id, option_index)

    @staticmethod
    def check(game: Game, options: dict) -> InvalidOptions | None:
        """The engine's verdict on ``options``: usable with at least one player count."""
        problem = None
        for players in game.player_counts:
            try:
                game.resolve_options(players, options)
                return None
            except InvalidOptions as error:
                problem = error
        return problem

    # ---------------------------------------------------------------- expiry

    def arm_expiry(self, game_id: int, expires_at: datetime | None) -> None:
        """Expire the lobby at ``expires_at`` (now if that is past)."""
        if expires_at is None:
            return
        if expires_at.tzinfo is None:
            expires_at = expires_at.replace(tzinfo=UTC)
        delay = max(0.0, (expires_at - utcnow()).total_seconds())
        self.disarm(game_id)
        self._timers[game_id] = asyncio.create_task(self._expire_later(game_id, delay))

    def disarm(self, game_id: int) -> None:
        task = self._timers.pop(game_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def disarm_all(self) -> None:
        if self._rearming is not None:
            self._rearming.cancel()
        for game_id in list(self._timers):
            self.disarm(game_id)

    async def rearm_all(self) -> None:
        """After a restart: every open lobby gets its timer back.

        With other processes, every process times every lobby (the expiry ends only a
        lobby, so it happens once), and looks again now and then for lobbies created since
        by a process that is gone.
        """
        for row in await self.store.open_games(GameStatus.LOBBY):
            assert row.id is not None
            if row.id not in self._timers:
                self.arm_expiry(row.id, row.expires_at)
        if self.store.shared and self._rearming is None:
            self._rearming = asyncio.get_running_loop().create_task(self._rearm_forever())

    async def _rearm_forever(self) -> None:
        while True:
            await asyncio.sleep(REARM_SECONDS)
            try:
                await self.rearm_all()
            except Exception:
                log.exception("could not look for lobbies to time")

    async def _expire_later(self, game_id: int, delay: float) -> None:
        await asyncio.sleep(delay)
        self._timers.pop(game_id, None)
        try:
            await self._expire(game_id)
        except Exception:
            log.exception("game %s: could not expire the lobby", game_id)

    async def _expire(self, game_id: int) -> None:
        async with self.locks.lock(game_id):
            try:
                # Only a lobby expires: every process arms the timer (after its start-up), and
                # another may have started the game meanwhile.
                _, entry = await self.store.end(
                    game_id,
                    GameStatus.EXPIRED,
                    publication=Publication(EXPIRE),
                    only_from=GameStatus.LOBBY,
                )
            except StorageConflict:
                return  # started or cancelled meanwhile
        if entry is not None:
            self.outbox.deliver([entry])
