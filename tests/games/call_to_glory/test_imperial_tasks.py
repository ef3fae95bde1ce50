"""Spec scenarios G (Variant 1, Imperial Tasks): CTG-48 … CTG-53, and the option rules."""

from __future__ import annotations

import random

import pytest

from games.call_to_glory import GAME
from games.call_to_glory.actions import Discard, EndTurn, RevealTask
from games.call_to_glory.cards import TASK_DECKS
from games.call_to_glory.scoring import task_awards
from games.core import InvalidOptions
from tests.games.call_to_glory.builders import of_type, position

TASKS = {"imperial_tasks": True}
AFTER_DRAWS = {"phase": "lay_or_discard", "drawn": ["draw1", "draw2"]}
A, B, C, D = 0, 1, 2, 3


def test_task_composition_table_has_three_decks_of_four_with_the_known_a7() -> None:
    assert {deck: bonus for deck, (bonus, _values) in TASK_DECKS.items()} == {
        "a": 5,
        "b": 4,
        "c": 3,
    }
    assert all(len(values) == 4 for _bonus, values in TASK_DECKS.values())
    assert 7 in TASK_DECKS["a"][1]


def test_ctg_48_rulebook_task_example_the_revealer_may_help_an_opponent() -> None:
    state = position(
        3,
        options=TASKS,
        displays={B: [20, 20], C: [7, 7, 18, 18]},
        tasks={
            A: [("a", 7), ("b", 9), ("c", 14)],
            B: [("a", 6), ("b", 12), ("c", 16)],
            C: [("a", 8), ("b", 14), ("c", 20)],
        },
        phase="reveal_task",
        start_player=A,
    )
    assert state.to_move == A and state.decision == "reveal_task"
    assert state.legal_actions() == [RevealTask("a"), RevealTask("b"), RevealTask("c")]
    events = state.apply(RevealTask("a"))
    assert of_type(events, "task_revealed")[0] == {
        "type": "task_revealed",
        "round": 1,
        "seat": A,
        "deck": "a",
        "value": 7,
        "bonus": 5,
        "awards": [{"seat": C, "cards": 2, "points": 10}],
    }
    assert [deck for deck, _t in state.tasks[A]] == ["b", "c"]  # the revealed card is gone

    state.apply(RevealTask("b"))  # B: 12, nobody has it
    events = state.apply(RevealTask("a"))  # C: 8, nobody has it
    scored = of_type(events, "round_scored")[0]
    assert scored["base"] == [0, 20, 7 + 18]
    assert scored["bonus"] == [0, 0, 10]
    assert scored["scores"] == [0, 20, 35]


def test_ctg_49_reveal_order_starts_with_the_round_start_player() -> None:
    deal = {seat: [("a", (6, 7, 8, 9)[seat]), ("b", (9, 12, 14, 16)[seat])] for seat in range(4)}
    state = position(
        4,
        options=TASKS,
        tasks=deal,
        phase="reveal_task",
        start_player=C,
        current=A,
        round_number=2,
        history=[[10, 10, 10, 10]],
        revealed=[
            {"round": 1, "seat": s, "deck": "c", "value": v, "bonus": 3, "awards": []}
            for s, v in enumerate((14, 16, 18, 20))
        ],
    )
    order = []
    while state.decision == "reveal_task":
        order.append(state.to_move)
        assert len(state.legal_actions()) == 2  # exactly one reveal, chosen among two cards
        assert state.why_illegal(EndTurn()) == "wrong_decision"  # no skipping
        state.apply(RevealTask("a"))
    assert order == [C, D, A, B]
    assert all(len(held) == 1 for held in state.tasks)
    assert state.round_number == 3


def test_ctg_51_bonuses_of_two_tasks_naming_the_same_value_add_up() -> None:
    # The placeholder decks share 14 between B (4 per card) and C (3 per card).
    state = position(
        4,
        options=TASKS,
        displays={D: [14] * 4},
        tasks={
            A: [("b", 14), ("c", 18)],
            B: [("c", 14), ("a", 6)],
            C: [("a", 7), ("b", 9)],
            D: [("a", 8), ("b", 12)],
        },
        phase="reveal_task",
        start_player=A,
        round_number=2,
        history=[[0, 0, 0, 0]],
        revealed=[
            {"round": 1, "seat": A, "deck": "a", "value": 9, "bonus": 5, "awards": []},
            {"round": 1, "seat": B, "deck": "b", "value": 16, "bonus": 4, "awards": []},
            {"round": 1, "seat": C, "deck": "c", "value": 16, "bonus": 3, "awards": []},
            {"round": 1, "seat": D, "deck": "c", "value": 20, "bonus": 3, "awards": []},
        ],
    )
    state.apply(RevealTask("b"))
    state.apply(RevealTask("c"))
    state.apply(RevealTask("a"))
    events = state.apply(RevealTask("a"))
    assert of_type(events, "round_scored")[0]["bonus"] == [0, 0, 0, 4 * 4 + 4 * 3]
    # The spec's own numbers (an A task and a C task on one value, four cards): 20 + 12.
    displays = [[0] * 9, [0] * 9, [0] * 9, [0, 0, 0, 4, 0, 0, 0, 0, 0]]
    both = task_awards(5, 3, displays) + task_awards(3, 3, displays)
    assert sum(points for _seat, _cards, points in both) == 32


