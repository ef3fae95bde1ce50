"""English messages of ``/settings``: the command's metadata, language names, confirmations."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "cmd.settings.name": "settings",
    "cmd.settings.description": "This server's settings for the bot (Manage Server)",
    "cmd.settings.language.name": "language",
    "cmd.settings.language.description": "The language of the bot's public messages here",
    "cmd.settings.language.language": "Which language (server default: the server's language)",
    # Language names are endonyms: a reader finds their language whatever the client shows.
    "language.en": "English",
    "language.de": "Deutsch",
    "language.ru": "Русский",
    "language.default": "Server default",
    "settings.manage_only": "Only members with Manage Server can change the bot's settings.",
    "settings.language.saved": (
        "Done: public messages in this server now appear in this language: {language}."
    ),
    "settings.language.default_saved": (
        "Done: public messages follow the server's Discord language again: {language}."
    ),
    "settings.games_updated": {
        "one": "{count} open game was switched over.",
        "other": "{count} open games were switched over.",
    },
}
