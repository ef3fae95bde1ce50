"""Property tests over random legal play in every mode, deal and ending rule."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import IllegalAction, InvalidOptions, MalformedState, events_for
from games.kami import GAME, KamiState
from games.kami import actions as act
from games.kami.cards import COPIES, SOLDIER, counts_of
from games.menu import menu_problems
from games.rng import Rng
from tests.games.kami.reference import reference_actions
from tests.games.protocol import (
    assert_actions_round_trip,
    assert_continues_identically,
    assert_menu_fits,
    assert_rejected_unchanged,
    json_copy,
    option_combinations,
    play_randomly,
)

CONFIGS = [
    (players, options)
    for players in GAME.player_counts
    for options in option_combinations(GAME, players)
]
EVERY_ACTION = [
    act.PASS, act.REVEAL, act.KEEP_HIDDEN, act.REDEAL, act.PLAY_ON,
    *act.COUNTER, *act.LEAD, *act.ATTACK,
    *act.COUNTER_MERCENARY, *act.LEAD_MERCENARY, *act.ATTACK_MERCENARY,
]  # fmt: skip
DEMORALIZED_DECISIONS = ("demoralized_reveal", "demoralized_consent")
DECISIONS = {
    *DEMORALIZED_DECISIONS, "lead_defense", "lead_attack", "respond", "counter_attack",
}  # fmt: skip
PRIVATE_EVENTS = {"hand", "hidden_defense", "leftover_seen"}
REASONS = {
    "game_over", "no_demoralized_decision", "partner_decides", "reveal_first", "too_few_soldiers",
    "demoralized_pending", "must_lead", "must_attack", "must_counter_or_pass", "defense_first",
    "no_mercenary", "unknown_card", "not_in_hand", "empress_cannot_counter", "not_identical",
    "empress_locked", "last_card_must_attack", "no_attack_follows", "not_legal",
}  # fmt: skip
FAST = settings(max_examples=50, deadline=None)
configs = st.sampled_from(CONFIGS)
seeds = st.integers(0, 2**32)


def all_cards(state: KamiState) -> list[int]:
    cards = [c for hand in state.hands for c in range(8) for _ in range(hand[c])]
    cards += [c for line in state.defense for c, _, _ in line]
    cards += [c for line in state.attack for c, _ in line]
    cards += [c for stack in state.stacks for c in stack]
    return cards + state.set_aside


def new_game(config: tuple[int, dict], seed: int) -> KamiState:
    players, options = config
    return GAME.new_state(players, seed, options)


def expected_seats_to_ask(state: KamiState) -> list[int]:
    """Second statement of option ``demoralized``, for a state just dealt: who is asked, in order.

    Under ``ask_everyone`` it uses nothing but the start player, which is public."""
    rule = state.options["demoralized"]
    if state.num_players != 4 or rule == "off":
        return []
    order = [(state.start_player + step) % 4 for step in range(4)]
    if rule == "ask_everyone":
        return order
    assert rule == "ask_eligible"
    return [seat for seat in order if state.hands[seat][SOLDIER] >= 5]


class Invariants:
    """Checks run after every decision of a random game; remembers what it needs from before."""

    def __init__(self, state: KamiState) -> None:
        self.empress_was_open = state.empress_open
        self.decisions_this_round = 0
        self.rounds = 0
        self.start_player = state.start_player
        self.still_to_ask = expected_seats_to_ask(state)

    def __call__(self, state: KamiState, action: act.Action, events: list[dict]) -> None:
        assert counts_of(all_cards(state)) == list(COPIES)
        if state.num_players > 2:
            for seat, size in enumerate(state.hand_sizes):
                odd = state.decision in ("lead_attack", "counter_attack") and seat == state.to_move
                assert size % 2 == (1 if odd else 0), (seat, size, state.decision)
        self._check_empress_attacks(events)
        self._check_event_privacy(state, events)
        self._check_start_player_rotation(state, events)
        self._check_demoralized_sequence(state, action, events)
        self.decisions_this_round += 1
        if any(event["type"] in ("round_end", "redeal") for event in events):
            self.rounds += 1
            self.decisions_this_round = 0
        assert self.decisions_this_round < 300
        assert state.decision in DECISIONS or (state.is_over and state.decision is None)
        assert len(state.round_scores) == len(state.history)
        assert bool(state.winners) == state.is_over
        if not state.is_over:
            assert_menu_fits(state)
            assert set(state.legal_actions()) == reference_actions(state)
            self._check_no_forced_question(state)
        self.empress_was_open = state.empress_open

    def _check_empress_attacks(self, events: list[dict]) -> None:
        opened = self.empress_was_open
        for index, event in enumerate(events):
            if event["type"] == "counter" and event["card"] == "empress":
                opened = True
            if event["type"] == "attack" and event["card"] == "empress" and not opened:
                ends = [e for e in events[index:] if e["type"] == "round_end"]
                assert not event["mercenary"], "a mercenary Empress attacked while locked"
                assert ends and ends[0]["seat"] == event["seat"], "a locked Empress attacked"
            if event["type"] == "deal":
                opened = False

    def _check_no_forced_question(self, state: KamiState) -> None:
        """A single hand card with no mercenary to pick instead is played without asking."""
        seat = state.to_move
        assert seat is not None
        no_mercenary = not any(state.stacks)
        if state.decision in ("lead_attack", "counter_attack"):
            assert not (state.hand_sizes[seat] == 1 and no_mercenary)
        if state.decision == "lead_defense" and state.num_players == 2:
            assert not (state.hand_sizes[seat] == 1 and no_mercenary)  # ruling D5
        assert state.legal_actions(), "a seat was asked without any legal action"

    def _check_demoralized_sequence(
        self, state: KamiState, action: act.Action, events: list[dict]
    ) -> None:
        """The Demoralized check asks exactly ``expected_seats_to_ask``, one after the other; a
        reveal hands the decision to the partner, and a redeal starts the check on the new deal."""
        if isinstance(action, act.KeepSoldiersHidden | act.RefuseRedeal):
            self.still_to_ask.pop(0)
        if any(event["type"] == "deal" for event in events):
            self.still_to_ask = expected_seats_to_ask(state)
        if state.is_over:
            return
        if not self.still_to_ask:
            assert state.decision not in DEMORALIZED_DECISIONS
        elif state.decision == "demoralized_consent":
            assert isinstance(action, act.RevealSoldiers)
            assert state.to_move == (self.still_to_ask[0] + 2) % 4
        else:
            assert state.decision == "demoralized_reveal"
            assert state.to_move == self.still_to_ask[0]

    def _check_start_player_rotation(self, state: KamiState, events: list[dict]) -> None:
        """Clockwise after a finished round, unchanged after a Demoralized redeal."""
        for event in events:
            if event["type"] == "deal":
                step = 0 if event["redeal"] else 1
                assert event["start_player"] == (self.start_player + step) % state.num_players
                self.start_player = event["start_player"]

    def _check_event_privacy(self, state: KamiState, events: list[dict]) -> None:
        for event in events:
            if event["type"] in PRIVATE_EVENTS:
                assert event["visible_to"] == [event["seat"]]
            else:
                assert "visible_to" not in event
            if event["type"] == "lead":
                hidden = [e for e in events if e["type"] == "hidden_defense"]
                assert (event["card"] is None) == bool(hidden)
        for seat in range(state.num_players):
            for event in events_for(events, seat):
                assert event.get("visible_to", [seat]) == [seat]


@FAST
@given(config=configs, seed=seeds)
def test_random_games_conserve_cards_keep_hands_even_and_respect_the_empress(config, seed):
    state = new_game(config, seed)
    check = Invariants(state)
    play_randomly(state, random.Random(seed), max_steps=60_000, each_step=check)
    assert state.is_over and check.rounds >= 1
    winners = state.winners
    target, ending = state.options["target"], state.options["ending"]
    top = state.scores[winners[0]]
    assert top >= target if ending == "soldier" else top == target
    assert state.history[-1]["seats"] == winners


@FAST
@given(config=configs, seed=seeds, steps=st.integers(0, 400))
def test_json_round_trip_continues_identically(config, seed, steps):
    state = new_game(config, seed)
    chooser = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(chooser.choice(state.legal_actions()))
    assert_actions_round_trip(state)
    assert_continues_identically(state, chooser, steps=150)


@FAST
@given(config=configs, seed=seeds, steps=st.integers(0, 300))
def test_illegal_actions_are_rejected_with_a_reason_and_change_nothing(config, seed, steps):
    state = new_game(config, seed)
    chooser = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(chooser.choice(state.legal_actions()))
    legal = set(state.legal_actions())
    for action in EVERY_ACTION:
        if action in legal:
            continue
        assert_rejected_unchanged(state, action)
        with pytest.raises(IllegalAction) as caught:
            state.apply(action)
        assert caught.value.reason in REASONS


def _hide_differently(state: KamiState, seat: int | None, chooser: random.Random) -> KamiState:
    """A copy in which every card ``seat`` cannot see is dealt out differently, and the RNG that
    will shuffle future rounds differs too. Test-only: it writes the engine's fields directly."""
    other = json_copy(state)
    assert isinstance(other, KamiState)
    pool: list[int] = []
    hands = [s for s in range(state.num_players) if s != seat]
    for s in hands:
        pool += [c for c in range(8) for _ in range(other.hands[s][c])]
    last = state.last_round if state.is_over else None
    hidden_defense = []
    for owner in hands:
        line = other.defense[owner]
        for index, (card, face_up, mercenary) in enumerate(line):
            final = last is not None and owner == last["seat"] and index == len(line) - 1
            if not face_up and not mercenary and not final:
                hidden_defense.append((owner, index))
                pool.append(card)
    bottoms = [index for index, stack in enumerate(other.stacks) if len(stack) == 2]
    pool += [other.stacks[index][0] for index in bottoms]
    unseen = [
        index
        for index in range(len(other.set_aside))
        if index >= len(other.leftover_seen_by) or other.leftover_seen_by[index] != seat
    ]
    pool += [other.set_aside[index] for index in unseen]
    chooser.shuffle(pool)
    for s in hands:
        size = other.hand_sizes[s]
        other.hands[s] = counts_of(pool[:size])
        del pool[:size]
    for owner, index in hidden_defense:
        _, face_up, mercenary = other.defense[owner][index]
        other.defense[owner][index] = (pool.pop(), face_up, mercenary)
    for index in bottoms:
        other.stacks[index][0] = pool.pop()
    for index in unseen:
        other.set_aside[index] = pool.pop()
    assert not pool
    other.rng = Rng(chooser.getrandbits(64))
    return other


