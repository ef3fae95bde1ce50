"""Starting a game: shuffle the deck, one face-up start card per board, deal the hands.

The hand sizes give every player the same number of turns: the player to the right of the start
player is dealt one card fewer, and the game ends once that player has none left, so everyone
places ``hand_size - 1`` cards (8 with 2 or 3 players, 7 with 4) and the others keep one card.
"""

from __future__ import annotations

from games.clans_and_glory.cards import deck_for
from games.clans_and_glory.state import EMPTY, PLACE, ClansState
from games.clans_and_glory.table import build_table, start_seat
from games.core import JSON
from games.rng import Rng

SHIELDS_PER_PLAYER = 5
HAND_SIZE = {2: 9, 3: 9, 4: 8}
"""Cards dealt to everyone but the last player in turn order, who gets one fewer."""


def hand_sizes(players: int, start_player: int) -> list[int]:
    last = (start_player - 1) % players
    return [HAND_SIZE[players] - (player == last) for player in range(players)]


def new_game(players: int, seed: int, options: JSON) -> ClansState:
    """A fresh game; all randomness (deck, start seats, start player) comes from ``seed``."""
    rng = Rng(seed)
    table = build_table(players, options["cross_board_adjacency"])
    deck = deck_for(players)
    rng.shuffle(deck)
    cards = [EMPTY] * table.seat_count
    for board in range(table.board_count):
        rule = options["start_seats"]
        spot = rng.below(len(table.board_seats[board])) if rule == "random" else 0
        cards[start_seat(table, board, rule, spot)] = deck.pop()
    start_player = rng.below(players)
    hands: list[list[int]] = [[] for _ in range(players)]
    sizes = hand_sizes(players, start_player)
    for step in range(players):
        player = (start_player + step) % players
        hands[player] = [deck.pop() for _ in range(sizes[player])]
    return ClansState(
        players=players,
        options=options,
        rng=rng,
        start_player=start_player,
        hands=hands,
        undealt=sorted(deck),
        cards=cards,
        face_down=[False] * table.seat_count,
        placed_by=[EMPTY] * table.seat_count,
        stacks=[[] for _ in range(table.board_count)],
        shields_left=[SHIELDS_PER_PLAYER] * players,
        current=start_player,
        phase=PLACE,
        shield_board=None,
    )
