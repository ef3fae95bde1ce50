"""Spec scenarios D (round end, scoring) and E (start player, winner): CTG-24 … CTG-33."""

from __future__ import annotations

import random

from games.call_to_glory import GAME
from games.call_to_glory.actions import Discard, Draw, Lay
from games.call_to_glory.scoring import game_winners, next_start_player
from tests.games.call_to_glory.builders import display, of_type, play, position

AFTER_DRAWS = {"phase": "lay_or_discard", "drawn": ["draw1", "draw2"]}
A, B, C, D = 0, 1, 2, 3


def test_ctg_24_rulebook_scoring_example_six_types_end_a_two_player_round() -> None:
    state = position(
        2,
        hands={A: [6, 6, 20]},
        displays={A: [18, 18, 12, 12, 9, 9, 8, 8, 7, 7], B: [20, 20, 16, 16]},
        **AFTER_DRAWS,
    )
    events = state.apply(Lay(6, 2))

    ended = of_type(events, "round_ended")[0]
    assert ended["triggers"] == [{"trigger": "many_types", "seats": [A]}]
    scored = of_type(events, "round_scored")[0]
    assert scored["scores"] == [60, 36]  # the 20 left in A's hand scores nothing
    assert state.round_scores == [[60, 36]] and state.scores == [60, 36]
    assert state.round_number == 2


def test_ctg_25_the_type_threshold_depends_on_the_player_count() -> None:
    def lay_fourth_type(players: int) -> list:
        state = position(
            players,
            hands={C: [20, 20, 7]},
            displays={C: [6, 6, 9, 9, 18, 18]},
            current=C,
            **AFTER_DRAWS,
        )
        return state.apply(Lay(20, 2))

    four = lay_fourth_type(4)
    assert of_type(four, "round_ended")[0]["triggers"] == [{"trigger": "many_types", "seats": [C]}]
    assert of_type(four, "round_scored")[0]["scores"][C] == 6 + 9 + 18 + 20
    assert not of_type(lay_fourth_type(3), "round_ended")


def test_ctg_25_four_types_do_not_end_a_two_player_round() -> None:
    state = position(2, hands={A: [20, 20, 7]}, displays={A: [6, 6, 9, 9, 18, 18]}, **AFTER_DRAWS)
    assert not of_type(state.apply(Lay(20, 2)), "round_ended")
    assert state.to_move == B


def test_round_ends_at_end_of_turn_when_a_draw_pile_runs_out() -> None:
    # Inferred from CTG-28's reference to the missing CTG-27: taking the last card of a draw
    # pile does not stop the turn, but the round ends when the turn does.
    state = position(2, hands={A: [6, 7]}, draw_sizes=(1, 30), discard_piles=([8], []), sink=B)
    state.apply(Draw("draw1"))
    assert state.decision == "draw_second"
    events = play(state, Draw("draw2"), Discard(6, 2))
    assert of_type(events, "round_ended")[0]["triggers"] == [{"trigger": "draw_pile_empty"}]


def test_ctg_28_the_rest_of_the_turn_happens_after_a_draw_pile_empties() -> None:
    state = position(
        2,
        hands={A: [18] * 4},
        displays={B: [18] * 3},
        draw_sizes=(1, 30),
        sink=B,
    )
    state.apply(Draw("draw1"))  # takes D1's last card; D2 is then the only source left
    assert state.drawn == [0, 1]
    events = state.apply(Lay(18, 4))

    assert of_type(events, "set_discarded")[0]["count"] == 3
    assert of_type(events, "round_ended")[0]["triggers"] == [{"trigger": "draw_pile_empty"}]
    assert state.round_scores[0][A] == 18 and state.round_scores[0][B] == 0


def test_ctg_29_emptying_both_draw_piles_in_one_turn_ends_the_round() -> None:
    state = position(2, hands={A: [6, 7, 8]}, draw_sizes=(1, 1), sink=B)
    state.apply(Draw("draw1"))  # D2 is the only other source, so it is drawn at once
    assert state.view(None)["draw_piles"] == [0, 0]
    events = state.apply(Discard(6, 1))
    assert of_type(events, "round_ended")[0]["triggers"] == [{"trigger": "draw_pile_empty"}]


