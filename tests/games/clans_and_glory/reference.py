"""An independent reference model of the spec (§3.2 seat relation, §5 placement, §7 scoring),
written straight from the spec's formulas over the saved-state JSON, for property tests to
compare the engine against. It is deliberately naive: clarity over speed."""

from __future__ import annotations

from collections import defaultdict


def related_seats(players: int, cross_board_adjacency: bool = True) -> dict[str, set[str]]:
    columns = 3 * (players + 2)
    related: dict[str, set[str]] = defaultdict(set)

    def link(first: str, second: str) -> None:
        related[first].add(second)
        related[second].add(first)

    for column in range(columns - 1):
        if cross_board_adjacency or column // 3 == (column + 1) // 3:
            link(f"n{column}", f"n{column + 1}")
            link(f"s{column}", f"s{column + 1}")
    for head, column in (("hl", 0), ("hr", columns - 1)):
        link(head, f"n{column}")
        link(head, f"s{column}")
    for column in range(columns):
        link(f"n{column}", f"s{column}")
    link("hl", "hr")
    return dict(related)


def board_of(seat: str, players: int) -> int:
    if seat in ("hl", "hr"):
        return 0 if seat == "hl" else players + 1
    return int(seat[1:]) // 3


def matches(card: str, other: str) -> bool:
    colour, value = card.split("-")
    other_colour, other_value = other.split("-")
    return colour == other_colour or value == other_value


def placements(data: dict) -> tuple[str, set[tuple[str, int, str]]]:
    """The kind of the legal placements and every legal (card, board, seat) for the player to
    move."""
    players = data["players"]
    related = related_seats(players, data["options"]["cross_board_adjacency"])
    taken = data["positions"]
    hand = data["hands"][data["current"]]
    free = [seat for seat in related if seat not in taken]

    def fits(card: str, seat: str) -> bool:
        return any(
            near in taken and not taken[near]["face_down"] and matches(card, taken[near]["card"])
            for near in related[seat]
        )

    face_up = {(c, board_of(s, players), s) for c in hand for s in free if fits(c, s)}
    if face_up:
        return "place", face_up
    return "place_face_down", {(c, board_of(s, players), s) for c in hand for s in free}


def fitting_anywhere(data: dict, deck: list[str]) -> set[str]:
    """The cards of ``deck`` that some free seat would take face up: when a player places face
    down, none of these can be in their hand (the spec's "could not follow")."""
    players = data["players"]
    related = related_seats(players, data["options"]["cross_board_adjacency"])
    taken = data["positions"]
    return {
        card
        for card in deck
        for seat in related
        if seat not in taken
        and any(
            near in taken and not taken[near]["face_down"] and matches(card, taken[near]["card"])
            for near in related[seat]
        )
    }


def final_scores(data: dict) -> tuple[list[int], list[int]]:
    """Points and cards per player from the final table, by the spec's pseudocode."""
    players = data["players"]
    points, cards = [0] * players, [0] * players
    for board, stack in enumerate(data["stacks"]):
        values = [
            int(content["card"].split("-")[1])
            for seat, content in data["positions"].items()
            if board_of(seat, players) == board and not content["face_down"]
        ]
        distinct = sorted(set(values))
        for index, owner in enumerate(stack):
            if index < len(distinct):
                points[owner] += distinct[index] * values.count(distinct[index])
                cards[owner] += values.count(distinct[index])
    return points, cards
