"""Commands that register themselves: sent to Discord when they changed, and only then.

At every start (the bot's ``setup_hook``) the bot builds exactly what a sync would send (every
command's translated payload, for the scope it registers in: everywhere, or only the
``DEV_GUILD_ID`` server) and compares its fingerprint with the record of the last registration
(``bot/storage/command_syncs.py``). Equal: nothing is sent. Different, or never registered, or
registered for another application (a new token on an old database): the commands are sent
and the record written. Processes sharing PostgreSQL do this one at a time under an advisory
lock, so a sharded deployment registers once, not once per process.

Why: Discord allows 200 command creations a day per server, a host forgets ``--sync``, and a
bot started with nothing registered looks dead ("the commands don't appear"). ``glory sync``
and the owner's ``/sync`` register regardless of the record (``force``): for CI/CD and for a
registration someone removed by hand in the developer portal.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import discord
import orjson

from bot.storage import command_syncs

if TYPE_CHECKING:
    from bot.process.config import Settings
    from bot.storage.repository import Store

log = logging.getLogger(__name__)


class Registrar(Protocol):
    """What registering the commands uses of the bot: its command tree, its application, the
    settings (``DEV_GUILD_ID``) and the store (the record of the last registration)."""

    settings: Settings
    store: Store

    @property
    def tree(self) -> discord.app_commands.CommandTree[Any]: ...

    @property
    def application_id(self) -> int | None: ...


GLOBAL = "global"
"""The scope of commands registered for every server (``DEV_GUILD_ID`` unset)."""


def scope_of(guild_id: int | None) -> str:
    """The record's scope for commands registered globally (``None``) or in one server."""
    return GLOBAL if guild_id is None else f"guild:{guild_id}"


def fingerprint(payload: list[dict[str, Any]]) -> str:
    """A digest of the commands exactly as they would be sent (key order does not matter)."""
    return hashlib.sha256(orjson.dumps(payload, option=orjson.OPT_SORT_KEYS)).hexdigest()


@dataclass(frozen=True)
class Registration:
    """The commands' state after a start's check (or a forced sync)."""

    guild_id: int | None
    """Where they are registered: ``None`` everywhere, else the development server."""
    count: int
    """How many commands are registered there (per the record when nothing was sent)."""
    uploaded: bool
    """Whether this check sent them (False: the record said they were up to date)."""
    error: str = ""
    """Why sending them failed (then ``count`` is what the record says, maybe 0)."""

    def describe(self) -> str:
        """For the ready line: ``18 registered globally (unchanged)`` and the like."""
        where = "globally" if self.guild_id is None else f"in server {self.guild_id}"
        if self.error:
            return (
                f"{self.count} registered {where}; registering the current ones failed "
                f"({self.error}), run `glory sync`"
            )
        state = "uploaded now" if self.uploaded else "unchanged"
        return f"{self.count} registered {where} ({state})"


async def payload(bot: Registrar, guild: discord.abc.Snowflake | None) -> list[dict[str, Any]]:
    """What ``CommandTree.sync`` sends for ``guild`` (``None``: the global commands)."""
    tree = bot.tree
    commands = tree.get_commands(guild=guild)
    translator = tree.translator
    if translator is None:
        return [command.to_dict(tree) for command in commands]
    return [await command.get_translated_payload(tree, translator) for command in commands]


async def register(bot: Registrar, *, force: bool = False) -> Registration:
    """Register the commands where the settings say, unless the record shows them current.

    A refusal by Discord (a rate limit, the daily limit, an invalid command) is logged and
    returned, not raised: the bot runs on with what was registered before, and the record is
    left alone so the next start tries again. The database's errors are raised (a start
    cannot go on without it anyway).
    """
    guild_id = bot.settings.dev_guild_id
    guild = discord.Object(guild_id) if guild_id is not None else None
    if guild is not None:
        bot.tree.copy_global_to(guild=guild)
    application_id = bot.application_id or 0
    scope = scope_of(guild_id)
    digest = fingerprint(await payload(bot, guild))
    async with command_syncs.exclusive(bot.store.engine) as records:
        record = await records.get(scope)
        current = (
            record is not None
            and record.fingerprint == digest
            and record.application_id == application_id
        )
        if current and not force:
            assert record is not None
            return Registration(guild_id, record.commands, uploaded=False)
        ours = record is not None and record.application_id == application_id
        known = record.commands if record is not None and ours else 0
        try:
            synced = await bot.tree.sync(guild=guild)
        except discord.HTTPException as error:
            reason = f"HTTP {error.status}: {error.text or type(error).__name__}"[:200]
            log.error("could not register the slash commands: %s", reason)
            return Registration(guild_id, known, uploaded=False, error=reason)
        await records.put(scope, application_id, digest, len(synced))
    where = "globally" if guild is None else f"in server {guild_id}"
    log.info("registered %d slash commands %s", len(synced), where)
    return Registration(guild_id, len(synced), uploaded=True)
