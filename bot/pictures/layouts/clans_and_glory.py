"""Clans and Glory: the boards between the two campfires, in two rows (the left campfire's
head position before the first board, the right one's after the last), each position's card
(a back if face down), the shield stack under each board, and a panel per player with their
hand and shields left.

The boards of a row of three and a head position are as wide as a phone shows a picture;
read in order, row after row, they are the line of boards the game lays out.
"""

from __future__ import annotations

from bot.i18n import t
from bot.pictures.canvas import Canvas, Face, Mark
from bot.pictures.layouts.common import (
    BADGE,
    GAP,
    MARGIN,
    SEATING,
    header,
    header_height,
    player_badge,
    seat_head,
    seat_head_height,
    totals,
    totals_height,
)
from bot.pictures.palette import OKABE_ITO
from bot.pictures.phone import LINE, WIDTH
from bot.pictures.scene import HandScene, TableScene

COLOURS = ("red", "blue", "green", "yellow", "purple", "orange", "black")
COLOUR_RGB = {
    "red": OKABE_ITO[5],
    "blue": OKABE_ITO[4],
    "green": OKABE_ITO[2],
    "yellow": OKABE_ITO[3],
    "purple": OKABE_ITO[6],
    "orange": OKABE_ITO[0],
    "black": (34, 34, 38),
}
SHAPES = {
    "red": "circle",
    "blue": "square",
    "green": "triangle",
    "yellow": "diamond",
    "purple": "star",
    "orange": "hexagon",
    "black": "cross",
}
CELL_W, CELL_H, CELL_GAP = 48, 68, 4
BOARD_PAD = 6
STACK_H = 2 * BADGE + 8


def face(colour: str, value: int, locale: str) -> Face:
    return Face(
        str(value),
        "",
        COLOUR_RGB[colour],
        shape=SHAPES[colour],
        letter=t(f"pictures.colour_letter.{colour}", locale),
    )


def card_size(locale: str) -> tuple[int, int]:
    """A card in the hand (its colour's shape and letter say its colour: no name)."""
    return 56, 76


def _token_face(token: str, locale: str) -> Face:
    colour, _, value = token.rpartition("-")
    return face(colour, int(value), locale)


