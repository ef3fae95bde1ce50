"""Properties that hold throughout random legal play, for every player count and option set.

One hypothesis example plays a whole game. Cheap invariants are checked after every step;
costly ones (illegal-action probes, hidden-information views, a JSON round trip) at random
steps, so the suite stays fast while every configuration is covered.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.call_to_glory import GAME
from games.call_to_glory import actions as act
from games.call_to_glory.cards import TASK_BONUS, TYPES, VALUES, full_deck
from games.call_to_glory.state import CallToGloryState
from games.core import Event
from tests.games.protocol import (
    assert_actions_round_trip,
    assert_continues_identically,
    assert_menu_fits,
    assert_rejected_unchanged,
    json_copy,
    option_combinations,
)

CONFIGS = [
    (players, options)
    for players in GAME.player_counts
    for options in option_combinations(GAME, players)
]

ODD_ACTIONS: list[act.Action] = [
    act.Draw("nowhere"),
    act.Lay(5, 2),
    act.Lay(20, 0),
    act.Discard(20, 3),
    act.UseNinja(7, 20),
    act.UseNinja(-1, 6),
    act.ChoosePile(0),
    act.RevealTask("z"),
]
EVERY_ACTION: list[act.Action] = [
    *act.DRAWS,
    *(lay for row in act.LAYS for lay in row),
    *(discard for row in act.DISCARDS for discard in row),
    *(ninja for row in act.NINJAS for ninja in row),
    act.END_TURN,
    *act.CHOOSE_PILES,
    *act.REVEALS.values(),
    *ODD_ACTIONS,
]


def config_id(config: tuple[int, dict]) -> str:
    players, options = config
    flags = [f"{name}={value}" for name, value in sorted(options.items())]
    return f"{players}p-" + ",".join(flags)


# --------------------------------------------------------------------------- invariants


def assert_cards_conserved(state: CallToGloryState) -> None:
    seen: Counter[int] = Counter()
    for pile in (*state.draw_piles, *state.discard_piles):
        seen.update(pile)
    for zone in (*state.hands, *state.displays):
        for t, count in enumerate(zone):
            assert count >= 0
            seen[t] += count
    if state.pending is not None:  # cards leaving a display while the owner picks a pile
        seen[state.pending.type_index] += state.pending.count
    assert seen == Counter(full_deck())


def assert_one_set_per_value(state: CallToGloryState) -> None:
    for t in range(TYPES):
        holders = [seat for seat, display in enumerate(state.displays) if display[t]]
        assert len(holders) <= 1
        assert state.owner[t] == (holders[0] if holders else -1)


def assert_public_events_hide_secrets(events: list[Event], players: int) -> None:
    for event in events:
        if "visible_to" in event:
            assert len(event["visible_to"]) == 1 and 0 <= event["visible_to"][0] < players
        elif event["type"] == "card_drawn" and event["source"].startswith("draw"):
            assert event["value"] is None
        else:
            assert event["type"] not in ("hand_dealt", "tasks_received", "card_drawn_secret")


class ScoreWitness:
    """Follows the displays through the public events alone and recomputes every score."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.displays: list[dict[int, int]] = [{} for _ in range(players)]
        self.bonus = [0] * players
        self.rows: list[list[int]] = []

    def feed(self, events: list[Event]) -> None:
        for event in events:
            kind = event["type"]
            if kind == "round_started":
                self.displays = [{} for _ in range(self.players)]
                self.bonus = [0] * self.players
            elif kind == "set_laid":
                if event["beaten_seat"] is not None:
                    assert (
                        self.displays[event["beaten_seat"]].pop(event["value"])
                        == (event["beaten_count"])
                    )
                self.displays[event["seat"]][event["value"]] = event["count"]
            elif kind == "ninja_used":
                target = self.displays[event["target"]]
                target[event["value"]] -= 1
                if not target[event["value"]]:
                    del target[event["value"]]
            elif kind == "task_revealed":
                expected = [
                    {
                        "seat": seat,
                        "cards": shown[event["value"]],
                        "points": TASK_BONUS[event["deck"]] * shown[event["value"]],
                    }
                    for seat, shown in enumerate(self.displays)
                    if event["value"] in shown
                ]
                assert event["awards"] == expected
                for award in expected:
                    self.bonus[award["seat"]] += award["points"]
            elif kind == "round_scored":
                base = [sum(display.keys()) for display in self.displays]
                assert event["base"] == base
                assert event["bonus"] == self.bonus
                assert event["scores"] == [b + x for b, x in zip(base, self.bonus, strict=True)]
                self.rows.append(event["scores"])


