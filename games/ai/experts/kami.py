"""A rules-based Kami player: count the cards, attack with what nobody can answer, keep the
Empress for when it matters, finish with the most points the ending rule allows.

Written from the rules (``/work/shared/rules/kami.md``) and the game's own strategic advice:

* **Race to an empty hand.** Every lead or counter from the hand moves two cards; a pass moves
  none, and a mercenary (Duel) moves none of the hand. The hand's size is what matters most.
* **Keep the lead.** An attack nobody can counter brings the lead back, and with it two more
  cards out of the hand. Which attacks are safe is counted from the cards the seat has seen:
  its hand, every face-up card, its own face-down cards, the mercenaries on top of their
  stacks and the leftover it peeked at. The rest are spread over the hidden places (the
  others' hands, their face-down cards, the stacks' lower cards, the cards set aside), so the
  chance that an opponent holds a copy follows from their hand size.
* **The last card scores**, doubled when the face-down card of the final lead is the same type.
  So high cards and pairs are kept for the end, and low or lone cards are played first.
* **The Empress** counters almost anything; she is spent only when an opponent is about to
  finish (or it finishes the round for us).
* **Teams:** a partner's attack is left alone unless countering it finishes the round.
* **The ending rule:** under Lord and Kami a finish that overshoots the target costs points, so
  it is avoided when another move exists; the exact finish wins the game.

It reads only the seat's own hand and the public table (never another hand or a face-down card
of someone else), so it can play for any seat of a real game and of a search's sampled one.
"""

from __future__ import annotations

import random

from games.core import Action
from games.kami import actions as act
from games.kami.cards import BY_NAME, COPIES, COUNTERS, EMPRESS, SOLDIER, SPEAR, TYPES, VALUES
from games.kami.scoring import has_won, settle
from games.kami.state import (
    CONSENT_PHASE,
    COUNTER_ATTACK_PHASE,
    LEAD_ATTACK_PHASE,
    LEAD_PHASE,
    RESPOND_PHASE,
    REVEAL_PHASE,
    KamiState,
)

WIN = 1000.0
"""A move that wins the game outright."""
FINISH = 200.0
"""Ending the round (on top of what its points are worth)."""
CARD_WEIGHT = 3.0
"""What one card fewer in the hand is worth (the race to an empty hand)."""
KEEP_WEIGHT = 6.0
"""What an attack that comes back (nobody counters it) is worth."""
EMPRESS_KEPT = 2.5
"""An Empress in hand: a counter for almost anything, when an opponent is about to finish."""
SAFE_CARD = 1.5
"""A card in hand that nobody could counter later: a future lead kept."""
FINISH_POTENTIAL = 0.5
"""Per point of the best final attack the hand could still make."""
DANGER = 60.0
"""Passing while an opponent's next lead would empty their hand."""
PARTNER = 40.0
"""Countering a partner's attack (it only takes the lead from our own side)."""


class _Knowledge:
    """What ``seat`` can tell about where the cards are, and what each card in hand is worth."""

    __slots__ = ("keep", "opponents", "seat", "state", "tops", "unseen", "weight")

    def __init__(self, state: KamiState, seat: int) -> None:
        self.state = state
        self.seat = seat
        unseen = list(COPIES)
        hand = state.hands[seat]
        for t in TYPES:
            unseen[t] -= hand[t]
        for owner, line in enumerate(state.defense):
            for card, face_up, mercenary in line:
                if face_up or mercenary or owner == seat:
                    unseen[card] -= 1
        for line in state.attack:
            for card, _mercenary in line:
                unseen[card] -= 1
        self.tops = [stack[-1] for stack in state.stacks if stack]
        answered = 0  # attacks a mercenary on top of a stack could counter (Duel)
        for top in self.tops:
            unseen[top] -= 1
            answered |= _ANSWERS[top]
        for card, viewer in zip(state.set_aside, state.leftover_seen_by, strict=False):
            if viewer == seat:
                unseen[card] -= 1
        self.unseen = unseen = [max(0, count) for count in unseen]
        hidden = sum(unseen)
        side = state.side_of(seat)
        sizes = state.hand_sizes
        self.opponents = [
            other
            for other in range(state.num_players)
            if state.side_of(other) != side and sizes[other] > 0
        ]
        # Chance that one opponent holds no card of a type: (1 - their share of the hidden
        # cards) ** unseen copies (the hypergeometric law, approximated).
        misses = [
            1.0 - min(1.0, sizes[other] / hidden) if hidden else 1.0 for other in self.opponents
        ]
        keep = [1.0] * 8
        for card in TYPES:
            if answered >> card & 1:
                keep[card] = 0.05
                continue
            chance = 1.0
            empress_may = card != SOLDIER and card != SPEAR and card != EMPRESS
            for miss in misses:
                chance *= miss ** unseen[card]
                if empress_may and unseen[EMPRESS]:
                    chance *= 1.0 - 0.5 * (1.0 - miss ** unseen[EMPRESS])
            keep[card] = chance
        self.keep = keep
        self.weight = [
            -CARD_WEIGHT + SAFE_CARD * keep[card] + (EMPRESS_KEPT if card == EMPRESS else 0.0)
            for card in TYPES
        ]


