"""Saved states are validated on load; views show the public table and only the viewer's hand."""

import json

import pytest

from games import InvalidOptions, MalformedAction, MalformedState
from games.clans_and_glory import GAME
from tests.games.clans_and_glory.builders import position
from tests.games.clans_and_glory.helpers import face_down

A, B = 0, 1


def saved():
    return json.loads(json.dumps(GAME.new_state(3, 11).to_json()))


def test_saved_state_names_game_version_and_cards_readably():
    data = saved()
    assert data["game"] == "clans_and_glory" and data["version"] == 1
    assert data["positions"]["n1"]["placed_by"] is None
    assert GAME.state_from_json(data).to_json() == data


def corrupt(change):
    data = saved()
    change(data)
    return data


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(game="kami"),
        lambda d: d.update(version=2),
        lambda d: d.pop("rng"),
        lambda d: d.update(extra=1),
        lambda d: d.update(players=5),
        lambda d: d["options"].update(start_seats="anywhere"),
        lambda d: d["options"].pop("start_seats"),
        lambda d: d.update(phase="draw"),
        lambda d: d.update(phase="shield"),
        lambda d: d.update(current=7),
        lambda d: d["hands"][0].append(d["undealt"][0]),
        lambda d: d["hands"][0].pop(),
        lambda d: d["hands"][0].__setitem__(0, "pink-3"),
        lambda d: d["positions"].update(n99={"card": d["undealt"][0], "face_down": False,
                                             "placed_by": 0}),
        lambda d: d["positions"].update(n0={"card": d["undealt"].pop(), "face_down": True,
                                            "placed_by": None}),
        lambda d: d["stacks"][0].append(0),
        lambda d: d["shields_left"].__setitem__(0, 4),
        lambda d: d.update(rng=-1),
        lambda d: d.update(stacks="none"),
        lambda d: (d["undealt"].extend(d["hands"][d["current"]]), d["hands"][d["current"]].clear()),
    ],
)  # fmt: skip
def test_inconsistent_saved_states_are_refused(change):
    with pytest.raises(MalformedState):
        GAME.state_from_json(corrupt(change))


def test_non_objects_are_refused():
    with pytest.raises(MalformedState):
        GAME.state_from_json([])  # type: ignore[arg-type]


def test_bad_options_and_actions_are_refused():
    with pytest.raises(InvalidOptions):
        GAME.new_state(3, 1, {"final_turn_shield_allowed": "yes"})
    with pytest.raises(InvalidOptions):
        GAME.new_state(5, 1)
    with pytest.raises(MalformedAction):
        GAME.action_from_json({"kind": "place", "card": "red-3", "position": "n0"})
    with pytest.raises(MalformedAction):
        GAME.action_from_json({"kind": "pass"})


def test_options_are_declared_with_their_defaults():
    assert {o.name: o.default for o in GAME.options} == {
        "final_turn_shield_allowed": True,
        "start_seats": "north_middle",
        "cross_board_adjacency": True,
    }


def test_view_shows_the_table_and_only_the_viewers_hand():
    state = GAME.new_state(2, 5)
    spectator = state.view(None)
    assert spectator["hand"] is None
    assert spectator["hand_sizes"] == [len(hand) for hand in state.hands]
    assert spectator["shields_left"] == [5, 5]
    assert [board["outer"] for board in spectator["boards"]] == [True, False, False, True]
    first = spectator["boards"][0]["positions"][0]
    assert first["position"] == "hl" and first["row"] == "head" and first["column"] == -1
    assert set(first["related"]) == {"n0", "s0", "hr"}
    start = spectator["boards"][0]["positions"][2]
    assert start["position"] == "n1" and start["occupied"] and start["placed_by"] is None
    own = state.view(state.start_player)
    assert [card["card"] for card in own["hand"]] == json_hand(state, state.start_player)


def json_hand(state, seat):
    return state.to_json()["hands"][seat]


def test_a_face_down_card_is_shown_to_its_owner_only():
    state = position(
        2, base=False, table={"N1": "R5"}, face_down={"N0": "Y3", "N2": "Y5", "S1": "Y6"},
        hands={A: ["B3", "G3"], B: ["B4", "B5"]},
    )  # fmt: skip
    state.apply(face_down(state, "G3", "HR"))

    def head(seat):
        return state.view(seat)["boards"][3]["positions"][-1]

    assert head(A)["card"] == "green-3" and head(A)["face_down"]
    assert head(B)["card"] is None and head(B)["face_down"] and head(B)["occupied"]
    assert head(None)["card"] is None and head(None)["placed_by"] == A


def test_other_seats_cannot_tell_from_the_view_that_a_player_is_forced_face_down():
    def table_with(hand):
        return position(2, base=False, table={"N1": "R5"}, hands={A: hand, B: ["B4"]})

    forced, free = table_with(["B3"]), table_with(["R3"])
    assert forced.must_place_face_down() and not free.must_place_face_down()
    for viewer in (None, B):
        assert forced.view(viewer) == free.view(viewer)
    assert forced.view(A)["hand"] != free.view(A)["hand"]
