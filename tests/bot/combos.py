"""Which games, player counts and options the end-to-end tests play.

A complete game through SimCord costs seconds, so the end-to-end matrix is a covering set:
every player count of every game, and every value of every option at least once (for the
options that matter at that count). The full product of options is played by
``test_rendering.py`` through the same menus and presenters without Discord.
"""

from __future__ import annotations

from itertools import cycle
from typing import Any

from games import REGISTRY, Game, InvalidOptions


def _valid(game: Game, players: int, options: dict[str, Any]) -> bool:
    try:
        game.resolve_options(players, options)
    except InvalidOptions:
        return False
    return True


QUICK: dict[str, dict[str, Any]] = {"call_to_glory": {"rounds": 1}, "kami": {"target": 5}}
"""Options that only make a game longer; complete games through Discord use the shortest value
(the others are played to the end in test_rendering.py and set through the lobby in
test_lobby.py)."""


def covering(game: Game) -> list[tuple[int, dict[str, Any]]]:
    """(players, options) cases covering each count and each applicable option value."""
    quick = QUICK.get(game.key, {})
    needed = {
        (option.name, value, players)
        for players in game.player_counts
        for option in game.options
        if option.applies_to(players) and option.players is not None
        for value in option.choices
    } | {
        (option.name, value, None)
        for option in game.options
        if option.players is None and option.name not in quick
        for value in option.choices
    }
    cases: list[tuple[int, dict[str, Any]]] = []
    counts = cycle(game.player_counts)
    for _attempt in range(100):
        if not needed and len(cases) >= len(game.player_counts):
            return cases
        players = next(counts)
        options: dict[str, Any] = {}
        applicable = [o for o in game.options if o.applies_to(players)]
        for option in applicable:  # values still to cover first …
            scope = players if option.players is not None else None
            wanted = [v for v in option.choices if (option.name, v, scope) in needed]
            if wanted and _valid(game, players, dict(options, **{option.name: wanted[0]})):
                options[option.name] = wanted[0]
        for option in applicable:  # … then the quickest compatible values
            if option.name not in options:
                quickest = quick.get(option.name, option.default)
                fits = _valid(game, players, dict(options, **{option.name: quickest}))
                options[option.name] = quickest if fits else option.default
        covers = {(n, v, None) for n, v in options.items()} | {
            (n, v, players) for n, v in options.items()
        }
        seen = {n for n, _ in cases}
        if not _valid(game, players, options) or (players in seen and not covers & needed):
            continue
        cases.append((players, options))
        for name, value in options.items():
            needed.discard((name, value, None))
            needed.discard((name, value, players))
    raise AssertionError(f"cannot cover {sorted(needed, key=str)} of {game.key}")


def e2e_cases() -> list[tuple[str, int, dict[str, Any]]]:
    return [(key, n, opts) for key, game in REGISTRY.items() for n, opts in covering(game)]
