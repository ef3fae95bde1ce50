"""The AI takes a game it can win on the spot, in every game and player count, under every seed.

The three Kami positions are the ones issue 31 found declined (the old reward scaled a round's
margin to 4 points, so "win the game now" and "win a 4-point round" both scored 1.0). Each is
checked twice: ``decide`` (every searching level and the hint's strong level) plays the win
under every seed, and the search alone, without the shortcut of ``games.ai.tactics``, rates the
winning move best, because a won game outranks any round in the rewards.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games import REGISTRY, State
from games.ai import LEVELS, decide, search
from games.ai.levels import Level
from games.ai.tactics import winning_move
from games.call_to_glory import actions as ctg
from tests.games.call_to_glory.builders import position as ctg_position
from tests.games.kami.builders import position as kami_position

POSITIONS = Path(__file__).parent / "positions"
SEEDS = range(8)
QUICK = [LEVELS["easy"].with_iterations(12), LEVELS["medium"].with_iterations(30)]
SEARCH_ONLY = LEVELS["strong"]


def madmen_behind() -> State:
    """Duel to 15, 8-11 behind, two Madmen on lead: Madman face-down, Madman attack doubles to
    8 and wins 16-11. The old AI led a Gold Dragon mercenary under every seed and lost."""
    return kami_position(
        2,
        hands={0: "MA MA", 1: "SO SO SP HO SI GO"},
        to_move=0,
        decision="lead_defense",
        stacks=["SO GO", "HO SI", "SO SO", "", "SP TO", "", "SO HO", ""],
        totals=[8, 11],
    )


def empresses_from_eight() -> State:
    """Duel to 15 at 8-0: both Empresses on lead are a 10-point Volltreffer (the last card may
    attack), 18: the game."""
    return kami_position(
        2,
        hands={0: "EM EM", 1: "SO SO HO SI GO TO"},
        to_move=0,
        decision="lead_defense",
        stacks=["SO GO", "HO SI", "SO SO", "", "SP MA", "", "", ""],
        totals=[8, 0],
    )


def madman_mercenary_double() -> State:
    """Duel to 15 at 10-8: one Madman in hand and a Madman mercenary on a stack: the mercenary
    face-down, the hand's Madman as the attack doubles to 8 (ruling D3), 18."""
    return kami_position(
        2,
        hands={0: "MA", 1: "SO SO HO SI GO"},
        to_move=0,
        decision="lead_defense",
        stacks=["SO GO", "HO SI", "SP MA", "", "SO TO", "", "", ""],
        totals=[10, 8],
    )


def kami_three_players() -> State:
    """Tower and Soldier left at 11 of 15: the Soldier face-down and the Tower attack make 15;
    the other way round scores 1."""
    return kami_position(
        3,
        hands={0: "TO SO", 1: "SO SO HO SI", 2: "SO SP GO GO"},
        to_move=0,
        decision="lead_defense",
        totals=[11, 12, 13],
    )


def kami_teams() -> State:
    """The team at 12 of 15: Soldier face-down, Silver Dragon attack: 15."""
    return kami_position(
        4,
        hands={0: "SI SO", 1: "SO SO HO GO", 2: "SO SP", 3: "SO HO TO MA"},
        to_move=0,
        decision="lead_defense",
        totals=[12, 10],
    )


HANDS = {0: [20, 20, 18, 14], 1: [9, 7], 2: [20], 3: [16]}


def call_to_glory(players: int) -> State:
    """The one-round game: laying the two Farmers gives the seat the types that end the round,
    and its display then outscores every other."""
    mine = {2: [6, 6, 7, 7, 8, 8, 9, 9, 12, 12], 3: [6, 6, 7, 7, 8, 8, 9, 9], 4: [6, 6, 7, 7, 8, 8]}
    others = {1: [14, 14, 14, 16, 16, 16], 2: [18, 18], 3: [12, 12, 12]}
    return ctg_position(
        players,
        options={"rounds": 1},
        hands={seat: hand for seat, hand in HANDS.items() if seat < players},
        displays={0: mine[players], **{seat: others[seat] for seat in range(1, players)}},
        phase="lay_or_discard",
        drawn=["draw1", "draw2"],
        draw_sizes=(30, 30),
        sink=1,
    )


