"""Spec scenarios C (laying sets): CTG-12 … CTG-23, with the rulebook's two set examples."""

from __future__ import annotations

from games.call_to_glory.actions import ChoosePile, Discard, Draw, EndTurn, Lay
from tests.games.call_to_glory.builders import display, hand, of_type, pile, play, position
from tests.games.protocol import assert_rejected_unchanged

AFTER_DRAWS = {"phase": "lay_or_discard", "drawn": ["draw1", "draw2"]}


def test_ctg_12_rulebook_farmers_example_beaten_owner_discards_all_four() -> None:
    state = position(
        2,
        hands={1: [20] * 6 + [6]},
        displays={0: [20] * 4},
        discard_piles=([7], [8]),
        current=1,
        sink=0,
        **AFTER_DRAWS,
    )
    events = state.apply(Lay(20, 6))
    assert of_type(events, "set_laid")[0] == {
        "type": "set_laid",
        "seat": 1,
        "value": 20,
        "count": 6,
        "beaten_seat": 0,
        "beaten_count": 4,
    }
    assert state.to_move == 0 and state.decision == "choose_pile"
    assert state.view(None)["pending_discard"] == {
        "seat": 0,
        "value": 20,
        "count": 4,
        "reason": "beaten",
    }

    events = state.apply(ChoosePile(2))
    assert of_type(events, "set_discarded")[0] == {
        "type": "set_discarded",
        "seat": 0,
        "value": 20,
        "count": 4,
        "pile": 2,
        "reason": "beaten",
        "forced": False,
    }
    assert display(state, 1) == {20: 6}
    assert 20 not in display(state, 0)
    assert pile(state, 2) == [8, 20, 20, 20, 20]
    assert state.to_move == 0 and state.decision == "draw"  # B's turn is over; A is next


def test_ctg_13_an_equal_count_does_not_beat_a_set() -> None:
    state = position(
        2,
        hands={1: [20] * 4 + [6]},
        displays={0: [20] * 4},
        current=1,
        sink=0,
        discard_piles=([7], [8]),
        **AFTER_DRAWS,
    )
    assert Lay(20, 4) not in state.legal_actions()
    assert state.why_illegal(Lay(20, 4)) == "must_beat"
    assert_rejected_unchanged(state, Lay(20, 4))
    assert Discard(20, 1) in state.legal_actions()


def test_ctg_15_rulebook_ninja_card_example_replaces_own_smaller_set() -> None:
    state = position(
        3,
        hands={0: [14] * 5 + [6]},
        displays={0: [14] * 3},
        discard_piles=([7], [8]),
        **AFTER_DRAWS,
    )
    assert Lay(14, 5) in state.legal_actions()
    events = state.apply(Lay(14, 5))
    assert of_type(events, "set_laid")[0]["beaten_seat"] == 0
    # The player replacing his own set chooses the pile for the old cards himself.
    assert state.to_move == 0 and state.decision == "choose_pile"
    state.apply(ChoosePile(1))
    assert display(state, 0) == {14: 5}
    assert pile(state, 1) == [7, 14, 14, 14]
    assert hand(state, 0) == {6: 1}


def test_ctg_16_cards_are_never_added_to_a_set_on_the_table() -> None:
    adding = position(2, hands={0: [14, 6]}, displays={0: [14] * 3}, **AFTER_DRAWS)
    assert adding.why_illegal(Lay(14, 1)) == "set_too_small"
    assert_rejected_unchanged(adding, Lay(14, 1))

    same_size = position(2, hands={0: [14] * 3}, displays={0: [14] * 3}, **AFTER_DRAWS)
    assert same_size.why_illegal(Lay(14, 3)) == "must_beat"
    second_set = position(2, hands={0: [14] * 2 + [6]}, displays={0: [14] * 3}, **AFTER_DRAWS)
    assert second_set.why_illegal(Lay(14, 2)) == "must_beat"
    assert not [a for a in second_set.legal_actions() if isinstance(a, Lay)]


def test_ctg_17_only_one_set_per_turn() -> None:
    state = position(2, hands={0: [6, 6, 7, 7]}, **AFTER_DRAWS)
    state.apply(Lay(6, 2))
    assert state.to_move == 1  # the turn ended with the first set
    assert state.why_illegal(Lay(7, 2)) == "must_draw_first"

    # With ninja uses still possible the turn stays open, but Action 2 is spent.
    ninja = position(
        2,
        options={"ninja": True},
        hands={0: [6, 6, 7, 7]},
        displays={1: [20, 20]},
        ninja_held=[1, 0],
        **AFTER_DRAWS,
    )
    ninja.apply(Lay(6, 2))
    assert ninja.decision == "ninja_or_end" and EndTurn() in ninja.legal_actions()
    assert ninja.why_illegal(Lay(7, 2)) == "action_done"
    assert_rejected_unchanged(ninja, Lay(7, 2))


def test_ctg_19_two_cards_suffice_for_12_with_two_players() -> None:
    state = position(2, hands={0: [12, 12, 6]}, **AFTER_DRAWS)
    assert Lay(12, 2) in state.legal_actions()
    state.apply(Lay(12, 2))
    assert display(state, 0) == {12: 2}


def test_ctg_20_three_players_need_three_cards_of_12() -> None:
    state = position(3, hands={0: [12, 12, 6]}, **AFTER_DRAWS)
    assert Lay(12, 2) not in state.legal_actions()
    assert state.why_illegal(Lay(12, 2)) == "set_too_small"


def test_ctg_21_the_three_card_minimum_is_only_for_12_14_and_16() -> None:
    state = position(4, hands={0: [18, 18, 16, 16, 16]}, **AFTER_DRAWS)
    legal = state.legal_actions()
    assert Lay(18, 2) in legal
    assert Lay(16, 2) not in legal and state.why_illegal(Lay(16, 2)) == "set_too_small"
    assert Lay(16, 3) in legal
    beaten = position(4, hands={0: [16] * 3}, displays={1: [16] * 3}, **AFTER_DRAWS)
    assert beaten.why_illegal(Lay(16, 3)) == "must_beat"


def test_ctg_23_no_hand_limit_and_an_empty_hand_is_fine() -> None:
    state = position(2, hands={0: [20] * 3}, discard_piles=([20], [7]), draw_tops=([20], []))
    play(state, Draw("discard1"), Draw("draw1"))
    state.apply(Lay(20, 5))
    assert sum(state.hands[0]) == 0 and display(state, 0) == {20: 5}

    # B's turn, then A draws two cards into the empty hand and must lay or discard.
    play(state, Draw("draw1"), Draw("draw2"))
    state.apply(next(a for a in state.legal_actions() if isinstance(a, Discard)))
    play(state, Draw("draw1"), Draw("draw2"))
    assert sum(state.hands[0]) == 2 and state.decision == "lay_or_discard"

    big = position(2, hands={0: [18] * 18 + [9] * 9}, **AFTER_DRAWS)
    assert sum(big.hands[0]) == 27
    assert Lay(18, 18) in big.legal_actions() and Discard(9, 1) in big.legal_actions()


def test_a_lone_lay_or_discard_choice_is_still_asked_so_the_hand_stays_hidden() -> None:
    """Two unlayable equal cards and a forced pile leave one legal move; playing it at once
    would tell the table that the remaining card matches the discarded one."""
    state = position(3, hands={0: []}, discard_piles=([9], []), draw_tops=([12], [12]), sink=2)
    play(state, Draw("draw1"), Draw("draw2"))
    assert state.to_move == 0 and state.decision == "lay_or_discard"
    assert state.legal_actions() == [Discard(12, 2)]
