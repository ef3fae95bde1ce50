"""Replays rebuild every position of a stored game through the engine: a seeded sample of
random games in every game and player count replays to exactly the stored final state, any
position is the same as the game was then, and a game the rules no longer replay says so."""

from __future__ import annotations

import random

import orjson
import pytest

from bot.replays.rebuild import CHECKPOINT, LoggedStep, Replay
from games import REGISTRY

SAMPLE = [
    (key, players, seed)
    for key in REGISTRY
    for players in REGISTRY[key].player_counts
    for seed in (1, 2)
]


def stored(value):
    """As the database gives JSON back."""
    return orjson.loads(orjson.dumps(value))


def random_game(key: str, players: int, seed: int):
    """A random playout stored as the bot stores it: the setup, every move, every state."""
    game = REGISTRY[key]
    rng = random.Random(seed)
    state = game.new_state(players, seed, {})
    opening = stored(state.opening_events)
    steps, states = [], [stored(state.to_json())]
    while not state.is_over:
        seat = state.to_move
        action = rng.choice(state.legal_actions())
        events = state.apply(action)
        steps.append(LoggedStep(seat, stored(action.to_json()), stored(events)))
        states.append(stored(state.to_json()))
    return game, opening, steps, states


def replay_of(key, players, seed, opening, steps, final):
    return Replay.build(
        REGISTRY[key],
        players=players,
        seed=seed,
        options={},
        opening_events=opening,
        steps=steps,
        final_state=final,
    )


@pytest.mark.parametrize(("key", "players", "seed"), SAMPLE)
def test_a_stored_game_replays_to_its_final_state_and_every_position(key, players, seed) -> None:
    _, opening, steps, states = random_game(key, players, seed)
    replay = replay_of(key, players, seed, opening, steps, states[-1])
    assert replay.problem is None
    assert replay.last == len(steps) and replay.last > CHECKPOINT
    rng = random.Random(seed)
    for number in {
        0,
        1,
        CHECKPOINT - 1,
        CHECKPOINT,
        replay.last,
        *rng.sample(range(len(states)), 8),
    }:
        assert stored(replay.position(number).to_json()) == states[number], number
    assert replay.events_at(0) == opening and replay.events_at(3) == steps[2].events
    if replay.round_starts:
        first = replay.round_starts[0]
        assert replay.next_round(0) == first and replay.previous_round(first + 1) == first
        assert replay.round_of(first) == 2 and replay.round_of(first - 1) == 1


def test_a_game_the_rules_no_longer_replay_says_so() -> None:
    key, players, seed = "kami", 4, 3
    _, opening, steps, states = random_game(key, players, seed)
    different_end = dict(states[-1], rng=12345)
    assert replay_of(key, players, seed, opening, steps, different_end).problem.kind == "final"
    changed = [*steps[:5], LoggedStep(steps[5].seat, steps[5].action, [{"type": "x"}]), *steps[6:]]
    problem = replay_of(key, players, seed, opening, changed, states[-1]).problem
    assert (problem.kind, problem.move) == ("events", 6)
    refused = [*steps[:7], LoggedStep(steps[7].seat, {"kind": "nothing"}, []), *steps[8:]]
    problem = replay_of(key, players, seed, opening, refused, states[-1]).problem
    assert (problem.kind, problem.move) == ("illegal", 8)
    with pytest.raises(AssertionError):
        replay_of(key, players, seed, opening, refused, states[-1]).position(0)
