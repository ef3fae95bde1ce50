"""Property tests over random legal play for 2, 3 and 4 players and every option combination:
the engine agrees with the independent reference model at every step, hides what it must, and
survives JSON round trips."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games import events_for
from games.clans_and_glory import GAME
from games.clans_and_glory.actions import PlaceCard, PlaceShield, SkipShield
from games.clans_and_glory.cards import CARD_BY_TOKEN
from games.clans_and_glory.setup import HAND_SIZE, SHIELDS_PER_PLAYER
from tests.games.clans_and_glory import reference
from tests.games.protocol import (
    assert_actions_round_trip,
    assert_continues_identically,
    assert_menu_fits,
    assert_rejected_unchanged,
    json_copy,
    option_combinations,
    play_randomly,
)

CONFIGURATIONS = [
    (players, options) for players in (2, 3, 4) for options in option_combinations(GAME, players)
]
configurations = st.sampled_from(CONFIGURATIONS)
seeds = st.integers(0, 2**63 - 1)


def mentioned_cards(data) -> set[str]:
    """Every card token anywhere inside a JSON value."""
    text = json.dumps(data)
    return {token for token in CARD_BY_TOKEN if f'"{token}"' in text}


def face_up_on_table(data) -> set[str]:
    return {c["card"] for c in data["positions"].values() if not c["face_down"]}


def may_know(data, seat) -> set[str]:
    """Cards a seat may see: the face-up table, its own hand, its own face-down cards."""
    known = face_up_on_table(data)
    if seat is not None:
        known |= set(data["hands"][seat])
        known |= {c["card"] for c in data["positions"].values() if c["placed_by"] == seat}
    return known


def check_step(before: dict, state, action, events) -> None:
    after = state.to_json()
    players = state.num_players
    # Shields: five each at most, stacks only ever grow on top.
    for player in range(players):
        used = sum(stack.count(player) for stack in after["stacks"])
        assert 0 <= after["shields_left"][player] == SHIELDS_PER_PLAYER - used
    for old, new in zip(before["stacks"], after["stacks"], strict=True):
        assert new[: len(old)] == old
    # Nothing hidden leaks into public events, private events go to their owner only.
    public = events_for(events, None)
    assert mentioned_cards(public) <= face_up_on_table(after)
    for event in events:
        if "visible_to" in event:
            assert event["visible_to"] == [before["current"]]
    # A face-down card cannot be any card that fitted somewhere face up when it was placed,
    # nor one excluded by its owner's earlier face-down placements: public, checked here
    # against the reference model and left out of the leak check below.
    if action.kind == "place_face_down":
        earlier = set().union(
            *(before["cannot_be"].get(name, []) for name, content in before["positions"].items()
              if content["placed_by"] == before["current"])
        )  # fmt: skip
        deck = [t for t in CARD_BY_TOKEN if int(t.split("-")[1]) <= players + 4]
        fitting = reference.fitting_anywhere(before, deck)
        assert set(after["cannot_be"][action.position]) == earlier | fitting
        assert action.card not in fitting
    else:
        assert after["cannot_be"] == before["cannot_be"]
    for seat in [None, *range(players)]:
        view = state.view(seat)
        for board in view["boards"]:
            for place in board["positions"]:
                assert place["cannot_be"] == after["cannot_be"].get(place["position"], [])
                place["cannot_be"] = []
        assert mentioned_cards(view) <= may_know(after, seat)
        own_hand = None if seat is None else [card["card"] for card in view["hand"]]
        assert own_hand == (None if seat is None else after["hands"][seat])


def play_checked(players: int, seed: int, options: dict) -> dict[str, int]:
    """Random play to the end, checked against the reference model at every decision; returns
    how often each action kind was played."""
    state = GAME.new_state(players, seed, options)
    chooser = random.Random(seed)
    played: dict[str, int] = {}
    while not state.is_over:
        before = state.to_json()
        actions = state.legal_actions()
        if before["phase"] == "place":
            kind, expected = reference.placements(before)
            assert state.decision == "place"
            assert {(a.card, a.board, a.position) for a in actions} == expected
            assert {a.kind for a in actions} == {kind}
        else:
            assert actions == [PlaceShield(), SkipShield()]
            assert before["shields_left"][before["current"]] > 0
        if players == 4:
            assert_menu_fits(state)
        action = chooser.choice(actions)
        events = state.apply(action)
        played[action.kind] = played.get(action.kind, 0) + 1
        check_step(before, state, action, events)
    final = state.to_json()
    placements = played.get("place", 0) + played.get("place_face_down", 0)
    assert placements == players * (HAND_SIZE[players] - 1)
    points, cards = reference.final_scores(final)
    assert (state.scores, state.totals()[1]) == (points, cards)
    best = max(zip(points, cards, strict=True))
    assert state.winners == [p for p in range(players) if (points[p], cards[p]) == best]
    return played


@settings(max_examples=40, deadline=None)
@given(configuration=configurations, seed=seeds)
def test_random_play_matches_the_reference_model_at_every_placement(configuration, seed):
    """Every face-up card matches a related face-up card when placed, face down happens only
    when forced, and the legal set is exactly the reference model's."""
    players, options = configuration
    play_checked(players, seed, options)


