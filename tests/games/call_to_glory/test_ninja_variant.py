"""Spec scenarios F (Variant 2, the Power of the Ninja): CTG-36 … CTG-47."""

from __future__ import annotations

from games.call_to_glory import GAME
from games.call_to_glory.actions import ChoosePile, Discard, Draw, EndTurn, Lay, UseNinja
from games.call_to_glory.state import CallToGloryState
from tests.games.call_to_glory.builders import display, of_type, pile, play, position
from tests.games.protocol import assert_rejected_unchanged

NINJA = {"ninja": True}
AFTER_DRAWS = {"phase": "lay_or_discard", "drawn": ["draw1", "draw2"]}
A, B, C = 0, 1, 2


def discard_any(state: CallToGloryState) -> None:
    state.apply(next(a for a in state.legal_actions() if isinstance(a, Discard)))


def test_ctg_36_rulebook_ninja_miniature_example() -> None:
    state = position(
        2,
        options=NINJA,
        hands={A: [14, 14, 6], B: [14, 14, 14, 7]},
        displays={B: [18] * 4 + [12] * 5},
        discard_piles=([8], [9]),
    )
    # 1. A lays two Ninja cards and takes a miniature, not usable during this turn.
    play(state, Draw("draw1"), Draw("draw2"))
    events = state.apply(Lay(14, 2))
    assert of_type(events, "ninja_gained")[0] == {
        "type": "ninja_gained",
        "seat": A,
        "supply": 3,
        "held": 1,
    }
    assert state.to_move == B  # no usable miniature, so the turn ended by itself

    # B's turn passes without touching the Ninja set.
    play(state, Draw("draw1"), Draw("draw2"))
    state.apply(Discard(7, 1))

    # 3. On a later turn A returns the miniature and removes one of B's Samurai.
    assert state.to_move == A and UseNinja(B, 12) in state.legal_actions()
    events = state.apply(UseNinja(B, 12))
    assert of_type(events, "ninja_used")[0] == {
        "type": "ninja_used",
        "seat": A,
        "target": B,
        "value": 12,
        "remaining": 4,
        "supply": 4,
    }
    assert state.to_move == B and state.decision == "choose_pile"
    state.apply(ChoosePile(2))
    assert pile(state, 2)[-1] == 12
    assert display(state, B) == {18: 4, 12: 4}
    assert state.to_move == A and state.decision == "draw"  # back to A's turn
    play(state, Draw("draw1"), Draw("draw2"))
    discard_any(state)

    # 4. B beats A's two Ninja cards with three and takes a miniature for a later turn.
    play(state, Draw("draw1"), Draw("draw2"))
    events = state.apply(Lay(14, 3))
    assert state.to_move == A and state.decision == "choose_pile"
    events += state.apply(ChoosePile(1))
    assert of_type(events, "set_discarded")[0]["count"] == 2
    assert of_type(events, "ninja_gained")[0] == {
        "type": "ninja_gained",
        "seat": B,
        "supply": 3,
        "held": 1,
    }
    assert state.ninja_held == [0, 1] and state.ninja_supply == 3
    assert state.view(None)["display_points"][B] == 18 + 12 + 14


def test_ctg_36_a_miniature_gained_this_turn_cannot_be_used_yet() -> None:
    state = position(
        3, options=NINJA, hands={A: [14] * 3 + [6]}, displays={B: [20, 20]}, **AFTER_DRAWS
    )
    state.apply(Lay(14, 3))
    assert state.to_move == B
    gained = position(
        3,
        options=NINJA,
        hands={A: [14] * 3},
        displays={B: [20, 20]},
        ninja_held=[1, 0, 0],
        gained_this_turn=1,
        phase="lay_or_discard",
        drawn=["draw1", "draw2"],
    )
    assert gained.why_illegal(UseNinja(B, 20)) == "ninja_gained_this_turn"


def test_ctg_37_replacing_your_own_ninja_set_earns_a_miniature() -> None:
    state = position(
        3,
        options=NINJA,
        hands={A: [14] * 4 + [6]},
        displays={A: [14] * 3},
        ninja_held=[0, 1, 1],
        **AFTER_DRAWS,
    )
    events = state.apply(Lay(14, 4))  # both piles empty: the old set goes to slot 1 at once
    assert of_type(events, "set_discarded")[0]["seat"] == A
    assert state.ninja_supply == 1 and state.ninja_held == [1, 1, 1]
    assert display(state, A) == {14: 4}


def test_ctg_39_with_an_empty_supply_the_lay_is_legal_without_a_miniature() -> None:
    state = position(
        3,
        options=NINJA,
        hands={C: [14] * 4 + [6]},
        displays={B: [14] * 3},
        ninja_held=[2, 2, 0],
        current=C,
        **AFTER_DRAWS,
    )
    events = state.apply(Lay(14, 4))
    assert not of_type(events, "ninja_gained")
    assert of_type(events, "set_discarded")[0] == {
        "type": "set_discarded",
        "seat": B,
        "value": 14,
        "count": 3,
        "pile": 1,
        "reason": "beaten",
        "forced": True,
    }
    assert state.ninja_supply == 0 and state.ninja_held == [2, 2, 0]


def test_ctg_40_a_ninja_cannot_target_your_own_display() -> None:
    state = position(
        2, options=NINJA, hands={A: [6, 7, 8]}, displays={A: [9] * 3}, ninja_held=[1, 0]
    )
    assert not [a for a in state.legal_actions() if isinstance(a, UseNinja)]
    assert state.why_illegal(UseNinja(A, 9)) == "own_display"
    assert_rejected_unchanged(state, UseNinja(A, 9))


