"""Spec §4 and §10.3: deck, boards, start cards, hand sizes and the end of the game."""

import pytest

from games.clans_and_glory import GAME
from games.clans_and_glory.actions import PlaceShield
from games.clans_and_glory.cards import value_of
from tests.games.clans_and_glory.builders import position
from tests.games.clans_and_glory.helpers import face_up

A, B, C, D = 0, 1, 2, 3


@pytest.mark.parametrize(
    ("scenario", "players", "hands_in_turn_order", "boards", "seats", "top", "unused"),
    [
        ("E-04", 2, [9, 8], 4, 26, 6, 7),
        ("E-03", 3, [9, 9, 8], 5, 32, 7, 4),
        ("E-01", 4, [8, 8, 8, 7], 6, 38, 8, 5),
    ],
)
@pytest.mark.parametrize("seed", range(6))
def test_e_setup_deals_one_card_fewer_to_the_right_of_the_start_player(
    scenario, players, hands_in_turn_order, boards, seats, top, unused, seed
):
    state = GAME.new_state(players, seed)
    order = state.turn_order
    assert order[0] == state.start_player == state.to_move
    assert [len(state.hands[p]) for p in order] == hands_in_turn_order, scenario
    assert state.last_player == order[-1] == (state.start_player - 1) % players
    assert state.table.board_count == boards and state.table.seat_count == seats
    every = [c for hand in state.hands for c in hand] + state.undealt
    every += [c for c in state.cards if c >= 0]
    assert len(every) == len(set(every)) == 7 * (top - 2)
    assert {value_of(c) for c in every} == set(range(3, top + 1))
    assert len(state.undealt) == unused
    assert state.shields_left == [5] * players
    starts = [state.table.seats[s].name for s, c in enumerate(state.cards) if c >= 0]
    assert starts == [f"n{3 * board + 1}" for board in range(boards)]


@pytest.mark.parametrize("rule", ["alternating", "random"])
def test_start_seat_option_still_puts_exactly_one_card_on_each_board(rule):
    state = GAME.new_state(4, 7, {"start_seats": rule})
    boards = [state.table.board_of(s) for s, c in enumerate(state.cards) if c >= 0]
    assert boards == list(range(6))


def test_start_player_is_drawn_from_the_seed():
    assert {GAME.new_state(4, seed).start_player for seed in range(40)} == {0, 1, 2, 3}


def last_turn(options=None):
    """D (last in turn order after start player A) places the final card, onto board 3."""
    return position(
        4, hands={A: ["K3"], B: ["K4"], C: ["K6"], D: ["Y7"]}, to_move=D, options=options
    )


def test_e_05_final_turn_may_still_add_a_shield_by_default():
    state = last_turn()
    state.apply(face_up(state, "Y7", "N9"))  # beside Y4 on N10
    assert state.decision == "shield" and state.shield_board == 3
    events = state.apply(PlaceShield())
    assert state.is_over and state.stacks[3] == [D]
    assert [e["type"] for e in events][:2] == ["shield_placed", "game_ended"]


def test_e_05_strict_variant_ends_before_the_shield_step():
    state = last_turn({"final_turn_shield_allowed": False})
    events = state.apply(face_up(state, "Y7", "N9"))
    assert state.is_over and state.stacks[3] == []
    assert [e["type"] for e in events][:2] == ["card_placed", "game_ended"]
    assert events[1]["hand_cards_discarded"] == [1, 1, 1, 0]


@pytest.mark.parametrize(("players", "turns"), [(2, 16), (3, 24), (4, 28)])
def test_e_game_ends_after_every_player_placed_all_but_one_card(players, turns):
    state = GAME.new_state(players, 3)
    placements = 0
    while not state.is_over:
        action = state.legal_actions()[0]
        placements += action.kind.startswith("place")
        state.apply(action)
    assert placements == turns
    assert state.hands[state.last_player] == []
    assert all(len(state.hands[p]) == 1 for p in range(players) if p != state.last_player)