def test_ctg_52_a_tasks_game_lasts_three_rounds_and_reveals_every_task() -> None:
    state = GAME.new_state(3, seed=21, options=TASKS)
    assert state.rounds_total == 3
    chooser = random.Random(21)
    while not state.is_over:
        state.apply(chooser.choice(state.legal_actions()))
    assert len(state.round_scores) == 3
    assert all(not held for held in state.tasks)
    assert sorted((r["round"], r["seat"]) for r in state.revealed) == [
        (rnd, seat) for rnd in (1, 2, 3) for seat in range(3)
    ]
    assert state.winners


def test_ctg_52_the_last_reveal_is_made_automatically() -> None:
    state = position(
        2,
        options=TASKS,
        hands={A: [6, 7]},
        displays={B: [9, 9]},
        tasks={A: [("a", 6)], B: [("b", 9)]},
        round_number=3,
        history=[[0, 0], [0, 0]],
        revealed=[
            {"round": 1, "seat": A, "deck": "b", "value": 12, "bonus": 4, "awards": []},
            {"round": 1, "seat": B, "deck": "a", "value": 7, "bonus": 5, "awards": []},
            {"round": 2, "seat": A, "deck": "c", "value": 18, "bonus": 3, "awards": []},
            {"round": 2, "seat": B, "deck": "c", "value": 20, "bonus": 3, "awards": []},
        ],
        draw_sizes=(0, 30),
        sink=B,
        **AFTER_DRAWS,
    )
    events = state.apply(Discard(6, 1))
    assert [e["seat"] for e in of_type(events, "task_revealed")] == [A, B]
    assert of_type(events, "round_scored")[0]["bonus"] == [0, 4 * 2]
    assert state.is_over and state.winners == [B]


def test_ctg_53_bonus_points_count_as_round_score_for_the_next_start_player() -> None:
    state = position(
        2,
        options=TASKS,
        displays={A: [20, 20, 12, 12, 12, 8, 8], B: [18, 18, 16, 16, 6, 6]},
        tasks={A: [("a", 6), ("b", 12), ("c", 18)], B: [("a", 7), ("b", 9), ("c", 14)]},
        phase="reveal_task",
        start_player=A,
    )
    state.apply(RevealTask("b"))  # A's own 3 Samurai: 3 x 4 = 12
    events = state.apply(RevealTask("a"))  # B's 7: nobody has it
    scored = of_type(events, "round_scored")[0]
    assert scored["base"] == [40, 40] and scored["bonus"] == [12, 0]
    assert state.round_scores == [[52, 40]] and state.scores == [52, 40]
    assert of_type(events, "round_started")[0]["start_player"] == B


def test_tasks_are_dealt_once_one_per_deck_and_stay_private() -> None:
    state = GAME.new_state(4, seed=8, options=TASKS)
    for seat in range(4):
        assert [deck for deck, _t in state.tasks[seat]] == ["a", "b", "c"]
        mine = state.view(seat)["tasks"]["mine"]
        assert [task["deck"] for task in mine] == ["a", "b", "c"]
    assert state.view(None)["tasks"]["mine"] is None
    received = of_type(state.opening_events, "tasks_received")
    assert [event["visible_to"] for event in received] == [[0], [1], [2], [3]]


def test_quick_game_cannot_be_combined_with_tasks() -> None:
    with pytest.raises(InvalidOptions) as error:
        GAME.new_state(2, seed=1, options={"imperial_tasks": True, "rounds": 1})
    assert error.value.code == "conflict" and error.value.option == "rounds"
    assert error.value.conflicting == ("rounds", "imperial_tasks")
    assert error.value.reason == "tasks_need_full_game"
    assert GAME.new_state(2, seed=1, options={"imperial_tasks": True}).rounds_total == 3
