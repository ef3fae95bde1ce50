"""The setup is announced publicly without revealing any hand."""

import json

from games import REGISTRY, events_for


def test_game_started_names_start_player_start_cards_and_deal_sizes_but_no_hand():
    state = REGISTRY["clans_and_glory"].new_state(4, seed=11)
    (event,) = events_for(state.opening_events, None)
    assert event["type"] == "game_started"
    assert event["start_player"] == state.view(None)["start_player"]
    hands = [state.view(seat)["hand"] for seat in range(4)]
    assert event["hand_sizes"] == [len(hand) for hand in hands]
    assert len(event["start_cards"]) == 6  # one per board: 4 players + 2 boards
    public_text = json.dumps(event)
    assert not [card["card"] for hand in hands for card in hand if card["card"] in public_text]


def test_opening_events_survive_a_json_round_trip():
    game = REGISTRY["clans_and_glory"]
    state = game.new_state(2, seed=3)
    assert game.state_from_json(state.to_json()).opening_events == state.opening_events
