"""The engine protocol as Call to Glory fills it: declaration, setup, JSON, views, reasons."""

from __future__ import annotations

import copy

import pytest

from games import REGISTRY
from games.call_to_glory import GAME
from games.call_to_glory.actions import ChoosePile, Discard, Draw, EndTurn, Lay, RevealTask
from games.call_to_glory.cards import VALUES
from games.core import InvalidOptions, MalformedAction, MalformedState
from tests.games.call_to_glory.builders import hand, of_type, position
from tests.games.protocol import json_copy


def test_registry_declares_players_and_options() -> None:
    assert REGISTRY["call_to_glory"] is GAME
    assert GAME.player_counts == (2, 3, 4)
    assert {o.name: (o.default, o.choices) for o in GAME.options} == {
        "rounds": (4, (4, 1)),
        "imperial_tasks": (False, (False, True)),
        "ninja": (False, (False, True)),
    }
    with pytest.raises(InvalidOptions) as error:
        GAME.new_state(5, seed=1)
    assert error.value.code == "player_count"
    with pytest.raises(InvalidOptions) as error:
        GAME.new_state(2, seed=1, options={"rounds": 3})
    assert error.value.code == "bad_value"


def test_round_one_start_player_is_drawn_by_the_seeded_rng_and_announced() -> None:
    starts = set()
    for seed in range(40):
        state = GAME.new_state(4, seed=seed)
        started = of_type(state.opening_events, "round_started")[0]
        assert started["reason"] == "random" and started["start_player"] == state.to_move
        assert state.view(None)["start_reason"] == "random"
        starts.add(state.to_move)
        again = GAME.new_state(4, seed=seed)
        assert again.to_json() == state.to_json()
    assert starts == {0, 1, 2, 3}


def test_setup_deals_three_cards_and_splits_the_rest_into_two_piles() -> None:
    for players, sizes in ((2, [52, 52]), (3, [51, 50]), (4, [49, 49])):
        state = GAME.new_state(players, seed=players)
        view = state.view(None)
        assert view["draw_piles"] == sizes
        assert view["hand_sizes"] == [3] * players
        assert view["discard_piles"] == [[], []]
        dealt = of_type(state.opening_events, "hand_dealt")
        assert [event["visible_to"] for event in dealt] == [[seat] for seat in range(players)]
        for seat in range(players):
            assert dealt[seat]["values"] == state.view(seat)["hand"]


def test_views_show_own_hand_only() -> None:
    state = position(3, hands={0: [6, 7], 1: [20, 20, 20]}, displays={2: [9, 9]})
    assert state.view(None)["hand"] is None
    assert state.view(0)["hand"] == [6, 7]
    assert state.view(1)["hand"] == [20, 20, 20]
    assert state.view(0)["displays"][2] == [{"value": 9, "count": 2}]
    assert state.view(0)["hand_sizes"][:2] == [2, 3]
    for key in (
        "to_move",
        "decision",
        "scores",
        "round_scores",
        "winners",
        "draw_piles",
        "discard_piles",
        "displays",
        "display_points",
        "hand_sizes",
        "round",
        "rounds_total",
        "start_player",
        "turn_seat",
        "ninja",
        "tasks",
    ):
        assert key in state.view(2)


def test_state_json_round_trip_is_exact_in_every_decision() -> None:
    state = position(
        2,
        options={"ninja": True, "imperial_tasks": True},
        hands={1: [20] * 6 + [6]},
        displays={0: [20] * 4},
        tasks={0: [("a", 7), ("b", 9), ("c", 14)], 1: [("a", 6), ("b", 12), ("c", 16)]},
        discard_piles=([7], [8]),
        current=1,
        phase="lay_or_discard",
        drawn=["draw1", "draw2"],
        sink=0,
    )
    state.apply(Lay(20, 6))
    assert state.decision == "choose_pile"
    copy_ = json_copy(state)
    assert copy_.to_json() == state.to_json()
    assert copy_.view(0) == state.view(0)
    assert copy_.apply(ChoosePile(1)) == state.apply(ChoosePile(1))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(game="kami"), "not a saved"),
        (lambda d: d.update(version=2), "version"),
        (lambda d: d["hands"][0].append(20), "110 cards"),
        (lambda d: d["displays"][1].extend(d["displays"][0]), "110 cards"),
        (lambda d: d.update(phase="dance"), "phase"),
        (lambda d: d.update(current=7), "current"),
        (lambda d: d.update(rng=-1), "rng"),
        (lambda d: d["options"].update(rounds=2), "options"),
        (lambda d: d.update(pending={"seat": 0}), "pending"),
        (lambda d: d.update(history=[]), "history"),
        (lambda d: d.update(drawn=["draw1"]), "drawn"),
        (lambda d: d.update(drawn=["draw1", "draw1"]), "drawn"),
        (lambda d: d.update(ninja_held=[4, 0]), "miniatures"),
        (lambda d: d.update(tasks=[[{"deck": "a", "value": 20}], []]), "task"),
    ],
)
def test_foreign_or_broken_json_is_rejected(change, message: str) -> None:
    state = position(
        2,
        options={"ninja": True},
        hands={0: [6, 7]},
        displays={0: [9, 9]},
        round_number=2,
        history=[[10, 20]],
    )
    data = copy.deepcopy(state.to_json())
    change(data)
    with pytest.raises(MalformedState, match=message):
        GAME.state_from_json(data)


