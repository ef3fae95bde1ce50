"""The seat graph against the spec's §3: counts, the full 2-player relation table, the campfire
rule and the variant without adjacency across board edges."""

import pytest

from games.clans_and_glory.table import build_table, start_seat

# The spec's full adjacency table for 2 players, copied as data: seat, board, adjacent, opposite.
SPEC_TWO_PLAYER_TABLE = """
HL 0 N0,S0 HR
N0 0 HL,N1 S0
N1 0 N0,N2 S1
N2 0 N1,N3 S2
N3 1 N2,N4 S3
N4 1 N3,N5 S4
N5 1 N4,N6 S5
N6 2 N5,N7 S6
N7 2 N6,N8 S7
N8 2 N7,N9 S8
N9 3 N8,N10 S9
N10 3 N9,N11 S10
N11 3 N10,HR S11
S0 0 HL,S1 N0
S1 0 S0,S2 N1
S2 0 S1,S3 N2
S3 1 S2,S4 N3
S4 1 S3,S5 N4
S5 1 S4,S6 N5
S6 2 S5,S7 N6
S7 2 S6,S8 N7
S8 2 S7,S9 N8
S9 3 S8,S10 N9
S10 3 S9,S11 N10
S11 3 S10,HR N11
HR 3 N11,S11 HL
"""


def names(table, seats):
    return {table.seats[seat].name.upper() for seat in seats}


def test_two_player_table_matches_the_spec_adjacency_table_row_by_row():
    table = build_table(2)
    rows = [line.split() for line in SPEC_TWO_PLAYER_TABLE.strip().splitlines()]
    assert len(rows) == table.seat_count == 26
    for name, board, adjacent, opposite in rows:
        seat = table.seat(name.lower())
        assert table.board_of(seat) == int(board), name
        assert names(table, table.adjacent[seat]) == set(adjacent.split(",")), name
        assert table.seats[table.opposite[seat]].name.upper() == opposite, name


@pytest.mark.parametrize(
    ("players", "boards", "columns", "seats", "per_board"),
    [
        (2, 4, 12, 26, [7, 6, 6, 7]),
        (3, 5, 15, 32, [7, 6, 6, 6, 7]),
        (4, 6, 18, 38, [7, 6, 6, 6, 6, 7]),
    ],
)
def test_boards_are_players_plus_two_with_seven_seats_on_the_outer_ones(
    players, boards, columns, seats, per_board
):
    table = build_table(players)
    assert table.board_count == boards
    assert table.column_count == columns
    assert table.seat_count == seats
    assert [len(board) for board in table.board_seats] == per_board
    assert [table.is_outer(b) for b in range(boards)] == [True] + [False] * players + [True]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_seat_has_two_adjacent_seats_and_one_opposite_seat(players):
    table = build_table(players)
    for seat in range(table.seat_count):
        assert len(set(table.adjacent[seat])) == 2
        assert table.opposite[table.opposite[seat]] == seat != table.opposite[seat]
        assert set(table.related[seat]) == set(table.adjacent[seat]) | {table.opposite[seat]}
        for near in table.adjacent[seat]:
            assert seat in table.adjacent[near]


def test_campfire_head_seats_count_as_opposite_each_other():
    table = build_table(4)
    assert table.opposite[table.seat("hl")] == table.seat("hr")
    assert names(table, table.adjacent[table.seat("hr")]) == {"N17", "S17"}
    assert table.board_of(table.seat("hl")) == 0 and table.board_of(table.seat("hr")) == 5


def test_diagonal_seats_and_seats_two_apart_are_not_related():
    table = build_table(4)
    related = names(table, table.related[table.seat("n1")])
    assert related == {"N0", "N2", "S1"}
    assert not {"S0", "S2", "N3"} & related


def test_seat_relation_forms_one_cycle_with_chords_between_opposite_seats():
    table = build_table(3)
    start = table.seat("hl")
    seen, previous, seat = [start], start, table.adjacent[start][0]
    while seat != start:
        seen.append(seat)
        previous, seat = seat, next(n for n in table.adjacent[seat] if n != previous)
    assert sorted(seen) == list(range(table.seat_count))


def test_without_cross_board_adjacency_board_edge_seats_lose_their_outer_neighbour():
    table = build_table(2, cross_board_adjacency=False)
    assert names(table, table.adjacent[table.seat("n2")]) == {"N1"}
    assert names(table, table.adjacent[table.seat("s3")]) == {"S4"}
    assert names(table, table.adjacent[table.seat("hl")]) == {"N0", "S0"}
    assert table.opposite[table.seat("hl")] == table.seat("hr")


def test_start_seat_rules_place_one_card_on_each_board():
    table = build_table(4)
    north = [table.seats[start_seat(table, b, "north_middle")].name for b in range(6)]
    assert north == ["n1", "n4", "n7", "n10", "n13", "n16"]
    alternating = [table.seats[start_seat(table, b, "alternating")].name for b in range(6)]
    assert alternating == ["n1", "s4", "n7", "s10", "n13", "s16"]
    for board in range(6):
        for spot in range(len(table.board_seats[board])):
            assert table.board_of(start_seat(table, board, "random", spot)) == board
