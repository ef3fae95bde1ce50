"""Which language a message is written in.

- Private text (ephemeral answers, a hand shown in reply to a click) follows the reader: the
  ``locale`` of their interaction.
- DMs sent without an interaction of their reader (the hand DM when a turn comes round, after
  someone else's move) use the language of that user's latest interaction, which is stored per
  user so it survives restarts; a seat's join-time locale covers a user never seen since.
- Public text (lobby, table, channel notices, standings) follows the server: its
  ``/settings language`` choice, else its Discord language (``guild_locale``). Never the
  clicking user's locale: the table would tell everyone which language that player uses.

Anything we have no catalog for reads in English.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from bot.i18n import supported_locale

if TYPE_CHECKING:
    from bot.storage.repository import Store

log = logging.getLogger(__name__)


def user_locale(interaction: discord.Interaction) -> str:
    """The catalog language of the user behind ``interaction``."""
    return supported_locale(interaction.locale)


def discord_guild_locale(interaction: discord.Interaction) -> str:
    """The server's own Discord language (what ``server default`` means)."""
    return supported_locale(interaction.guild_locale)


class Languages:
    """Remembers users' languages and resolves the public language of a server."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def remember(self, interaction: discord.Interaction) -> None:
        """Store the user's language (the store writes only when it changed)."""
        user_id, locale = interaction.user.id, user_locale(interaction)
        try:
            await self.store.remember_locale(user_id, locale)
        except Exception:
            # Never block a click over this; the next interaction tries again.
            log.exception("could not remember the language of user %s", user_id)

    async def of_users(self, user_ids: Sequence[int]) -> dict[int, str]:
        """The remembered language of those of ``user_ids`` the bot has seen (one query)."""
        return await self.store.remembered_locales(user_ids)

    async def public(self, interaction: discord.Interaction) -> str:
        """The language of public messages in the interaction's server."""
        chosen = None
        if interaction.guild_id is not None:
            chosen = await self.store.guild_language(interaction.guild_id)
        return chosen or discord_guild_locale(interaction)
