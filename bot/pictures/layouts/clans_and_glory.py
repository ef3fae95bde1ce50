"""Clans and Glory: the boards in a row around the two campfires, each position's card (a
back if face down), the shield stack under each board, and each player's shields and hand."""

from __future__ import annotations

from bot.i18n import t
from bot.pictures.canvas import Canvas, Face, Mark
from bot.pictures.layouts.common import HEADER, MARGIN, SCORES, header, player_badge, score_strip
from bot.pictures.palette import OKABE_ITO
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
CELL_W, CELL_H, GAP = 40, 56, 5
BOARD_GAP = 10
LEGEND_H = 34


def face(colour: str, value: int, locale: str) -> Face:
    return Face(
        str(value),
        "",
        COLOUR_RGB[colour],
        shape=SHAPES[colour],
        letter=t(f"pictures.colour_letter.{colour}", locale),
    )


def _token_face(token: str, locale: str) -> Face:
    colour, _, value = token.rpartition("-")
    return face(colour, int(value), locale)


def table(scene: TableScene) -> Canvas:
    view = scene.view
    locale = scene.locale
    columns = view["columns"]
    boards = view["boards"]
    width = max(720, 2 * MARGIN + (columns + 2) * (CELL_W + GAP) + len(boards) * BOARD_GAP + 20)
    players = view["players"]
    board_top = HEADER + 30
    rows_h = 2 * CELL_H + 3 * GAP
    stack_top = board_top + rows_h + 8
    legend_top = stack_top + 40
    height = legend_top + players * LEGEND_H + SCORES + 16
    canvas = Canvas(width, height, scene.theme, paletted=True)
    header(canvas, scene, "")
    last = {
        (event.get("board"), event.get("position"))
        for event in scene.last_events
        if event.get("type") == "card_placed"
    }
    x = MARGIN
    # The left campfire and its head position, then each board's columns, then the right one.
    for board in boards:
        heads = [p for p in board["positions"] if p["row"] == "head"]
        left_heads = [p for p in heads if p["column"] < 0]
        right_heads = [p for p in heads if p["column"] >= 0]
        board_x = x
        if left_heads:
            _position(
                canvas, scene, board, left_heads[0], (x, board_top + (rows_h - CELL_H) // 2), last
            )
            x += CELL_W + GAP
        cols = sorted({p["column"] for p in board["positions"] if p["row"] != "head"})
        start = x
        for column in cols:
            for row, offset in (("north", 0), ("south", CELL_H + GAP)):
                found = [p for p in board["positions"] if p["row"] == row and p["column"] == column]
                if found:
                    _position(canvas, scene, board, found[0], (x, board_top + GAP + offset), last)
            x += CELL_W + GAP
        if right_heads:
            _position(
                canvas, scene, board, right_heads[0], (x, board_top + (rows_h - CELL_H) // 2), last
            )
            x += CELL_W + GAP
        box = (board_x - 3, board_top - 22, x - 2, board_top + rows_h + 36)
        canvas.marks.append(_board_mark(board["board"], box))
        canvas.rounded(box, 6, outline=canvas.theme.line)
        label = t("pictures.board", locale, number=board["board"] + 1)
        canvas.text((start, board_top - 19), label, size=12, colour=canvas.theme.muted)
        _stack(canvas, board["stack"], start, stack_top + 10)
        x += BOARD_GAP
    _legend(canvas, scene, legend_top)
    score_strip(canvas, scene, height - SCORES - 6)
    return canvas


def _board_mark(board: int, box: tuple[int, int, int, int]) -> Mark:
    return Mark("area", ("board", board), box)


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


def _stack(canvas: Canvas, stack: list[int], x: int, y: int) -> None:
    """The board's shields, first placed on the left."""
    for index, seat in enumerate(stack):
        player_badge(canvas, x + 9 + index * 20, y, seat, radius=9)
        canvas.marks.append(_shield_mark(seat, x + index * 20, y))


def _shield_mark(seat: int, x: int, y: int) -> Mark:
    return Mark("shield", ("shield", seat), (x, y - 9, x + 18, y + 9))


def _legend(canvas: Canvas, scene: TableScene, top: int) -> None:
    view = scene.view
    theme = canvas.theme
    locale = scene.locale
    for seat in range(view["players"]):
        y = top + seat * LEGEND_H
        box = (MARGIN, y, canvas.width - MARGIN, y + LEGEND_H - 4)
        canvas.area(box, ("seat", seat), turn=view["to_move"] == seat and not view["is_over"])
        player_badge(canvas, MARGIN + 16, y + 15, seat)
        canvas.text((MARGIN + 32, y + 6), scene.names[seat], size=15, bold=True, max_width=260)
        facts = " · ".join(
            (
                t("pictures.hand_size", locale, count=view["hand_sizes"][seat]),
                t("pictures.shields_left", locale, count=view["shields_left"][seat]),
            )
        )
        canvas.text(
            (MARGIN + 300, y + 7),
            facts,
            size=13,
            colour=theme.muted,
            max_width=canvas.width - MARGIN - 310,
        )


def hand_groups(scene: HandScene) -> list[tuple[str, Face, int]]:
    """The hand by colour, values rising within each colour."""
    cards = sorted(
        scene.view["hand"] or [], key=lambda card: (COLOURS.index(card["colour"]), card["value"])
    )
    return [(card["card"], _token_face(card["card"], scene.locale), 1) for card in cards]
