"""The bot: wiring of storage, flows, dynamic items and extensions.

``setup_hook`` runs before the gateway connects: it opens the store (running migrations),
registers the dynamic items (so old buttons work at once), loads the extensions, re-arms lobby
timers and syncs commands only when asked (``--sync``), to ``DEV_GUILD_ID`` when set.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any

import discord
from discord.ext import commands

from bot.components import DYNAMIC_ITEMS, release_interaction
from bot.config import Settings
from bot.i18n.commands import CatalogTranslator
from bot.languages import Languages
from bot.lobby import LobbyFlow
from bot.moves import MoveFlow
from bot.publisher import Publisher
from bot.recovery import deliver_missed_turns
from bot.storage.repository import Store
from games import REGISTRY, Game

log = logging.getLogger(__name__)

EXTENSIONS = (
    "bot.exts.play",
    "bot.exts.ingame",
    "bot.exts.standings",
    "bot.exts.rules",
    "bot.exts.settings",
    "bot.exts.admin",
)


class GloryTree(discord.app_commands.CommandTree["GloryBot"]):
    async def interaction_check(self, interaction: discord.Interaction[GloryBot]) -> bool:
        """Every slash command first remembers its user's language (for later DMs)."""
        await interaction.client.languages.remember(interaction)
        return True


class GloryBot(commands.Bot):
    """A slash-command-only bot.

    Interactions arrive whatever the intents, so the bot asks only for ``guilds``: with the
    message intents Discord would echo every table edit and DM back over the gateway, and
    discord.py would parse each one and keep it in a message cache nothing here reads.
    """

    store: Store

    def __init__(self, settings: Settings, registry: Mapping[str, Game] | None = None) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True),
            max_messages=None,
            member_cache_flags=discord.MemberCacheFlags.none(),
            chunk_guilds_at_startup=False,
            help_command=None,
            tree_cls=GloryTree,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
        )
        self.settings = settings
        self.registry: Mapping[str, Game] = registry if registry is not None else REGISTRY
        self.languages = Languages(self)
        self.publisher = Publisher(self)
        self.lobby = LobbyFlow(self)
        self.moves = MoveFlow(self)
        self.recovery: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.settings.database_url)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        await self.tree.set_translator(CatalogTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await self.lobby.rearm_all()
        if self.settings.sync_commands:
            await self.sync_commands()
        self.recovery = asyncio.create_task(self._recover())

    async def _recover(self) -> None:
        """Re-send what a crash kept from players (see ``bot.recovery``), beside normal work."""
        try:
            count = await deliver_missed_turns(self)
        except Exception:
            log.exception("re-sending missed turns after the restart failed")
            return
        if count:
            log.info("re-sent the turn of %d game(s) after the restart", count)

    async def on_app_command_completion(
        self, interaction: discord.Interaction, command: discord.app_commands.Command[Any, ..., Any]
    ) -> None:
        """A finished slash command unties its interaction, as every click does."""
        release_interaction(interaction)

    async def sync_commands(self) -> list[str]:
        """Upload the slash commands: to the dev guild when configured, else globally."""
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d commands", len(synced))
        return [command.name for command in synced]

    async def close(self) -> None:
        self.lobby.disarm_all()
        if self.recovery is not None:
            self.recovery.cancel()
        await super().close()
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()
