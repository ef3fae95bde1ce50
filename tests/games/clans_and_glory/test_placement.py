"""Spec §10.1 (placement legality) and §10.2 (shields), scenario by scenario, on BASE4: the
4-player table with the default start cards N1=R5, N4=B3, N7=G6, N10=Y4, N13=P8, N16=O7."""

import pytest

from games.clans_and_glory.actions import PlaceCard, PlaceShield, SkipShield
from tests.games.clans_and_glory.builders import position, token
from tests.games.clans_and_glory.helpers import face_down, face_up, reason
from tests.games.protocol import assert_rejected_unchanged

A, B, C, D = 0, 1, 2, 3


def base4(hand, **extra):
    return position(4, hands={A: hand, B: ["K3"], C: ["K5"], D: ["Y3"]}, **extra)


@pytest.mark.parametrize(
    ("scenario", "extra_cards", "card", "seat"),
    [
        ("P-01 same colour as the adjacent start card", {}, "R3", "N0"),
        ("P-04 one match suffices across a board edge", {"N3": "G4"}, "G8", "N2"),
        ("P-05 match on board 0 for a seat of board 1", {"N2": "P3"}, "P6", "N3"),
        ("P-08 head seat is adjacent to N0", {"N0": "G7"}, "K7", "HL"),
        ("P-09 head seat is adjacent to S0", {"S0": "B8"}, "K8", "HL"),
        ("P-12 right head seat is adjacent to S17", {"S17": "K6"}, "R6", "HR"),
        ("P-13 bottom row is adjacent across a board edge", {"S5": "K8"}, "B8", "S6"),
        ("P-19 same value as N10", {}, "K4", "N11"),
    ],
)
def test_p_legal_face_up_placements(scenario, extra_cards, card, seat):
    state = base4([card], table=extra_cards)
    action = face_up(state, card, seat)
    assert state.is_legal(action), scenario
    assert state.decision == "place"


@pytest.mark.parametrize(
    ("scenario", "extra_cards", "card", "seat", "expected"),
    [
        ("P-03 no colour or value match among N1, N3, S2", {}, "B6", "N2", "no_match"),
        ("P-07 a match two seats away does not count", {}, "G5", "N3", "no_match"),
        ("P-11 the far head seat does not match", {"HR": "Y7"}, "B6", "HL", "no_match"),
        ("P-16 the seat is occupied", {}, "R6", "N1", "position_taken"),
    ],
)
def test_p_illegal_face_up_placements(scenario, extra_cards, card, seat, expected):
    state = base4([card], table=extra_cards)
    action = face_up(state, card, seat)
    assert reason(state, action) == expected, scenario
    assert_rejected_unchanged(state, action)


def test_p_15_a_face_down_neighbour_never_matches_and_diagonals_do_not_count():
    # The spec plays R5 onto S2, but BASE4 already has R5 on N1 and every card exists once;
    # R3 shares the colour of the diagonal N1 just as well and is equally illegal on S2.
    state = base4(["R3"], face_down={"N2": "R4"})
    action = face_up(state, "R3", "S2")
    assert reason(state, action) == "no_match"
    assert_rejected_unchanged(state, action)


def test_p_17_face_down_is_mandatory_when_no_hand_card_fits_anywhere():
    state = position(
        4,
        base=False,
        table={"N1": "R5"},
        face_down={"N0": "Y3", "N2": "Y5", "S1": "Y6"},
        hands={A: ["B3", "G8", "K4"]},
    )
    assert state.decision == "place"  # public, so it does not give the forced hand away
    assert state.must_place_face_down()
    actions = state.legal_actions()
    free = state.table.seat_count - 4
    assert len(actions) == 3 * free
    assert all(action.kind == "place_face_down" for action in actions)
    assert state.is_legal(face_down(state, "G8", "HR"))
    assert reason(state, face_up(state, "G8", "HR")) == "must_place_face_down"


