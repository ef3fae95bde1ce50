"""The long table: boards in a row, their seats, and which seats are related.

The printed setup diagram was not available, so the geometry is our best reading of the short
rules (see ``docs/rules/clans_and_glory.md``). It lives here, and only here, as plain data built
by three small functions (``_seat_layout``, ``_adjacent_pairs``, ``_opposite_pairs``): if a
printed rulebook disagrees, this is the one place to correct.

Picture (2 players; more players add inner boards in the middle)::

            board 0         board 1         board 2         board 3
          N0  N1  N2  |   N3  N4  N5  |   N6  N7  N8  |   N9 N10 N11
   fire HL            |               |               |              HR fire
          S0  S1  S2  |   S3  S4  S5  |   S6  S7  S8  |   S9 S10 S11

Every board has three columns, each with a north and a south seat; the two outer boards add a
head seat beside the campfire at their end of the row. Seats next to each other in a row are
adjacent, also across the edge between two boards; each head seat is adjacent to both corner
seats of its board. North and south seats of one column are opposite, and the two head seats
count as opposite each other (the campfire rule), so every seat has exactly three related seats.
"""

from __future__ import annotations

import dataclasses
from functools import cache

COLUMNS_PER_BOARD = 3


@dataclasses.dataclass(frozen=True)
class Seat:
    """One card seat; ``column`` is -1 for the left head seat and ``columns`` for the right one,
    so a UI can draw every seat from ``(row, column)`` alone."""

    index: int
    name: str
    board: int
    row: str
    column: int


@dataclasses.dataclass(frozen=True)
class Table:
    """The seat graph for one player count, precomputed once and shared by every state."""

    players: int
    cross_board_adjacency: bool
    board_count: int
    column_count: int
    seats: tuple[Seat, ...]
    board_seats: tuple[tuple[int, ...], ...]
    """Seat indices of each board in display order (head, north row, south row)."""
    adjacent: tuple[tuple[int, ...], ...]
    opposite: tuple[int, ...]
    related: tuple[tuple[int, ...], ...]
    """Adjacent seats plus the opposite seat: where a face-up card must find its match."""
    index_by_name: dict[str, int]

    @property
    def seat_count(self) -> int:
        return len(self.seats)

    def seat(self, name: str) -> int:
        return self.index_by_name[name]

    def board_of(self, seat: int) -> int:
        return self.seats[seat].board

    def is_outer(self, board: int) -> bool:
        return board in (0, self.board_count - 1)


def board_count_for(players: int) -> int:
    """One inner board per player plus the two outer campfire boards."""
    return players + 2


def _seat_layout(board_count: int) -> list[tuple[str, int, str, int]]:
    """(name, board, row, column) of every seat, board by board in display order."""
    columns = board_count * COLUMNS_PER_BOARD
    layout: list[tuple[str, int, str, int]] = []
    for board in range(board_count):
        first = board * COLUMNS_PER_BOARD
        if board == 0:
            layout.append(("hl", board, "head", -1))
        for row, letter in (("north", "n"), ("south", "s")):
            for column in range(first, first + COLUMNS_PER_BOARD):
                layout.append((f"{letter}{column}", board, row, column))
        if board == board_count - 1:
            layout.append(("hr", board, "head", columns))
    return layout


def _adjacent_pairs(columns: int, cross_board_adjacency: bool) -> list[tuple[str, str]]:
    pairs = [("hl", "n0"), ("hl", "s0"), ("hr", f"n{columns - 1}"), ("hr", f"s{columns - 1}")]
    for column in range(columns - 1):
        same_board = column // COLUMNS_PER_BOARD == (column + 1) // COLUMNS_PER_BOARD
        if same_board or cross_board_adjacency:
            pairs.append((f"n{column}", f"n{column + 1}"))
            pairs.append((f"s{column}", f"s{column + 1}"))
    return pairs


def _opposite_pairs(columns: int) -> list[tuple[str, str]]:
    return [("hl", "hr")] + [(f"n{column}", f"s{column}") for column in range(columns)]


@cache
def build_table(players: int, cross_board_adjacency: bool = True) -> Table:
    """The table for ``players``; ``cross_board_adjacency=False`` is the variant in which the end
    seats of a board are not adjacent to the neighbouring board's seats."""
    board_count = board_count_for(players)
    columns = board_count * COLUMNS_PER_BOARD
    seats = tuple(
        Seat(index, name, board, row, column)
        for index, (name, board, row, column) in enumerate(_seat_layout(board_count))
    )
    index_by_name = {seat.name: seat.index for seat in seats}
    adjacent: list[list[int]] = [[] for _ in seats]
    for first, second in _adjacent_pairs(columns, cross_board_adjacency):
        adjacent[index_by_name[first]].append(index_by_name[second])
        adjacent[index_by_name[second]].append(index_by_name[first])
    opposite = [-1] * len(seats)
    for first, second in _opposite_pairs(columns):
        opposite[index_by_name[first]] = index_by_name[second]
        opposite[index_by_name[second]] = index_by_name[first]
    return Table(
        players=players,
        cross_board_adjacency=cross_board_adjacency,
        board_count=board_count,
        column_count=columns,
        seats=seats,
        board_seats=tuple(
            tuple(seat.index for seat in seats if seat.board == board)
            for board in range(board_count)
        ),
        adjacent=tuple(tuple(sorted(near)) for near in adjacent),
        opposite=tuple(opposite),
        related=tuple(
            (*tuple(sorted(near)), opposite[index]) for index, near in enumerate(adjacent)
        ),
        index_by_name=index_by_name,
    )


START_SEAT_RULES: tuple[str, ...] = ("north_middle", "alternating", "random")
"""How the start card of each board is placed; the printed setup plan is unknown."""


def start_seat(table: Table, board: int, rule: str, random_index: int = 0) -> int:
    """The seat of ``board``'s start card: the middle north seat, the middle seat of alternating
    rows (north on even boards, south on odd ones), or the ``random_index``-th seat of the board."""
    middle = board * COLUMNS_PER_BOARD + 1
    if rule == "north_middle":
        return table.seat(f"n{middle}")
    if rule == "alternating":
        return table.seat(f"{'n' if board % 2 == 0 else 's'}{middle}")
    if rule == "random":
        return table.board_seats[board][random_index]
    raise ValueError(f"unknown start seat rule {rule!r}")
