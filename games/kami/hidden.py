"""Fast copies and determinizations of a Kami position, for searching players.

What a seat knows in Kami: its own hand, its own face-down defense cards, every face-up card,
every mercenary on top of its stack, a face-down card taken from a stack (it lay face up there),
the leftover it peeked at (three players, publisher deal), the final face-down card revealed by
the scoring, the size of every hand, and two things the Demoralized check made public: the
Soldiers a player showed (all of them, so their number is exact) and, under ``ask_eligible``,
who was asked (5+ Soldiers) and who was passed over (fewer). What it cannot know: the other
hands, the others' face-down cards from their hands, the mercenaries under the stack tops, the
cards set aside, and the RNG.
"""

from __future__ import annotations

from math import comb
from typing import TYPE_CHECKING

from games.kami.cards import COPIES, EMPRESS, SOLDIER, TYPES, counts_of
from games.rng import Rng

if TYPE_CHECKING:
    from games.kami.state import KamiState

ELIGIBLE = 5
"""Soldiers needed to be asked under ``ask_eligible`` (``state.DEMORALIZED_SOLDIERS``)."""


def copy_state(state: KamiState) -> KamiState:
    """An independent copy; lists the engine mutates are copied, records it replaces but never
    changes (history rows, the last round, logged events, options) are shared."""
    cls = type(state)
    copy = cls.__new__(cls)
    copy.num_players = state.num_players
    copy.options = state.options
    copy.rng = Rng(state.rng.state)
    copy.hands = [hand[:] for hand in state.hands]
    copy.hand_sizes = state.hand_sizes[:]
    copy.defense = [line[:] for line in state.defense]
    copy.attack = [line[:] for line in state.attack]
    copy.stacks = [stack[:] for stack in state.stacks]
    copy.set_aside = state.set_aside[:]
    copy.leftover_seen_by = state.leftover_seen_by[:]
    copy.phase = state.phase
    copy.seat = state.seat
    copy.opening = state.opening
    copy.attacker = state.attacker
    copy.attack_card = state.attack_card
    copy.passes = state.passes
    copy.open_empresses = state.open_empresses
    copy.start_player = state.start_player
    copy.round = state.round
    copy.redeals = state.redeals
    copy.totals = state.totals[:]
    copy.history = state.history[:]
    copy.last_round = state.last_round
    copy.demoralized_queue = state.demoralized_queue[:]
    copy.revealed_soldiers = state.revealed_soldiers[:]
    copy.demoralized_asked = state.demoralized_asked[:]
    copy.start_draw = state.start_draw
    copy.opening_events = state.opening_events[:]
    copy.winner_side = state.winner_side
    copy._legal_cache = state._legal_cache  # immutable once built
    return copy


def _shown_defense(state: KamiState, owner: int, index: int, seat: int) -> bool:
    """Whether ``seat`` knows the card at ``index`` of ``owner``'s defense line."""
    _card, face_up, mercenary = state.defense[owner][index]
    if face_up or mercenary or owner == seat:
        return True
    last = state.last_round
    return (
        state.seat is None
        and last is not None
        and last["revealed_defense"] is not None
        and owner == last["seat"]
        and index == len(state.defense[owner]) - 1
    )


DEALS = 20
"""How many deals a determinization tries before it keeps one that strands a player."""


def determinize(state: KamiState, seat: int, rng: Rng) -> KamiState:
    """A copy with everything hidden from ``seat`` dealt again from the cards it has not seen,
    in which no other player holds a hand that could never attack (``_stranded``).

    Why the second condition: the real hands came about through legal moves, and the rules
    never let a player reach an attack with only Empresses that may not be played (the
    defense that would leave that hand is not legal). A deal that ignores this can give the
    opponent in Duel two Empresses with none face up when they must lead, a position with no
    legal move (found by ``tests/games/ai/test_determinize.py``). Such deals are dealt again
    from the same ``rng`` (so the result still depends only on what ``seat`` knows), and the
    last of ``DEALS`` is kept when the unseen cards allow nothing else.
    """
    for attempt in range(DEALS):
        world = _deal(state, seat, rng)
        if attempt == DEALS - 1 or not _stranded(world, seat):
            return world
    raise AssertionError("unreachable")


def _stranded(world: KamiState, seat: int) -> bool:
    """Whether another player's hand is two or more Empresses while none lies face up: none of
    them may attack (``KamiState.attack_allowed``), and nothing else is left to attack with."""
    if world.empress_open:
        return False
    return any(
        owner != seat
        and world.hand_sizes[owner] >= 2
        and world.hands[owner][EMPRESS] == world.hand_sizes[owner]
        for owner in range(world.num_players)
    )


