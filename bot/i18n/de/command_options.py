"""German names of the slash commands' options (lower case, no spaces, ≤ 32 characters)."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "cmd.play.game.name": "spiel",
    "cmd.play.options.name": "optionen",
    "cmd.rules.game.name": "spiel",
    "cmd.standings.game.name": "spiel",
    "cmd.standings.with_ai.name": "mit_ki",
    "cmd.settings.language.language.name": "sprache",
    "cmd.settings.hints.allowed.name": "erlaubt",
}