_ANSWERS = [sum(1 << attack for attack in TYPES if COUNTERS[top][attack]) for top in TYPES]
"""Per card type, a bit mask of the attacks it can counter."""


def choose(state: KamiState, seat: int, rng: random.Random) -> Action:
    """The rules-based player's move for ``seat`` (the seat to move)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    phase = state.phase
    if phase == REVEAL_PHASE:
        return act.REVEAL if _weak_for_soldiers(state.hands[seat]) else act.KEEP_HIDDEN
    if phase == CONSENT_PHASE:
        return act.REDEAL if _hand_strength(state.hands[seat]) < 14 else act.PLAY_ON
    knowledge = _Knowledge(state, seat)
    scored = [(_score(state, seat, action, knowledge), index) for index, action in enumerate(legal)]
    best = max(score for score, _index in scored)
    ties = [index for score, index in scored if score >= best - 1e-9]
    return legal[ties[0] if len(ties) == 1 else ties[rng.randrange(len(ties))]]


def _weak_for_soldiers(hand: list[int]) -> bool:
    """Five or more Soldiers: show them (and hope for a new deal) unless the rest is strong."""
    return hand[SOLDIER] >= 6 or (hand[SOLDIER] >= 5 and not hand[EMPRESS])


def _hand_strength(hand: list[int]) -> int:
    return sum(VALUES[t] * hand[t] for t in TYPES) + 4 * hand[EMPRESS]


def _score(state: KamiState, seat: int, action: Action, knowledge: _Knowledge) -> float:
    """How good ``action`` looks: its best continuation's value for the seat's side."""
    phase = state.phase
    hand = state.hands[seat]
    if phase == RESPOND_PHASE:
        if type(action) is act.Pass:
            return _pass_value(state, seat, knowledge)
        card, from_hand = _placed(state, action)
        remaining = _without(hand, card) if from_hand else hand
        value = _best_attack(state, seat, remaining, knowledge, card, False, from_hand)
        attacker = state.attacker
        ours = attacker is not None and state.side_of(attacker) == state.side_of(seat)
        if ours and value < FINISH:
            value -= PARTNER
        return value
    if phase == LEAD_PHASE:
        card, from_hand = _placed(state, action)
        remaining = _without(hand, card) if from_hand else hand
        return _best_attack(state, seat, remaining, knowledge, card, True, from_hand)
    if phase in (LEAD_ATTACK_PHASE, COUNTER_ATTACK_PHASE):
        defense, face_up, _mercenary = state.defense[seat][-1]
        card, from_hand = _placed(state, action)
        summary = _Hand(hand, knowledge)
        return _attack_value(state, seat, summary, card, from_hand, knowledge, defense, not face_up)
    return 0.0


def _placed(state: KamiState, action: Action) -> tuple[int, bool]:
    """The card an action puts down, and whether it comes from the hand."""
    kind = type(action)
    if kind is act.Counter or kind is act.Lead or kind is act.Attack:
        return BY_NAME[action.card], True  # type: ignore[attr-defined]
    return state.stacks[action.stack][-1], False  # type: ignore[attr-defined]


def _without(hand: list[int], card: int) -> list[int]:
    rest = hand[:]
    rest[card] -= 1
    return rest


class _Hand:
    """A hand summed up for quick "what if this card left" questions: its size, the linear part
    of its value, and its two best final attacks (type and points)."""

    __slots__ = ("counts", "first", "first_type", "linear", "second", "size")

    def __init__(self, hand: list[int], knowledge: _Knowledge) -> None:
        weight = knowledge.weight
        self.counts = hand
        self.size = 0
        self.linear = 0.0
        self.first = self.second = 0
        self.first_type = -1
        for card in TYPES:
            count = hand[card]
            if count:
                self.size += count
                self.linear += count * weight[card]
                finish = VALUES[card] if count == 1 else 2 * VALUES[card]
                if finish > self.first:
                    self.second = self.first
                    self.first, self.first_type = finish, card
                elif finish > self.second:
                    self.second = finish

    def value(self) -> float:
        return self.linear + FINISH_POTENTIAL * self.first

    def value_without(self, card: int, weight: list[float]) -> float:
        """The hand's value with one ``card`` fewer."""
        left = self.counts[card] - 1
        finish = 0 if not left else VALUES[card] if left == 1 else 2 * VALUES[card]
        best = self.second if card == self.first_type else self.first
        return self.linear - weight[card] + FINISH_POTENTIAL * max(best, finish)