def test_task_cards_must_be_distinct_and_one_per_deck_and_player() -> None:
    deal = {0: [("a", 7), ("b", 9), ("c", 14)], 1: [("a", 6), ("b", 12), ("c", 16)]}
    state = position(2, options={"imperial_tasks": True}, tasks=deal)
    twice = copy.deepcopy(state.to_json())
    twice["tasks"][1][0] = {"deck": "a", "value": 7}
    with pytest.raises(MalformedState, match="twice"):
        GAME.state_from_json(twice)
    two_of_a_deck = copy.deepcopy(state.to_json())
    two_of_a_deck["tasks"][0].append({"deck": "a", "value": 8})
    with pytest.raises(MalformedState, match="two task cards of one deck"):
        GAME.state_from_json(two_of_a_deck)


def test_two_displays_with_one_type_are_rejected() -> None:
    state = position(2, displays={0: [9, 9], 1: [20, 20]})
    data = copy.deepcopy(state.to_json())
    data["displays"][1] = [9, *data["displays"][1]]
    data["draw_piles"][0].remove(9)
    with pytest.raises(MalformedState, match="two displays"):
        GAME.state_from_json(data)


def test_actions_decode_strictly() -> None:
    assert GAME.action_from_json({"kind": "lay", "value": 20, "count": 6}) == Lay(20, 6)
    assert GAME.action_from_json({"kind": "end_turn"}) == EndTurn()
    for bad in (
        {"kind": "lay", "value": 20},
        {"kind": "draw", "source": 1},
        {"kind": "discard", "value": 6, "pile": 1, "extra": 0},
        {"kind": "pass"},
        [],
    ):
        with pytest.raises(MalformedAction):
            GAME.action_from_json(bad)


def test_menu_paths_use_the_documented_tokens() -> None:
    assert Draw("discard2").menu_path == ("draw", "source:discard2")
    assert Lay(20, 6).menu_path == ("lay", "card:20", "count:6")
    assert Discard(20, 2).menu_path == ("discard", "card:20", "pile:2")
    assert ChoosePile(1).menu_path == ("pile:1",)
    assert RevealTask("a").menu_path == ("task:a",)
    assert EndTurn().menu_path == ("end_turn",)


def test_reason_codes_name_the_broken_rule() -> None:
    state = position(2, hands={0: [6, 7, 8]}, discard_piles=([9], []))
    assert state.why_illegal(Lay(6, 2)) == "must_draw_first"
    assert state.why_illegal(Discard(6, 1)) == "must_draw_first"
    assert state.why_illegal(EndTurn()) == "turn_not_finished"
    assert state.why_illegal(ChoosePile(1)) == "wrong_decision"
    assert state.why_illegal(RevealTask("a")) == "wrong_decision"
    assert state.why_illegal(Draw("discard2")) == "empty_source"
    assert state.why_illegal(Draw("attic")) == "no_such_source"
    state.apply(Draw("discard1"))
    assert state.why_illegal(Draw("discard1")) == "same_source"
    state.apply(Draw("draw1"))
    assert state.why_illegal(Draw("draw2")) == "already_drew"
    missing = next(value for value in VALUES if value not in hand(state, 0))
    assert state.why_illegal(Discard(missing, 1)) == "not_in_hand"
    assert state.is_legal(Discard(6, 1))  # both slots empty: slot 1 starts
    assert state.why_illegal(Discard(6, 2)) == "must_fill_empty_slot"
    assert state.why_illegal(Lay(6, 5)) == "not_in_hand"
    assert state.why_illegal(Discard(6, 3)) == "no_such_pile"
    assert state.why_illegal(Lay(5, 2)) == "no_such_value"
