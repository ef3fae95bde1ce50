"""The AI: legal moves through whole games, decisions that depend only on what the seat may
see, determinism, the JSON entry point, forced moves, budgets and a little strength.

Budgets are tiny so the whole file stays fast; strength is measured by ``benchmarks/ai.py``.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import REGISTRY, State
from games.ai import LEVELS, Decision, Level, decide, decide_json, decision_seed, search
from games.ai.multiplayer import budget
from games.ai.rewards import Evaluator, kami_chances, normal_chances
from games.call_to_glory.state import CallToGloryState
from tests.games.ai.twins import twin
from tests.games.kami.builders import position as kami_position
from tests.games.protocol import option_combinations

TINY = Level("tiny", 6)
SMALL = Level("small", 40)
GUIDED = LEVELS["strong"].with_iterations(30)
"""The strong level's search (rules-based rollouts and prior) at a test's budget."""
GAME_PLAYERS = [(key, players) for key, game in REGISTRY.items() for players in game.player_counts]


def quick_options(key: str) -> dict:
    """Call to Glory's one-round game keeps a whole game short enough for a test."""
    return {"rounds": 1} if key == "call_to_glory" else {}


def play_to_position(key: str, players: int, seed: int, steps: int) -> State:
    state = REGISTRY[key].new_state(players, seed, quick_options(key))
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


# --------------------------------------------------------------------------- legality


@pytest.mark.parametrize(("key", "players"), GAME_PLAYERS)
def test_every_ai_move_through_a_whole_game_is_legal(key: str, players: int) -> None:
    """All seats played by the AI (searching levels and the random baseline) to the end."""
    state = REGISTRY[key].new_state(players, 11 * players, quick_options(key))
    levels = [TINY, LEVELS["random"], TINY, LEVELS["random"]]
    step = 0
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        legal = state.legal_actions()
        decision = decide(state, seat, levels[seat], decision_seed(key, step, seat))
        assert decision.action in legal
        assert decision.forced == (len(legal) == 1)
        if decision.reason is not None:
            assert isinstance(decision.reason["token"], str)
            assert json.loads(json.dumps(decision.reason)) == decision.reason
        state.apply(decision.action)
        step += 1
    assert state.winners


@pytest.mark.parametrize("key", sorted(REGISTRY))
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_ai_moves_are_legal_under_every_option(key: str, data: st.DataObject, seed: int) -> None:
    """Random options and a random position; the AI then plays a stretch of the game."""
    game = REGISTRY[key]
    players = data.draw(st.sampled_from(game.player_counts), label="players")
    options = data.draw(st.sampled_from(list(option_combinations(game, players))), label="opts")
    state = game.new_state(players, seed, options)
    rng = random.Random(seed)
    for _ in range(data.draw(st.integers(0, 200), label="steps")):
        if state.is_over:
            return
        state.apply(rng.choice(state.legal_actions()))
    for step in range(30):
        if state.is_over:
            break
        seat = state.to_move
        decision = decide(state, seat, TINY, seed + step)
        assert state.is_legal(decision.action)
        state.apply(decision.action)


# --------------------------------------------------------------------------- no cheating


@pytest.mark.parametrize(("key", "players"), GAME_PLAYERS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 120))
def test_the_decision_depends_only_on_what_the_seat_may_see(
    key: str, players: int, seed: int, steps: int
) -> None:
    """Two states that differ only in what the seat to move cannot see (other hands, hidden
    cards, the RNG and with it every future deal) give the same decision, reason and search
    statistics for the same seed."""
    state = play_to_position(key, players, seed, steps)
    rng = random.Random(seed)
    while not state.is_over and len(state.legal_actions()) == 1:
        state.apply(state.legal_actions()[0])
    if state.is_over:
        return
    seat = state.to_move
    other = twin(state, seat, rng)
    assert other.view(seat) == state.view(seat)
    assert other.to_json() != state.to_json()
    for level in (SMALL, GUIDED):
        real = decide(state, seat, level, seed)
        mirrored = decide(other, seat, level, seed)
        assert real == mirrored  # action, reason, value and every alternative's statistics
        share = level.guidance.expert_share
        spend = budget(state, level.iterations, level.rollout_depth, share)
        assert real.iterations == spend.iterations or real.winning
    # The rules-based player on its own reads only the seat's view too.
    assert decide(state, seat, "rules", seed) == decide(other, seat, "rules", seed)


def test_a_twin_really_hides_different_cards() -> None:
    """Guards the test above: the twins it uses change hidden cards, not just the RNG."""
    for key in REGISTRY:
        state = play_to_position(key, 2, 5, 10)
        seat = state.to_move
        other = twin(state, seat, random.Random(1))
        mine, theirs = state.to_json(), other.to_json()
        for data in (mine, theirs):
            data.pop("rng")
            data.pop("opening_events", None)
        assert mine != theirs, key


