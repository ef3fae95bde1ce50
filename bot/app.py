"""The bot: wiring of storage, flows, dynamic items and extensions.

``setup_hook`` runs before the gateway connects: it opens the store (running migrations),
builds the flows, each given the few collaborators it uses (``wire``), registers the dynamic
items (so old buttons work at once), loads the extensions, re-arms lobby timers, registers the
slash commands when they changed since the last registration (``bot/interactions/command_sync.py``;
to ``DEV_GUILD_ID`` when set) and resumes the delivery of whatever the outbox holds. ``glory
sync`` stops right after registering (``only_register``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import discord
from discord.ext import commands

from bot.ai.autoplay import Autoplay
from bot.flows.clock import Clock, TurnClock, WallClock
from bot.flows.forced_moves import ForcedMoves
from bot.flows.game_locks import GameLocks
from bot.flows.hints import HintFlow
from bot.flows.lobby import LobbyFlow
from bot.flows.moves import MoveFlow
from bot.flows.rematch import RematchFlow
from bot.flows.seat_handover import SeatHandover
from bot.i18n.commands import CatalogTranslator
from bot.interactions.answers import Answer
from bot.interactions.click_router import ClickRouter
from bot.interactions.command_sync import Registration, register
from bot.interactions.components import (
    DYNAMIC_ITEMS,
    answer_damaged,
    release_interaction,
    routed_by_discord_py,
)
from bot.interactions.rate_limit_buckets import sweep_idle_buckets_less_often
from bot.interactions.replies import reply
from bot.messages.history import HISTORY_ITEMS
from bot.messages.languages import Languages
from bot.messages.publisher import Publisher
from bot.messages.scores import SCORE_ITEMS
from bot.outbox.budget import GlobalBudget, pace_requests
from bot.outbox.dispatch import Outbox
from bot.outbox.inspect import dump_on_signal
from bot.pictures.service import Pictures
from bot.process.config import Settings
from bot.ratings.board import RATING_ITEMS
from bot.replays.source import Replays
from bot.replays.view import REPLAY_ITEMS
from bot.storage import budget_shares
from bot.storage.repository import Store
from games import REGISTRY, Game

log = logging.getLogger(__name__)

EXTENSIONS = (
    "bot.exts.play",
    "bot.exts.ingame",
    "bot.exts.hints",
    "bot.exts.standings",
    "bot.exts.history",
    "bot.exts.rules",
    "bot.exts.settings",
    "bot.exts.pictures",
    "bot.exts.autopass",
    "bot.exts.admin",
    "bot.exts.about",
)


PUBLIC_ANSWER = "public_answer"
"""A command's ``extras`` flag: it answers in the channel (its deferral is public too)."""
STOP_GRACE_SECONDS = 5.0
"""How long a stopping bot waits for the clicks it is handling (hosts kill after ~10 s)."""


class GloryTree(discord.app_commands.CommandTree["GloryBot"]):
    async def interaction_check(self, interaction: discord.Interaction[GloryBot]) -> bool:
        """Every slash command starts its answer's deadline (``bot/interactions/answers.py``) and
        remembers its user's language (for later DMs)."""
        command = interaction.command
        extras = getattr(command, "extras", None) or {}
        answer = Answer.of(interaction)
        answer.public = bool(extras.get(PUBLIC_ANSWER))
        answer.arm()
        if not await interaction.client.begin_handling(interaction):
            return False
        await interaction.client.languages.remember(interaction)
        return True

    async def on_error(
        self,
        interaction: discord.Interaction[GloryBot],
        error: discord.app_commands.AppCommandError,
    ) -> None:
        """A command failed outside its own guard (a check, a transformer): log and tell."""
        log.error("command %s failed", interaction.command, exc_info=error)
        await reply(interaction, "error.unexpected")
        release_interaction(interaction)


