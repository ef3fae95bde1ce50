"""A game of Clans and Glory in progress: the table, the hands, the shield stacks, whose turn.

A turn is two decisions of the same player: ``place`` (a card face up, or face down when no hand
card fits anywhere face up), then ``shield`` (put one or decline). The shield step is left
out when the player has no shield left, and after the very last placement when the option
``final_turn_shield_allowed`` is off, because a decision with a single answer only slows a
table down.

Move generation is the hot path: ``_accepts[seat]`` caches, for every seat, the bit mask of
cards that would match there face up (see ``cards.MATCHES``); it is derived data, rebuilt on
load, and updated in place by each face-up placement.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import cache

from games.clans_and_glory import events
from games.clans_and_glory.actions import (
    SHIELD_CHOICES,
    PlaceCard,
    PlaceFaceDown,
    PlaceShield,
    SkipShield,
    place_action,
)
from games.clans_and_glory.cards import (
    CARD_BY_TOKEN,
    CARD_COUNT,
    MATCHES,
    card_token,
    cards_in,
    deck_for,
)
from games.clans_and_glory.scoring import BoardResult, score_board, totals, winners
from games.clans_and_glory.table import Table, build_table
from games.clans_and_glory.view import view_of
from games.core import JSON, Action, Event, State
from games.rng import Rng

EMPTY = -1
"""Marks a free seat in ``cards`` and a start card (placed by nobody) in ``placed_by``."""

FORMAT_VERSION = 1
PLACE, SHIELD, OVER = "place", "shield", "over"
PHASES = (PLACE, SHIELD, OVER)


@cache
def _deck_mask(players: int) -> int:
    mask = 0
    for card in deck_for(players):
        mask |= 1 << card
    return mask


@cache
def _placements(players: int, cross_board_adjacency: bool, face_down: bool) -> tuple[tuple, ...]:
    """``[card][seat]`` -> the shared placement action, built once per table."""
    table = build_table(players, cross_board_adjacency)
    return tuple(
        tuple(
            place_action(card_token(card), seat.board, seat.name, face_down) for seat in table.seats
        )
        for card in range(CARD_COUNT)
    )


class ClansState(State):
    """Mutable game state; build new games with ``setup.new_game`` and test positions with
    ``tests/games/clans_and_glory/builders.py``."""

    game_key = "clans_and_glory"

    def __init__(
        self,
        *,
        players: int,
        options: JSON,
        rng: Rng,
        start_player: int,
        hands: Sequence[Sequence[int]],
        undealt: Sequence[int],
        cards: Sequence[int],
        face_down: Sequence[bool],
        placed_by: Sequence[int],
        stacks: Sequence[Sequence[int]],
        shields_left: Sequence[int],
        current: int | None,
        phase: str,
        shield_board: int | None,
        cannot_be: Sequence[int] | None = None,
    ) -> None:
        self.num_players = players
        self.options = dict(options)
        self.table: Table = build_table(players, options["cross_board_adjacency"])
        self.rng = rng
        self.start_player = start_player
        self.hands = [sorted(hand) for hand in hands]
        self.undealt = list(undealt)
        self.cards = list(cards)
        self.face_down = list(face_down)
        self.placed_by = list(placed_by)
        self.stacks = [list(stack) for stack in stacks]
        self.shields_left = list(shields_left)
        self.current = current
        self.phase = phase
        self.shield_board = shield_board
        self.cannot_be = list(cannot_be) if cannot_be is not None else [0] * len(self.cards)
        """Per seat, a mask of the cards a face-down card there cannot be (0 elsewhere).

        A card goes face down only when no hand card fits face up anywhere, so every card that
        fitted somewhere then was not in that hand, nor in it at any earlier face-down placement
        of the same player (hands only shrink). The table could see it all, so this is public
        knowledge: views show it and ``determinize`` deals no such card there or, for a
        player's later face-down placements, into their hand."""
        self._result: list[BoardResult] | None = None
        self._rebuild_derived()

    # ---- derived data ------------------------------------------------------------------

    def _rebuild_derived(self) -> None:
        table = self.table
        self._free = [seat for seat in range(table.seat_count) if self.cards[seat] == EMPTY]
        self._accepts = [0] * table.seat_count
        for seat, card in enumerate(self.cards):
            if card != EMPTY and not self.face_down[seat]:
                for near in table.related[seat]:
                    self._accepts[near] |= MATCHES[card]
        self._face_up_moves = _placements(self.num_players, table.cross_board_adjacency, False)
        self._face_down_moves = _placements(self.num_players, table.cross_board_adjacency, True)

    @property
    def last_player(self) -> int:
        """The player to the right of the start player: last in turn order, dealt one card less,
        and the one whose final placement ends the game."""
        return (self.start_player - 1) % self.num_players

    @property
    def turn_order(self) -> list[int]:
        return [(self.start_player + step) % self.num_players for step in range(self.num_players)]

    # ---- protocol ----------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        return None if self.phase == OVER else self.current

    @property
    def decision(self) -> str | None:
        """``place`` even when the card must go face down: the decision token is public, and
        whether a player is forced depends on their hidden hand. The kind of the legal actions
        (``place_face_down``) tells the player to move."""
        if self.phase == OVER:
            return None
        return "shield" if self.phase == SHIELD else "place"

    def must_place_face_down(self) -> bool:
        """True when no hand card of the player to move fits face up on any free seat."""
        hand_mask = self._hand_mask(self.current)
        return not any(self._accepts[seat] & hand_mask for seat in self._free)

    def _fitting_anywhere(self) -> int:
        """The cards of this game's deck that some free seat accepts face up now."""
        fitting = 0
        accepts = self._accepts
        for seat in self._free:
            fitting |= accepts[seat]
        return fitting & _deck_mask(self.num_players)

    def excluded_from_hand(self, player: int) -> int:
        """A mask of the cards ``player`` is publicly known not to hold: those that fitted
        somewhere face up when they placed a card face down (hands only shrink)."""
        excluded = 0
        for seat, mask in enumerate(self.cannot_be):
            if mask and self.placed_by[seat] == player:
                excluded |= mask
        return excluded

    def _hand_mask(self, player: int | None) -> int:
        mask = 0
        for card in self.hands[player]:
            mask |= 1 << card
        return mask

    def _legal_actions(self) -> list[Action]:
        if self.phase == SHIELD:
            return list(SHIELD_CHOICES)
        hand = self.hands[self.current]
        hand_mask = self._hand_mask(self.current)
        accepts = self._accepts
        by_card: dict[int, list[Action]] = {card: [] for card in hand}
        moves = self._face_up_moves
        found = False
        for seat in self._free:
            fitting = accepts[seat] & hand_mask
            while fitting:
                low = fitting & -fitting
                card = low.bit_length() - 1
                by_card[card].append(moves[card][seat])
                fitting ^= low
                found = True
        if not found:
            moves = self._face_down_moves
            return [moves[card][seat] for card in hand for seat in self._free]
        return [action for card in hand for action in by_card[card]]

    def why_illegal(self, action: Action) -> str:
        if isinstance(action, PlaceCard | PlaceFaceDown):
            return self._why_placement_illegal(action)
        if isinstance(action, PlaceShield | SkipShield) and self.phase == PLACE:
            if isinstance(action, PlaceShield) and self.shields_left[self.current] == 0:
                return "no_shields_left"
            return "place_card_first"
        return "not_legal"

    def _why_placement_illegal(self, action: PlaceCard | PlaceFaceDown) -> str:
        if self.phase != PLACE:
            return "card_already_placed"
        card = CARD_BY_TOKEN.get(action.card)
        if card is None:
            return "no_such_card"
        if card not in self.hands[self.current]:
            return "card_not_in_hand"
        seat = self.table.index_by_name.get(action.position)
        if seat is None:
            return "no_such_position"
        if self.table.board_of(seat) != action.board:
            return "wrong_board"
        if self.cards[seat] != EMPTY:
            return "position_taken"
        forced = self.must_place_face_down()
        if isinstance(action, PlaceFaceDown):
            return "not_legal" if forced else "face_down_not_forced"
        return "must_place_face_down" if forced else "no_match"

    def _apply(self, action: Action) -> list[Event]:
        if self.phase == SHIELD:
            return self._finish_turn(placed_shield=isinstance(action, PlaceShield))
        assert isinstance(action, PlaceCard | PlaceFaceDown)
        return self._place(action)

    def _place(self, action: PlaceCard | PlaceFaceDown) -> list[Event]:
        player = self.current
        assert player is not None
        card = CARD_BY_TOKEN[action.card]
        seat = self.table.index_by_name[action.position]
        hidden = isinstance(action, PlaceFaceDown)
        if hidden:
            self.cannot_be[seat] = self.excluded_from_hand(player) | self._fitting_anywhere()
        self.hands[player].remove(card)
        self.cards[seat] = card
        self.face_down[seat] = hidden
        self.placed_by[seat] = player
        self._free.remove(seat)
        if not hidden:
            for near in self.table.related[seat]:
                self._accepts[near] |= MATCHES[card]
        log = events.card_placed(self, player, card, seat, hidden)
        self.shield_board = action.board
        final = self._is_final_placement(player)
        may_shield = self.shields_left[player] > 0 and (
            not final or self.options["final_turn_shield_allowed"]
        )
        if may_shield:
            self.phase = SHIELD
            return log
        return log + self._finish_turn(placed_shield=False, announce=False)

    def _is_final_placement(self, player: int) -> bool:
        return player == self.last_player and not self.hands[player]

    def _finish_turn(self, *, placed_shield: bool, announce: bool = True) -> list[Event]:
        player = self.current
        assert player is not None and self.shield_board is not None
        log: list[Event] = []
        if placed_shield:
            self.stacks[self.shield_board].append(player)
            self.shields_left[player] -= 1
        if announce:
            log.append(events.shield_decided(self, player, self.shield_board, placed_shield))
        self.shield_board = None
        if self._is_final_placement(player):
            self.phase = OVER
            return log + events.game_ended(self)
        self.phase = PLACE
        self.current = (player + 1) % self.num_players
        return log

    # ---- results -----------------------------------------------------------------------

    def board_results(self) -> list[BoardResult]:
        """Scoring of every board, computed once the game is over (empty before)."""
        if self.phase != OVER:
            return []
        if self._result is None:
            self._result = [
                score_board(board, self.face_up_cards_on(board), self.stacks[board])
                for board in range(self.table.board_count)
            ]
        return self._result

    def face_up_cards_on(self, board: int) -> list[int]:
        return [
            self.cards[seat]
            for seat in self.table.board_seats[board]
            if self.cards[seat] != EMPTY and not self.face_down[seat]
        ]

    def totals(self) -> tuple[list[int], list[int]]:
        """Points and cards won per player (zeros until the game is over)."""
        return totals(self.board_results(), self.num_players)

    @property
    def scores(self) -> list[int]:
        return self.totals()[0]

    def provisional_scores(self) -> list[int] | None:
        """What the boards would give each player if the game ended now."""
        if self.phase == OVER:
            return self.scores
        results = [
            score_board(board, self.face_up_cards_on(board), self.stacks[board])
            for board in range(self.table.board_count)
        ]
        return totals(results, self.num_players)[0]

    @property
    def rounds_finished(self) -> int:
        return 1 if self.phase == OVER else 0

    @property
    def round_scores(self) -> list[list[int]]:
        return [self.scores] if self.phase == OVER else []

    @property
    def winners(self) -> list[int]:
        if self.phase != OVER:
            return []
        return winners(*self.totals())

    # ---- views and serialisation ---------------------------------------------------------

    @property
    def opening_events(self) -> list[Event]:  # type: ignore[override]
        """Derived rather than stored: start player, start cards and deal sizes never change."""
        from games.clans_and_glory.setup import hand_sizes

        return [events.game_started(self, hand_sizes(self.num_players, self.start_player))]

    def _view(self, seat: int | None) -> JSON:
        return view_of(self, seat)

    def to_json(self) -> JSON:
        """Cards by name and seats by name, so a saved game stays readable and checkable."""
        table = self.table
        return {
            "game": self.game_key,
            "version": FORMAT_VERSION,
            "players": self.num_players,
            "options": dict(self.options),
            "rng": self.rng.to_json(),
            "start_player": self.start_player,
            "current": self.current,
            "phase": self.phase,
            "shield_board": self.shield_board,
            "hands": [[card_token(card) for card in hand] for hand in self.hands],
            "undealt": [card_token(card) for card in self.undealt],
            "positions": {
                table.seats[seat].name: {
                    "card": card_token(card),
                    "face_down": self.face_down[seat],
                    "placed_by": None if self.placed_by[seat] == EMPTY else self.placed_by[seat],
                }
                for seat, card in enumerate(self.cards)
                if card != EMPTY
            },
            "stacks": [list(stack) for stack in self.stacks],
            "shields_left": list(self.shields_left),
            "cannot_be": {
                table.seats[seat].name: [card_token(card) for card in cards_in(mask)]
                for seat, mask in enumerate(self.cannot_be)
                if mask
            },
        }

    def clone(self) -> ClansState:
        from games.clans_and_glory.hidden import copy_state

        return copy_state(self)

    def determinize(self, seat: int, rng: Rng) -> ClansState:
        from games.clans_and_glory.hidden import determinize

        return determinize(self, seat, rng)

    def observed_action(self, action: Action, seat: int | None) -> Hashable:
        """A face-down card shows everyone but its owner only where it went."""
        if type(action) is PlaceFaceDown and seat != self.current:
            return ("place_face_down", action.board, action.position)
        return action

    def explain(self, action: Action) -> JSON | None:
        from games.clans_and_glory.explain import explain

        return explain(self, action) if self.is_legal(action) else None

    def __repr__(self) -> str:
        return f"ClansState(players={self.num_players}, to_move={self.to_move}, phase={self.phase})"
