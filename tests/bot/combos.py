"""Which games, player counts and options the end-to-end tests play to the end.

Every player count of every game with every combination of the options that change the rules.
Options that only make a game longer (``QUICK``) take their shortest value, unless a rule
option needs another one (Imperial Tasks always last three rounds); their other values are
set through the lobby in ``test_lobby.py`` and played to the end without Discord in
``test_rendering.py``.
"""

from __future__ import annotations

import itertools
from typing import Any

from games import REGISTRY, Game, InvalidOptions

QUICK: dict[str, dict[str, Any]] = {"call_to_glory": {"rounds": 1}, "kami": {"target": 5}}


def _resolved(game: Game, players: int, options: dict[str, Any]) -> dict[str, Any] | None:
    try:
        return game.resolve_options(players, options)
    except InvalidOptions:
        return None


def rule_combinations(game: Game, players: int) -> list[dict[str, Any]]:
    """Each combination of the rule options that matter for ``players``, quickest length."""
    quick = QUICK.get(game.key, {})
    rules = [o for o in game.options if o.applies_to(players) and o.name not in quick]
    cases = []
    for values in itertools.product(*(o.choices for o in rules)):
        options = dict(zip((o.name for o in rules), values, strict=True))
        shortest = _resolved(game, players, {**options, **quick})
        if shortest is not None:
            cases.append({**options, **quick})
        elif _resolved(game, players, options) is not None:
            cases.append(options)
    return cases


def e2e_cases() -> list[tuple[str, int, dict[str, Any]]]:
    return [
        (key, players, options)
        for key, game in REGISTRY.items()
        for players in game.player_counts
        for options in rule_combinations(game, players)
    ]