# --------------------------------------------------------------------------- determinism, API


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_same_seed_same_decision_and_the_json_entry_point_agrees(key: str) -> None:
    state = play_to_position(key, 3, 4, 7)
    while len(state.legal_actions()) == 1:
        state.apply(state.legal_actions()[0])
    seat = state.to_move
    first = decide(state, seat, SMALL, 99)
    again = decide(state.clone(), seat, SMALL, 99)
    assert first == again
    request = {"state": state.to_json(), "seat": seat, "level": "easy", "seed": 99}
    answer = decide_json(json.loads(json.dumps(request)))
    assert answer == json.loads(json.dumps(answer))  # plain JSON only
    direct = decide(state, seat, "easy", 99)
    assert REGISTRY[key].action_from_json(answer["action"]) == direct.action
    assert answer["reason"] == direct.reason
    assert answer["iterations"] == LEVELS["easy"].iterations
    assert [a["visits"] for a in answer["alternatives"]] == [
        stat.visits for stat in direct.alternatives
    ]


def test_decide_does_not_change_the_state() -> None:
    state = play_to_position("kami", 4, 8, 5)
    before = state.to_json()
    decide(state, state.to_move, SMALL, 1)
    assert state.to_json() == before


def test_a_forced_move_is_answered_without_searching() -> None:
    """Four-player Kami asks every seat about Demoralized; with fewer than 5 Soldiers keeping
    them hidden is the only answer."""
    state = REGISTRY["kami"].new_state(4, 1)
    assert state.decision == "demoralized_reveal" and len(state.legal_actions()) == 1
    decision = decide(state, state.to_move, "strong", 1)
    assert decision.forced and decision.iterations == 0 and decision.alternatives == ()
    assert decision.action == state.legal_actions()[0]


def test_only_the_seat_to_move_may_be_decided_for() -> None:
    state = REGISTRY["kami"].new_state(2, 1)
    with pytest.raises(ValueError, match="not to move"):
        decide(state, 1 - state.to_move, SMALL, 1)
    with pytest.raises(ValueError, match="unknown level"):
        decide(state, state.to_move, "grandmaster", 1)


def test_a_millisecond_cap_stops_a_long_search() -> None:
    state = play_to_position("call_to_glory", 2, 3, 4)
    while len(state.legal_actions()) == 1:
        state.apply(state.legal_actions()[0])
    result = search(state, state.to_move, 10**7, 1, max_ms=40)
    assert 0 < result.iterations < 10**7
    assert result.elapsed_ms < 1000


def test_decision_seeds_are_stable_and_distinct() -> None:
    assert decision_seed("game-1", 17, 2) == decision_seed("game-1", 17, 2)
    assert decision_seed("game-1", 17, 2) != decision_seed("game-1", 18, 2)
    assert decision_seed("a", "bc") != decision_seed("ab", "c")
    assert 0 <= decision_seed("x") < 2**64
    # A fixed value: the seed must not depend on the process (``hash()`` would).
    assert decision_seed("glory") == 0x9DB7842ED2C7CBDC


def test_a_decision_round_trips_to_json() -> None:
    state = play_to_position("clans_and_glory", 2, 2, 3)
    decision = decide(state, state.to_move, SMALL, 5)
    data = json.loads(json.dumps(decision.to_json()))
    assert REGISTRY["clans_and_glory"].action_from_json(data["action"]) == decision.action
    assert data["value"] == pytest.approx(decision.value)
    assert data["close_call"] == decision.close_call
    assert isinstance(decision, Decision)


# --------------------------------------------------------------------------- rewards


class FakeKami:
    """Just what the evaluator reads of a four-player Kami state (two teams, target 15)."""

    game_key = "kami"

    def __init__(self, scores: list[int], winners: list[int] | None = None) -> None:
        self.options = {"target": 15}
        self.scores = scores
        self.sides = [0, 1, 0, 1]
        self.is_over = winners is not None
        self.winners = winners or []


def test_rewards_share_a_side_between_partners_and_rank_a_won_game_above_any_round() -> None:
    evaluator = Evaluator(FakeKami([3, 5, 3, 5]))  # type: ignore[arg-type]
    even = evaluator.rewards(FakeKami([3, 5, 3, 5]))  # type: ignore[arg-type]
    assert even[0] < 0.5 < even[1]  # 3-5 behind: less than an even chance for team 0
    assert sum(even) == pytest.approx(1.0)
    big_round = evaluator.rewards(FakeKami([13, 5, 13, 5]))  # type: ignore[arg-type]
    assert big_round[0] > even[0] and big_round[0] < 0.9  # a 10-point round: not yet the game
    won, lost = evaluator.rewards(FakeKami([15, 5, 15, 5], winners=[0, 2]))  # type: ignore[arg-type]
    assert won >= 0.9 > big_round[0] and lost <= 0.1
    # The margin only orders results within their band: a narrow win still beats any round.
    narrow, _ = evaluator.rewards(FakeKami([15, 14, 15, 14], winners=[0, 2]))  # type: ignore[arg-type]
    assert 0.9 <= narrow < won


class FakeCallToGlory:
    """Just what the evaluator reads of a finished four-player, one-round Call to Glory."""

    game_key = "call_to_glory"
    is_over = True

    def __init__(self, scores: list[int], sides: int = 4) -> None:
        self.scores = scores
        self.sides = list(range(sides))
        self.winners = [max(range(sides), key=lambda seat: scores[seat])]


