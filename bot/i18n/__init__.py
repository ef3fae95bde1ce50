"""The message catalog: every user-visible string, keyed by message id.

Why one catalog: the bot speaks English, German and Russian, so the UI code never holds a
literal; it asks ``t(key, locale, **params)``. Each locale is a module ``bot.i18n.<code>`` with a
``MESSAGES`` dict carrying the same keys and placeholders. A message is either a format string or
a dict of CLDR plural categories (``one``/``few``/``many``/``other``) chosen by the ``count``
parameter. Missing locales or keys fall back to English.
"""

from __future__ import annotations

import importlib
import string
from functools import cache
from typing import Any

from bot.i18n.plural import plural_category

DEFAULT_LOCALE = "en"
LOCALES: tuple[str, ...] = ("en", "de", "ru")
"""Locales with a catalog. Adding one means adding the package ``bot/i18n/<code>/``."""

Message = str | dict[str, str]


@cache
def catalog(locale: str) -> dict[str, Message]:
    """The messages of ``locale`` (empty for a locale without a catalog)."""
    if locale not in LOCALES:
        return {}
    module = importlib.import_module(f"bot.i18n.{locale}")
    return module.MESSAGES


def normalise_locale(locale: object) -> str:
    """``discord.Locale.german`` / ``"de"`` / ``"en-US"`` → the catalog code (``de``, ``en``)."""
    text = str(getattr(locale, "value", locale) or DEFAULT_LOCALE)
    return text.split("-")[0].lower()


def supported_locale(locale: object) -> str:
    """The catalog code for ``locale`` if we have that catalog, else English (``fr`` → ``en``)."""
    code = normalise_locale(locale)
    return code if code in LOCALES else DEFAULT_LOCALE


def has(key: str) -> bool:
    """Whether the English catalog defines ``key`` (used for optional, game-specific labels)."""
    return key in catalog(DEFAULT_LOCALE)


def t(key: str, locale: object = DEFAULT_LOCALE, /, **params: Any) -> str:
    """The message ``key`` in ``locale``, formatted with ``params``.

    Raises ``KeyError`` for a key missing from English too: a typo should fail tests loudly
    rather than show a raw id to players.
    """
    code, message = _lookup(key, locale)
    if isinstance(message, dict):
        count = params.get("count", 0)
        category = plural_category(code, count)
        message = message.get(category) or message["other"]
    # ``str.format_map`` is the C implementation of ``string.Formatter().vformat`` (same
    # syntax and result); rendering a move calls ``t`` hundreds of times.
    return message.format_map(params)


@cache
def _lookup(key: str, locale: object) -> tuple[str, Message]:
    """The catalog code and the message for ``key`` in ``locale``, with the English fallback.

    Cached because the catalogs never change while the process runs and every rendered line
    asks for one; a missing key raises ``KeyError``, which ``cache`` does not remember.
    """
    code = normalise_locale(locale)
    message = catalog(code).get(key)
    if message is None:
        return DEFAULT_LOCALE, catalog(DEFAULT_LOCALE)[key]
    return code, message


def placeholders(message: Message) -> set[str]:
    """The named placeholders a message uses (all plural forms together)."""
    texts = message.values() if isinstance(message, dict) else [message]
    return {field for text in texts for _, field, _, _ in string.Formatter().parse(text) if field}
