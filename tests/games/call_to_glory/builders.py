"""Test-only construction of specific Call to Glory positions.

``position`` writes a saved-state JSON document and loads it through ``GAME.state_from_json``,
so every built position passes the same validation as a stored game (110 cards exactly, one
display per type, consistent miniatures). Cards the test does not place go, in value order,
into the draw piles; when the test fixes the draw-pile sizes, the rest goes into the hand of a
"sink" seat (there is no hand limit, so that is a legal position).

A loaded position is taken as it is: unlike a live game, the engine does not auto-play a lone
legal action of the first position, which lets a test look at it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from games.call_to_glory import GAME
from games.call_to_glory.actions import Action
from games.call_to_glory.cards import VALUES, full_deck
from games.call_to_glory.state import CallToGloryState
from games.core import Event

Cards = Sequence[int]


def position(
    players: int = 2,
    *,
    options: Mapping[str, Any] | None = None,
    hands: Mapping[int, Cards] | None = None,
    displays: Mapping[int, Cards] | None = None,
    discard_piles: tuple[Cards, Cards] = ((), ()),
    draw_tops: tuple[Cards, Cards] = ((), ()),
    draw_sizes: tuple[int, int] | None = None,
    sink: int | None = None,
    current: int = 0,
    phase: str = "draw",
    drawn: Sequence[str] = (),
    start_player: int | None = None,
    round_number: int = 1,
    history: Sequence[Sequence[int]] = (),
    ninja_held: Sequence[int] | None = None,
    gained_this_turn: int = 0,
    tasks: Mapping[int, Sequence[tuple[str, int]]] | None = None,
    revealed: Sequence[Mapping[str, Any]] = (),
    reveals_done: int = 0,
    pending: Mapping[str, Any] | None = None,
    seed: int = 7,
) -> CallToGloryState:
    """A position built from the zones given; piles are listed bottom to top.

    ``draw_tops`` are the top cards of each draw pile (last = top); ``history`` gives the score
    rows of finished rounds; ``ninja_held`` defaults to nobody holding a miniature.
    """
    resolved = GAME.resolve_options(players, dict(options or {}))
    hands = {seat: list(cards) for seat, cards in (hands or {}).items()}
    displays = dict(displays or {})
    left = Counter(full_deck_values())
    placed = [*discard_piles[0], *discard_piles[1], *draw_tops[0], *draw_tops[1]]
    for cards in (*hands.values(), *displays.values()):
        placed.extend(cards)
    _take(left, placed)
    rest = sorted(left.elements())

    piles: list[list[int]] = []
    if draw_sizes is None:
        below = len(rest) + len(draw_tops[0]) + len(draw_tops[1])
        first = (below + 1) // 2 - len(draw_tops[0])
        sizes = (first, len(rest) - first)
    else:
        sizes = (draw_sizes[0] - len(draw_tops[0]), draw_sizes[1] - len(draw_tops[1]))
    for index, size in enumerate(sizes):
        if size < 0 or size > len(rest):
            raise ValueError("draw piles do not fit the cards left")
        piles.append(rest[:size] + list(draw_tops[index]))
        rest = rest[size:]
    all_hands = [list(hands.get(seat, ())) for seat in range(players)]
    if rest:
        if sink is None:
            free = [seat for seat in range(players) if seat not in hands]
            if not free:
                raise ValueError("cards are left over and no sink seat is free")
            sink = free[-1]
        all_hands[sink].extend(rest)

    supply_total = 4 if resolved["ninja"] else 0
    held = list(ninja_held) if ninja_held is not None else [0] * players
    rounds = [list(row) for row in history]
    data = {
        "game": "call_to_glory",
        "version": 1,
        "players": players,
        "options": resolved,
        "rng": seed,
        "round": round_number,
        "start_player": current if start_player is None else start_player,
        "start_reason": "random" if round_number == 1 else "lowest_total",
        "current": current,
        "phase": phase,
        "drawn": list(drawn),
        "gained_this_turn": gained_this_turn,
        "draw_piles": piles,
        "discard_piles": [list(pile) for pile in discard_piles],
        "hands": [sorted(hand) for hand in all_hands],
        "displays": [sorted(displays.get(seat, ())) for seat in range(players)],
        "ninja_supply": supply_total - sum(held),
        "ninja_held": held,
        "tasks": [
            [{"deck": deck, "value": value} for deck, value in (tasks or {}).get(seat, ())]
            for seat in range(players)
        ],
        "revealed": [dict(record) for record in revealed],
        "reveals_done": reveals_done,
        "pending": dict(pending) if pending else None,
        "round_triggers": [],
        "history": [
            {
                "round": number,
                "start_player": 0,
                "start_reason": "random",
                "ended_by": 0,
                "triggers": [],
                "base": row,
                "bonus": [0] * players,
                "scores": row,
            }
            for number, row in enumerate(rounds, start=1)
        ],
    }
    return GAME.state_from_json(data)


def full_deck_values() -> list[int]:
    return [VALUES[t] for t in full_deck()]


def _take(left: Counter[int], cards: Sequence[int]) -> None:
    need = Counter(cards)
    for value, count in need.items():
        if left[value] < count:
            raise ValueError(f"not enough {value}s left to place")
        left[value] -= count


def play(state: CallToGloryState, *actions: Action) -> list[Event]:
    """Apply ``actions`` in order and return all their events."""
    events: list[Event] = []
    for action in actions:
        events += state.apply(action)
    return events


def of_type(events: Sequence[Event], kind: str) -> list[Event]:
    return [event for event in events if event["type"] == kind]


def display(state: CallToGloryState, seat: int) -> dict[int, int]:
    """A seat's display as ``{value: count}``."""
    return {v: c for v, c in zip(VALUES, state.displays[seat], strict=True) if c}


def hand(state: CallToGloryState, seat: int) -> dict[int, int]:
    """A seat's hand as ``{value: count}``."""
    return {v: c for v, c in zip(VALUES, state.hands[seat], strict=True) if c}


def pile(state: CallToGloryState, number: int) -> list[int]:
    """Discard pile 1 or 2 as values, bottom to top."""
    return [VALUES[t] for t in state.discard_piles[number - 1]]
