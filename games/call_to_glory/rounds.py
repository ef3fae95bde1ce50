"""What happens around the turns: dealing, setting up a round, ending it, reveals, scoring.

Functions of the state rather than methods so ``state.py`` stays about the turn itself; they
mutate the state they are given and return the events, like the state's own steps.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from games.call_to_glory.cards import (
    HAND_SIZE,
    INDEX_OF,
    MINIATURES,
    TASK_BONUS,
    TASK_DECK_ORDER,
    TASK_DECKS,
    TYPES,
    VALUES,
    full_deck,
)
from games.call_to_glory.phases import OVER
from games.call_to_glory.scoring import (
    display_points,
    game_winners,
    next_start_player,
    task_awards,
)
from games.core import JSON, Event

if TYPE_CHECKING:
    from games.call_to_glory.state import CallToGloryState


def deal_tasks(state: CallToGloryState) -> list[Event]:
    """Tasks are dealt once per game, one per deck and player; leftovers stay unseen."""
    for deck in TASK_DECK_ORDER:
        cards = [INDEX_OF[value] for value in TASK_DECKS[deck][1]]
        state.rng.shuffle(cards)
        for seat in range(state.num_players):
            state.tasks[seat].append((deck, cards[seat]))
    events: list[Event] = [{"type": "tasks_dealt", "per_player": len(TASK_DECK_ORDER)}]
    for seat, held in enumerate(state.tasks):
        events.append(
            {
                "type": "tasks_received",
                "seat": seat,
                "tasks": [{"deck": deck, "value": VALUES[t]} for deck, t in held],
                "visible_to": [seat],
            }
        )
    return events


def setup_round(state: CallToGloryState, start: int, reason: str) -> list[Event]:
    """Every round starts from scratch: all 110 cards are reshuffled and redealt."""
    players = state.num_players
    deck = full_deck()
    state.rng.shuffle(deck)
    state.hands = [[0] * TYPES for _ in range(players)]
    events: list[Event] = []
    for seat in range(players):
        dealt = deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE]
        for t in dealt:
            state.hands[seat][t] += 1
        events.append(
            {
                "type": "hand_dealt",
                "seat": seat,
                "values": sorted(VALUES[t] for t in dealt),
                "visible_to": [seat],
            }
        )
    rest = deck[players * HAND_SIZE :]
    half = (len(rest) + 1) // 2
    state.draw_piles = [rest[:half], rest[half:]]
    state.discard_piles = [[], []]
    state.displays = [[0] * TYPES for _ in range(players)]
    state.owner = [-1] * TYPES
    state.known = [[0] * TYPES for _ in range(players)]
    state.ninja_supply = MINIATURES if state.ninja_on else 0
    state.ninja_held = [0] * players
    state.start_player = start
    state.start_reason = reason
    state.current = start
    state.reveals_done = 0
    state.pending = None
    state.round_triggers = []
    started: Event = {
        "type": "round_started",
        "round": state.round_number,
        "rounds_total": state.rounds_total,
        "start_player": start,
        "reason": reason,
        "draw_piles": [len(pile) for pile in state.draw_piles],
    }
    return [started, *events, *state.start_turn()]


def round_end_triggers(state: CallToGloryState) -> list[JSON]:
    """The end-of-round conditions that hold now (checked only when a turn ends)."""
    triggers: list[JSON] = []
    most_missing = TYPES - state.types_needed
    seats = [
        seat for seat, display in enumerate(state.displays) if display.count(0) <= most_missing
    ]
    if seats:
        triggers.append({"trigger": "many_types", "seats": seats})
    if min(state.owner) >= 0:
        triggers.append({"trigger": "all_types"})
    if not state.draw_piles[0] or not state.draw_piles[1]:
        triggers.append({"trigger": "draw_pile_empty"})
    return triggers


def reveal_task(state: CallToGloryState, deck: str) -> list[Event]:
    """Bonuses are settled at once, since displays no longer change after the round ended."""
    seat = state.revealing_seat
    held = state.tasks[seat]
    index = next(i for i, (d, _t) in enumerate(held) if d == deck)
    _deck, t = held.pop(index)
    bonus = TASK_BONUS[deck]
    awards = [
        {"seat": winner, "cards": cards, "points": points}
        for winner, cards, points in task_awards(bonus, t, state.displays)
    ]
    record = {
        "round": state.round_number,
        "seat": seat,
        "deck": deck,
        "value": VALUES[t],
        "bonus": bonus,
        "awards": awards,
    }
    state.revealed.append(record)
    state.reveals_done += 1
    events: list[Event] = [{"type": "task_revealed", **copy.deepcopy(record)}]
    if state.reveals_done == state.num_players:
        state.reveals_done = 0  # counts reveals only while they are under way
        events += finish_round(state)
    return events


def finish_round(state: CallToGloryState) -> list[Event]:
    """Score the round, then either end the game or set up the next round."""
    players = state.num_players
    base = [display_points(display) for display in state.displays]
    bonus = [0] * players
    for record in state.revealed:
        if record["round"] == state.round_number:
            for award in record["awards"]:
                bonus[award["seat"]] += award["points"]
    row = [base[seat] + bonus[seat] for seat in range(players)]
    state.history.append(
        {
            "round": state.round_number,
            "start_player": state.start_player,
            "start_reason": state.start_reason,
            "ended_by": state.current,
            "triggers": state.round_triggers,
            "base": base,
            "bonus": bonus,
            "scores": row,
        }
    )
    totals = state.scores
    events: list[Event] = [
        {
            "type": "round_scored",
            "round": state.round_number,
            "base": base,
            "bonus": bonus,
            "scores": row,
            "totals": totals,
        }
    ]
    if state.round_number >= state.rounds_total:
        state.phase = OVER
        winners, decided_by = game_winners(totals, state.round_scores)
        over = {"winners": winners, "totals": totals, "decided_by": decided_by}
        events.append({"type": "game_over", **over})
        return events
    start, reason = next_start_player(totals, row, state.start_player)
    state.round_number += 1
    return events + setup_round(state, start, reason)
