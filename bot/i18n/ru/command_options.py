"""Russian names of the slash commands' options (lower case, no spaces, ≤ 32 characters)."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "cmd.play.game.name": "игра",
    "cmd.play.options.name": "настройки",
    "cmd.rules.game.name": "игра",
    "cmd.standings.game.name": "игра",
    "cmd.standings.with_ai.name": "с_ии",
    "cmd.settings.language.language.name": "язык",
    "cmd.settings.hints.allowed.name": "разрешены",
}