def _best_attack(
    state: KamiState,
    seat: int,
    hand: list[int],
    knowledge: _Knowledge,
    defense: int,
    face_down: bool,
    defense_from_hand: bool,
) -> float:
    """The best attack after placing ``defense`` (``hand`` is what is left after it)."""
    summary = _Hand(hand, knowledge)
    opened = state.open_empresses > 0 or (defense == EMPRESS and not face_down)
    size = summary.size
    best = -1e9
    for card in TYPES:
        if hand[card] and (card != EMPRESS or opened or size == 1):
            value = _attack_value(state, seat, summary, card, True, knowledge, defense, face_down)
            if value > best:
                best = value
    if size != 1:  # a Duel hand's last card must be the attack itself
        tops = knowledge.tops
        taken = -1 if defense_from_hand else defense  # that mercenary is gone
        for top in tops:
            if top == taken:
                taken = -1
                continue
            if top != EMPRESS or opened:
                value = _attack_value(
                    state, seat, summary, top, False, knowledge, defense, face_down
                )
                if value > best:
                    best = value
    if best == -1e9:
        best = summary.value() - 50.0
    return best


def _attack_value(
    state: KamiState,
    seat: int,
    hand: _Hand,
    card: int,
    from_hand: bool,
    knowledge: _Knowledge,
    defense: int,
    face_down: bool,
) -> float:
    """The value of attacking with ``card`` from ``hand`` (the hand before the attack)."""
    if from_hand:
        if hand.size == 1:
            doubled = face_down and defense == card
            return _finish_value(state, seat, VALUES[card] * (2 if doubled else 1))
        value = hand.value_without(card, knowledge.weight)
    else:
        value = hand.value()
    keep = knowledge.keep[card]
    value += KEEP_WEIGHT * keep
    if keep < 0.5:
        value -= 0.3 * VALUES[card]  # a high card that will be countered is a point lost
    return value


def _finish_value(state: KamiState, seat: int, points: int) -> float:
    """Ending the round for ``points``: a win, a gain, or (Lord, Kami) a fall back."""
    side = state.side_of(seat)
    before = state.totals[side]
    options = state.options
    target, ending = options["target"], options["ending"]
    after = settle(before, points, target=target, ending=ending, lord_clamp=options["lord_clamp"])
    if has_won(after, target=target, ending=ending):
        return WIN + points
    gain = after - before
    if gain <= 0:
        return gain - 20.0  # overshooting gives points back: worse than playing on
    return FINISH + 10.0 * gain


def _pass_value(state: KamiState, seat: int, knowledge: _Knowledge) -> float:
    """Letting the attack stand: the hand stays as it is; dangerous if the attacker can empty
    their hand with their next lead."""
    value = _Hand(state.hands[seat], knowledge).value()
    attacker = state.attacker
    assert attacker is not None
    if state.side_of(attacker) == state.side_of(seat):
        return value + 1.0
    if state.hand_sizes[attacker] <= 2:
        value -= DANGER
    return value - 2.0  # the opponent keeps the lead
