"""A second heuristic opponent per game, written apart from ``games.ai.experts`` on purpose.

The AI uses the repository's rules-based players inside its search, so beating them could mean
no more than having learnt their habits. These greedy players think differently (one step
ahead, simple rules of thumb, no probability model), and the benchmark measures the levels
against them too, so that strength is not tuned against one opponent only. They read only the
seat's own hand and the public table, like every player the benchmark seats.

* **Call to Glory:** take a discard top that makes a legal set (or beats one), else draw blind;
  lay the set that gains the most points on show right now (a new type, or one taken from a
  rival), and end the round only when leading it; else discard the type held least, preferring
  a type already in the own display.
* **Kami:** counter whenever possible with the cheapest card (hand first, Empress only when the
  attacker could finish); lead the lowest card face down and attack with the type whose copies
  are most visible on the table; finish for the most points.
* **Clans and Glory:** place the card that raises the own board points the most right now, and
  put a shield where it claims at least six points now (or whenever shields would otherwise be
  left over).
"""

from __future__ import annotations

import random

from games.call_to_glory import actions as ctg
from games.call_to_glory.cards import INDEX_OF, VALUES
from games.call_to_glory.scoring import display_points
from games.clans_and_glory.actions import PlaceCard, PlaceShield
from games.clans_and_glory.cards import CARD_BY_TOKEN, value_of
from games.clans_and_glory.state import EMPTY
from games.core import Action, State
from games.kami import actions as kami
from games.kami.cards import BY_NAME, EMPRESS
from games.kami.cards import VALUES as KAMI_VALUES


def greedy_action(state: State, seat: int, rng: random.Random) -> Action:
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    chooser = {"call_to_glory": _ctg, "kami": _kami, "clans_and_glory": _clans}[state.game_key]
    return chooser(state, seat, legal, rng)


# --------------------------------------------------------------------------- Call to Glory


def _ctg(state, seat, legal, rng):  # type: ignore[no-untyped-def]
    hand = state.hands[seat]
    kinds = {type(action) for action in legal}
    if ctg.RevealTask in kinds:
        return legal[0]
    if ctg.ChoosePile in kinds:
        return legal[rng.randrange(len(legal))]
    if ctg.Draw in kinds:
        for action in legal:
            source = ctg.SOURCES.index(action.source)
            if source >= 2:
                t = state.discard_piles[source - 2][-1]
                if hand[t] + 1 >= _needed(state, seat, t) and state.owner[t] != seat:
                    return action
        blind = [a for a in legal if type(a) is ctg.Draw and a.source.startswith("draw")]
        return blind[rng.randrange(len(blind))] if blind else legal[0]
    if ctg.UseNinja in kinds:
        ninjas = [a for a in legal if type(a) is ctg.UseNinja]
        return max(ninjas, key=lambda a: a.value)
    if ctg.EndTurn in kinds:
        return ctg.END_TURN
    points = [display_points(display) for display in state.displays]
    best, best_gain = None, 0.0
    for action in legal:
        if type(action) is not ctg.Lay:
            continue
        t = INDEX_OF[action.value]
        holder = state.owner[t]
        gain = 0.0 if holder == seat else float(VALUES[t])
        if holder >= 0 and holder != seat:
            gain += VALUES[t]
        types = sum(1 for count in state.displays[seat] if count) + (holder != seat)
        if types >= state.types_needed:
            others = max(points[o] for o in range(state.num_players) if o != seat)
            gain += 50 if points[seat] + VALUES[t] > others else -50
        gain += 0.1 * action.count
        if gain > best_gain:
            best, best_gain = action, gain
    if best is not None:
        return best
    discards = [a for a in legal if type(a) is ctg.Discard]
    return min(
        discards,
        key=lambda a: (
            0 if state.owner[INDEX_OF[a.value]] == seat else 1,
            hand[INDEX_OF[a.value]],
            a.value,
            rng.random(),
        ),
    )


def _needed(state, seat, t):  # type: ignore[no-untyped-def]
    holder = state.owner[t]
    need = state.minimum[t]
    if holder >= 0:
        need = max(need, state.displays[holder][t] + 1)
    return need


