"""Nested menus built from the legal actions' menu paths.

Discord offers at most 25 options per select menu, so every engine names its actions by short
paths (``("lay", "card:20", "count:6")``) and a UI walks them level by level. These helpers are
pure so the bot and the tests share one definition of that tree.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

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
