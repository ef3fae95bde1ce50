"""Checks of the engine protocol that every game's tests reuse.

They take a ``random.Random`` from the test (usually seeded by hypothesis) so that a failure
reproduces, and they assert the contract of ``docs/engine.md`` rather than any game's rules.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable, Iterator

from games import REGISTRY, Action, Game, IllegalAction, State
from games.menu import MenuTree, action_at, choices_at, menu_problems


def option_combinations(game: Game, players: int) -> Iterator[dict]:
    """Every combination of the options that matter for ``players`` (others at default)."""
    relevant = [o for o in game.options if o.applies_to(players)]
    for values in itertools.product(*(o.choices for o in relevant)):
        options = dict(zip((o.name for o in relevant), values, strict=True))
        try:
            game.resolve_options(players, options)
        except Exception:  # noqa: BLE001 - combinations the game rejects are not playable
            continue
        yield options


def json_copy(state: State) -> State:
    """A state restored from JSON text, exactly as storage would do it."""
    text = json.dumps(state.to_json())
    return REGISTRY[state.game_key].state_from_json(json.loads(text))


def play_randomly(
    state: State,
    rng: random.Random,
    *,
    max_steps: int = 20_000,
    each_step: Callable[[State, Action, list], None] | None = None,
) -> int:
    """Plays random legal actions until the game ends; returns the number of decisions."""
    for step in range(max_steps):
        if state.is_over:
            assert json_copy(state).to_json() == state.to_json(), "a finished game must reload"
            return step
        actions = state.legal_actions()
        assert actions, f"seat {state.to_move} must decide but has no legal action"
        action = rng.choice(actions)
        events = state.apply(action)
        if each_step is not None:
            each_step(state, action, events)
    raise AssertionError(f"game did not end within {max_steps} decisions")


def assert_continues_identically(state: State, rng: random.Random, steps: int = 200) -> None:
    """A JSON round trip at this point continues exactly like the original."""
    copy = json_copy(state)
    assert copy.to_json() == state.to_json()
    for _ in range(steps):
        if state.is_over:
            break
        actions = state.legal_actions()
        assert [a.to_json() for a in copy.legal_actions()] == [a.to_json() for a in actions]
        index = rng.randrange(len(actions))
        assert state.apply(actions[index]) == copy.apply(copy.legal_actions()[index])
        assert copy.to_json() == state.to_json()
    assert copy.is_over == state.is_over


def assert_menu_fits(state: State) -> None:
    actions = state.legal_actions()
    problems = menu_problems(actions)
    assert not problems, problems
    assert_tree_matches(actions)


def assert_tree_matches(actions: list[Action]) -> None:
    """``MenuTree`` answers every level and every path as ``choices_at`` and ``action_at`` do,
    and knows no level or path they do not."""
    tree = MenuTree.of(actions)
    paths = [action.menu_path for action in actions]
    prefixes = {path[:cut] for path in paths for cut in range(len(path))}
    assert set(tree.levels) == prefixes
    for prefix in prefixes:
        assert list(tree.choices_at(prefix)) == choices_at(actions, prefix)
    assert set(tree.leaves) == set(paths)
    for path in paths:
        assert tree.action_at(path) == action_at(actions, path)
    for prefix in prefixes:
        assert tree.action_at(prefix) is None
    assert set(tree.tokens()) == {token for path in paths for token in path}


def assert_actions_round_trip(state: State) -> None:
    game = REGISTRY[state.game_key]
    for action in state.legal_actions():
        data = json.loads(json.dumps(action.to_json()))
        assert "kind" in data
        again = game.action_from_json(data)
        assert again == action and hash(again) == hash(action)


def assert_rejected_unchanged(state: State, action: Action) -> None:
    """``action`` is not legal now: ``apply`` raises and the state does not change."""
    before = state.to_json()
    try:
        state.apply(action)
    except IllegalAction as error:
        assert error.reason
    else:
        raise AssertionError(f"{action} was accepted but is not among the legal actions")
    assert state.to_json() == before
