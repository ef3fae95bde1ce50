"""Twins: states that differ from a real one only in what one seat cannot see.

They are built here independently of the engines' ``determinize``, so that a test comparing a
decision on a state and on its twin catches a search that peeks at hidden cards even if
``determinize`` itself were wrong. Hidden cards are moved by random swaps between hidden places,
each kept only if the position still agrees with everything public (cards known to be in a
hand, Soldiers shown for Demoralized or implied by who was asked, cards a face-down placement
proved absent). The RNG, which decides every future deal, is replaced too.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games import REGISTRY, State
from games.call_to_glory.cards import TASK_DECKS, VALUES
from games.call_to_glory.state import CallToGloryState
from games.clans_and_glory.state import ClansState
from games.kami.cards import COPIES, SOLDIER, counts_of
from games.kami.state import KamiState
from games.rng import Rng

SWAPS = 300


def twin(state: State, seat: int, rng: random.Random) -> State:
    """A copy of ``state`` with the cards hidden from ``seat`` moved around and a new RNG."""
    other = REGISTRY[state.game_key].state_from_json(state.to_json())
    builders: dict[type, Callable[[State, int, random.Random], None]] = {
        CallToGloryState: _call_to_glory,
        KamiState: _kami,
        ClansState: _clans,
    }
    builders[type(other)](other, seat, rng)
    other.rng = Rng(rng.getrandbits(64))  # type: ignore[attr-defined]
    other._legal_cache = None
    # Through JSON once more: the loaders check the card counts and the public constraints.
    return REGISTRY[state.game_key].state_from_json(other.to_json())


def _swap(cards: list[int], valid: Callable[[list[int]], bool], rng: random.Random) -> None:
    if len(cards) < 2:
        return
    for _ in range(SWAPS):
        i, j = rng.randrange(len(cards)), rng.randrange(len(cards))
        cards[i], cards[j] = cards[j], cards[i]
        if not valid(cards):
            cards[i], cards[j] = cards[j], cards[i]


# --------------------------------------------------------------------------- Call to Glory


def _call_to_glory(state: State, seat: int, rng: random.Random) -> None:
    assert isinstance(state, CallToGloryState)
    others = [s for s in range(state.num_players) if s != seat]
    cards: list[int] = []
    places: list[tuple[str, int]] = []
    for s in others:
        for t, count in enumerate(state.hands[s]):
            free = count - state.known[s][t]  # known cards are public: they stay
            cards += [t] * free
            places += [("hand", s)] * free
    for index, pile in enumerate(state.draw_piles):
        cards += pile
        places += [("pile", index)] * len(pile)
    _swap(cards, lambda _cards: True, rng)
    for s in others:
        state.hands[s] = state.known[s][:]
    state.draw_piles = [[], []]
    for (kind, where), t in zip(places, cards, strict=True):
        if kind == "hand":
            state.hands[where][t] += 1
        else:
            state.draw_piles[where].append(t)
    if state.tasks_on:
        for deck, (_bonus, values) in TASK_DECKS.items():
            shown = {r["value"] for r in state.revealed if r["deck"] == deck}
            shown |= {VALUES[t] for d, t in state.tasks[seat] if d == deck}
            pool = [v for v in values if v not in shown]
            rng.shuffle(pool)
            for s in others:
                state.tasks[s] = [
                    (d, VALUES.index(pool.pop()) if d == deck else t) for d, t in state.tasks[s]
                ]


# --------------------------------------------------------------------------- Kami


def _kami(state: State, seat: int, rng: random.Random) -> None:
    assert isinstance(state, KamiState)
    players = state.num_players
    last = state.last_round if state.is_over else None
    cards: list[int] = []
    places: list[tuple[str, int, int]] = []
    for s in range(players):
        if s == seat:
            continue
        for card in range(8):
            cards += [card] * state.hands[s][card]
            places += [("hand", s, 0)] * state.hands[s][card]
        line = state.defense[s]
        for index, (card, face_up, mercenary) in enumerate(line):
            final = last is not None and s == last["seat"] and index == len(line) - 1
            if not (face_up or mercenary or final):
                cards.append(card)
                places.append(("defense", s, index))
    for index, stack in enumerate(state.stacks):
        if len(stack) == 2:
            cards.append(stack[0])
            places.append(("bottom", index, 0))
    for index, card in enumerate(state.set_aside):
        seen = index < len(state.leftover_seen_by) and state.leftover_seen_by[index] == seat
        if not seen:
            cards.append(card)
            places.append(("aside", index, 0))
    bounds = _soldier_bounds(state, seat)

    def valid(cards: list[int]) -> bool:
        hidden_soldiers = dict.fromkeys(bounds, 0)
        for (kind, where, _index), card in zip(places, cards, strict=True):
            if kind in ("hand", "defense") and where in bounds and card == SOLDIER:
                hidden_soldiers[where] += 1
        return all(low <= hidden_soldiers[s] <= high for s, (low, high) in bounds.items())

    assert valid(cards), "the real position must satisfy its own public facts"
    _swap(cards, valid, rng)
    hands: dict[int, list[int]] = {s: [] for s in range(players) if s != seat}
    for (kind, where, index), card in zip(places, cards, strict=True):
        if kind == "hand":
            hands[where].append(card)
        elif kind == "defense":
            _old, face_up, mercenary = state.defense[where][index]
            state.defense[where][index] = (card, face_up, mercenary)
        elif kind == "bottom":
            state.stacks[where][0] = card
        else:
            state.set_aside[where] = card
    for s, hand in hands.items():
        state.hands[s] = counts_of(hand)
    if state.options["demoralized"] == "ask_eligible" and state.phase.startswith("demoralized"):
        # The players still to be asked depend on the (new) hands; the one asked now is public.
        head = state.demoralized_queue[0]
        order = [(state.start_player + step) % 4 for step in range(4)]
        later = order[order.index(head) + 1 :]
        state.demoralized_queue = [head, *(s for s in later if state.hands[s][SOLDIER] >= 5)]
    state.opening_events = []


def _soldier_bounds(state: KamiState, seat: int) -> dict[int, tuple[int, int]]:
    """Public bounds on the Soldiers among each other player's hidden cards (hand and
    face-down defense), written from the rules rather than from the engine's code."""
    if state.num_players != 4:
        return {}
    dealt: dict[int, tuple[int, int]] = {}
    if state.options["demoralized"] == "ask_eligible":
        order = [(state.start_player + step) % 4 for step in range(4)]
        if state.phase.startswith("demoralized"):
            order = order[: order.index(state.demoralized_queue[0]) + 1]
        for s in order:
            asked = s in state.demoralized_asked
            dealt[s] = (5, COPIES[SOLDIER]) if asked else (0, 4)
    for entry in state.revealed_soldiers:
        dealt[entry["seat"]] = (entry["soldiers"], entry["soldiers"])
    bounds = {}
    last = state.last_round if state.is_over else None
    for s, (low, high) in dealt.items():
        if s == seat:
            continue
        line = state.defense[s]
        # The game's last face-down card is turned up at the end: public as well.
        final = len(line) - 1 if last is not None and s == last["seat"] else None
        shown = sum(1 for i, (c, up, _m) in enumerate(line) if (up or i == final) and c == SOLDIER)
        shown += sum(1 for c, _m in state.attack[s] if c == SOLDIER)
        bounds[s] = (low - shown, high - shown)
    return bounds