def reaches_face_down(players: int, seed: int) -> bool:
    """Whether unchecked random play from this seed (same choices as ``play_checked``) ever
    places a card face down."""
    state = GAME.new_state(players, seed)
    chooser = random.Random(seed)
    while not state.is_over:
        action = chooser.choice(state.legal_actions())
        if action.kind == "place_face_down":
            return True
        state.apply(action)
    return False


def test_forced_face_down_placements_in_random_play_agree_with_the_reference():
    """Forced face-down turns are rare (a few percent of games), so we look for seeds that reach
    one and check those games against the reference model for every player count."""
    for players in (2, 3, 4):
        seeds_with_face_down = [s for s in range(300) if reaches_face_down(players, s)][:2]
        assert len(seeds_with_face_down) == 2, players
        for seed in seeds_with_face_down:
            assert play_checked(players, seed, {}).get("place_face_down", 0) >= 1


@settings(max_examples=25, deadline=None)
@given(configuration=configurations, seed=seeds, data=st.data())
def test_json_round_trip_at_a_random_point_continues_identically(configuration, seed, data):
    players, options = configuration
    state = GAME.new_state(players, seed, options)
    chooser = random.Random(seed)
    stop = data.draw(st.integers(0, 2 * players * HAND_SIZE[players]))
    for _ in range(stop):
        if state.is_over:
            break
        state.apply(chooser.choice(state.legal_actions()))
    assert json_copy(state).view(0) == state.view(0)
    assert_continues_identically(state, chooser, steps=500)
    assert state.is_over
    assert json_copy(state).scores == state.scores


@settings(max_examples=150, deadline=None)
@given(configuration=configurations, seed=seeds, data=st.data())
def test_views_do_not_depend_on_cards_hidden_from_the_viewer(configuration, seed, data):
    """Swapping a card that one seat cannot see (another hand, a face-down card of another
    player, the undealt pile) with an undealt card leaves that seat's view unchanged."""
    players, options = configuration
    state = GAME.new_state(players, seed, options)
    chooser = random.Random(seed)
    for _ in range(data.draw(st.integers(0, 2 * players * HAND_SIZE[players] - 1))):
        if state.is_over:
            break
        state.apply(chooser.choice(state.legal_actions()))
    saved = state.to_json()
    viewer = data.draw(st.sampled_from([None, *range(players)]))
    hidden_slots = [("hands", p, i) for p in range(players) if p != viewer
                    for i in range(len(saved["hands"][p]))]  # fmt: skip
    hidden_slots += [("positions", name, None) for name, content in saved["positions"].items()
                     if content["face_down"] and content["placed_by"] != viewer]  # fmt: skip
    if not hidden_slots or not saved["undealt"]:
        return
    where, key, index = data.draw(st.sampled_from(hidden_slots))
    other = json.loads(json.dumps(saved))
    # The swapped-in card must be one the slot may hold: cards a face-down placement proved
    # absent (``cannot_be``) are public knowledge, not hidden information.
    owner = key if where == "hands" else saved["positions"][key]["placed_by"]
    excluded = set().union(
        *(saved["cannot_be"].get(name, []) for name, content in saved["positions"].items()
          if content["placed_by"] == owner and (where == "hands" or name == key))
    )  # fmt: skip
    allowed = [card for card in other["undealt"] if card not in excluded]
    if not allowed:
        return
    swap = allowed[0]
    other["undealt"].remove(swap)
    if where == "hands":
        other["undealt"].append(other["hands"][key][index])
        other["hands"][key][index] = swap
    else:
        other["undealt"].append(other["positions"][key]["card"])
        other["positions"][key]["card"] = swap
    assert GAME.state_from_json(other).view(viewer) == state.view(viewer)


@settings(max_examples=20, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=seeds)
def test_actions_round_trip_and_illegal_actions_leave_the_state_unchanged(players, seed):
    state = GAME.new_state(players, seed)
    chooser = random.Random(seed)

    def each_step(state, action, events):
        if state.is_over:
            return
        assert_actions_round_trip(state)
        other = (state.to_move + 1) % players
        for card in json_copy(state).to_json()["hands"][other]:
            assert_rejected_unchanged(state, PlaceCard(card, 0, "n0"))
        if state.decision != "shield":
            assert_rejected_unchanged(state, SkipShield())
        else:
            assert_rejected_unchanged(state, PlaceCard("red-3", 0, "hl"))

    play_randomly(state, chooser, each_step=each_step)
    assert state.is_over
    assert_rejected_unchanged(state, SkipShield())


def test_menu_fits_in_the_widest_forced_face_down_position():
    """A full 2-player hand of 9 cards with every seat free but no match anywhere: the largest
    face-down menu still needs at most 25 choices per level."""
    from tests.games.clans_and_glory.builders import position

    hand = ["R3", "R4", "R5", "R6", "B3", "B4", "B5", "B6", "G3"]
    state = position(2, base=False, hands={0: hand}, face_down={"N1": "K6"})
    assert state.must_place_face_down()
    assert len(state.legal_actions()) == 9 * 25
    assert_menu_fits(state)
    assert_actions_round_trip(state)
