"""The shared protocol machinery, checked on a tiny test-only game (take 1 or 2 from a pile)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import REGISTRY
from games.core import (
    Action,
    ActionCodec,
    Game,
    IllegalAction,
    InvalidOptions,
    MalformedAction,
    Option,
    State,
    events_for,
)
from games.menu import MenuTree, action_at, choices_at, menu_problems
from games.rng import Rng


@dataclass(frozen=True, slots=True)
class Take(Action):
    kind = "take"
    count: int

    @property
    def menu_path(self) -> tuple[str, ...]:
        return ("take", f"count:{self.count}")


@dataclass(frozen=True, slots=True)
class Tagged(Action):
    kind = "tagged"
    label: str | None
    cards: tuple[int, ...]
    flag: bool

    @property
    def menu_path(self) -> tuple[str, ...]:
        return ("tagged",)


class PileState(State):
    game_key = "pile"

    def __init__(self, players: int, pile: int) -> None:
        self.num_players = players
        self.pile = pile
        self.turn = 0
        self.taken = [0] * players

    @property
    def to_move(self) -> int | None:
        return None if self.pile == 0 else self.turn

    @property
    def decision(self) -> str | None:
        return None if self.pile == 0 else "take"

    def _legal_actions(self) -> list[Action]:
        return [Take(n) for n in (1, 2) if n <= self.pile]

    def why_illegal(self, action: Action) -> str:
        return "pile_too_small" if isinstance(action, Take) else "not_legal"

    def _apply(self, action: Action) -> list[dict]:
        assert isinstance(action, Take)
        self.pile -= action.count
        self.taken[self.turn] += action.count
        seat, self.turn = self.turn, (self.turn + 1) % self.num_players
        return [{"type": "took", "seat": seat, "count": action.count}]

    @property
    def scores(self) -> list[int]:
        return list(self.taken)

    @property
    def round_scores(self) -> list[list[int]]:
        return [list(self.taken)] if self.is_over else []

    @property
    def winners(self) -> list[int]:
        if not self.is_over:
            return []
        return [seat for seat, n in enumerate(self.taken) if n == max(self.taken)]

    def _view(self, seat: int | None) -> dict:
        return {"pile": self.pile}

    def to_json(self) -> dict:
        return {"pile": self.pile, "turn": self.turn, "taken": self.taken}

    def determinize(self, seat: int, rng) -> PileState:
        """Nothing is hidden in this game, so every seat's determinization is a plain copy."""
        copy = PileState(self.num_players, self.pile)
        copy.turn, copy.taken = self.turn, list(self.taken)
        return copy


class PileGame(Game):
    key = "pile"
    name = "Pile"
    player_counts = (2, 3)
    options = (
        Option("size", 5, (3, 5, 7)),
        Option("mode", "plain", ("plain", "fancy"), players=(3,)),
        Option("bonus", False, (False, True)),
    )

    def check_options(self, players: int, options: dict) -> None:
        if options["bonus"] and options["size"] == 3:
            raise InvalidOptions("conflict", "bonus needs a pile of at least 5")

    def new_state(self, players: int, seed: int, options: dict | None = None) -> State:
        resolved = self.resolve_options(players, options)
        return PileState(players, resolved["size"])

    def state_from_json(self, data: dict) -> State:
        raise NotImplementedError

    def action_from_json(self, data: dict) -> Action:
        return ActionCodec(Take, Tagged).decode(data)


GAME = PileGame()


def test_options_fill_defaults_and_accept_declared_values():
    assert GAME.resolve_options(2, {"size": 7}) == {"size": 7, "mode": "plain", "bonus": False}


@pytest.mark.parametrize(
    ("players", "options", "code"),
    [
        (4, {}, "player_count"),
        (2, {"colour": "red"}, "unknown_option"),
        (2, {"size": 4}, "bad_value"),
        (2, {"size": "5"}, "bad_value"),
        (2, {"bonus": 1}, "bad_value"),
        (2, {"size": True}, "bad_value"),
        (2, {"size": 3, "bonus": True}, "conflict"),
    ],
)
def test_invalid_options_raise_with_a_machine_readable_code(players, options, code):
    with pytest.raises(InvalidOptions) as raised:
        GAME.resolve_options(players, options)
    assert raised.value.code == code
    assert str(raised.value)


def test_an_option_for_other_player_counts_is_accepted_but_marked_inapplicable():
    assert GAME.resolve_options(2, {"mode": "fancy"})["mode"] == "fancy"
    assert not GAME.option("mode").applies_to(2) and GAME.option("mode").applies_to(3)


def test_option_declarations_reject_a_default_outside_the_choices():
    with pytest.raises(ValueError):
        Option("x", 4, (1, 2, 3))


def test_option_type_is_the_type_of_its_default():
    assert GAME.option("size").type is int and GAME.option("bonus").type is bool
    assert GAME.option("mode").type is str


def test_apply_rejects_an_illegal_action_and_changes_nothing():
    state = GAME.new_state(2, seed=1, options={"size": 3})
    state.apply(Take(2))
    before = state.to_json()
    with pytest.raises(IllegalAction) as raised:
        state.apply(Take(2))
    assert raised.value.reason == "pile_too_small"
    assert state.to_json() == before