# --------------------------------------------------------------------------- Kami


def _kami(state, seat, legal, rng):  # type: ignore[no-untyped-def]
    kinds = {type(action) for action in legal}
    if kami.RevealSoldiers in kinds:
        return kami.KEEP_HIDDEN
    if kami.AcceptRedeal in kinds:
        return kami.PLAY_ON
    hand_size = state.hand_sizes[seat]
    if kami.Pass in kinds:
        attacker = state.attacker
        if state.side_of(attacker) == state.side_of(seat) and hand_size > 2:
            return kami.PASS
        counters = [a for a in legal if type(a) is not kami.Pass]
        if not counters:
            return kami.PASS
        danger = state.hand_sizes[attacker] <= 2
        options = []
        for action in counters:
            card = _kami_card(state, action)
            if card == EMPRESS and not danger and hand_size > 2:
                continue
            options.append((type(action) is not kami.Counter, KAMI_VALUES[card], action))
        if not options:
            return kami.PASS
        return min(options, key=lambda o: (o[0], o[1]))[2]
    visible = [0] * 8
    for line in state.attack:
        for card, _m in line:
            visible[card] += 1
    for line in state.defense:
        for card, up, _m in line:
            if up:
                visible[card] += 1
    if kami.Lead in kinds or kami.LeadWithMercenary in kinds:
        hand_leads = [a for a in legal if type(a) is kami.Lead]
        if hand_size == 2 and hand_leads:
            hand = state.hands[seat]
            pairs = [a for a in hand_leads if hand[BY_NAME[a.card]] == 2]
            if pairs:
                return pairs[0]
            return min(hand_leads, key=lambda a: KAMI_VALUES[BY_NAME[a.card]])
        pool = hand_leads or legal
        return min(pool, key=lambda a: (KAMI_VALUES[_kami_card(state, a)], rng.random()))
    hand_attacks = [a for a in legal if type(a) is kami.Attack]
    pool = hand_attacks or legal
    return max(
        pool,
        key=lambda a: (visible[_kami_card(state, a)], -KAMI_VALUES[_kami_card(state, a)]),
    )


def _kami_card(state, action):  # type: ignore[no-untyped-def]
    if hasattr(action, "stack"):
        return state.stacks[action.stack][-1]
    return BY_NAME[action.card]


# --------------------------------------------------------------------------- Clans and Glory


def _clans(state, seat, legal, rng):  # type: ignore[no-untyped-def]
    if state.phase == "shield":
        board = state.shield_board
        left = state.shields_left[seat]
        turns = len(state.hands[seat]) + (0 if seat == state.last_player else -1) + 1
        claim = _claim(state, board, len(state.stacks[board]), None)
        if claim >= 6 or left >= turns:
            return next(a for a in legal if type(a) is PlaceShield)
        return next(a for a in legal if type(a) is not PlaceShield)
    if type(legal[0]) is not PlaceCard:
        return legal[rng.randrange(len(legal))]
    best, best_gain = [], -1e9
    for action in legal:
        card = CARD_BY_TOKEN[action.card]
        seat_index = state.table.index_by_name[action.position]
        gain = 0.0
        stack = state.stacks[action.board]
        for place, owner in enumerate(stack):
            before = _claim(state, action.board, place, None)
            after = _claim(state, action.board, place, (seat_index, card))
            gain += (after - before) * (1 if owner == seat else -0.5)
        if gain > best_gain:
            best, best_gain = [action], gain
        elif gain == best_gain:
            best.append(action)
    return best[rng.randrange(len(best))]


def _claim(state, board, place, extra):  # type: ignore[no-untyped-def]
    cards = [
        state.cards[s]
        for s in state.table.board_seats[board]
        if state.cards[s] != EMPTY and not state.face_down[s]
    ]
    if extra is not None:
        cards.append(extra[1])
    values = sorted({value_of(c) for c in cards})
    if place >= len(values):
        return 0
    value = values[place]
    return sum(value_of(c) for c in cards if value_of(c) == value)