# --------------------------------------------------------------------------- Clans and Glory


def _clans(state: State, seat: int, rng: random.Random) -> None:
    assert isinstance(state, ClansState)
    cards: list[int] = []
    masks: list[int] = []
    places: list[tuple[str, int]] = []
    for player in range(state.num_players):
        if player == seat:
            continue
        excluded = 0
        for place, mask in enumerate(state.cannot_be):
            if state.placed_by[place] == player:
                excluded |= mask
        for card in state.hands[player]:
            cards.append(card)
            masks.append(excluded)
            places.append(("hand", player))
    for place, card in enumerate(state.cards):
        if card >= 0 and state.face_down[place] and state.placed_by[place] != seat:
            cards.append(card)
            masks.append(state.cannot_be[place])
            places.append(("seat", place))
    for card in state.undealt:
        cards.append(card)
        masks.append(0)
        places.append(("undealt", 0))

    def valid(cards: list[int]) -> bool:
        return all(not mask >> card & 1 for mask, card in zip(masks, cards, strict=True))

    assert valid(cards), "the real position must satisfy its own public facts"
    _swap(cards, valid, rng)
    hands: dict[int, list[int]] = {p: [] for p in range(state.num_players) if p != seat}
    undealt = []
    for (kind, where), card in zip(places, cards, strict=True):
        if kind == "hand":
            hands[where].append(card)
        elif kind == "seat":
            state.cards[where] = card
        else:
            undealt.append(card)
    for player, hand in hands.items():
        state.hands[player] = sorted(hand)
    state.undealt = sorted(undealt)