def test_ctg_41_a_ninja_after_action_two_can_prevent_the_all_types_ending() -> None:
    state = position(
        3,
        options=NINJA,
        hands={A: [20] * 3 + [6]},
        displays={A: [7, 7, 8, 8], B: [6, 9, 9, 12, 12, 12], C: [14] * 3 + [16] * 3 + [18] * 2},
        ninja_held=[1, 0, 0],
        discard_piles=([7], [8]),
        **AFTER_DRAWS,
    )
    state.apply(Lay(20, 3))
    assert state.round_end_triggers() == [{"trigger": "all_types"}]
    assert state.decision == "ninja_or_end" and state.to_move == A

    state.apply(UseNinja(B, 6))
    assert state.to_move == B and state.decision == "choose_pile"
    events = state.apply(ChoosePile(1))

    # No miniature left, so the turn ended by itself with eight types on the table.
    assert not of_type(events, "round_ended")
    assert state.round_number == 1 and state.to_move == B and state.decision == "draw"


def test_ctg_41_ending_the_turn_with_all_nine_types_ends_the_round() -> None:
    state = position(
        3,
        options=NINJA,
        hands={A: [20] * 3 + [6]},
        displays={A: [7, 7, 8, 8], B: [6, 9, 9, 12, 12, 12], C: [14] * 3 + [16] * 3 + [18] * 2},
        ninja_held=[1, 0, 0],
        **AFTER_DRAWS,
    )
    state.apply(Lay(20, 3))
    events = state.apply(EndTurn())
    assert of_type(events, "round_ended")[0]["triggers"] == [{"trigger": "all_types"}]


def test_ctg_43_removing_the_last_card_removes_the_type() -> None:
    state = position(
        2, options=NINJA, hands={A: [7, 8, 9]}, displays={B: [6, 20, 20]}, ninja_held=[1, 0]
    )
    before = state.view(None)["display_points"][B]
    state.apply(UseNinja(B, 6))  # both piles empty: the 6 starts slot 1 without a question
    assert display(state, B) == {20: 2}
    assert state.view(None)["display_points"][B] == before - 6
    assert state.owner[0] == -1 and pile(state, 1) == [6]


def test_ctg_44_ninja_before_drawing_then_beat_the_shrunk_set() -> None:
    state = position(
        2,
        options=NINJA,
        hands={A: [20] * 4},
        displays={B: [20] * 4},
        ninja_held=[1, 0],
        discard_piles=([6], [7]),
    )
    state.apply(UseNinja(B, 20))
    state.apply(ChoosePile(1))
    assert display(state, B) == {20: 3} and state.decision == "draw"
    play(state, Draw("draw1"), Draw("draw2"))
    state.apply(Lay(20, 4))
    assert state.to_move == B and state.decision == "choose_pile"
    state.apply(ChoosePile(2))
    assert display(state, A)[20] == 4 and 20 not in display(state, B)
    assert pile(state, 2) == [7, 20, 20, 20]


def test_ctg_45_several_ninjas_in_one_turn() -> None:
    state = position(
        3,
        options=NINJA,
        hands={A: [6, 7, 8]},
        displays={C: [9] * 3},
        ninja_held=[2, 0, 0],
        discard_piles=([6], [7]),
    )
    play(state, UseNinja(C, 9), ChoosePile(1), UseNinja(C, 9), ChoosePile(2))
    assert display(state, C) == {9: 1}
    assert state.view(None)["display_points"][C] == 9
    assert state.ninja_supply == 4 and state.ninja_held == [0, 0, 0]


def test_ctg_46_miniatures_return_to_the_supply_at_the_next_round() -> None:
    state = position(
        2,
        options=NINJA,
        hands={A: [6, 7]},
        displays={B: [20, 20]},
        ninja_held=[1, 2],
        draw_sizes=(0, 30),
        sink=B,
        **AFTER_DRAWS,
    )
    state.apply(Discard(6, 1))
    assert state.decision == "ninja_or_end"  # A could still use the miniature
    events = state.apply(EndTurn())
    assert of_type(events, "round_scored")[0]["scores"] == [0, 20]
    assert state.round_number == 2
    assert state.ninja_supply == 4 and state.ninja_held == [0, 0]


def test_ctg_47_ninja_between_the_two_draws() -> None:
    state = position(
        2,
        options=NINJA,
        hands={A: [6, 7, 8]},
        displays={B: [20, 20, 18, 18]},
        ninja_held=[1, 0],
        discard_piles=([6], [7]),
    )
    state.apply(Draw("draw1"))
    assert state.decision == "draw_second" and UseNinja(B, 18) in state.legal_actions()
    play(state, UseNinja(B, 18), ChoosePile(2))
    assert state.decision == "draw_second" and state.to_move == A
    assert Draw("draw1") not in state.legal_actions()
    state.apply(Draw("discard2"))
    assert state.hands[A][7] == 1 and state.decision == "lay_or_discard"


def test_ninja_actions_only_exist_with_the_variant() -> None:
    state = position(2, hands={A: [6, 7, 8]}, displays={B: [20, 20]})
    assert state.why_illegal(UseNinja(B, 20)) == "ninja_off"
    plain = GAME.new_state(2, seed=3)
    assert plain.view(None)["ninja"] is None