def assert_view_ignores_hidden_information(
    state: CallToGloryState, seat: int, rng: random.Random
) -> None:
    """Shuffle what ``seat`` cannot see (other hands, draw piles, others' tasks, RNG). Cards
    the table saw going into a hand (``known_hand_cards``) are public and stay there."""
    data = copy.deepcopy(state.to_json())
    others = [s for s in range(state.num_players) if s != seat]
    hidden = []
    for s in others:
        unknown = Counter(data["hands"][s]) - Counter(data["known_hand_cards"][s])
        hidden += list(unknown.elements())
    hidden += [card for pile in data["draw_piles"] for card in pile]
    rng.shuffle(hidden)
    for s in others:
        size = len(data["hands"][s]) - len(data["known_hand_cards"][s])
        data["hands"][s] = sorted(data["known_hand_cards"][s] + hidden[:size])
        hidden = hidden[size:]
    for pile in data["draw_piles"]:
        size = len(pile)
        pile[:], hidden = hidden[:size], hidden[size:]
    for deck in ("a", "b", "c"):
        slots = [
            (s, i) for s in others for i, t in enumerate(data["tasks"][s]) if t["deck"] == deck
        ]
        values = [data["tasks"][s][i]["value"] for s, i in slots]
        rng.shuffle(values)
        for (s, i), value in zip(slots, values, strict=True):
            data["tasks"][s][i]["value"] = value
    data["rng"] = rng.getrandbits(64)
    twin = GAME.state_from_json(data)
    assert twin.view(seat) == state.view(seat)
    assert json.loads(json.dumps(state.view(seat))) == state.view(seat)  # plain JSON only


def probe_actions(state: CallToGloryState, rng: random.Random) -> None:
    """Exactly the listed actions are accepted: any of them applies, all others are refused."""
    legal = set(state.legal_actions())
    for action in EVERY_ACTION:
        assert state.is_legal(action) == (action in legal)
    json_copy(state).apply(rng.choice(state.legal_actions()))
    for action in rng.sample([a for a in EVERY_ACTION if a not in legal], 4):
        assert_rejected_unchanged(state, action)
        assert state.why_illegal(action) != ""


# --------------------------------------------------------------------------- the game loop


def play_checked(players: int, options: dict, seed: int, chooser_seed: int) -> CallToGloryState:
    state = GAME.new_state(players, seed, options)
    rng = random.Random(chooser_seed)
    witness = ScoreWitness(players)
    witness.feed(state.opening_events)
    assert_public_events_hide_secrets(state.opening_events, players)
    round_trip_step = rng.randrange(400)
    for step in range(20_000):
        if state.is_over:
            break
        assert_cards_conserved(state)
        assert_one_set_per_value(state)
        assert_menu_fits(state)
        assert state.to_move is not None and state.decision is not None
        if rng.random() < 0.04:
            probe_actions(state, rng)
            assert_actions_round_trip(state)
            assert_view_ignores_hidden_information(state, rng.randrange(players), rng)
        if step == round_trip_step:
            assert_continues_identically(state.clone(), random.Random(step), steps=60)
        events = state.apply(rng.choice(state.legal_actions()))
        assert_public_events_hide_secrets(events, players)
        witness.feed(events)
    else:
        raise AssertionError("the game did not end")
    assert state.legal_actions() == [] and state.to_move is None
    assert json_copy(state).to_json() == state.to_json(), "a finished game must reload"
    assert len(state.round_scores) == state.rounds_total
    assert state.scores == [sum(column) for column in zip(*state.round_scores, strict=True)]
    assert witness.rows == state.round_scores
    best = max(state.scores)
    assert state.winners and all(state.scores[seat] == best for seat in state.winners)
    return state


@pytest.mark.parametrize("config", CONFIGS, ids=[config_id(c) for c in CONFIGS])
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64 - 1), chooser_seed=st.integers(0, 2**32))
def test_random_legal_play_keeps_every_invariant(
    config: tuple[int, dict], seed: int, chooser_seed: int
) -> None:
    players, options = config
    play_checked(players, options, seed, chooser_seed)


def test_every_player_count_and_option_combination_is_covered() -> None:
    assert {(p, tuple(sorted(o.items()))) for p, o in CONFIGS} == {
        (p, (("imperial_tasks", tasks), ("ninja", ninja), ("rounds", rounds)))
        for p in (2, 3, 4)
        for tasks in (False, True)
        for ninja in (False, True)
        for rounds in (4, 1)
        if not (tasks and rounds == 1)
    }


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), players=st.sampled_from(GAME.player_counts))
def test_same_seed_and_choices_replay_identically(seed: int, players: int) -> None:
    first = play_checked_quiet(players, seed)
    second = play_checked_quiet(players, seed)
    assert first == second


def play_checked_quiet(players: int, seed: int) -> list:
    state = GAME.new_state(players, seed, {"ninja": True, "imperial_tasks": True})
    rng = random.Random(seed)
    log = [state.opening_events]
    while not state.is_over:
        log.append(state.apply(rng.choice(state.legal_actions())))
    return [log, state.to_json()]


def test_values_table_matches_the_card_counts() -> None:
    assert sum(VALUES) == 110 and len(full_deck()) == 110
