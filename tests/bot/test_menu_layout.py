"""The collapsed move menu (``bot/messages/menu_layout.py``): fewer clicks, the same moves.

Every rule is checked on the real engines' menus along random games of every game and player
count, with the bot's labels in every language: each move stays reachable and nothing else is,
a level with one choice is taken, whole decisions that fit are one control, Back returns to
the level the player saw, and index paths keep their meaning (old buttons).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from benchmarks.clicks import clicks_for, index_path, loaded_for
from bot.i18n import LOCALES
from bot.messages.controls import entry_label
from bot.messages.menu_layout import (
    BUTTON_LABEL,
    MAX_BUTTONS,
    OPTION_LABEL,
    SELECT_OPTIONS,
    Layout,
    collapse,
    layout,
    resolve,
)
from bot.render import presenter_for
from games import REGISTRY, Action, State
from games.menu import MenuTree


def states(key: str, players: int, seed: int, every: int = 7) -> Iterator[State]:
    """Decisions along one random game (every ``every``-th, and every forced one)."""
    state = REGISTRY[key].new_state(players, seed)
    rng = random.Random(seed)
    step = 0
    while not state.is_over:
        actions = state.legal_actions()
        if step % every == 0 or len(actions) == 1:
            yield state.clone()
        state.apply(rng.choice(actions))
        step += 1


CONFIGS = [(key, players) for key, game in REGISTRY.items() for players in game.player_counts]


def labeller(key: str, state: State, locale: str):  # type: ignore[no-untyped-def]
    loaded = loaded_for(key, state, len(state.sides))
    presenter = presenter_for(key)
    names = tuple(f"Player {n}" for n in range(len(state.sides)))
    seat = state.to_move

    def label(tokens: tuple[str, ...]) -> str:
        return entry_label(loaded, presenter, seat, tokens, names, locale)

    return label


def reachable(tree: MenuTree, label, path=(), seen=None) -> set[tuple[str, ...]]:  # type: ignore[no-untyped-def]
    """Every move a player can play by clicking from ``path`` (Back aside)."""
    seen = set() if seen is None else seen
    shown = layout(tree, path, label)
    assert shown is not None
    moves: set[tuple[str, ...]] = set()
    for entry in shown.entries:
        tokens = resolve(tree, entry.path)
        assert tokens is not None, "a control leads nowhere"
        if entry.whole:
            assert tree.action_at(tokens) is not None
            moves.add(tokens)
        else:
            assert tree.action_at(tokens) is None
            if entry.path not in seen:
                seen.add(entry.path)
                moves |= reachable(tree, label, entry.path, seen)
    return moves


@pytest.mark.parametrize(("key", "players"), CONFIGS)
def test_every_legal_move_stays_reachable_and_nothing_else(key: str, players: int) -> None:
    for state in states(key, players, seed=players):
        actions = state.legal_actions()
        tree = MenuTree.of(actions)
        for locale in LOCALES:
            label = labeller(key, state, locale)
            assert reachable(tree, label) == {a.menu_path for a in actions}


@pytest.mark.parametrize(("key", "players"), CONFIGS)
def test_controls_fit_discords_limits_in_every_language(key: str, players: int) -> None:
    for state in states(key, players, seed=10 + players):
        tree = MenuTree.of(state.legal_actions())
        for locale in LOCALES:
            label = labeller(key, state, locale)
            stack: list[tuple[int, ...]] = [()]
            while stack:
                shown = layout(tree, stack.pop(), label)
                assert shown is not None
                limit = SELECT_OPTIONS if shown.select else MAX_BUTTONS
                assert 1 <= len(shown.entries) <= limit
                for entry in shown.entries:
                    text = label(entry.tokens)
                    if len(entry.tokens) > 1:  # a complete move's label is never clipped
                        assert len(text) <= (OPTION_LABEL if shown.select else BUTTON_LABEL)
                    if shown.select:
                        value = ".".join(map(str, shown.relative(entry)))
                        assert len(value) <= 100
                    if not entry.whole:
                        stack.append(entry.path)


def test_a_level_with_one_choice_is_taken_and_shown_in_the_breadcrumb() -> None:
    # Call to Glory's draw: "Draw" is the only top-level choice; the sources are offered.
    state = next(
        s
        for s in states("call_to_glory", 2, seed=1, every=1)
        if MenuTree.of(s.legal_actions()).choices_at(()) == ("draw",)
    )
    tree = MenuTree.of(state.legal_actions())
    shown = layout(tree, (), labeller("call_to_glory", state, "en"))
    assert shown is not None
    assert shown.path == (0,) and shown.tokens == ("draw",)
    assert all(entry.whole for entry in shown.entries) and not shown.select
    assert shown.back is None  # nothing above it was ever shown


def test_a_forced_pass_is_one_button_that_plays_it() -> None:
    state = next(
        s
        for s in states("kami", 4, seed=3, every=1)
        if [a.menu_path for a in s.legal_actions()] == [("pass",)]
    )
    tree = MenuTree.of(state.legal_actions())
    shown = layout(tree, (), labeller("kami", state, "en"))
    assert shown is not None
    assert len(shown.entries) == 1 and shown.entries[0].whole and not shown.select
    assert shown.entries[0].path == (0,)
    assert labeller("kami", state, "en")(shown.entries[0].tokens) == "Pass"


def test_a_whole_decision_that_fits_is_one_select_of_complete_moves() -> None:
    # A Call to Glory lay-or-discard decision: "Discard a card › Monk (18) › Discard pile 2".
    for state in states("call_to_glory", 3, seed=4, every=1):
        actions = state.legal_actions()
        tree = MenuTree.of(actions)
        if set(tree.choices_at(())) >= {"lay", "discard"} and 5 < len(actions) <= 25:
            break
    else:
        pytest.fail("no lay-or-discard decision with 6 to 25 moves")
    label = labeller("call_to_glory", state, "en")
    shown = layout(tree, (), label)
    assert shown is not None and shown.select and shown.path == ()
    assert len(shown.entries) == len(actions)
    discard = next(e for e in shown.entries if e.tokens[0] == "discard")
    assert label(discard.tokens).startswith("Discard a card › ")
    assert " › Discard pile " in label(discard.tokens)


def test_too_many_moves_show_the_level_and_then_the_rest_in_one_control() -> None:
    # Clans and Glory: "Seat a card" is taken, the cards are offered; a card's boards and
    # seats then come as complete moves (two clicks for the whole decision).
    for state in states("clans_and_glory", 2, seed=5, every=1):
        tree = MenuTree.of(state.legal_actions())
        if len(state.legal_actions()) > SELECT_OPTIONS:
            break
    else:
        pytest.fail("no decision with more moves than a select holds")
    label = labeller("clans_and_glory", state, "en")
    shown = layout(tree, (), label)
    assert shown is not None and shown.tokens == ("place",)
    assert not any(entry.whole for entry in shown.entries)
    card = layout(tree, shown.entries[0].path, label)
    assert card is not None and all(entry.whole for entry in card.entries)
    assert card.back == shown.path


def test_back_returns_to_the_level_the_player_saw() -> None:
    for key, players in CONFIGS:
        for state in states(key, players, seed=6):
            tree = MenuTree.of(state.legal_actions())
            label = labeller(key, state, "en")
            first = layout(tree, (), label)
            assert first is not None and first.back is None
            for entry in first.entries:
                if entry.whole:
                    continue
                deeper = layout(tree, entry.path, label)
                assert deeper is not None and deeper.back == first.path
                again = layout(tree, deeper.back, label)
                assert again == first


def test_an_old_buttons_index_path_keeps_its_meaning() -> None:
    """A button sent before the menus collapsed names a level of the whole tree: it shows that
    level (collapsed from there), and a whole path plays the same move as ever."""
    state = next(s for s in states("clans_and_glory", 3, seed=7, every=1))
    actions = state.legal_actions()
    tree = MenuTree.of(actions)
    label = labeller("clans_and_glory", state, "en")
    old_level = layout(tree, (0,), label)  # the old "Seat a card" button
    assert old_level == layout(tree, (), label)
    action: Action = actions[-1]
    old_whole = index_path(tree, action)
    assert tree.action_at(resolve(tree, old_whole)) == action


def test_the_menu_before_collapsing_is_kept_for_the_benchmark() -> None:
    state = next(states("clans_and_glory", 2, seed=8))
    tree = MenuTree.of(state.legal_actions())
    label = labeller("clans_and_glory", state, "en")
    before: Layout | None = layout(tree, (), label, collapsed=False)
    assert before is not None and before.path == () and len(before.entries) == 1
    assert before.entries[0].tokens == ("place",) and not before.entries[0].whole
    deeper = layout(tree, (0,), label, collapsed=False)
    assert deeper is not None and deeper.back == ()
    action = state.legal_actions()[0]
    assert clicks_for(tree, action, label, collapsed=False) == 4
    assert clicks_for(tree, action, label, collapsed=True) <= 2


def test_collapse_stops_at_a_choice_or_a_whole_move() -> None:
    state = next(
        s
        for s in states("kami", 4, seed=3, every=1)
        if [a.menu_path for a in s.legal_actions()] == [("pass",)]
    )
    tree = MenuTree.of(state.legal_actions())
    assert collapse(tree, (), ()) == ((), ())