def test_all_nine_types_on_the_table_end_the_round() -> None:
    state = position(
        3,
        hands={A: [20, 20, 6]},
        displays={
            A: [6, 6, 7, 7],
            B: [8, 8, 9, 9, 12, 12, 12],
            C: [14, 14, 14, 16, 16, 16, 18, 18],
        },
        **AFTER_DRAWS,
    )
    events = state.apply(Lay(20, 2))
    assert of_type(events, "round_ended")[0]["triggers"] == [{"trigger": "all_types"}]


def test_ctg_31_next_start_player_tie_on_totals_goes_to_lower_round_score() -> None:
    assert next_start_player([80, 70, 70], [45, 30, 40], previous_start=A) == (
        B,
        "lowest_round_score",
    )


def test_ctg_31_next_start_player_is_chosen_when_the_round_is_scored() -> None:
    # Round 2 of 3 players; round 1 gave A 38, B 40, C 32 and round 2 will give 42, 30, 38,
    # so B and C tie on 70 and B scored less in the round just played.
    state = position(
        3,
        hands={A: [6, 7]},
        displays={
            A: [20, 20, 14, 14, 14, 8, 8],
            B: [18, 18, 12, 12, 12],
            C: [16, 16, 16, 9, 9, 7, 7, 6, 6],
        },
        draw_sizes=(0, 30),
        sink=C,
        round_number=2,
        history=[[38, 40, 32]],
        **AFTER_DRAWS,
    )
    assert state.view(None)["display_points"] == [42, 30, 38]
    events = state.apply(Discard(6, 1))
    assert of_type(events, "round_scored")[0]["totals"] == [80, 70, 70]
    started = of_type(events, "round_started")[0]
    assert started["start_player"] == B and started["reason"] == "lowest_round_score"
    assert state.start_player == B and state.to_move == B


def test_ctg_32_unbroken_tie_goes_clockwise_after_the_previous_start_player() -> None:
    assert next_start_player([30, 30, 50], [30, 30, 50], previous_start=A) == (
        B,
        "clockwise_after_previous",
    )
    # The previous start player counts last among the tied players.
    assert next_start_player([30, 30, 50], [30, 30, 50], previous_start=B) == (
        A,
        "clockwise_after_previous",
    )


def test_ctg_33_final_tie_broken_by_best_single_round() -> None:
    rounds = [[40, 55, 40], [60, 45, 40], [50, 50, 35], [50, 50, 35]]
    assert game_winners([200, 200, 150], rounds) == ([A], "best_round")


def test_ctg_33_still_tied_players_share_the_win() -> None:
    rounds = [[60, 40, 10], [40, 60, 10]]
    assert game_winners([100, 100, 20], rounds) == ([A, B], "shared")
    assert game_winners([100, 99, 20], rounds) == ([A], "highest_total")


def test_quick_game_is_one_round_and_reports_winners() -> None:
    state = position(
        2,
        options={"rounds": 1},
        hands={A: [6, 7]},
        displays={B: [20, 20]},
        draw_sizes=(0, 30),
        sink=B,
        **AFTER_DRAWS,
    )
    events = state.apply(Discard(6, 1))
    over = of_type(events, "game_over")[0]
    assert over == {
        "type": "game_over",
        "winners": [B],
        "totals": [0, 20],
        "decided_by": "highest_total",
    }
    assert state.is_over and state.winners == [B] and state.to_move is None
    assert state.legal_actions() == []


def test_a_full_game_lasts_four_rounds_with_reset_displays() -> None:
    state = GAME.new_state(2, seed=5)
    chooser = random.Random(5)
    rounds_seen = set()
    while not state.is_over:
        rounds_seen.add(state.round_number)
        events = state.apply(chooser.choice(state.legal_actions()))
        for started in of_type(events, "round_started"):
            assert all(not display(state, seat) for seat in (A, B))
            assert [sum(h) for h in state.hands] == [3, 3]
            assert started["round"] == state.round_number
    assert rounds_seen == {1, 2, 3, 4} and len(state.round_scores) == 4