def test_apply_after_the_end_reports_game_over():
    state = GAME.new_state(2, seed=1, options={"size": 3})
    state.apply(Take(2))
    state.apply(Take(1))
    assert state.is_over and state.to_move is None and state.legal_actions() == []
    with pytest.raises(IllegalAction) as raised:
        state.apply(Take(1))
    assert raised.value.reason == "game_over"
    assert state.winners == [0] and state.round_scores == [[2, 1]]


def test_apply_refuses_something_that_is_not_an_action():
    state = GAME.new_state(2, seed=1)
    with pytest.raises(MalformedAction):
        state.apply({"kind": "take", "count": 1})  # type: ignore[arg-type]


def test_legal_actions_are_recomputed_after_every_move():
    state = GAME.new_state(2, seed=1, options={"size": 3})
    assert state.legal_actions() == [Take(1), Take(2)]
    state.apply(Take(2))
    assert state.legal_actions() == [Take(1)]


def test_view_carries_the_common_keys_and_rejects_unknown_seats():
    state = GAME.new_state(3, seed=1)
    view = state.view(None)
    assert view["to_move"] == 0 and view["decision"] == "take" and view["pile"] == 5
    assert view["seat"] is None and view["players"] == 3 and view["is_over"] is False
    with pytest.raises(ValueError):
        state.view(3)


def test_action_json_round_trips_including_optional_and_tuple_fields():
    action = Tagged(label=None, cards=(3, 4), flag=True)
    data = action.to_json()
    assert data == {"kind": "tagged", "label": None, "cards": [3, 4], "flag": True}
    assert GAME.action_from_json(data) == action


@pytest.mark.parametrize(
    "data",
    [
        [],
        {"count": 1},
        {"kind": "jump"},
        {"kind": "take"},
        {"kind": "take", "count": "1"},
        {"kind": "take", "count": True},
        {"kind": "take", "count": 1, "extra": 0},
        {"kind": "tagged", "label": 3, "cards": [], "flag": False},
        {"kind": "tagged", "label": "a", "cards": ["x"], "flag": False},
    ],
)
def test_malformed_action_json_is_rejected(data):
    with pytest.raises(MalformedAction) as raised:
        GAME.action_from_json(data)
    assert raised.value.reason == "malformed"


def test_events_for_hides_private_events_from_spectators_and_other_seats():
    events = [{"type": "a"}, {"type": "b", "visible_to": [1]}]
    assert events_for(events, None) == [{"type": "a"}]
    assert events_for(events, 0) == [{"type": "a"}]
    assert events_for(events, 1) == events


def test_menu_helpers_walk_the_tree_level_by_level():
    actions = [Take(1), Take(2)]
    assert choices_at(actions) == ["take"]
    assert choices_at(actions, ("take",)) == ["count:1", "count:2"]
    assert action_at(actions, ("take", "count:2")) == Take(2)
    assert action_at(actions, ("take",)) is None
    assert menu_problems(actions) == []


def test_a_menu_tree_answers_every_level_as_the_scanning_helpers_do():
    actions = [Take(2), Take(1)]
    tree = MenuTree.of(actions)
    assert tree.choices_at() == ("take",)
    assert tree.choices_at(("take",)) == ("count:2", "count:1")  # the engine's order
    assert tree.choices_at(("take", "count:1")) == ()  # a whole path opens no level
    assert tree.choices_at(("give",)) == ()
    assert tree.action_at(("take", "count:1")) == Take(1)
    assert tree.action_at(("take",)) is None
    assert tree.tokens() == ["take", "count:2", "count:1"]


def test_menu_problems_reports_overfull_levels_prefixes_and_bad_tokens():
    many = [Take(n) for n in range(26)]
    assert any("more than 25" in p for p in menu_problems(many))

    @dataclass(frozen=True, slots=True)
    class Odd(Action):
        kind = "odd"
        path: tuple[str, ...]

        @property
        def menu_path(self) -> tuple[str, ...]:
            return self.path

    assert any("prefix" in p for p in menu_problems([Odd(("a",)), Odd(("a", "b"))]))
    assert any("bad menu token" in p for p in menu_problems([Odd(("Bad Token",))]))
    assert any("share" in p for p in menu_problems([Odd(("a",)), Odd(("a",))]))


@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=1, max_value=500))
def test_rng_below_stays_in_range_and_is_reproducible(seed, bound):
    first, second = Rng(seed), Rng(seed)
    draws = [first.below(bound) for _ in range(20)]
    assert all(0 <= x < bound for x in draws)
    assert draws == [second.below(bound) for _ in range(20)]


@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_rng_state_round_trips_and_shuffle_is_a_permutation(seed):
    rng = Rng(seed)
    rng.next_u64()
    restored = Rng.from_json(rng.to_json())
    items, again = list(range(30)), list(range(30))
    rng.shuffle(items)
    restored.shuffle(again)
    assert items == again and sorted(items) == list(range(30))


def test_rng_sequence_is_pinned_so_saved_games_stay_valid_across_versions():
    rng = Rng(0)
    assert [rng.next_u64() for _ in range(2)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4]


@pytest.mark.parametrize("state", [-1, 2**64, True, "7"])
def test_rng_rejects_a_corrupt_saved_state(state):
    with pytest.raises(ValueError):
        Rng.from_json(state)


def test_registry_holds_the_three_games_under_their_keys():
    assert set(REGISTRY) == {"call_to_glory", "kami", "clans_and_glory"}
    for key, game in REGISTRY.items():
        assert game.key == key and game.name and game.player_counts