def _play_on_to_the_next_deal(state: KamiState, chooser: random.Random) -> None:
    """Random play until a deal (first or redeal) has just happened, or the game is over."""
    while not state.is_over:
        events = state.apply(chooser.choice(state.legal_actions()))
        if any(event["type"] == "deal" for event in events):
            return


def _hidden_before_the_check(
    state: KamiState, seat: int | None, chooser: random.Random
) -> KamiState:
    """For a state just dealt: a copy whose hidden cards were dealt differently *before* the
    Demoralized check looked at them. Swapping hands after the check has queued its players
    would miss a check that picks whom to ask by their hands, so the copy starts it again."""
    other = _hide_differently(state, seat, chooser)
    other.start_demoralized_check()
    other._legal_cache = None
    return other


def _walk_the_check_side_by_side(
    state: KamiState, other: KamiState, seat: int | None, chooser: random.Random
) -> None:
    """Plays both copies through the rest of the Demoralized check with the same choices and
    compares what ``seat`` sees after each one. The players whose hands differ between the copies
    keep their Soldiers hidden (the one answer every hand has); ``seat`` and a partner asked for
    consent choose at random, and their choices are legal in both copies."""
    while state.decision in DEMORALIZED_DECISIONS:
        assert other.view(seat) == state.view(seat)
        actions = state.legal_actions()
        if state.to_move == seat or state.decision == "demoralized_consent":
            assert other.legal_actions() == actions
            action = chooser.choice(actions)
        else:
            action = act.KEEP_HIDDEN
        events, other_events = state.apply(action), other.apply(action)
        if any(event["type"] == "deal" for event in events):
            return  # a redeal: the copies' shuffles differ on purpose, so do the new hands
        assert events_for(other_events, seat) == events_for(events, seat)
    assert other.view(seat) == state.view(seat)


