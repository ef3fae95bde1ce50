"""The message catalog: every user-visible string, keyed by message id.

Why one catalog: the bot speaks English, German and Russian, so the UI code never holds a
literal; it asks ``t(key, locale, **params)``. Each locale is a module ``bot.i18n.<code>`` with a
``MESSAGES`` dict carrying the same keys and placeholders. A message is either a format string or
a dict of CLDR plural categories (``one``/``few``/``many``/``other``) chosen by the ``count``
parameter. Missing locales or keys fall back to English.

Texts that name one of our slash commands or buttons never spell the name out: they use a
*reference* placeholder, ``{cmd_<command>}`` (``/`` and the catalog's ``cmd.<command>.name``, e.g.
``{cmd_play}`` reads ``/spielen`` in German) or ``{button_<button>}`` (the catalog's
``button.<button>``, e.g. ``{button_my_hand}``). ``t`` fills them from the same locale's catalog,
so callers pass nothing for them and a renamed command or button reads right everywhere.
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

REFERENCES: dict[str, tuple[str, str]] = {
    "cmd_": ("cmd.{}.name", "/{}"),
    "button_": ("button.{}", "{}"),
}
"""Reference placeholder prefix → (the catalog key it names, how the name is shown)."""


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
        code, message = DEFAULT_LOCALE, catalog(DEFAULT_LOCALE)[key]
    if isinstance(message, dict):
        return code, {form: _fill_references(text, code) for form, text in message.items()}
    return code, _fill_references(message, code)


def reference(field: str, locale: str) -> str | None:
    """The text of reference placeholder ``field`` in ``locale`` (``None``: not a reference).

    Raises ``KeyError`` when it names a command or button the catalog does not have.
    """
    for prefix, (key, shown) in REFERENCES.items():
        if field.startswith(prefix):
            name = t(key.format(field.removeprefix(prefix)), locale)
            return shown.format(name)
    return None


def _fill_references(text: str, locale: str) -> str:
    """``text`` with its reference placeholders replaced by their names (the rest untouched)."""
    if "{" not in text:
        return text
    parts = []
    for literal, field, spec, conversion in string.Formatter().parse(text):
        parts.append(_escape(literal))
        if field is None:
            continue
        name = reference(field, locale)
        if name is not None:
            parts.append(_escape(name))
            continue
        parts.append("{" + field + (f"!{conversion}" if conversion else ""))
        parts.append((f":{spec}" if spec else "") + "}")
    return "".join(parts)


def _escape(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def placeholders(message: Message) -> set[str]:
    """The named placeholders a message uses (all plural forms together)."""
    texts = message.values() if isinstance(message, dict) else [message]
    return {field for text in texts for _, field, _, _ in string.Formatter().parse(text) if field}
