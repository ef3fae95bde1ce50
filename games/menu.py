"""Nested menus built from the legal actions' menu paths.

Discord offers at most 25 options per select menu, so every engine names its actions by short
paths (``("lay", "card:20", "count:6")``) and a UI walks them level by level. These helpers are
pure so the bot and the tests share one definition of that tree.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from games.core import Action

MAX_CHOICES = 25
TOKEN = re.compile(r"^[a-z][a-z0-9_]*(:[a-z0-9_.\-]+)?$")


def choices_at(actions: Sequence[Action], prefix: Sequence[str] = ()) -> list[str]:
    """The distinct tokens that follow ``prefix``, in the order the engine listed them."""
    depth = len(prefix)
    prefix = tuple(prefix)
    seen: dict[str, None] = {}
    for action in actions:
        path = action.menu_path
        if len(path) > depth and path[:depth] == prefix:
            seen.setdefault(path[depth], None)
    return list(seen)


def action_at(actions: Sequence[Action], path: Sequence[str]) -> Action | None:
    """The action whose whole menu path is ``path``, if any."""
    path = tuple(path)
    for action in actions:
        if action.menu_path == path:
            return action
    return None


@dataclass(frozen=True)
class MenuTree:
    """The whole menu of one decision, walked once: what ``choices_at`` and ``action_at``
    answer, for every level, without scanning the actions again.

    A UI asks for several levels per click (the path clicked, the level it opens, the labels
    of both); one pass over the actions answers all of them.
    """

    levels: dict[tuple[str, ...], tuple[str, ...]]
    """Per prefix that leads somewhere: the tokens that follow it, in the engine's order."""
    leaves: dict[tuple[str, ...], Action]
    """Per whole menu path: its action."""

    @classmethod
    def of(cls, actions: Sequence[Action]) -> MenuTree:
        levels: dict[tuple[str, ...], dict[str, None]] = {}
        leaves: dict[tuple[str, ...], Action] = {}
        for action in actions:
            path = action.menu_path
            for depth, token in enumerate(path):
                levels.setdefault(path[:depth], {}).setdefault(token, None)
            leaves.setdefault(path, action)
        return cls({prefix: tuple(tokens) for prefix, tokens in levels.items()}, leaves)

    def choices_at(self, prefix: Sequence[str] = ()) -> tuple[str, ...]:
        """``choices_at(actions, prefix)``."""
        return self.levels.get(tuple(prefix), ())

    def action_at(self, path: Sequence[str]) -> Action | None:
        """``action_at(actions, path)``."""
        return self.leaves.get(tuple(path))

    def leaves_below(
        self, prefix: Sequence[str], limit: int
    ) -> list[tuple[tuple[int, ...], tuple[str, ...]]] | None:
        """Every whole path below ``prefix`` as (indices, tokens) relative to it, in the
        engine's order; ``None`` as soon as there are more than ``limit`` (a UI that offers a
        whole decision as one control asks only whether it fits, so the walk stops early)."""
        found: list[tuple[tuple[int, ...], tuple[str, ...]]] = []
        stack: list[tuple[tuple[int, ...], tuple[str, ...]]] = [((), ())]
        base = tuple(prefix)
        while stack:
            indices, tokens = stack.pop()
            here = (*base, *tokens)
            if here in self.leaves and tokens:
                found.append((indices, tokens))
                if len(found) > limit:
                    return None
                continue
            children = self.levels.get(here, ())
            for index in range(len(children) - 1, -1, -1):
                stack.append(((*indices, index), (*tokens, children[index])))
        return found

    def tokens(self) -> list[str]:
        """Every token of every level, each once."""
        return list(dict.fromkeys(token for level in self.levels.values() for token in level))


def menu_problems(actions: Sequence[Action]) -> list[str]:
    """Everything that would stop a UI from offering ``actions`` as a nested menu."""
    problems: list[str] = []
    paths = [action.menu_path for action in actions]
    if len(set(paths)) != len(paths):
        problems.append("two actions share a menu path")
    path_set = set(paths)
    for path in paths:
        if not path:
            problems.append("an action has an empty menu path")
            continue
        for token in path:
            if not TOKEN.match(token) or len(token) > 40:
                problems.append(f"bad menu token {token!r}")
        for cut in range(1, len(path)):
            if path[:cut] in path_set:
                problems.append(f"menu path {path[:cut]} is also a prefix of {path}")
    prefixes = {path[:cut] for path in paths for cut in range(len(path))}
    for prefix in prefixes:
        count = len(choices_at(actions, prefix))
        if count > MAX_CHOICES:
            problems.append(f"{count} choices after {prefix} (more than {MAX_CHOICES})")
    return problems
