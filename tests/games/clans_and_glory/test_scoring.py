"""Spec §7 and §10.4–10.6: board scoring, the full 2-player example (SC-12) and the winner."""

import pytest

from games.clans_and_glory.actions import PlaceShield, SkipShield
from games.clans_and_glory.cards import COLOURS, card_id, value_of
from games.clans_and_glory.scoring import score_board, winners
from tests.games.clans_and_glory.builders import position
from tests.games.clans_and_glory.helpers import face_up

A, B, C, D = 0, 1, 2, 3


def cards_with_values(values):
    """Distinct cards with the given values (duplicates get different colours)."""
    cards, used = [], {}
    for value in values:
        colour = used.get(value, 0)
        used[value] = colour + 1
        cards.append(card_id(COLOURS[colour], value))
    return cards


def gains(values, stack, players=4):
    result = score_board(0, cards_with_values(values), stack)
    points, counts = [0] * players, [0] * players
    for claim in result.claims:
        points[claim.player] += claim.points
        counts[claim.player] += len(claim.cards)
    return points, counts, sorted(value_of(card) for card in result.unclaimed)


@pytest.mark.parametrize(
    ("scenario", "values", "stack", "points", "cards", "unclaimed"),
    [
        ("SC-01", [3, 3, 5, 6, 6, 8], [A, B, C], [6, 5, 12, 0], [2, 1, 2, 0], [8]),
        ("SC-03", [3, 5, 8], [A, B, A], [11, 5, 0, 0], [2, 1, 0, 0], []),
        ("SC-05", [3, 4, 5], [], [0, 0, 0, 0], [0, 0, 0, 0], [3, 4, 5]),
        ("SC-07", [4, 4, 4, 4], [A], [16, 0, 0, 0], [4, 0, 0, 0], []),
        ("SC-08", [4, 4, 4, 4, 3], [A, B], [3, 16, 0, 0], [1, 4, 0, 0], []),
        ("SC-09", [3, 4, 5, 6, 7, 8], [D, C, B, A], [6, 5, 4, 3], [1, 1, 1, 1], [7, 8]),
        ("SC-11", [3, 6, 6], [A, B], [3, 12, 0, 0], [1, 2, 0, 0], []),
    ],
)
def test_sc_first_shield_placed_takes_the_lowest_value_then_upward(
    scenario, values, stack, points, cards, unclaimed
):
    assert gains(values, stack) == (points, cards, unclaimed), scenario


def test_sc_shields_beyond_the_distinct_values_take_nothing():
    result = score_board(0, cards_with_values([5, 5]), [A, B, C])
    assert [claim.value for claim in result.claims] == [5, None, None]
    assert [claim.points for claim in result.claims] == [10, 0, 0]


def test_sc_04_a_face_down_card_is_discarded_before_scoring():
    state = position(
        2, base=False, table={"N1": "R5", "N2": "B6"}, face_down={"S1": "G3"},
        stacks={0: [A, B]}, phase="over", hands={A: ["K4"]},
    )  # fmt: skip
    assert state.is_over
    assert state.scores == [5, 6]
    assert state.totals() == ([5, 6], [1, 1])


def sc_12_final_position(options=None):
    """SC-12 one decision before the end: B (last in turn order) still holds P5."""
    table = {
        "N0": "R3", "S1": "K5", "N2": "B6", "HL": "O3",  # board 0 (start card R5 on N1)
        "N3": "P6", "N5": "K6", "S3": "R4", "S4": "O4",  # board 1 (start card B3 on N4)
        "N6": "G4", "N8": "K4", "S7": "O5",  # board 2 (start card G6 on N7)
        "N9": "Y6", "N11": "R6", "S10": "B5",  # board 3 (start card Y4 on N10)
    }  # fmt: skip
    return position(
        2,
        table=table,
        face_down={"S0": "G3"},
        hands={A: ["G5"], B: ["P5"]},
        stacks={0: [A, B], 1: [B], 2: [A, A, B]},
        start_player=A,
        to_move=B,
        options=options,
    )


def test_sc_12_full_two_player_scoring_example():
    state = sc_12_final_position()
    assert state.shields_left == [2, 2]
    state.apply(face_up(state, "P5", "S9"))
    assert state.decision == "shield"
    events = state.apply(SkipShield())
    assert state.is_over
    by_type = {}
    for event in events:
        by_type.setdefault(event["type"], []).append(event)
    assert by_type["game_ended"] == [
        {"type": "game_ended", "last_seat": B, "hand_cards_discarded": [1, 0],
         "face_down_discarded": 1}
    ]  # fmt: skip
    boards = {event["board"]: event for event in by_type["board_scored"]}
    assert boards[0]["claims"] == [
        {"seat": A, "value": 3, "cards": ["red-3", "orange-3"], "points": 6},
        {"seat": B, "value": 5, "cards": ["red-5", "black-5"], "points": 10},
    ]
    assert boards[0]["unclaimed"] == ["blue-6"]
    assert boards[1]["claims"] == [{"seat": B, "value": 3, "cards": ["blue-3"], "points": 3}]
    assert sorted(boards[1]["unclaimed"]) == ["black-6", "orange-4", "purple-6", "red-4"]
    assert boards[2]["claims"] == [
        {"seat": A, "value": 4, "cards": ["green-4", "black-4"], "points": 8},
        {"seat": A, "value": 5, "cards": ["orange-5"], "points": 5},
        {"seat": B, "value": 6, "cards": ["green-6"], "points": 6},
    ]
    assert boards[3]["claims"] == [] and len(boards[3]["unclaimed"]) == 5
    assert by_type["result"] == [
        {"type": "result", "points": [19, 19], "cards": [5, 4], "winners": [A]}
    ]
    assert state.scores == [19, 19]
    assert state.round_scores == [[19, 19]]
    assert state.winners == [A]


def test_sc_08_a_late_three_steals_the_lowest_slot_from_the_first_shield():
    state = position(
        2, base=False, table={"N3": "Y4", "N4": "R4", "N5": "G4", "S5": "B4"},
        hands={A: ["K6"], B: ["R3"]}, stacks={1: [A]}, to_move=B,
    )  # fmt: skip
    state.apply(face_up(state, "R3", "S4"))
    state.apply(PlaceShield())
    assert state.is_over
    assert state.stacks[1] == [A, B]
    assert state.scores == [3, 16]
    assert state.winners == [B]


@pytest.mark.parametrize(
    ("scenario", "points", "cards", "expected"),
    [
        ("W-01 cards only matter on a tie", [31, 28, 25], [6, 8, 5], [A]),
        ("W-03 a full tie is a shared win", [20, 20], [5, 5], [A, B]),
        ("SC-12 a tie on points goes to more cards", [19, 19], [5, 4], [A]),
        ("tie of three on points, two with most cards", [10, 10, 10], [3, 2, 3], [A, C]),
    ],
)
def test_w_most_points_wins_then_more_cards_then_shared(scenario, points, cards, expected):
    assert winners(points, cards) == expected, scenario