def _deal(state: KamiState, seat: int, rng: Rng) -> KamiState:
    """One deal of everything hidden from ``seat``.

    Players with a public Soldier count (shown for Demoralized, or implied by who was asked)
    get their hidden cards first, with a number of Soldiers drawn from the hypergeometric law
    restricted to what the table knows (and to what leaves the players after them a possible
    deal); then everything else is dealt uniformly. That is exact for one such player and close
    for several. The unseen cards are listed in a fixed order before
    shuffling, so the result depends only on what ``seat`` knows and on ``rng``.
    """
    copy = copy_state(state)
    copy.rng = Rng(rng.next_u64())
    copy._legal_cache = None
    copy.opening_events = []  # they show every dealt hand to its owner; not part of the position
    players = state.num_players
    unseen = list(COPIES)
    for t in TYPES:
        unseen[t] -= state.hands[seat][t]
    hidden_defense: list[list[int]] = [[] for _ in range(players)]
    for owner in range(players):
        for index, (card, _up, _mercenary) in enumerate(state.defense[owner]):
            if _shown_defense(state, owner, index, seat):
                unseen[card] -= 1
            else:
                hidden_defense[owner].append(index)
        for card, _mercenary in state.attack[owner]:
            unseen[card] -= 1
    bottoms = []
    for index, stack in enumerate(state.stacks):
        if stack:
            unseen[stack[-1]] -= 1
        if len(stack) == 2:
            bottoms.append(index)
    unseen_aside = []
    for index, card in enumerate(state.set_aside):
        if index < len(state.leftover_seen_by) and state.leftover_seen_by[index] == seat:
            unseen[card] -= 1
        else:
            unseen_aside.append(index)

    soldiers = unseen[SOLDIER]
    others = [t for t in TYPES if t != SOLDIER for _ in range(unseen[t])]
    rng.shuffle(others)
    hidden_cards: dict[int, list[int]] = {}
    constraints = [
        (owner, low, high, state.hand_sizes[owner] + len(hidden_defense[owner]))
        for owner, low, high in _soldier_constraints(state, seat)
    ]
    free_slots = soldiers + len(others) - sum(slots for *_bounds, slots in constraints)
    for index, (owner, low, high, slots) in enumerate(constraints):
        # Keep the players still to deal satisfiable: their Soldiers can add up to anything
        # from ``least`` to ``most``, and the unconstrained places take what is left.
        rest = constraints[index + 1 :]
        least = sum(max(0, r_low) for _o, r_low, _h, _s in rest)
        most = sum(min(r_high, r_slots) for _o, _l, r_high, r_slots in rest)
        low = max(low, soldiers - free_slots - most)
        high = min(high, soldiers - least)
        count = _soldiers_for(rng, slots, soldiers, len(others), low, high)
        cards = [SOLDIER] * count + [others.pop() for _ in range(slots - count)]
        soldiers -= count
        hidden_cards[owner] = cards
    pool = [SOLDIER] * soldiers + others
    rng.shuffle(pool)
    for owner in range(players):
        if owner == seat:
            continue
        cards = hidden_cards.get(owner)
        if cards is None:
            size = state.hand_sizes[owner] + len(hidden_defense[owner])
            cards = [pool.pop() for _ in range(size)]
        else:
            rng.shuffle(cards)  # which of them went face down is as unknown as the rest
        line = copy.defense[owner]
        for index in hidden_defense[owner]:
            _card, face_up, mercenary = line[index]
            line[index] = (cards.pop(), face_up, mercenary)
        copy.hands[owner] = counts_of(cards)
    for index in bottoms:
        copy.stacks[index][0] = pool.pop()
    for index in unseen_aside:
        copy.set_aside[index] = pool.pop()
    # In a game every unseen card has a hidden place and the pool is now empty; a test position
    # may leave cards out of play altogether, and those stay out.
    if state.options["demoralized"] == "ask_eligible" and copy.demoralized_queue:
        _requeue(copy)
    return copy


def _soldier_constraints(state: KamiState, seat: int) -> list[tuple[int, int, int]]:
    """``(player, low, high)``: bounds on the Soldiers among a player's hidden cards (hand and
    face-down defense) that the Demoralized check made public this deal."""
    if state.num_players != 4:
        return []
    bounds: dict[int, tuple[int, int]] = {}
    rule = state.options["demoralized"]
    if rule == "ask_eligible":
        order = [(state.start_player + step) % 4 for step in range(4)]
        decided = order
        if state.phase.startswith("demoralized") and state.demoralized_queue:
            decided = order[: order.index(state.demoralized_queue[0]) + 1]
        for owner in decided:
            asked = owner in state.demoralized_asked
            bounds[owner] = (ELIGIBLE, COPIES[SOLDIER]) if asked else (0, ELIGIBLE - 1)
    for entry in state.revealed_soldiers:
        bounds[entry["seat"]] = (entry["soldiers"], entry["soldiers"])
    constraints = []
    for owner, (low, high) in sorted(bounds.items()):
        if owner == seat:
            continue
        # Face-up cards, and the last round's revealed face-down card: public, so not hidden.
        shown = sum(
            1
            for index, (card, _up, _merc) in enumerate(state.defense[owner])
            if card == SOLDIER and _shown_defense(state, owner, index, seat)
        )
        shown += sum(1 for card, _merc in state.attack[owner] if card == SOLDIER)
        constraints.append((owner, low - shown, high - shown))
    return constraints


def _soldiers_for(rng: Rng, slots: int, soldiers: int, others: int, low: int, high: int) -> int:
    """How many Soldiers a player's ``slots`` hidden cards hold: hypergeometric given the unseen
    cards, restricted to ``low..high`` (ignored if the public facts admit no count, which only
    a save from before ``demoralized_asked`` existed can produce)."""
    weights = [
        comb(soldiers, k) * comb(others, slots - k) if low <= k <= high else 0
        for k in range(slots + 1)
    ]
    if not any(weights):
        weights = [comb(soldiers, k) * comb(others, slots - k) for k in range(slots + 1)]
    pick = rng.below(sum(weights))
    for count, weight in enumerate(weights):
        if pick < weight:
            return count
        pick -= weight
    raise AssertionError("unreachable: the weights add up")


def _requeue(copy: KamiState) -> None:
    """Under ``ask_eligible`` the players still to be asked depend on their hands: keep the one
    being asked now (``to_move`` is public) and recompute the rest from the dealt hands."""
    head = copy.demoralized_queue[0]
    order = [(copy.start_player + step) % 4 for step in range(4)]
    later = order[order.index(head) + 1 :]
    copy.demoralized_queue = [head, *(s for s in later if copy.can_reveal_soldiers(s))]
