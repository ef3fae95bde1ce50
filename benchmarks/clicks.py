"""Clicks a player needs per decision and per turn, through the bot's own move menus.

Plays complete games of every game and player count (random legal moves, and moves the AI
chooses), and for every decision counts the clicks a player makes in their hand to play the
chosen move: from the first level shown, each click on the control that leads towards it,
until one plays it. The menus are the bot's (``bot.messages.menu_layout.layout`` with the labels
``bot.messages.controls.entry_label`` makes, in the chosen language), laid out two ways:

- ``before``: every level of the engine's menu, one token per click (the menus before
  issue 29; ``layout(..., collapsed=False)``);
- ``after``: the collapsed menu the bot shows now (levels with one choice taken, whole
  decisions offered as complete moves).

A turn is a seat's decisions in a row (a Call to Glory turn: draw, then lay or discard).
A decision with one legal move costs one click (its button); ``auto-pass`` counts it as none,
as for a player who turned on ``/autopass``.

    python benchmarks/clicks.py                     # 20 random + 3 AI games per configuration
    python benchmarks/clicks.py --random 50 --ai 5 --locale de
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.flows.session import LoadedGame
from bot.messages.controls import entry_label
from bot.messages.menu_layout import layout
from bot.render import presenter_for
from bot.storage.models import GameRow, GameStatus, SeatRow
from games import REGISTRY, Action, State
from games.ai import decide
from games.menu import MenuTree

AI_LEVEL = "easy"
"""The AI that chooses the moves of the AI games (its choices, not its strength, matter)."""
NAMES = ("Alexandra", "Benedikt", "Чеслава", "Dmitri")


def index_path(tree: MenuTree, action: Action) -> tuple[int, ...]:
    """The indices of ``action``'s menu path in the whole tree (what a custom_id names)."""
    indices, tokens = [], ()
    for token in action.menu_path:
        indices.append(tree.choices_at(tokens).index(token))
        tokens = (*tokens, token)
    return tuple(indices)


def clicks_for(
    tree: MenuTree,
    action: Action,
    label: Callable[[tuple[str, ...]], str],
    *,
    collapsed: bool,
) -> int:
    """The clicks that play ``action`` from the first level a hand shows."""
    target = index_path(tree, action)
    path: tuple[int, ...] = ()
    for clicks in range(1, 30):
        shown = layout(tree, path, label, collapsed=collapsed)
        assert shown is not None
        entry = next(e for e in shown.entries if target[: len(e.path)] == e.path)
        if entry.whole:
            assert entry.path == target
            return clicks
        path = entry.path
    raise AssertionError("a menu deeper than 30 levels")


def loaded_for(key: str, state: State, players: int) -> LoadedGame:
    """A running game around ``state``, as the bot loads one (for its labels)."""
    row = GameRow(id=1, guild_id=1, channel_id=1, host_id=1, game_key=key, version=1)
    row.status = GameStatus.ACTIVE
    seats = [
        SeatRow(game_id=1, seat=seat, user_id=seat + 1, display_name=NAMES[seat])
        for seat in range(players)
    ]
    return LoadedGame(row, seats, REGISTRY[key], state)


@dataclass
class Counts:
    decisions: dict[str, list[int]] = field(default_factory=lambda: {"before": [], "after": []})
    turns: dict[str, list[int]] = field(default_factory=lambda: {"before": [], "after": []})
    auto_turns: list[int] = field(default_factory=list)
    auto_decisions: list[int] = field(default_factory=list)
    forced: int = 0


def play(key: str, players: int, seed: int, chooser: str, locale: str, counts: Counts) -> None:
    """One game, every decision counted both ways."""
    state = REGISTRY[key].new_state(players, seed)
    rng = random.Random(seed)
    presenter = presenter_for(key)
    names = NAMES[:players]
    turn: dict[str, int] = {"before": 0, "after": 0, "auto": 0}
    turn_seat: int | None = None
    step = 0
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        if seat != turn_seat and turn_seat is not None:
            for mode in ("before", "after"):
                counts.turns[mode].append(turn[mode])
            counts.auto_turns.append(turn["auto"])
            turn = {"before": 0, "after": 0, "auto": 0}
        turn_seat = seat
        actions = state.legal_actions()
        if chooser == "ai":
            action = decide(state, seat=seat, level=AI_LEVEL, seed=seed * 100_003 + step).action
        else:
            action = rng.choice(actions)
        tree = MenuTree.of(actions)
        loaded = loaded_for(key, state, players)

        def label(tokens: tuple[str, ...], loaded: LoadedGame = loaded, seat: int = seat) -> str:
            return entry_label(loaded, presenter, seat, tokens, names, locale)

        for mode in ("before", "after"):
            clicks = clicks_for(tree, action, label, collapsed=mode == "after")
            counts.decisions[mode].append(clicks)
            turn[mode] += clicks
        forced = len(actions) == 1
        counts.forced += forced
        auto = 0 if forced else counts.decisions["after"][-1]
        counts.auto_decisions.append(auto)
        turn["auto"] += auto
        state.apply(action)
        step += 1
    if turn_seat is not None:
        for mode in ("before", "after"):
            counts.turns[mode].append(turn[mode])
        counts.auto_turns.append(turn["auto"])


def p90(values: list[int]) -> float:
    return statistics.quantiles(values, n=10, method="inclusive")[-1] if len(values) > 1 else 0


def figures(values: list[int]) -> str:
    """Median, p90 and mean."""
    return f"{statistics.median(values):>3g} {p90(values):>3g} {statistics.fmean(values):>5.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random", type=int, default=20, help="random games per configuration")
    parser.add_argument("--ai", type=int, default=3, help="AI games per configuration")
    parser.add_argument("--locale", default="en", choices=("en", "de", "ru"))
    parser.add_argument("--only", choices=sorted(REGISTRY), help="one game")
    args = parser.parse_args()
    print(
        "clicks per decision and per turn (median, p90, mean); before = every menu level,"
        " after = the collapsed menu; auto = after, forced moves made for the player"
    )
    header = (
        f"{'game':<16}{'pl':>3}{'moves':>7}{'forced':>7}"
        f"  {'decision before':>15}  {'after':>13}  {'auto':>13}"
        f"  {'turn before':>13}  {'after':>13}  {'auto':>13}"
    )
    print(header)
    for key, game in REGISTRY.items():
        if args.only and key != args.only:
            continue
        for players in game.player_counts:
            counts = Counts()
            for seed in range(args.random):
                play(key, players, seed, "random", args.locale, counts)
            for seed in range(args.ai):
                play(key, players, 10_000 + seed, "ai", args.locale, counts)
            moves = len(counts.decisions["after"])
            print(
                f"{key:<16}{players:>3}{moves:>7}{counts.forced / moves:>7.0%}"
                f"  {figures(counts.decisions['before']):>15}"
                f"  {figures(counts.decisions['after']):>13}"
                f"  {figures(counts.auto_decisions):>13}"
                f"  {figures(counts.turns['before']):>13}"
                f"  {figures(counts.turns['after']):>13}"
                f"  {figures(counts.auto_turns):>13}",
                flush=True,
            )


if __name__ == "__main__":
    main()
