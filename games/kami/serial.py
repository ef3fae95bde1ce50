"""Kami states to JSON and back. Loading checks shape, types, seats and card counts so that a
corrupted or foreign save fails loudly (``MalformedState``) instead of misbehaving later."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from games.core import JSON, MalformedState
from games.kami.cards import COPIES, NAMES, card_from_name, counts_of
from games.kami.state import LEAD_PHASE, OVER_PHASE, PHASES, RESPOND_PHASE, KamiState
from games.rng import Rng

VERSION = 1
_KEYS = {
    "game", "version", "players", "options", "rng", "phase", "to_move", "opening",
    "start_player", "round", "redeals", "hands", "defense", "attack", "stacks", "set_aside",
    "leftover_seen_by", "attacker", "attack_card", "passes", "totals", "history", "last_round",
    "demoralized_queue", "revealed_soldiers", "start_draw", "opening_events", "winner_side",
}  # fmt: skip
_OPTIONAL_KEYS = {"demoralized_asked"}
"""Keys added after version 1 was first saved; a save without them still loads."""


def state_to_json(state: KamiState) -> JSON:
    return {
        "game": "kami",
        "version": VERSION,
        "players": state.num_players,
        "options": dict(state.options),
        "rng": state.rng.to_json(),
        "phase": state.phase,
        "to_move": state.seat,
        "opening": state.opening,
        "start_player": state.start_player,
        "round": state.round,
        "redeals": state.redeals,
        "hands": [[NAMES[c] for c in range(8) for _ in range(h[c])] for h in state.hands],
        "defense": [[[NAMES[c], up, merc] for c, up, merc in line] for line in state.defense],
        "attack": [[[NAMES[c], merc] for c, merc in line] for line in state.attack],
        "stacks": [[NAMES[c] for c in stack] for stack in state.stacks],
        "set_aside": [NAMES[c] for c in state.set_aside],
        "leftover_seen_by": list(state.leftover_seen_by),
        "attacker": state.attacker,
        "attack_card": None if state.attack_card is None else NAMES[state.attack_card],
        "passes": state.passes,
        "totals": list(state.totals),
        "history": copy.deepcopy(state.history),
        "last_round": copy.deepcopy(state.last_round),
        "demoralized_queue": list(state.demoralized_queue),
        "revealed_soldiers": copy.deepcopy(state.revealed_soldiers),
        "demoralized_asked": list(state.demoralized_asked),
        "start_draw": [[[seat, NAMES[c]] for seat, c in draw.items()] for draw in state.start_draw],
        "opening_events": copy.deepcopy(state.opening_events),
        "winner_side": state.winner_side,
    }


def state_from_json(data: Any, resolve_options: Callable[[int, Any], JSON]) -> KamiState:
    """Rebuild a state; ``resolve_options`` is the game's validator for the saved options."""
    if not isinstance(data, dict) or data.get("game") != "kami":
        raise MalformedState("not a saved Kami game")
    if data.get("version") != VERSION:
        raise MalformedState(f"unsupported Kami save version {data.get('version')!r}")
    if set(data) - _OPTIONAL_KEYS != _KEYS:
        raise MalformedState(f"Kami save has the wrong keys: {sorted(set(data) ^ _KEYS)}")
    try:
        return _load(data, resolve_options)
    except MalformedState:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
        raise MalformedState(f"corrupt Kami save: {error}") from error


