"""Slash-command metadata through ``app_commands.locale_str`` and a catalog ``Translator``.

Why: Discord shows command names and descriptions in each user's language only if the bot
uploads translations at sync time; the English text is the catalog's, and the translator looks up
the same key in the other catalogs once they exist.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import DEFAULT_LOCALE, catalog, normalise_locale, t


def text(key: str) -> app_commands.locale_str:
    """The English catalog text of ``key``, tagged with the key for the translator."""
    return app_commands.locale_str(t(key, DEFAULT_LOCALE), key=key)


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        code = normalise_locale(locale)
        if key is None or code == DEFAULT_LOCALE:
            return None
        message = catalog(code).get(key)
        return message if isinstance(message, str) else None