def _board_rows(boards: list) -> list[list]:
    """The boards in two rows (the first the longer), or one if they are few."""
    first = -(-len(boards) // 2) if len(boards) > 3 else len(boards)
    return [row for row in (boards[:first], boards[first:]) if row]


def _columns(board: dict) -> list[int]:
    return sorted({p["column"] for p in board["positions"] if p["row"] != "head"})


def _board_width(board: dict) -> int:
    return len(_columns(board)) * (CELL_W + CELL_GAP) - CELL_GAP + 2 * BOARD_PAD


def _heads(board: dict, left: bool) -> list[dict]:
    return [p for p in board["positions"] if p["row"] == "head" and (p["column"] < 0) == left]


def _row_width(row: list) -> int:
    width = sum(_board_width(board) + GAP for board in row) - GAP
    for board in row:
        width += (CELL_W + GAP) * (bool(_heads(board, True)) + bool(_heads(board, False)))
    return width


def _panel_rows(scene: TableScene) -> list[tuple[tuple[int, ...], int, int]]:
    """The players' panels: each row's seats, its panels' width and height."""
    inner = WIDTH - 2 * MARGIN
    rows = []
    for row in SEATING[scene.view["players"]]:
        panel_w = (inner - GAP * (len(row) - 1)) // len(row)
        height = max(seat_head_height(scene, seat, panel_w, _facts(scene, seat)) for seat in row)
        rows.append((row, panel_w, height))
    return rows


def table(scene: TableScene) -> Canvas:
    view = scene.view
    board_rows = _board_rows(view["boards"])
    board_h = LINE + 4 + 2 * CELL_H + CELL_GAP + 2 * BOARD_PAD + STACK_H
    panels = _panel_rows(scene)
    top = header_height(scene, "")
    height = (
        top
        + len(board_rows) * (board_h + GAP)
        + sum(h + GAP for _, _, h in panels)
        + totals_height(scene)
        + 6
    )
    canvas = Canvas(WIDTH, height, scene.theme, paletted=True)
    header(canvas, scene, "")
    last = {
        (event.get("board"), event.get("position"))
        for event in scene.last_events
        if event.get("type") == "card_placed"
    }
    y = top
    for row in board_rows:
        x = (WIDTH - _row_width(row)) // 2
        for board in row:
            x = _board(canvas, scene, board, x, y, last) + GAP
        y += board_h + GAP
    for seats, panel_w, panel_h in panels:
        for index, seat in enumerate(seats):
            x = MARGIN + index * (panel_w + GAP)
            box = (x, y, x + panel_w, y + panel_h)
            canvas.area(box, ("seat", seat), turn=view["to_move"] == seat and not view["is_over"])
            seat_head(canvas, scene, seat, box, _facts(scene, seat))
        y += panel_h + GAP
    totals(canvas, scene, y)
    return canvas


def _board(canvas: Canvas, scene: TableScene, board: dict, x: int, y: int, last: set) -> int:
    """One board (with its campfire's head position, for an outer board) from ``x``; returns
    where it ends."""
    cells_top = y + LINE + 4 + BOARD_PAD
    middle = cells_top + (2 * CELL_H + CELL_GAP - CELL_H) // 2
    for head in _heads(board, True):
        _position(canvas, scene, board, head, (x, middle), last)
        x += CELL_W + GAP
    start = x
    x += BOARD_PAD
    for column in _columns(board):
        for row, offset in (("north", 0), ("south", CELL_H + CELL_GAP)):
            found = [p for p in board["positions"] if p["row"] == row and p["column"] == column]
            if found:
                _position(canvas, scene, board, found[0], (x, cells_top + offset), last)
        x += CELL_W + CELL_GAP
    end = x - CELL_GAP + BOARD_PAD
    bottom = cells_top + 2 * CELL_H + CELL_GAP + BOARD_PAD + STACK_H
    box = (start, y, end, bottom)
    canvas.marks.append(Mark("area", ("board", board["board"]), box))
    canvas.rounded((start, y + LINE + 4, end, bottom), 6, outline=canvas.theme.line)
    label = t("pictures.board", scene.locale, number=board["board"] + 1)
    canvas.text((start + 2, y), label, colour=canvas.theme.muted, max_width=end - start)
    _stack(canvas, board["stack"], start + BOARD_PAD, end - BOARD_PAD, bottom - STACK_H // 2 - 2)
    x = end
    for head in _heads(board, False):
        x += GAP
        _position(canvas, scene, board, head, (x, middle), last)
        x += CELL_W
    return x


def _position(
    canvas: Canvas, scene: TableScene, board: dict, position: dict, at: tuple[int, int], last: set
) -> None:
    x, y = at
    box = (x, y, x + CELL_W, y + CELL_H)
    emphasis = "last" if (board["board"], position["position"]) in last else ""
    tag = ("position", position["position"])
    if not position["occupied"]:
        label = t(
            f"clans_and_glory.position.{position['position'].rstrip('0123456789')}",
            scene.locale,
            column=_column(position),
        )
        canvas.slot(box, label, tag)
    elif position["card"] is None:
        canvas.back(box, tag, emphasis=emphasis)
    else:
        canvas.card(
            box,
            face(position["colour"], position["value"], scene.locale),
            (*tag, position["card"]),
            emphasis=emphasis,
        )


def _column(position: dict) -> int:
    digits = "".join(ch for ch in position["position"] if ch.isdigit())
    return int(digits) + 1 if digits else 0


def _stack(canvas: Canvas, stack: list[int], left: int, right: int, y: int) -> None:
    """The board's shields, first placed on the left (closer together when there are many;
    each badge's number stays clear of the next)."""
    step = 2 * BADGE + 2
    if len(stack) > 1:
        step = min(step, (right - left - 2 * BADGE) // (len(stack) - 1))
    for index, seat in enumerate(stack):
        x = left + BADGE + index * step
        player_badge(canvas, x, y, seat)
        canvas.marks.append(
            Mark("shield", ("shield", seat), (x - BADGE, y - BADGE, x + BADGE, y + BADGE))
        )


def _facts(scene: TableScene, seat: int) -> list[str]:
    view = scene.view
    locale = scene.locale
    return [
        t("pictures.hand_size", locale, count=view["hand_sizes"][seat]),
        t("pictures.shields_left", locale, count=view["shields_left"][seat]),
    ]


def hand_groups(scene: HandScene) -> list[tuple[str, Face, int]]:
    """The hand by colour, values rising within each colour."""
    cards = sorted(
        scene.view["hand"] or [], key=lambda card: (COLOURS.index(card["colour"]), card["value"])
    )
    return [(card["card"], _token_face(card["card"], scene.locale), 1) for card in cards]
