"""Reading ``/play``'s optional ``options`` text ("rounds=1 ninja=on") against a game's options.

Why text: the games declare different options, and one ``/play`` command serves them all; the
lobby's menus remain the comfortable way, this is the quick one. Values are checked by the
engine's own ``Option.parse``, so the bot adds no rule.
"""

from __future__ import annotations

from typing import Any

from games import Game, InvalidOptions

TRUE = {"on", "yes", "true", "1"}
FALSE = {"off", "no", "false", "0"}


def parse_options(game: Game, text: str | None) -> dict[str, Any]:
    """``name=value`` pairs separated by spaces or commas; ``InvalidOptions`` on a bad one."""
    chosen: dict[str, Any] = {}
    for pair in (text or "").replace(",", " ").split():
        name, equals, raw = pair.partition("=")
        option = game.option(name.strip().lower())  # raises unknown_option
        if not equals:
            raise InvalidOptions("bad_value", f"{name} needs a value", option=option.name)
        chosen[option.name] = option.parse(_convert(option.type, raw.strip().lower()))
    return chosen


def _convert(kind: type, raw: str) -> Any:
    if kind is bool:
        return True if raw in TRUE else False if raw in FALSE else raw
    if kind is int:
        return int(raw) if raw.lstrip("-").isdigit() else raw
    return raw
