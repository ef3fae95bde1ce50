"""English names of the slash commands' options (``app_commands.rename``).

Each is ``cmd.<command>.<option>.name`` (``cmd.<group>.<command>.<option>.name`` in a group);
``cmd.<command>.<option>`` beside it is the option's description. English keeps the names the
code uses; German and Russian users see their own (Discord: lower case, no spaces, ≤ 32).
"""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "cmd.play.game.name": "game",
    "cmd.play.options.name": "options",
    "cmd.rules.game.name": "game",
    "cmd.standings.game.name": "game",
    "cmd.standings.with_ai.name": "with_ai",
    "cmd.settings.language.language.name": "language",
    "cmd.settings.hints.allowed.name": "allowed",
}
