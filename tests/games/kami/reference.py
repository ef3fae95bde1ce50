"""A deliberately naive second statement of Kami's move rules, used only by the tests.

It works on plain card lists, tries every candidate by brute force and uses no shortcut of the
engine, so the property tests can check that the engine's fast legal-move lists say the same.
"""

from __future__ import annotations

from games.kami import KamiState
from games.kami import actions as act
from games.kami.cards import EMPRESS, NAMES, SOLDIER, SPEAR

ATTACK_DECISIONS = ("lead_attack", "counter_attack")


def can_counter(defense: int, attack: int) -> bool:
    return defense == attack or (defense == EMPRESS and attack not in (SOLDIER, SPEAR))


def may_attack(card: int, *, from_hand: bool, hand_left: int, empress_face_up: bool) -> bool:
    """``hand_left`` is the hand size before the attack card is taken from it."""
    if card != EMPRESS or empress_face_up:
        return True
    return from_hand and hand_left == 1


def _hand(state: KamiState, seat: int) -> list[int]:
    return [card for card in range(8) for _ in range(state.hands[seat][card])]


def _empress_face_up(state: KamiState) -> bool:
    return any(c == EMPRESS and up for line in state.defense for c, up, _ in line)


def _any_attack(hand: list[int], tops: list[int], empress_face_up: bool) -> bool:
    return any(
        may_attack(c, from_hand=True, hand_left=len(hand), empress_face_up=empress_face_up)
        for c in hand
    ) or any(
        may_attack(c, from_hand=False, hand_left=len(hand), empress_face_up=empress_face_up)
        for c in tops
    )


def _defense_choices(state: KamiState, face_up: bool) -> list[act.Action]:
    """Every defense card after which some attack would still be legal."""
    seat = state.to_move
    assert seat is not None
    hand = _hand(state, seat)
    duel = state.num_players == 2
    attack = state.attack_card
    choices: list[act.Action] = []
    for card in sorted(set(hand)):
        if face_up and not can_counter(card, attack):  # type: ignore[arg-type]
            continue
        if duel and len(hand) == 1:
            continue  # the hand's last card may only leave as an attack
        rest = list(hand)
        rest.remove(card)
        tops = [stack[-1] for stack in state.stacks if stack]
        opened = _empress_face_up(state) or (face_up and card == EMPRESS)
        if _any_attack(rest, tops, opened):
            choices.append(act.Counter(NAMES[card]) if face_up else act.Lead(NAMES[card]))
    for index, stack in enumerate(state.stacks):
        if not stack or (face_up and not can_counter(stack[-1], attack)):  # type: ignore[arg-type]
            continue
        after = [list(s) for s in state.stacks]
        taken = after[index].pop()
        tops = [s[-1] for s in after if s]
        opened = _empress_face_up(state) or (face_up and taken == EMPRESS)
        if _any_attack(hand, tops, opened):
            choice = act.CounterWithMercenary(index) if face_up else act.LeadWithMercenary(index)
            choices.append(choice)
    return choices


def reference_actions(state: KamiState) -> set[act.Action]:
    decision, seat = state.decision, state.to_move
    if seat is None:
        return set()
    if decision == "demoralized_reveal":
        soldiers = _hand(state, seat).count(SOLDIER)
        return {act.REVEAL, act.KEEP_HIDDEN} if soldiers >= 5 else {act.KEEP_HIDDEN}
    if decision == "demoralized_consent":
        return {act.REDEAL, act.PLAY_ON}
    if decision == "respond":
        return {act.PASS, *_defense_choices(state, face_up=True)}
    if decision == "lead_defense":
        return set(_defense_choices(state, face_up=False))
    assert decision in ATTACK_DECISIONS
    hand = _hand(state, seat)
    opened = _empress_face_up(state)
    found: set[act.Action] = {
        act.Attack(NAMES[c])
        for c in hand
        if may_attack(c, from_hand=True, hand_left=len(hand), empress_face_up=opened)
    }
    found |= {
        act.AttackWithMercenary(index)
        for index, stack in enumerate(state.stacks)
        if stack
        and may_attack(stack[-1], from_hand=False, hand_left=len(hand), empress_face_up=opened)
    }
    return found
