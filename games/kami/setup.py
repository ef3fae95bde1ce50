"""Randomness at the start of the game and of every round: the start-player draw and the deal
for each mode. Everything draws from the state's ``Rng`` so that a saved game deals identically.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.kami.cards import VALUES, counts_of, full_deck
from games.rng import Rng

HAND_SIZE = 8
PUBLISHER_HAND_SIZE = 10
STACKS = 8


@dataclass
class Deal:
    """One round's cards: per-seat hand counts plus whatever lies outside the hands."""

    hands: list[list[int]]
    stacks: list[list[int]] = field(default_factory=list)
    """Duel mercenary stacks, bottom card first; the last card of a stack is its face-up top."""
    set_aside: list[int] = field(default_factory=list)
    """Three players: cards out of play this round (8 unseen, or the 2 publisher leftovers)."""
    leftover_seen_by: list[int] = field(default_factory=list)
    """Publisher deal: ``leftover_seen_by[i]`` privately saw ``set_aside[i]``."""


def highest_drawers(draw: dict[int, int]) -> list[int]:
    """The seats whose drawn card has the highest point value (several on a tie)."""
    best = max(VALUES[card] for card in draw.values())
    return sorted(seat for seat, card in draw.items() if VALUES[card] == best)


def draw_start_player(rng: Rng, players: int) -> tuple[int, list[dict[int, int]]]:
    """Every seat draws a card from a shuffled deck; tied highest seats draw again (our ruling
    for ties, which the rulebook leaves open) until one is highest.

    Returns the start player and every draw in order, so that a UI can show how it was decided.
    """
    seats = list(range(players))
    draws: list[dict[int, int]] = []
    while True:
        deck = full_deck()
        rng.shuffle(deck)
        draw = {seat: deck[index] for index, seat in enumerate(seats)}
        draws.append(draw)
        seats = highest_drawers(draw)
        if len(seats) == 1:
            return seats[0], draws


def deal(rng: Rng, players: int, start_player: int, *, publisher_deal: bool) -> Deal:
    """Shuffle all 32 cards and deal them for the mode the player count implies."""
    deck = full_deck()
    rng.shuffle(deck)
    if players == 2:
        bottoms, tops, rest = deck[:STACKS], deck[STACKS : 2 * STACKS], deck[2 * STACKS :]
        stacks = [[bottom, top] for bottom, top in zip(bottoms, tops, strict=True)]
        hands = [counts_of(rest[seat::2]) for seat in range(2)]
        return Deal(hands=hands, stacks=stacks)
    size = PUBLISHER_HAND_SIZE if players == 3 and publisher_deal else HAND_SIZE
    hands = [counts_of(deck[seat * size : (seat + 1) * size]) for seat in range(players)]
    rest = deck[players * size :]
    if players == 3 and publisher_deal:
        # The second and third players (clockwise from the start player) each see one leftover.
        seen_by = [(start_player + 1) % 3, (start_player + 2) % 3]
        return Deal(hands=hands, set_aside=rest, leftover_seen_by=seen_by)
    return Deal(hands=hands, set_aside=rest)