def _int(value: Any, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise MalformedState(f"{value!r} is not an integer in {low}..{high}")
    return value


def _bool(value: Any) -> bool:
    if type(value) is not bool:
        raise MalformedState(f"{value!r} is not a boolean")
    return value


def _seat_or_none(value: Any, players: int) -> int | None:
    return None if value is None else _int(value, 0, players - 1)


def _list(value: Any, length: int | None = None) -> list:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        raise MalformedState(f"{value!r} is not a list of {length} items")
    return value


def _load(data: JSON, resolve_options: Callable[[int, Any], JSON]) -> KamiState:
    players = _int(data["players"], 2, 4)
    options = resolve_options(players, data["options"])
    state = KamiState(players, options, Rng.from_json(data["rng"]))
    if data["phase"] not in PHASES:
        raise MalformedState(f"unknown phase {data['phase']!r}")
    state.phase = data["phase"]
    state.seat = _seat_or_none(data["to_move"], players)
    if (state.seat is None) != (state.phase == OVER_PHASE):
        raise MalformedState("to_move must be empty exactly when the game is over")
    state.opening = _bool(data["opening"])
    state.start_player = _int(data["start_player"], 0, players - 1)
    state.round = _int(data["round"], 1, 1 << 30)
    state.redeals = _int(data["redeals"], 0, 1 << 30)
    hands = [[card_from_name(n) for n in _list(hand)] for hand in _list(data["hands"], players)]
    state.hands = [counts_of(hand) for hand in hands]
    state.hand_sizes = [len(hand) for hand in hands]
    state.defense = [
        [(card_from_name(c), _bool(up), _bool(merc)) for c, up, merc in _list(line)]
        for line in _list(data["defense"], players)
    ]
    state.attack = [
        [(card_from_name(c), _bool(merc)) for c, merc in _list(line)]
        for line in _list(data["attack"], players)
    ]
    state.stacks = [[card_from_name(c) for c in _list(s)] for s in _list(data["stacks"])]
    if len(state.stacks) not in ((8,) if players == 2 else (0,)):
        raise MalformedState("only a Duel has mercenary stacks, exactly eight")
    if any(len(stack) > 2 for stack in state.stacks):
        raise MalformedState("a mercenary stack holds at most two cards")
    state.set_aside = [card_from_name(c) for c in _list(data["set_aside"])]
    state.leftover_seen_by = [
        _int(seat, 0, players - 1) for seat in _list(data["leftover_seen_by"])
    ]
    state.open_empresses = sum(1 for line in state.defense for c, up, _ in line if up and c == 7)
    _check_card_counts(state)
    state.attacker = _seat_or_none(data["attacker"], players)
    state.attack_card = None if data["attack_card"] is None else card_from_name(data["attack_card"])
    state.passes = _int(data["passes"], 0, players - 1)
    if state.phase == RESPOND_PHASE and (state.attacker is None or state.attack_card is None):
        raise MalformedState("a response needs a current attack")
    if state.phase == LEAD_PHASE and state.seat is not None and state.hand_sizes[state.seat] == 0:
        raise MalformedState("a player with an empty hand cannot lead")
    sides = 2 if players == 4 else players
    state.totals = [_int(total, -(1 << 30), 1 << 30) for total in _list(data["totals"], sides)]
    state.history = [dict(record) for record in _list(data["history"])]
    for record in state.history:
        _int(record["seat"], 0, players - 1)
        _int(record["points"], 0, 10)
    state.last_round = None if data["last_round"] is None else dict(data["last_round"])
    state.demoralized_queue = [_int(s, 0, 3) for s in _list(data["demoralized_queue"])]
    if state.phase.startswith("demoralized"):
        if not state.demoralized_queue:
            raise MalformedState("a Demoralized decision needs a revealing player")
        asked = state.demoralized_queue[0]
        decider = asked if state.phase == "demoralized_reveal" else (asked + 2) % 4
        if players != 4 or state.seat != decider:
            raise MalformedState("a Demoralized decision belongs to the asked player or partner")
    state.revealed_soldiers = [dict(entry) for entry in _list(data["revealed_soldiers"])]
    state.demoralized_asked = [_int(s, 0, 3) for s in _list(data.get("demoralized_asked", []))]
    state.start_draw = [
        {_int(seat, 0, players - 1): card_from_name(card) for seat, card in _list(draw)}
        for draw in _list(data["start_draw"])
    ]
    state.opening_events = copy.deepcopy(_list(data["opening_events"]))
    state.winner_side = _seat_or_none(data["winner_side"], sides)
    return state


def _check_card_counts(state: KamiState) -> None:
    """No type may appear more often than the deck holds it (test positions may hold fewer)."""
    cards = [c for hand in state.hands for c in range(8) for _ in range(hand[c])]
    cards += [c for line in state.defense for c, _, _ in line]
    cards += [c for line in state.attack for c, _ in line]
    cards += [c for stack in state.stacks for c in stack]
    cards += state.set_aside
    counts = counts_of(cards)
    if any(count > limit for count, limit in zip(counts, COPIES, strict=True)):
        raise MalformedState("more copies of a card than the deck holds")