def test_p_17_then_sh_07_shield_after_a_face_down_card_goes_on_that_board():
    state = position(
        4,
        base=False,
        table={"N1": "R5"},
        face_down={"N0": "Y3", "N2": "Y5", "S1": "Y6"},
        hands={A: ["B3", "G8", "K4"], B: ["K3"]},
    )
    events = state.apply(face_down(state, "G8", "HR"))
    public = [event for event in events if "visible_to" not in event]
    assert public == [
        {
            "type": "card_placed",
            "seat": A,
            "board": 5,
            "position": "hr",
            "face_down": True,
            "card": None,
            "colour": None,
            "value": None,
            "matched": [],
        }
    ]
    private = [event for event in events if "visible_to" in event]
    assert private[0]["visible_to"] == [A] and private[0]["card"] == "green-8"
    assert state.decision == "shield" and state.to_move == A
    state.apply(PlaceShield())
    assert state.stacks[5] == [A]
    assert state.shields_left[A] == 4


def test_face_down_is_refused_while_a_face_up_placement_exists():
    state = base4(["R3"])
    action = face_down(state, "R3", "N0")
    assert reason(state, action) == "face_down_not_forced"
    assert_rejected_unchanged(state, action)


def test_a_card_that_is_not_in_hand_cannot_be_placed():
    state = base4(["R3"])
    assert reason(state, face_up(state, "R4", "N0")) == "card_not_in_hand"
    assert reason(state, PlaceCard("red-3", 0, "n99")) == "no_such_position"
    assert reason(state, PlaceCard("red-3", 3, "n0")) == "wrong_board"


def test_p_20_passing_is_impossible_the_placement_comes_first():
    state = base4(["R3"])
    assert {action.kind for action in state.legal_actions()} == {"place"}
    assert reason(state, SkipShield()) == "place_card_first"
    assert reason(state, PlaceShield()) == "place_card_first"
    assert_rejected_unchanged(state, SkipShield())


def test_sh_01_shield_goes_on_the_board_of_the_placed_card_not_the_matched_one():
    state = base4(["P6"], table={"N2": "P3"})
    events = state.apply(face_up(state, "P6", "N3"))
    assert events[0]["matched"] == ["n2"] and events[0]["board"] == 1
    assert state.decision == "shield" and state.shield_board == 1
    events = state.apply(PlaceShield())
    assert events == [
        {"type": "shield_placed", "seat": A, "board": 1, "stack": [A], "shields_left": 4}
    ]
    assert state.stacks == [[], [A], [], [], [], []]
    assert state.to_move == B and state.decision == "place"


def test_sh_03_and_sh_04_shields_stack_in_order_with_no_per_board_limit():
    hands = {A: ["B4", "B5"], B: ["B6"], C: ["K5"], D: ["Y3", "Y5"]}
    state = position(4, hands=hands, stacks={1: [A]})
    state.apply(face_up(state, "B4", "N3"))
    state.apply(SkipShield())
    state.apply(face_up(state, "B6", "N5"))  # B, next to B3
    state.apply(PlaceShield())
    assert state.stacks[1] == [A, B]
    state.apply(face_up(state, "K5", "N0"))  # C, next to R5
    state.apply(SkipShield())
    state.apply(face_up(state, "Y3", "N11"))  # D, next to Y4
    state.apply(SkipShield())
    state.apply(face_up(state, "B5", "S4"))  # A again on board 1, opposite B3
    state.apply(PlaceShield())
    assert state.stacks[1] == [A, B, A]
    assert state.shields_left[A] == 3


def test_sh_05_at_most_one_shield_per_turn():
    state = base4(["R3"])
    state.apply(face_up(state, "R3", "N0"))
    state.apply(PlaceShield())
    assert state.to_move == B and state.decision == "place"
    assert_rejected_unchanged(state, PlaceShield())
    assert state.stacks[0] == [A]


def test_sh_08_no_action_takes_back_or_moves_a_shield():
    state = base4(["R3", "R4"], stacks={0: [A], 2: [A, A]})
    kinds = {action.kind for action in state.legal_actions()}
    state.apply(face_up(state, "R3", "N0"))
    kinds |= {action.kind for action in state.legal_actions()}
    assert kinds == {"place", "shield", "no_shield"}


def test_a_player_without_shields_skips_the_shield_step():
    state = base4(["R3", "R4"], stacks={0: [A, A, A], 1: [A, A]})
    assert state.shields_left[A] == 0
    assert reason(state, PlaceShield()) == "no_shields_left"
    state.apply(face_up(state, "R3", "N0"))
    assert state.to_move == B and state.decision == "place"


def test_placement_menu_goes_card_then_board_then_position():
    state = base4(["R3"])
    assert face_up(state, "R3", "N0").menu_path == (
        "place",
        f"card:{token('R3')}",
        "board:0",
        "position:n0",
    )