class GloryBot(commands.Bot):
    """A slash-command-only bot.

    Interactions arrive whatever the intents, so the bot asks only for ``guilds``: with the
    message intents Discord would echo every table edit and DM back over the gateway, and
    discord.py would parse each one and keep it in a message cache nothing here reads.
    """

    store: Store
    replays: Replays
    locks: GameLocks
    languages: Languages
    publisher: Publisher
    autoplay: Autoplay
    clock: TurnClock
    lobby: LobbyFlow
    moves: MoveFlow
    handover: SeatHandover
    forced: ForcedMoves
    hints: HintFlow
    rematch: RematchFlow

    def __init__(self, settings: Settings, registry: Mapping[str, Game] | None = None) -> None:
        super().__init__(
            **self.gateway_options(settings),
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True),
            max_messages=None,
            member_cache_flags=discord.MemberCacheFlags.none(),
            chunk_guilds_at_startup=False,
            help_command=None,
            tree_cls=GloryTree,
            # Nothing pings unless a message names whom it pings (the closed-DM notice).
            allowed_mentions=discord.AllowedMentions.none(),
            # No max_ratelimit_timeout: discord.py would then refuse, before sending, every call
            # on a bucket whose window ends later than that, even with requests left. Its
            # waits happen in a courier's lane (bot/outbox), where they hold up nothing else.
        )
        self.settings = settings
        self.registry: Mapping[str, Game] = registry if registry is not None else REGISTRY
        self.outbox = Outbox(
            self,
            table_updates=settings.table_updates_per_second,
            turn_hold=settings.table_turn_hold_seconds,
        )
        self.time: Clock = WallClock()
        """Where the turn clock and forced moves get the time (tests put their own here)."""
        self.wired = False
        """Whether the flows are built (``wire``, once the store is open)."""
        self.stopping = False
        self.only_register = False
        """``glory sync``: the start registers the commands (whatever the record says) and does
        nothing else: no timers, no deliveries, no worker processes."""
        self.registration: Registration | None = None
        """The commands' state after this start's check (``None``: not checked)."""
        self.started_at = datetime.now(UTC)
        """When this process started: the health view's uptime."""
        self._handlers: set[asyncio.Task[Any]] = set()
        self._control_patterns = [item.__discord_ui_compiled_template__ for item in DYNAMIC_ITEMS]
        self.clicks = ClickRouter(self)
        self.clicks.install()
        sweep_idle_buckets_less_often(self.http)
        self.budget = GlobalBudget(settings.global_requests_per_second)
        """Discord's global request budget, this process's part of it (``outbox/budget.py``)."""
        pace_requests(self.http, self.budget)

    @staticmethod
    def gateway_options(settings: Settings) -> dict[str, Any]:
        """discord.py's options for the gateway connection: none for one unsharded connection."""
        return {}

    async def setup_hook(self) -> None:
        # Several processes on one PostgreSQL (issue 18): shared when the settings say other
        # processes run beside this one (``Settings.multi_process``).
        self.store = await Store.open(
            self.settings.database_url, shared=self.settings.multi_process
        )
        self.wire(self.store)
        if self.store.shared:  # the processes on this database share Discord's budget
            store = self.store
            self.budget.share_with(await budget_shares.processes_sharing(store))
            self.budget.counter = lambda: budget_shares.processes_sharing(store)
        self.add_dynamic_items(
            *DYNAMIC_ITEMS, *SCORE_ITEMS, *RATING_ITEMS, *HISTORY_ITEMS, *REPLAY_ITEMS
        )
        await self.tree.set_translator(CatalogTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.only_register:
            self.registration = await register(self, force=True)
            return
        await self.lobby.rearm_all()
        if self.settings.sync_commands:
            self.registration = await register(self)
        # What the last run committed but did not finish showing (a crash, a stop while
        # Discord was slow) is delivered now, beside normal work.
        await self.outbox.resume()
        self.outbox.start_sweeping()
        dump_on_signal(self.outbox, self.budget)  # SIGUSR1: where each delivery waits
        # AI seats on turn decide (again, if a restart cut a search short); clocks re-arm.
        await self.autoplay.resume()
        # Worker processes start now, not in the middle of a game (``SearchPool.start``).
        self.autoplay.pool.start()
        if self.publisher.pictures.enabled:
            self.publisher.pictures.workers.start(("tables", "hands"))

    def wire(self, store: Store) -> None:
        """Build the flows, each with the collaborators it names (none of them holds the bot).

        The autoplay is built first: every flow that ends a turn tells it so (``TurnChanges``
        in ``bot/flows/turn_hooks.py``); the flows it plays through are given to it last
        (``Autoplay.drive``). The outbox is built with the bot (``__init__``): it reaches the
        flows whose messages it delivers through the client (``bot/outbox/host.py``).
        """
        settings, registry, outbox = self.settings, self.registry, self.outbox
        locks = self.locks = GameLocks()
        common = {"store": store, "registry": registry, "outbox": outbox, "locks": locks}
        self.languages = languages = Languages(store)
        pictures = Pictures(store, processes=settings.picture_workers, enabled=settings.pictures)
        self.publisher = publisher = Publisher(store, pictures)
        self.replays = Replays(store, registry)
        self.autoplay = autoplay = Autoplay(settings=settings, **common)
        self.clock = clock = TurnClock(
            settings=settings,
            languages=languages,
            publisher=publisher,
            autoplay=autoplay,
            time=self.time,
            **common,
        )
        self.lobby = lobby = LobbyFlow(
            settings=settings,
            languages=languages,
            publisher=publisher,
            clock=clock,
            autoplay=autoplay,
            **common,
        )
        self.moves = moves = MoveFlow(
            publisher=publisher, clock=clock, lobby=lobby, autoplay=autoplay, **common
        )
        self.handover = SeatHandover(moves=moves, autoplay=autoplay, **common)
        self.forced = ForcedMoves(
            publisher=publisher, moves=moves, clock=clock, autoplay=autoplay, **common
        )
        autoplay.drive(moves, clock, self.forced, self.handover)
        self.hints = HintFlow(
            store=store, registry=registry, settings=settings, searches=autoplay.searches
        )
        self.rematch = RematchFlow(settings=settings, lobby=lobby, replays=self.replays, **common)
        self.wired = True

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().add_dynamic_items(*items)
        self.clicks.register(items)
        for item in items:
            pattern = item.__discord_ui_compiled_template__
            if pattern not in self._control_patterns:
                self._control_patterns.append(pattern)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A component that none of our controls will handle still gets an answer.

        A modified client can send a custom_id no message of ours carries; discord.py would
        ignore it and the user would see "This interaction failed".
        """
        if interaction.type is not discord.InteractionType.component:
            return
        if routed_by_discord_py(interaction, self._control_patterns):
            return
        try:
            await answer_damaged(interaction)
        finally:
            release_interaction(interaction)

    async def on_app_command_completion(
        self, interaction: discord.Interaction, command: discord.app_commands.Command[Any, ..., Any]
    ) -> None:
        """A finished slash command unties its interaction, as every click does."""
        release_interaction(interaction)

    async def sync_commands(self) -> Registration:
        """Register the slash commands now, whatever the record says (the owner's ``/sync``):
        to the dev guild when configured, else globally."""
        self.registration = await register(self, force=True)
        return self.registration

    async def begin_handling(self, interaction: discord.Interaction) -> bool:
        """Count an interaction as in progress (a stop waits for it); when the bot is stopping,
        tell the user to try again in a moment and return False."""
        if self.stopping:
            await reply(interaction, "error.stopping")
            return False
        task = asyncio.current_task()
        if task is not None and task not in self._handlers:
            self._handlers.add(task)
            task.add_done_callback(self._handlers.discard)
        return True

    async def stop(self, grace: float = STOP_GRACE_SECONDS) -> None:
        """A clean stop: no new clicks, the ones in progress finish (their moves committed and
        answered), then the outbox and the database close. What is not yet delivered stays in
        the outbox for the next start."""
        self.stopping = True
        pending = [task for task in self._handlers if task is not asyncio.current_task()]
        if pending:
            _, late = await asyncio.wait(pending, timeout=grace)
            if late:
                log.warning("stopping with %d interaction(s) still in progress", len(late))
        await self.close()

    async def close(self) -> None:
        self.stopping = True
        if self.wired:
            self.lobby.disarm_all()
            self.clock.close()
            self.forced.close()
            await self.autoplay.close()
        await self.outbox.close()
        if self.wired:
            self.publisher.pictures.close()
        await super().close()
        store = getattr(self, "store", None)
        if store is not None:
            await budget_shares.leave(store)
            await store.close()


class ShardedGloryBot(GloryBot, commands.AutoShardedBot):
    """The bot on a sharded gateway: one connection per shard this process runs.

    discord.py's ``AutoShardedBot`` runs any set of shards in one process (``SHARD_IDS``, or
    all of ``SHARD_COUNT``; with ``SHARD_COUNT=auto`` it asks Discord how many). Discord sends
    a guild's events to shard ``(guild_id >> 22) % SHARD_COUNT`` and every DM, and every
    click in a DM, to shard 0: a process must be ready to handle a move for any game, which
    is why several processes share one PostgreSQL database (``docs/scaling.md``).
    """

    @staticmethod
    def gateway_options(settings: Settings) -> dict[str, Any]:
        ids = list(settings.shard_ids) if settings.shard_ids is not None else None
        # SHARD_COUNT=auto is 0 in the settings: discord.py asks Discord when it gets None.
        return {"shard_count": settings.shard_count or None, "shard_ids": ids}


def make_bot(settings: Settings, registry: Mapping[str, Game] | None = None) -> GloryBot:
    """The bot these settings ask for: sharded when ``SHARD_COUNT`` is set."""
    kind = ShardedGloryBot if settings.sharded else GloryBot
    return kind(settings, registry)
