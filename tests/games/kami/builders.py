"""Test-only construction of Kami positions, in the short card codes of the spec's scenarios.

Codes: SO Soldier, SP Spear, HO Horseman, SI Silver Dragon, GO Gold Dragon, TO Tower, MA Madman,
EM Empress. A defense card is written with its orientation: ``EM^`` face-up, ``SIv`` face-down,
and a leading ``m:`` marks a Duel mercenary (``m:TOv``). A mercenary stack is written bottom card
first (``"GO SI"``: Gold Dragon hidden under a face-up Silver Dragon; ``""`` is an empty stack).

Cards a position does not mention are simply out of play: the engine only checks that no type
appears more often than the deck holds it. Positions are passed through JSON before they are
returned, so each one is also a valid save.
"""

from __future__ import annotations

from games.kami import GAME, KamiState
from games.kami import actions as act
from games.kami.cards import BY_NAME, EMPRESS, NAMES, counts_of
from tests.games.protocol import json_copy

CODES = {
    "SO": "soldier",
    "SP": "spear",
    "HO": "horseman",
    "SI": "silver_dragon",
    "GO": "gold_dragon",
    "TO": "tower",
    "MA": "madman",
    "EM": "empress",
}


def card(code: str) -> int:
    return BY_NAME[CODES[code]]


def name(code: str) -> str:
    return CODES[code]


def cards(text: str) -> list[int]:
    return [card(code) for code in text.split()]


def _defense_card(token: str) -> tuple[int, bool, bool]:
    mercenary = token.startswith("m:")
    token = token.removeprefix("m:")
    return card(token[:2]), token[2] == "^", mercenary


def position(
    players: int = 4,
    *,
    hands: dict[int, str],
    to_move: int = 0,
    decision: str = "lead_defense",
    attack: tuple[int, str] | None = None,
    defense: dict[int, str] | None = None,
    stacks: list[str] | None = None,
    start_player: int = 0,
    opening: bool = False,
    totals: list[int] | None = None,
    demoralized: list[int] | None = None,
    options: dict | None = None,
) -> KamiState:
    """A position where ``to_move`` faces ``decision``.

    ``attack`` is ``(seat, code)``: the current attack, also placed in that seat's attack line.
    ``demoralized`` is the queue of players still to be asked (its head is the one deciding).
    """
    state = GAME.new_state(players, seed=0, options=options)
    state.hands = [counts_of(cards(hands.get(seat, ""))) for seat in range(players)]
    state.hand_sizes = [sum(hand) for hand in state.hands]
    state.defense = [
        [_defense_card(token) for token in (defense or {}).get(seat, "").split()]
        for seat in range(players)
    ]
    state.attack = [[] for _ in range(players)]
    state.attacker = state.attack_card = None
    if attack is not None:
        seat, code = attack
        state.attacker, state.attack_card = seat, card(code)
        state.attack[seat].append((card(code), False))
    state.open_empresses = sum(
        1 for line in state.defense for c, face_up, _ in line if face_up and c == EMPRESS
    )
    state.stacks = [cards(stack) for stack in stacks] if stacks is not None else []
    if players == 2 and stacks is None:
        state.stacks = [[] for _ in range(8)]
    state.set_aside, state.leftover_seen_by = [], []
    state.phase, state.seat = decision, to_move
    state.passes = 0
    state.opening = opening
    state.start_player = start_player
    state.totals = list(totals) if totals is not None else [0] * len(state.totals)
    state.demoralized_queue = list(demoralized or [])
    state.revealed_soldiers = []
    state._legal_cache = None
    return json_copy(state)  # type: ignore[return-value]


def lead(state: KamiState, defense: str, attack: str | None = None) -> list[dict]:
    """Lead from the hand: ``defense`` face-down, then ``attack`` unless the engine forced it."""
    events = state.apply(act.Lead(name(defense)))
    if attack is not None:
        events += state.apply(act.Attack(name(attack)))
    return events


def counter(state: KamiState, defense: str, attack: str | None = None) -> list[dict]:
    """Counter from the hand: ``defense`` face-up, then ``attack`` unless the engine forced it."""
    events = state.apply(act.Counter(name(defense)))
    if attack is not None:
        events += state.apply(act.Attack(name(attack)))
    return events


def hand_names(state: KamiState, seat: int) -> list[str]:
    return [NAMES[c] for c in range(8) for _ in range(state.hands[seat][c])]


def of_type(events: list[dict], kind: str) -> list[dict]:
    return [event for event in events if event["type"] == kind]
