"""Saving and restoring a Call to Glory state as JSON (schema version 1).

Cards are written as values (6 … 20), piles bottom to top, hands and displays sorted. Loading
is strict: wrong types, unknown phases, seats out of range, a card multiset other than the 110
cards, or two displays holding the same type all raise ``MalformedState``, because a stored game
that breaks an invariant would fail later in far more confusing ways.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

from games.call_to_glory.actions import SOURCES
from games.call_to_glory.cards import (
    INDEX_OF,
    MINIATURES,
    TASK_DECKS,
    TYPES,
    VALUES,
    full_deck,
)
from games.call_to_glory.phases import (
    CHOOSE_PILE,
    DRAW,
    DRAW_SECOND,
    LAY_OR_DISCARD,
    NINJA_OR_END,
    OVER,
    PHASES,
    REVEAL_TASK,
    TURN_PHASES,
)
from games.call_to_glory.state import CallToGloryState, PendingDiscard
from games.core import JSON, MalformedState
from games.rng import Rng

GAME_KEY = "call_to_glory"
VERSION = 1
_REASONS = ("beaten", "ninja")
_CARDS_DRAWN = {DRAW: 0, DRAW_SECOND: 1, LAY_OR_DISCARD: 2, NINJA_OR_END: 2}
_START_REASONS = ("random", "lowest_total", "lowest_round_score", "clockwise_after_previous")


def _values(counts: list[int]) -> list[int]:
    return [value for value, count in zip(VALUES, counts, strict=True) for _ in range(count)]


def dump_state(state: CallToGloryState) -> JSON:
    pending = state.pending
    return {
        "game": GAME_KEY,
        "version": VERSION,
        "players": state.num_players,
        "options": dict(state.options),
        "rng": state.rng.to_json(),
        "round": state.round_number,
        "start_player": state.start_player,
        "start_reason": state.start_reason,
        "current": state.current,
        "phase": state.phase,
        "drawn": [SOURCES[source] for source in state.drawn],
        "gained_this_turn": state.gained_this_turn,
        "draw_piles": [[VALUES[t] for t in pile] for pile in state.draw_piles],
        "discard_piles": [[VALUES[t] for t in pile] for pile in state.discard_piles],
        "hands": [_values(hand) for hand in state.hands],
        "known_hand_cards": [_values(known) for known in state.known],
        "displays": [_values(display) for display in state.displays],
        "ninja_supply": state.ninja_supply,
        "ninja_held": list(state.ninja_held),
        "tasks": [[{"deck": deck, "value": VALUES[t]} for deck, t in held] for held in state.tasks],
        "revealed": copy.deepcopy(state.revealed),
        "reveals_done": state.reveals_done,
        "pending": None
        if pending is None
        else {
            "seat": pending.seat,
            "value": VALUES[pending.type_index],
            "count": pending.count,
            "reason": pending.reason,
            "resume": pending.resume,
        },
        "round_triggers": copy.deepcopy(state.round_triggers),
        "history": copy.deepcopy(state.history),
    }


# --------------------------------------------------------------------------- loading


def _fail(message: str) -> MalformedState:
    return MalformedState(f"not a saved Call to Glory state: {message}")


def _int(data: JSON, key: str, low: int, high: int) -> int:
    value = data.get(key)
    if type(value) is not int or not low <= value <= high:
        raise _fail(f"{key!r} must be an integer from {low} to {high}")
    return value


def _choice(data: JSON, key: str, allowed: tuple[str, ...]) -> str:
    value = data.get(key)
    if value not in allowed:
        raise _fail(f"{key!r} must be one of {allowed}")
    return value


def _list(value: Any, what: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        size = "" if length is None else f" of length {length}"
        raise _fail(f"{what} must be a list{size}")
    return value


def _card(value: Any, what: str) -> int:
    if type(value) is not int or value not in INDEX_OF:
        raise _fail(f"{what} holds {value!r}, which is not a card value")
    return INDEX_OF[value]


def _pile(value: Any, what: str) -> list[int]:
    return [_card(v, what) for v in _list(value, what)]


def _counts(value: Any, what: str) -> list[int]:
    counts = [0] * TYPES
    for t in _pile(value, what):
        counts[t] += 1
    return counts


def _ints(value: Any, what: str, length: int) -> list[int]:
    items = _list(value, what, length)
    if any(type(item) is not int for item in items):
        raise _fail(f"{what} must hold integers")
    return list(items)


def load_state(data: JSON, players: int, options: JSON) -> CallToGloryState:
    """Rebuild a state from ``dump_state`` output; ``options`` are already validated."""
    rng_state = data.get("rng")
    try:
        rng = Rng.from_json(rng_state)  # type: ignore[arg-type]
    except ValueError as error:
        raise _fail(str(error)) from error
    state = CallToGloryState(players, options, rng)
    seat_max = players - 1
    state.round_number = _int(data, "round", 1, state.rounds_total)
    state.start_player = _int(data, "start_player", 0, seat_max)
    state.start_reason = _choice(data, "start_reason", _START_REASONS)
    state.current = _int(data, "current", 0, seat_max)
    state.phase = _choice(data, "phase", PHASES)
    drawn = _list(data.get("drawn"), "drawn")
    if any(source not in SOURCES for source in drawn) or len(set(drawn)) != len(drawn):
        raise _fail("'drawn' must list different sources")
    state.drawn = [SOURCES.index(source) for source in drawn]
    state.gained_this_turn = _int(data, "gained_this_turn", 0, MINIATURES)

    state.draw_piles = [
        _pile(pile, "draw_piles") for pile in _list(data.get("draw_piles"), "draw_piles", 2)
    ]
    state.discard_piles = [
        _pile(pile, "discard_piles")
        for pile in _list(data.get("discard_piles"), "discard_piles", 2)
    ]
    state.hands = [_counts(h, "hands") for h in _list(data.get("hands"), "hands", players)]
    state.displays = [
        _counts(d, "displays") for d in _list(data.get("displays"), "displays", players)
    ]
    state.pending = _pending(data.get("pending"), players)
    _check_cards(state)
    state.known = _known(data, players, state.hands)

    state.ninja_supply = _int(data, "ninja_supply", 0, MINIATURES)
    state.ninja_held = _ints(data.get("ninja_held"), "ninja_held", players)
    in_play = state.ninja_supply + sum(state.ninja_held)
    if min(state.ninja_held) < 0 or in_play != (MINIATURES if state.ninja_on else 0):
        raise _fail("the miniatures do not add up")

    state.tasks = [_tasks(held) for held in _list(data.get("tasks"), "tasks", players)]
    if not state.tasks_on and any(state.tasks):
        raise _fail("task cards in a game without Imperial Tasks")
    state.revealed = [
        _revealed(record, players, state.rounds_total)
        for record in _list(data.get("revealed"), "revealed")
    ]
    _check_tasks(state)
    state.reveals_done = _int(data, "reveals_done", 0, players - 1)
    if (state.pending is None) != (state.phase != CHOOSE_PILE):
        raise _fail("a pending discard exists exactly while a pile is being chosen")
    turn_phase = state.pending.resume if state.pending else state.phase
    if turn_phase in _CARDS_DRAWN and len(state.drawn) != _CARDS_DRAWN[turn_phase]:
        raise _fail(f"'drawn' does not fit the phase {turn_phase!r}")
    if state.phase == REVEAL_TASK and not state.tasks_on:
        raise _fail("no task reveals without Imperial Tasks")
    state.round_triggers = copy.deepcopy(_list(data.get("round_triggers"), "round_triggers"))
    state.history = [_history(entry, players) for entry in _list(data.get("history"), "history")]
    finished = state.round_number if state.phase == OVER else state.round_number - 1
    if len(state.history) != finished:
        raise _fail("the history does not match the round number")
    return state


def _check_cards(state: CallToGloryState) -> None:
    seen: Counter[int] = Counter()
    for pile in (*state.draw_piles, *state.discard_piles):
        seen.update(pile)
    for zone in (*state.hands, *state.displays):
        for t, count in enumerate(zone):
            seen[t] += count
    if state.pending is not None:  # cards on their way from a display to a discard pile
        seen[state.pending.type_index] += state.pending.count
    if seen != Counter(full_deck()):
        raise _fail("the zones do not hold exactly the 110 cards")
    for t in range(TYPES):
        holders = [seat for seat, display in enumerate(state.displays) if display[t]]
        if len(holders) > 1:
            raise _fail(f"two displays hold {VALUES[t]}s")
        state.owner[t] = holders[0] if holders else -1


def _known(data: JSON, players: int, hands: list[list[int]]) -> list[list[int]]:
    """The publicly known hand cards; saves from before this key existed know none."""
    if "known_hand_cards" not in data:
        return [[0] * TYPES for _ in range(players)]
    known = [
        _counts(cards, "known_hand_cards")
        for cards in _list(data["known_hand_cards"], "known_hand_cards", players)
    ]
    for seen, hand in zip(known, hands, strict=True):
        if any(count > held for count, held in zip(seen, hand, strict=True)):
            raise _fail("a hand lacks a card the table knows it holds")
    return known


def _check_tasks(state: CallToGloryState) -> None:
    """Every task card exists once, and each player got exactly one card from each deck."""
    cards = [(deck, VALUES[t]) for held in state.tasks for deck, t in held]
    cards += [(record["deck"], record["value"]) for record in state.revealed]
    if len(set(cards)) != len(cards):
        raise _fail("a task card appears twice")
    for seat, held in enumerate(state.tasks):
        decks = [deck for deck, _t in held]
        decks += [record["deck"] for record in state.revealed if record["seat"] == seat]
        if len(set(decks)) != len(decks):
            raise _fail("a player holds two task cards of one deck")


def _tasks(held: Any) -> list[tuple[str, int]]:
    tasks = []
    for item in _list(held, "tasks"):
        if not isinstance(item, dict) or set(item) != {"deck", "value"}:
            raise _fail("a task is an object with deck and value")
        deck = _choice(item, "deck", tuple(TASK_DECKS))
        if item["value"] not in TASK_DECKS[deck][1]:
            raise _fail(f"deck {deck} has no task {item['value']!r}")
        tasks.append((deck, INDEX_OF[item["value"]]))
    return tasks


def _revealed(record: Any, players: int, rounds: int) -> JSON:
    if not isinstance(record, dict):
        raise _fail("a revealed task is an object")
    _int(record, "seat", 0, players - 1)
    _int(record, "round", 1, rounds)
    deck = _choice(record, "deck", tuple(TASK_DECKS))
    if record.get("value") not in TASK_DECKS[deck][1]:
        raise _fail("a revealed task names a value its deck does not have")
    for award in _list(record.get("awards"), "awards"):
        if not isinstance(award, dict):
            raise _fail("an award is an object")
        _int(award, "seat", 0, players - 1)
        _int(award, "points", 0, 10_000)
    return copy.deepcopy(record)


def _pending(value: Any, players: int) -> PendingDiscard | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise _fail("pending must be an object or null")
    return PendingDiscard(
        seat=_int(value, "seat", 0, players - 1),
        type_index=_card(value.get("value"), "pending"),
        count=_int(value, "count", 1, max(VALUES)),
        reason=_choice(value, "reason", _REASONS),
        resume=_choice(value, "resume", tuple(sorted(TURN_PHASES))),
    )


def _history(entry: Any, players: int) -> JSON:
    if not isinstance(entry, dict):
        raise _fail("a history entry is an object")
    for key in ("base", "bonus", "scores"):
        _ints(entry.get(key), f"history {key}", players)
    _int(entry, "start_player", 0, players - 1)
    return copy.deepcopy(entry)
