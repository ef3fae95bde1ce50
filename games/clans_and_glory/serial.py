"""Loading a saved game, strictly: anything that is not a consistent Clans and Glory state is
refused with ``MalformedState`` rather than producing a game that breaks later."""

from __future__ import annotations

from typing import Any

from games.clans_and_glory.cards import CARD_BY_TOKEN, deck_for
from games.clans_and_glory.setup import SHIELDS_PER_PLAYER
from games.clans_and_glory.state import (
    EMPTY,
    FORMAT_VERSION,
    OVER,
    PHASES,
    PLACE,
    SHIELD,
    ClansState,
)
from games.clans_and_glory.table import Table, build_table
from games.core import JSON, MalformedState
from games.rng import Rng

KEYS = {
    "game", "version", "players", "options", "rng", "start_player", "current", "phase",
    "shield_board", "hands", "undealt", "positions", "stacks", "shields_left",
}  # fmt: skip
OPTIONAL_KEYS = {"cannot_be"}
"""Keys added after version 1 was first saved; a save without them still loads."""


def state_from_json(data: Any, options: JSON) -> ClansState:
    """``options`` are the already validated options of ``data``."""
    players = data["players"]
    table = build_table(players, options["cross_board_adjacency"])
    rng = _rng(data["rng"])
    start_player = _number(data["start_player"], players, "start_player")
    phase = data["phase"]
    if phase not in PHASES:
        raise MalformedState(f"unknown phase {phase!r}")
    current = data["current"]
    if current is not None:
        current = _number(current, players, "current")
    elif phase != OVER:
        raise MalformedState("a game in progress needs a current player")
    shield_board = data["shield_board"]
    if (shield_board is None) != (phase != SHIELD):
        raise MalformedState("shield_board must be set exactly during the shield step")
    if shield_board is not None:
        shield_board = _number(shield_board, table.board_count, "shield_board")
    hands = [_cards(hand, "hands") for hand in _list(data["hands"], players, "hands")]
    undealt = _cards(data["undealt"], "undealt")
    cards = [EMPTY] * table.seat_count
    face_down = [False] * table.seat_count
    placed_by = [EMPTY] * table.seat_count
    positions = data["positions"]
    if not isinstance(positions, dict):
        raise MalformedState("positions must be an object")
    for name, content in positions.items():
        if name not in table.index_by_name:
            raise MalformedState(f"no position {name!r} at this table")
        seat = table.index_by_name[name]
        if not isinstance(content, dict) or set(content) != {"card", "face_down", "placed_by"}:
            raise MalformedState(f"position {name!r} needs card, face_down and placed_by")
        cards[seat] = _cards([content["card"]], f"position {name}")[0]
        if type(content["face_down"]) is not bool:
            raise MalformedState(f"face_down of position {name!r} must be true or false")
        face_down[seat] = content["face_down"]
        if content["placed_by"] is not None:
            placed_by[seat] = _number(content["placed_by"], players, f"position {name}")
        elif face_down[seat]:
            raise MalformedState(f"the face-down card on {name!r} needs its owner")
    stacks = [
        [_number(player, players, "stacks") for player in _list(stack, None, "stack")]
        for stack in _list(data["stacks"], table.board_count, "stacks")
    ]
    shields_left = [
        _number(count, SHIELDS_PER_PLAYER + 1, "shields_left")
        for count in _list(data["shields_left"], players, "shields_left")
    ]
    for player in range(players):
        used = sum(stack.count(player) for stack in stacks)
        if used + shields_left[player] != SHIELDS_PER_PLAYER:
            raise MalformedState(f"player {player} does not have {SHIELDS_PER_PLAYER} shields")
    if phase == PLACE and not hands[current]:
        raise MalformedState("the player to place a card has no card in hand")
    cannot_be = _cannot_be(data.get("cannot_be", {}), table, face_down)
    for seat, mask in enumerate(cannot_be):
        if not mask:
            continue
        if mask >> cards[seat] & 1 or any(mask >> card & 1 for card in hands[placed_by[seat]]):
            raise MalformedState(
                f"the face-down card on {table.seats[seat].name!r} or its "
                "owner's hand contradicts what the table saw"
            )
    every_card = [card for hand in hands for card in hand] + undealt
    every_card += [card for card in cards if card != EMPTY]
    if sorted(every_card) != deck_for(players):
        raise MalformedState("hands, table and undealt cards do not make up the deck exactly")
    return ClansState(
        players=players,
        options=options,
        rng=rng,
        start_player=start_player,
        hands=hands,
        undealt=undealt,
        cards=cards,
        face_down=face_down,
        placed_by=placed_by,
        stacks=stacks,
        shields_left=shields_left,
        current=current,
        phase=phase,
        shield_board=shield_board,
        cannot_be=cannot_be,
    )


def _cannot_be(value: Any, table: Table, face_down: list[bool]) -> list[int]:
    """Per seat, the cards a face-down card there cannot be; saves without the key know none."""
    if not isinstance(value, dict):
        raise MalformedState("cannot_be must be an object")
    masks = [0] * table.seat_count
    for name, tokens in value.items():
        seat = table.index_by_name.get(name)
        if seat is None or not face_down[seat]:
            raise MalformedState(f"cannot_be names {name!r}, which holds no face-down card")
        for card in _cards(tokens, f"cannot_be {name}"):
            masks[seat] |= 1 << card
    return masks


def check_envelope(data: Any, game_key: str) -> None:
    """The outer shape: an object of this game and format version with exactly our keys."""
    if not isinstance(data, dict):
        raise MalformedState("a saved state must be a JSON object")
    if data.get("game") != game_key:
        raise MalformedState(f"not a {game_key} state: game is {data.get('game')!r}")
    if data.get("version") != FORMAT_VERSION:
        raise MalformedState(f"unsupported state version {data.get('version')!r}")
    if set(data) - OPTIONAL_KEYS != KEYS:
        missing, extra = sorted(KEYS - set(data)), sorted(set(data) - KEYS - OPTIONAL_KEYS)
        raise MalformedState(f"state keys differ: missing {missing}, unexpected {extra}")


def _rng(value: Any) -> Rng:
    try:
        return Rng.from_json(value)
    except ValueError as error:
        raise MalformedState(str(error)) from error


def _number(value: Any, bound: int, where: str) -> int:
    if type(value) is not int or not 0 <= value < bound:
        raise MalformedState(f"{where}: {value!r} is not an integer from 0 to {bound - 1}")
    return value


def _list(value: Any, length: int | None, where: str) -> list:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        expected = "a list" if length is None else f"a list of {length}"
        raise MalformedState(f"{where} must be {expected}")
    return value


def _cards(tokens: Any, where: str) -> list[int]:
    cards = []
    for token in _list(tokens, None, where):
        if not isinstance(token, str) or token not in CARD_BY_TOKEN:
            raise MalformedState(f"{where}: {token!r} is not a card")
        cards.append(CARD_BY_TOKEN[token])
    return cards