@settings(max_examples=150, deadline=None)
@given(config=configs, seed=seeds, steps=st.integers(0, 300), at_a_deal=st.booleans())
def test_a_seat_view_and_choices_ignore_what_that_seat_cannot_see(config, seed, steps, at_a_deal):
    """At a random point, or (``at_a_deal``) right after a deal, so that the Demoralized check is
    covered from its start: the hidden cards are then redistributed before the check runs, and
    both copies are played through the check comparing every step. Exempt from that part:
    ``demoralized = "ask_eligible"``, which by design (and as documented) lets the table see who
    is asked."""
    state = new_game(config, seed)
    chooser = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(chooser.choice(state.legal_actions()))
    if at_a_deal:
        _play_on_to_the_next_deal(state, chooser)
    rerun_check = at_a_deal and not state.is_over
    rerun_check = rerun_check and state.options["demoralized"] != "ask_eligible"
    for seat in [None, *range(state.num_players)]:
        if rerun_check:
            other = _hidden_before_the_check(state, seat, chooser)
        else:
            other = _hide_differently(state, seat, chooser)
        assert other.view(seat) == state.view(seat)
        if seat is not None and seat == state.to_move:
            # what a player may do must not depend on cards they cannot see either
            assert other.legal_actions() == state.legal_actions()
        if rerun_check:
            _walk_the_check_side_by_side(state.clone(), other, seat, chooser)


