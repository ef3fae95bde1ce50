"""The reasons engines give for actions (``State.explain``), one scenario per kind of reason."""

from __future__ import annotations

from games.call_to_glory import actions as ctg
from games.clans_and_glory.actions import PlaceCard, PlaceShield, SkipShield
from games.kami import actions as kami
from tests.games.call_to_glory.builders import position as ctg_position
from tests.games.clans_and_glory.builders import position as clans_position
from tests.games.kami.builders import position as kami_position


def test_call_to_glory_reasons() -> None:
    state = ctg_position(
        2,
        hands={0: [18, 9, 9, 6]},
        displays={1: [9, 9, 9]},
        discard_piles=((18,), (7,)),
        phase="draw",
    )
    assert state.explain(ctg.Draw("discard1")) == {
        "token": "completes_set",
        "value": 18,
        "count": 2,
    }
    assert state.explain(ctg.Draw("discard2")) == {"token": "takes_card", "value": 7}
    assert state.explain(ctg.Draw("draw2")) == {"token": "draws_blind", "pile": 2}
    assert state.explain(ctg.Lay(9, 2)) is None  # not legal while drawing
    state.apply(ctg.Draw("draw1"))
    state.apply(ctg.Draw("draw2"))
    assert state.explain(ctg.Discard(9, 1)) == {
        "token": "cannot_beat",
        "value": 9,
        "count": 3,
        "seat": 1,
    }
    assert state.explain(ctg.Discard(6, 2)) == {"token": "least_needed", "value": 6}


def test_kami_reasons() -> None:
    state = kami_position(4, hands={1: "EM SO"}, to_move=1, decision="respond", attack=(0, "TO"))
    assert state.explain(kami.PASS) == {"token": "keeps_empress", "attack": "tower"}
    assert state.explain(kami.COUNTER[7]) == {
        "token": "counters",
        "card": "empress",
        "attack": "tower",
    }
    state = kami_position(4, hands={1: "SO SP"}, to_move=1, decision="respond", attack=(0, "TO"))
    assert state.explain(kami.PASS) == {"token": "cannot_counter", "attack": "tower"}
    state = kami_position(4, hands={1: "EM"}, defense={1: "EMv"}, to_move=1, decision="lead_attack")
    assert state.explain(kami.ATTACK[7]) == {
        "token": "wins_round",
        "card": "empress",
        "points": 10,
        "doubled": True,
    }


def test_clans_and_glory_reasons() -> None:
    state = clans_position(4, hands={0: ["G4", "R7"]})
    assert state.explain(PlaceCard("green-4", 2, "n6")) == {
        "token": "new_lowest",
        "board": 2,
        "value": 4,
    }
    assert state.explain(PlaceCard("red-7", 0, "n0")) == {
        "token": "matches",
        "card": "red-7",
        "positions": ["n1"],
    }
    state = clans_position(
        4, table={"N3": "B5"}, hands={0: ["K4"]}, phase="shield", shield_board=1, stacks={1: [2]}
    )
    assert state.explain(PlaceShield()) == {
        "token": "claims_value",
        "board": 1,
        "value": 5,
        "cards": 1,
        "points": 5,
    }
    assert state.explain(SkipShield()) == {"token": "saves_shield", "left": 5}
