"""How a seat's move menu is laid out for clicking: the engine's menu tree, collapsed.

The engines name every action by a path of short tokens (``games.menu``), and a custom_id names
a menu position by the indices of those tokens in the whole tree (``controls.resolve``): that
meaning never changes, so a button sent before any change of layout still leads where it did.
What this module decides is only which positions a player is *shown*, and with what controls:

- **A level with one choice is taken at once** (shown in the breadcrumb), unless that choice
  is a whole move: a seat whose only move is a pass gets one button that plays it.
- **A whole decision in one control.** When every move below the shown level fits Discord's
  limits, each is offered as one control that plays it: up to ``MAX_BUTTONS`` buttons (labels
  up to ``BUTTON_LABEL``), else one select of up to ``SELECT_OPTIONS`` complete moves (labels
  up to ``OPTION_LABEL``). A button's custom_id names the move's whole index path; a select
  option's value names the path below the select's level, dot-separated ("2.0.1").
- **Otherwise the level's own choices**, as before: buttons when few, else a select, each
  leading to a position that is collapsed again.
- **Back goes to the level the player saw before**, never to one that was taken for them
  (which would collapse straight back to where they are).

Pure: the tree and a labelling function in, a ``Layout`` out. The bot renders it
(``controls``), and ``benchmarks/clicks.py`` counts clicks with the very same function.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.flows.session import LoadedGame
from games.menu import MenuTree

MAX_BUTTONS = 5
"""Up to this many controls appear as buttons (one row); more become a select."""
BUTTON_LABEL = 80
"""Discord's limit on a button's label."""
OPTION_LABEL = 100
"""Discord's limit on a select option's label."""
SELECT_OPTIONS = 25
"""Discord's limit on a select's options."""


@dataclass(frozen=True, slots=True)
class MenuEntry:
    """One control: where it leads (the whole index path from the top of the tree), the
    tokens below the shown level that its label names, and whether it plays a move."""

    path: tuple[int, ...]
    tokens: tuple[str, ...]
    whole: bool


@dataclass(frozen=True, slots=True)
class Layout:
    """What a seat on turn is shown at one menu position."""

    path: tuple[int, ...]
    """The position shown (the one asked for, with its one-choice levels taken)."""
    tokens: tuple[str, ...]
    """The tokens of ``path`` (the breadcrumb)."""
    entries: tuple[MenuEntry, ...]
    select: bool
    """One select of ``entries`` (else a button each)."""
    back: tuple[int, ...] | None
    """Where Back leads; ``None``: no Back (the first level the player sees)."""

    def relative(self, entry: MenuEntry) -> tuple[int, ...]:
        """``entry``'s path below the shown level (a select option's value)."""
        return entry.path[len(self.path) :]


def resolve(tree: MenuTree, path: Sequence[int]) -> tuple[str, ...] | None:
    """The menu tokens that the indices ``path`` stand for, or ``None`` if one is out of range."""
    tokens: tuple[str, ...] = ()
    for index in path:
        choices = tree.choices_at(tokens)
        if not 0 <= index < len(choices):
            return None
        tokens = (*tokens, choices[index])
    return tokens


def collapse(
    tree: MenuTree, path: tuple[int, ...], tokens: tuple[str, ...]
) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """``path`` with every following level that offers one choice (not a whole move) taken."""
    while True:
        choices = tree.choices_at(tokens)
        if len(choices) != 1 or tree.action_at((*tokens, choices[0])) is not None:
            return path, tokens
        path, tokens = (*path, 0), (*tokens, choices[0])


def layout(
    tree: MenuTree,
    path: Sequence[int],
    label: Callable[[tuple[str, ...]], str],
    *,
    collapsed: bool = True,
) -> Layout | None:
    """The controls shown at ``path`` (``None`` if the indices name no position).

    ``label(tokens)`` names a control that leads ``tokens`` below the shown level (one token
    for a level's choice, several for a complete move); a label too long for its control
    makes the layout offer the level's own choices instead. ``collapsed=False`` is the menu
    before this module: every level shown, one token per click (``benchmarks/clicks.py``
    counts both)."""
    asked = tuple(path)
    tokens = resolve(tree, asked)
    if tokens is None:
        return None
    shown = asked
    if collapsed:
        shown, tokens = collapse(tree, asked, tokens)
        whole = _whole_decision(tree, shown, tokens, label)
        if whole is not None:
            entries, select = whole
            return Layout(shown, tokens, entries, select, back_of(tree, shown))
    choices = tree.choices_at(tokens)
    entries = tuple(
        MenuEntry((*shown, index), (token,), tree.action_at((*tokens, token)) is not None)
        for index, token in enumerate(choices)
    )
    back = back_of(tree, shown) if collapsed else (shown[:-1] if shown else None)
    return Layout(shown, tokens, entries, len(entries) > MAX_BUTTONS, back)


def _whole_decision(
    tree: MenuTree,
    shown: tuple[int, ...],
    tokens: tuple[str, ...],
    label: Callable[[tuple[str, ...]], str],
) -> tuple[tuple[MenuEntry, ...], bool] | None:
    """Every move below ``tokens`` as one control each, if they fit: (entries, as a select)."""
    leaves = tree.leaves_below(tokens, SELECT_OPTIONS)
    if not leaves:
        return None
    if len(leaves) == 1 and len(leaves[0][1]) == 1:
        select = False  # the level's one choice: one button, whatever its label (clipped)
    else:
        longest = max(len(label(below)) for _, below in leaves)
        if len(leaves) <= MAX_BUTTONS and longest <= BUTTON_LABEL:
            select = False
        elif longest <= OPTION_LABEL:
            select = True
        else:
            return None
    entries = tuple(MenuEntry((*shown, *indices), below, True) for indices, below in leaves)
    return entries, select


def back_of(tree: MenuTree, shown: tuple[int, ...]) -> tuple[int, ...] | None:
    """The position the player saw before ``shown``: the nearest level above it that is not
    taken for them on the way to it (``None`` at the first level they see)."""
    for cut in range(len(shown) - 1, -1, -1):
        above = shown[:cut]
        tokens = resolve(tree, above)
        assert tokens is not None
        seen, _ = collapse(tree, above, tokens)
        if seen != shown:
            return seen
    return None


def join_labels(labels: Sequence[str], separator: str) -> str:
    """The label of a control that leads several tokens down: "Counter › Spear (2)"."""
    return separator.join(labels)


def menu_tree(loaded: LoadedGame) -> MenuTree:
    """The menu of the loaded state's decision, walked once per state (every click in it and
    every render of it share the walk)."""
    state = loaded.state
    assert state is not None
    return loaded.derived(("menu",), lambda: MenuTree.of(state.legal_actions()))