def test_with_three_or_more_players_a_seat_far_behind_still_values_every_point() -> None:
    """Call to Glory at 3-4 players: the points margin carries the reward, so a round lost by
    far still prefers 30 points to 10 (the result-first reward made them almost equal and the
    seat drifted), and the winner's reward still grows with what it wins by."""
    root = FakeCallToGlory([0, 0, 0, 0])
    evaluator = Evaluator(root)  # type: ignore[arg-type]
    few = evaluator.rewards(FakeCallToGlory([10, 60, 50, 55]))  # type: ignore[arg-type]
    more = evaluator.rewards(FakeCallToGlory([30, 60, 50, 55]))  # type: ignore[arg-type]
    assert more[0] - few[0] >= 0.15  # 20 points more: a fifth of the reward's range
    narrow = evaluator.rewards(FakeCallToGlory([56, 55, 50, 40]))  # type: ignore[arg-type]
    wide = evaluator.rewards(FakeCallToGlory([70, 55, 50, 40]))  # type: ignore[arg-type]
    assert wide[0] > narrow[0]
    # Two players keep the result-first reward: any win above any loss.
    duel = Evaluator(FakeCallToGlory([0, 0], sides=2))  # type: ignore[arg-type]
    won, _ = duel.rewards(FakeCallToGlory([41, 40], sides=2))  # type: ignore[arg-type]
    _, lost = duel.rewards(FakeCallToGlory([70, 40], sides=2))  # type: ignore[arg-type]
    assert won >= 0.9 and lost <= 0.1


def test_the_chance_to_win_from_the_standings_follows_the_points_still_needed() -> None:
    assert kami_chances((5, 5)) == pytest.approx((0.5, 0.5))
    ahead = kami_chances((2, 12))
    assert ahead[0] > 0.8 and sum(ahead) == pytest.approx(1.0)
    three = kami_chances((3, 10, 10))
    assert three[0] > three[1] == pytest.approx(three[2])
    spread = normal_chances([60, 40], 10.0)
    assert spread[0] > 0.9 and sum(spread) == pytest.approx(1.0)
    assert normal_chances([50, 50, 50], 10.0) == pytest.approx([1 / 3] * 3)


# --------------------------------------------------------------------------- strength


def test_the_search_takes_a_round_it_can_win_at_once() -> None:
    """Kami: the attack is a Horseman and the responder holds its last two cards, both
    Horsemen; countering ends the round for 2 points, passing gives the round away."""
    state = kami_position(
        2,
        hands={0: "SO SO SP SI", 1: "HO HO"},
        to_move=1,
        decision="respond",
        attack=(0, "HO"),
        stacks=["", "", "", "", "", "", "", ""],
    )
    decision = decide(state, 1, SMALL, 3)
    assert decision.action.to_json() == {"kind": "counter", "card": "horseman"}
    assert decision.reason == {"token": "counters", "card": "horseman", "attack": "horseman"}
    assert decision.value > decision.alternatives[0].value


def test_the_search_beats_the_set_of_a_player_about_to_end_the_round() -> None:
    """Call to Glory, 2 players: the opponent's display has 5 types (6 end the round) and a
    4x20; laying our 5x20 takes 20 points from them and scores them for us."""
    from tests.games.call_to_glory.builders import position as ctg_position

    state = ctg_position(
        2,
        hands={0: [20, 20, 20, 20, 20, 7], 1: [6, 9]},
        displays={1: [20, 20, 20, 20, 18, 18, 16, 16, 16, 14, 14, 12, 12]},
        phase="lay_or_discard",
        drawn=["draw1", "draw2"],
        draw_sizes=(30, 30),
        sink=1,
    )
    assert isinstance(state, CallToGloryState)
    decision = decide(state, 0, SMALL, 4)
    assert decision.action.to_json() == {"kind": "lay", "value": 20, "count": 5}
    assert decision.reason == {"token": "beats_set", "value": 20, "count": 4, "seat": 1}


@pytest.mark.parametrize(("key", "players"), GAME_PLAYERS)
def test_reasons_are_plain_json_and_tell_the_mover_nothing_hidden(key: str, players: int) -> None:
    """``explain`` answers every legal action with ``None`` or ``{"token": str, ...}`` in plain
    JSON, refuses illegal ones, and gives the same answers on a twin (it reads only the
    mover's hand and the public table)."""
    state = REGISTRY[key].new_state(players, 21, quick_options(key))
    rng = random.Random(21)
    tokens: set[str] = set()
    while not state.is_over:
        legal = state.legal_actions()
        if rng.random() < 0.2:
            other = twin(state, state.to_move, rng)
            for action in legal:
                reason = state.explain(action)
                assert reason == other.explain(action)
                if reason is not None:
                    assert isinstance(reason["token"], str)
                    assert json.loads(json.dumps(reason)) == reason
                    tokens.add(reason["token"])
        state.apply(rng.choice(legal))
    assert len(tokens) >= 3, tokens
    assert state.explain(legal[0]) is None  # the game is over: nothing is legal any more
