"""Spec scenarios A (drawing) and B (discard-pile formation): CTG-01 … CTG-11."""

from __future__ import annotations

import pytest

from games.call_to_glory import GAME
from games.call_to_glory.actions import ChoosePile, Discard, Draw, Lay
from games.core import IllegalAction
from tests.games.call_to_glory.builders import of_type, pile, play, position
from tests.games.protocol import assert_rejected_unchanged


def test_ctg_01_first_turn_of_a_round_draws_one_card_from_each_draw_pile() -> None:
    state = position(2, hands={0: [6, 7, 8], 1: [9, 12, 14]})
    assert state.view(0)["draw_piles"] == [52, 52]
    assert state.legal_actions() == [Draw("draw1"), Draw("draw2")]
    assert_rejected_unchanged(state, Draw("discard1"))
    assert state.why_illegal(Draw("discard1")) == "empty_source"

    events = state.apply(Draw("draw1"))

    # The second card can only come from the other draw pile, so the engine takes it.
    drawn = of_type(events, "card_drawn")
    assert [event["source"] for event in drawn] == ["draw1", "draw2"]
    assert sum(state.hands[0]) == 5
    assert state.view(None)["draw_piles"] == [51, 51]
    assert state.decision == "lay_or_discard"


def test_ctg_01_second_card_from_the_same_pile_is_rejected() -> None:
    state = position(
        2, hands={0: [6, 7, 8]}, discard_piles=([20], []), phase="draw_second", drawn=["draw1"]
    )
    assert Draw("draw1") not in state.legal_actions()
    with pytest.raises(IllegalAction) as error:
        state.apply(Draw("draw1"))
    assert error.value.reason == "same_source"


def test_ctg_01_a_new_game_starts_with_only_the_two_draw_piles() -> None:
    state = GAME.new_state(3, seed=11)
    assert state.decision == "draw"
    assert state.legal_actions() == [Draw("draw1"), Draw("draw2")]
    assert [sum(hand) for hand in state.hands] == [3, 3, 3]
    assert state.view(None)["draw_piles"] == [51, 50]


def test_ctg_03_both_cards_may_come_from_the_discard_piles() -> None:
    state = position(2, hands={0: [6, 7, 8]}, discard_piles=([20, 12], [18, 16]))
    sizes = state.view(None)["draw_piles"]

    play(state, Draw("discard1"), Draw("discard2"))

    assert state.hands[0][4] == 1 and state.hands[0][6] == 1  # one 12, one 16
    assert pile(state, 1) == [20] and pile(state, 2) == [18]
    assert state.view(None)["draw_piles"] == sizes


def test_ctg_04_first_draw_empties_a_pile_then_the_discard_starts_slot_one() -> None:
    state = position(2, hands={0: [18, 9, 9]}, discard_piles=([7], []), draw_sizes=(10, 10), sink=1)
    state.apply(Draw("discard1"))
    assert state.decision == "draw_second"
    assert state.legal_actions() == [Draw("draw1"), Draw("draw2")]

    state.apply(Draw("draw1"))
    assert Discard(18, 2) not in state.legal_actions()
    events = state.apply(Discard(18, 1))

    assert of_type(events, "card_discarded")[0] == {
        "type": "card_discarded",
        "seat": 0,
        "value": 18,
        "pile": 1,
        "forced": True,
    }
    assert pile(state, 1) == [18] and pile(state, 2) == []
    # Next discard, whoever makes it, must start the other slot.
    play(state, Draw("draw1"), Draw("draw2"))
    discards = [a for a in state.legal_actions() if isinstance(a, Discard)]
    assert discards and all(action.pile == 2 for action in discards)


def test_ctg_05_second_source_may_depend_on_the_first_card_seen() -> None:
    state = position(2, hands={0: [6, 7, 8]}, draw_tops=([14], []), discard_piles=([20], [9, 14]))
    events = state.apply(Draw("draw1"))
    public = of_type(events, "card_drawn")[0]
    secret = of_type(events, "card_drawn_secret")[0]
    assert public["value"] is None and "visible_to" not in public
    assert secret["value"] == 14 and secret["visible_to"] == [0]

    state.apply(Draw("discard2"))
    assert state.hands[0][5] == 2  # two Ninja cards
    assert pile(state, 2) == [9]


def test_ctg_07_an_emptied_pile_must_be_re_formed_first() -> None:
    state = position(2, hands={0: [9, 12, 16]}, discard_piles=([6], [20, 18]))
    play(state, Draw("discard1"), Draw("draw2"))

    assert state.why_illegal(Discard(9, 2)) == "must_fill_empty_slot"
    assert_rejected_unchanged(state, Discard(9, 2))
    state.apply(Discard(9, 1))
    assert pile(state, 1) == [9] and pile(state, 2) == [20, 18]


def test_ctg_08_with_two_piles_the_discarder_chooses() -> None:
    state = position(
        2,
        hands={0: [7, 12, 16]},
        discard_piles=([8, 9], [6, 20]),
        phase="lay_or_discard",
        drawn=["draw1", "draw2"],
    )
    assert Discard(7, 1) in state.legal_actions() and Discard(7, 2) in state.legal_actions()
    events = state.apply(Discard(7, 2))
    assert of_type(events, "card_discarded")[0]["forced"] is False
    assert pile(state, 2) == [6, 20, 7]


def test_ctg_09_a_beaten_set_can_be_the_first_discard_of_a_round() -> None:
    state = position(2, hands={0: [9, 9, 6], 1: [9, 9, 9, 7]})
    play(state, Draw("draw1"), Lay(9, 2))
    assert state.to_move == 1 and pile(state, 1) == [] and pile(state, 2) == []

    events = play(state, Draw("draw1"), Lay(9, 3))  # the second draw is forced (draw2)

    # Both slots were empty, so no pile question is asked: the 9s start slot 1.
    discarded = of_type(events, "set_discarded")[0]
    assert discarded == {
        "type": "set_discarded",
        "seat": 0,
        "value": 9,
        "count": 2,
        "pile": 1,
        "reason": "beaten",
        "forced": True,
    }
    assert pile(state, 1) == [9, 9] and pile(state, 2) == []
    assert state.forced_pile() == 1


def test_ctg_11_a_beaten_set_goes_onto_one_pile_chosen_by_its_owner() -> None:
    state = position(
        2,
        hands={1: [20] * 6 + [7]},
        displays={0: [20] * 4},
        discard_piles=([6], [8]),
        current=1,
        phase="lay_or_discard",
        drawn=["draw1", "draw2"],
        sink=0,
    )
    state.apply(Lay(20, 6))

    assert state.decision == "choose_pile" and state.to_move == 0
    assert state.legal_actions() == [ChoosePile(1), ChoosePile(2)]
    state.apply(ChoosePile(1))
    assert pile(state, 1) == [6, 20, 20, 20, 20] and pile(state, 2) == [8]
