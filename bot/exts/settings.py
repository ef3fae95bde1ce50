"""``/settings language``: the language of the bot's public messages in this server;
``/settings hints``: whether its players may ask for hints (``bot/flows/hints.py``);
``/settings replays``: whether replays of its ended games show the hands (``bot/replays``);
``/settings images``: whether its games' tables, hands and score charts carry pictures
(``bot/pictures/``).

Why a setting: Discord only sends a server's language for Community servers (everyone else is
``en-US``), so a German group on a plain server needs a way to choose. Open games switch too:
their stored public locale is updated in the same transaction, together with an outbox entry
that redraws their lobby or table, so a running game never mixes two languages on the table.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import GloryBot
from bot.flows.lobby import can_manage
from bot.i18n import LOCALES, t
from bot.i18n.commands import text
from bot.interactions.answers import Answer
from bot.interactions.replies import guarded, reply
from bot.messages.languages import discord_guild_locale, user_locale

SERVER_DEFAULT = "default"
LANGUAGE_CHOICES = [
    *(app_commands.Choice(name=text(f"language.{code}"), value=code) for code in LOCALES),
    app_commands.Choice(name=text("language.default"), value=SERVER_DEFAULT),
]


HINT_CHOICES = [
    app_commands.Choice(name=text("common.on"), value="on"),
    app_commands.Choice(name=text("common.off"), value="off"),
]


class Settings(commands.Cog):
    settings = app_commands.Group(
        name=text("cmd.settings.name"),
        description=text("cmd.settings.description"),
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    def __init__(self, bot: GloryBot) -> None:
        self.bot = bot

    @settings.command(
        name=text("cmd.settings.language.name"),
        description=text("cmd.settings.language.description"),
    )
    @app_commands.describe(language=text("cmd.settings.language.language"))
    @app_commands.rename(language=text("cmd.settings.language.language.name"))
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, interaction: discord.Interaction, language: str) -> None:
        async with guarded(interaction, None):
            # default_permissions only hides the command; Discord lets server owners re-grant it.
            if not can_manage(interaction) or interaction.guild_id is None:
                await reply(interaction, "settings.manage_only")
                return
            chosen = language if language in LOCALES else None
            public = chosen or discord_guild_locale(interaction)
            entries = await self.bot.store.set_guild_language(interaction.guild_id, chosen, public)
            locale = user_locale(interaction)
            lines = [
                t(
                    "settings.language.saved" if chosen else "settings.language.default_saved",
                    locale,
                    language=t(f"language.{public}", locale),
                )
            ]
            if entries:
                lines.append(t("settings.games_updated", locale, count=len(entries)))
            await reply_text(interaction, "\n".join(lines))
            # Each game's courier redraws its lobby or table (after any move already queued).
            self.bot.outbox.deliver(entries)

    @settings.command(
        name=text("cmd.settings.hints.name"),
        description=text("cmd.settings.hints.description"),
    )
    @app_commands.describe(allowed=text("cmd.settings.hints.allowed"))
    @app_commands.rename(allowed=text("cmd.settings.hints.allowed.name"))
    @app_commands.choices(allowed=HINT_CHOICES)
    async def hints(self, interaction: discord.Interaction, allowed: str) -> None:
        """Whether players in this server may ask for hints (``/hint``, the Hint button)."""
        async with guarded(interaction, None):
            if not can_manage(interaction) or interaction.guild_id is None:
                await reply(interaction, "settings.manage_only")
                return
            on = allowed == "on"
            await self.bot.store.set_hints_allowed(interaction.guild_id, on)
            await reply(interaction, "settings.hints.on" if on else "settings.hints.off")

    @settings.command(
        name=text("cmd.settings.replays.name"),
        description=text("cmd.settings.replays.description"),
    )
    @app_commands.describe(hands=text("cmd.settings.replays.hands"))
    @app_commands.rename(hands=text("cmd.settings.replays.hands.name"))
    @app_commands.choices(hands=HINT_CHOICES)
    async def replays(self, interaction: discord.Interaction, hands: str) -> None:
        """Whether replays of this server's ended games show every hand (``bot/replays``)."""
        async with guarded(interaction, None):
            if not can_manage(interaction) or interaction.guild_id is None:
                await reply(interaction, "settings.manage_only")
                return
            shown = hands == "on"
            await self.bot.store.set_replay_hands(interaction.guild_id, shown)
            self.bot.replays.forget_setting(interaction.guild_id)
            await reply(interaction, "settings.replays.on" if shown else "settings.replays.off")

    @settings.command(
        name=text("cmd.settings.images.name"),
        description=text("cmd.settings.images.description"),
    )
    @app_commands.describe(shown=text("cmd.settings.images.shown"))
    @app_commands.rename(shown=text("cmd.settings.images.shown.name"))
    @app_commands.choices(shown=HINT_CHOICES)
    async def images(self, interaction: discord.Interaction, shown: str) -> None:
        """Whether this server's games show pictures; the next message of each game follows."""
        async with guarded(interaction, None):
            if not can_manage(interaction) or interaction.guild_id is None:
                await reply(interaction, "settings.manage_only")
                return
            on = shown == "on"
            await self.bot.store.set_images_shown(interaction.guild_id, on)
            self.bot.publisher.pictures.remember_server(interaction.guild_id, on)
            await reply(interaction, "settings.images.on" if on else "settings.images.off")


async def reply_text(interaction: discord.Interaction, text: str) -> None:
    await Answer.of(interaction).send(text)


async def setup(bot: GloryBot) -> None:
    await bot.add_cog(Settings(bot))
