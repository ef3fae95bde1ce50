"""German messages of ``/settings``: the command's metadata, language names, confirmations.

Language names stay endonyms in every catalog, so readers find their language whatever their
client shows.
"""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "cmd.settings.name": "einstellungen",
    "cmd.settings.description": "Die Einstellungen des Bots für diesen Server (Server verwalten)",
    "cmd.settings.language.name": "sprache",
    "cmd.settings.language.description": "Die Sprache der öffentlichen Nachrichten des Bots hier",
    "cmd.settings.language.language": "Welche Sprache (Server-Standard: die Sprache des Servers)",
    "language.en": "English",
    "language.de": "Deutsch",
    "language.ru": "Русский",
    "language.default": "Server-Standard",
    "settings.manage_only": (
        "Nur Mitglieder mit der Berechtigung „Server verwalten“ können die Einstellungen des Bots "
        "ändern."
    ),
    "settings.language.saved": (
        "Erledigt: Öffentliche Nachrichten erscheinen auf diesem Server jetzt in dieser Sprache: "
        "{language}."
    ),
    "settings.language.default_saved": (
        "Erledigt: Öffentliche Nachrichten folgen wieder der Discord-Sprache des Servers: "
        "{language}."
    ),
    "settings.games_updated": {
        "one": "{count} offenes Spiel wurde umgestellt.",
        "other": "{count} offene Spiele wurden umgestellt.",
    },
}