def clans_and_glory(players: int) -> State:
    """The last player's final card (kept from a game of the rules-based players): only some
    placements (with or without the shield) end the game won."""
    data = json.loads((POSITIONS / f"clans_and_glory_{players}p_take_the_win.json").read_text())
    return REGISTRY["clans_and_glory"].state_from_json(data)


KAMI_CASES = {
    "madmen_behind": (madmen_behind, {"kind": "lead", "card": "madman"}),
    "madman_mercenary_double": (madman_mercenary_double, {"kind": "lead_mercenary", "stack": 2}),
}
"""Positions where only the immediate finish wins (with both Empresses the search rightly
sees that leading a mercenary first still wins almost always: there the shortcut decides)."""
POSITIONS_BY_GAME = {
    "kami 2p madmen behind": madmen_behind,
    "kami 2p empresses": empresses_from_eight,
    "kami 2p mercenary double": madman_mercenary_double,
    "kami 3p": kami_three_players,
    "kami 4p": kami_teams,
    "call_to_glory 2p": lambda: call_to_glory(2),
    "call_to_glory 3p": lambda: call_to_glory(3),
    "call_to_glory 4p": lambda: call_to_glory(4),
    "clans_and_glory 2p": lambda: clans_and_glory(2),
    "clans_and_glory 3p": lambda: clans_and_glory(3),
    "clans_and_glory 4p": lambda: clans_and_glory(4),
}


def wins_now(state: State, action) -> bool:  # type: ignore[no-untyped-def]
    """Play ``action`` (and, if the seat decides again at once, its best follow-up) on the
    real state: is the game over and won by the seat's side?"""
    seat = state.to_move
    side = state.sides[seat]
    after = state.clone()
    after.apply(action)
    if not after.is_over and after.to_move == seat:
        follow = decide(after, seat, QUICK[0], 1).action
        after.apply(follow)
    return after.is_over and {after.sides[w] for w in after.winners} == {side}


@pytest.mark.parametrize("name", sorted(POSITIONS_BY_GAME))
def test_every_level_takes_the_win_under_every_seed(name: str) -> None:
    state = POSITIONS_BY_GAME[name]()
    seat = state.to_move
    legal = state.legal_actions()
    assert any(not wins_now(state, action) for action in legal), "a position with a choice"
    for level in [*QUICK, "strong"]:
        for seed in SEEDS:
            decision = decide(state, seat, level, seed)
            assert decision.winning and wins_now(state, decision.action), (level, seed)


@pytest.mark.parametrize("name", sorted(KAMI_CASES))
def test_the_search_alone_rates_the_kami_win_above_every_round(name: str) -> None:
    """No shortcut: the search's own statistics put the winning lead first, because a game won
    outranks every round (the old reward tied them at 1.0)."""
    build, expected = KAMI_CASES[name]
    state = build()
    assert winning_move(state, 0, 1).to_json() == expected
    for seed in range(3):
        result = search(
            state,
            0,
            300,
            seed,
            exploration=SEARCH_ONLY.exploration,
            rollout_depth=SEARCH_ONLY.rollout_depth,
            guidance=SEARCH_ONLY.guidance,
        )
        assert result.best.to_json() == expected, seed
        best = next(stat for stat in result.stats if stat.action == result.best)
        assert all(best.value > stat.value for stat in result.stats if stat is not best)


def test_a_hint_never_recommends_anything_but_the_win() -> None:
    """The hint is the strong level's decision for the asking seat: on every position above it
    is the winning move, marked as such (the hint then says the move wins the game)."""
    for build in POSITIONS_BY_GAME.values():
        state = build()
        decision = decide(state, state.to_move, "strong", 12345)
        assert decision.winning and decision.to_json()["winning"] is True
        assert wins_now(state, decision.action)


def test_laying_the_round_ending_set_is_what_wins_call_to_glory() -> None:
    state = call_to_glory(2)
    assert winning_move(state, 0, 3) == ctg.Lay(20, 2)


def test_a_level_without_search_still_plays_legally_here() -> None:
    """The rules and random levels play these positions too (no search, no shortcut)."""
    for build in POSITIONS_BY_GAME.values():
        state = build()
        for level in (LEVELS["rules"], LEVELS["random"], Level("tiny", 2)):
            assert state.is_legal(decide(state, state.to_move, level, 4).action)