def test_rerunning_the_check_on_other_hands_exposes_asking_only_eligible_players():
    """Guards the test above: its copy does catch a check that asks by hand. Under
    ``ask_eligible`` some redistribution of the hidden cards moves the first question."""
    caught = 0
    for seed in range(30):
        state = GAME.new_state(4, seed, {"demoralized": "ask_eligible"})
        for attempt in range(20):
            other = _hidden_before_the_check(state, None, random.Random(attempt))
            if other.view(None) != state.view(None):
                assert (other.to_move, other.decision) != (state.to_move, state.decision)
                caught += 1
                break
    assert caught >= 10


def test_hidden_reshuffle_really_changes_something():
    """Guards the view test above against a helper that silently changes nothing."""
    state = GAME.new_state(4, seed=1)
    other = _hide_differently(state, 0, random.Random(2))
    assert other.hands[0] == state.hands[0]
    assert [other.hands[s] for s in (1, 2, 3)] != [state.hands[s] for s in (1, 2, 3)]
    assert other.view(1) != state.view(1)


def test_menus_use_the_documented_paths():
    assert act.Counter("tower").menu_path == ("counter", "card:tower")
    assert act.CounterWithMercenary(3).menu_path == ("counter", "mercenary:3")
    assert act.Lead("soldier").menu_path == ("lead", "card:soldier")
    assert act.AttackWithMercenary(7).menu_path == ("attack", "mercenary:7")
    assert not menu_problems(EVERY_ACTION[5:])  # every card action at once still fits


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.update(game="call_to_glory"),
        lambda d: d.update(version=2),
        lambda d: d.pop("rng"),
        lambda d: d.update(hands=[["dragon"], *d["hands"][1:]]),
        lambda d: d.update(hands=[["empress"] * 3, *d["hands"][1:]]),
        lambda d: d.update(to_move=9),
        lambda d: d.update(phase="dancing"),
        lambda d: d.update(options={"ending": "sudden"}),
        lambda d: d.update(totals=[0]),
        lambda d: d.update(options={"demoralized": "sometimes"}),
        lambda d: d.update(phase="demoralized_reveal", demoralized_queue=[]),
        lambda d: d.update(phase="demoralized_reveal", demoralized_queue=[(d["to_move"] + 1) % 4]),
        lambda d: d.update(phase="demoralized_consent", demoralized_queue=[d["to_move"]]),
    ],
)
def test_state_from_json_rejects_corrupt_saves(mutate):
    data = GAME.new_state(4, seed=3).to_json()
    mutate(data)
    with pytest.raises(MalformedState):
        GAME.state_from_json(data)


def test_options_are_validated():
    with pytest.raises(InvalidOptions):
        GAME.new_state(4, 1, {"ending": "sudden"})
    with pytest.raises(InvalidOptions):
        GAME.new_state(5, 1)
    state = GAME.new_state(4, 1, {"three_player_deal": "publisher"})  # no effect with 4
    assert state.hand_sizes == [8, 8, 8, 8]
    for wrong in ("sometimes", True, 1, "ASK_EVERYONE"):
        with pytest.raises(InvalidOptions) as caught:
            GAME.new_state(4, 1, {"demoralized": wrong})
        assert (caught.value.code, caught.value.option) == ("bad_value", "demoralized")
        assert caught.value.allowed == ("ask_everyone", "ask_eligible", "off")
    for players in (2, 3):  # accepted by a lobby before the seats fill, without effect
        state = GAME.new_state(players, 1, {"demoralized": "ask_eligible"})
        assert state.decision == "lead_defense"


def test_every_combination_of_options_is_covered_by_the_property_tests():
    """``option_combinations`` must pick up every choice of ``demoralized`` for 4 players."""
    four = [options for players, options in CONFIGS if players == 4]
    assert {options["demoralized"] for options in four} == {"ask_everyone", "ask_eligible", "off"}
    assert len(four) == 3 * 6 * 2 * 3  # ending x target x lord_clamp x demoralized
    assert all("demoralized" not in options for players, options in CONFIGS if players < 4)


def test_a_save_from_before_the_demoralized_option_loads_with_the_default():
    data = GAME.new_state(4, seed=3, options={"demoralized": "ask_eligible"}).to_json()
    del data["options"]["demoralized"]
    assert GAME.state_from_json(data).options["demoralized"] == "ask_everyone"


def test_every_view_has_the_documented_keys():
    keys = {
        "mode", "options", "ending", "target", "teams", "round", "redeals", "start_player",
        "opening", "hand_sizes", "lines", "current_attack", "passes", "empress_open",
        "mercenaries", "set_aside", "revealed_soldiers", "demoralized_revealer", "last_round",
        "start_draw", "hand", "seen_leftover",
    }  # fmt: skip
    for players in (2, 3, 4):
        state = GAME.new_state(players, 1)
        assert keys <= set(state.view(0))
        assert state.view(None)["hand"] is None
        assert state.view(0)["hand"] is not None
