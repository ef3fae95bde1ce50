"""Russian messages of ``/settings``: the command's metadata, language names, confirmations.

Language names stay endonyms in every catalog, so readers find their language whatever their
client shows.
"""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "cmd.settings.name": "настройки",
    "cmd.settings.description": "Настройки бота для этого сервера (право «Управлять сервером»)",
    "cmd.settings.language.name": "язык",
    "cmd.settings.language.description": "Язык публичных сообщений бота на этом сервере",
    "cmd.settings.language.language": "Какой язык (по умолчанию — язык сервера)",
    "language.en": "English",
    "language.de": "Deutsch",
    "language.ru": "Русский",
    "language.default": "Как на сервере",
    "settings.manage_only": (
        "Менять настройки бота могут только участники с правом «Управлять сервером»."
    ),
    "settings.language.saved": (
        "Готово: публичные сообщения на этом сервере теперь выходят на этом языке: {language}."
    ),
    "settings.language.default_saved": (
        "Готово: публичные сообщения снова следуют языку сервера в Discord: {language}."
    ),
    "settings.games_updated": {
        "one": "{count} открытая игра переключена.",
        "few": "{count} открытые игры переключены.",
        "many": "{count} открытых игр переключено.",
        "other": "{count} открытой игры переключено.",
    },
}
