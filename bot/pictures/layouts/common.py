"""Parts every table shares: the header (game, round, whose turn), the totals along the
bottom, the players' badges, and placing things in rows that wrap.

All sizes are for the phone (``bot/pictures/phone.py``): tables are ``WIDTH`` pixels wide and
no text is smaller than ``SMALL``.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Sequence

from bot.i18n import LOCALES, t
from bot.pictures.canvas import CARD_BAND, NAME_PADDING, Canvas, Mark, clipped, name_lines, wrapped
from bot.pictures.fonts import drawable, length
from bot.pictures.palette import PLAYER_COLOURS
from bot.pictures.phone import BODY, LINE, SMALL, TITLE, WIDTH
from bot.pictures.scene import TableScene, card_name

MARGIN = 12
GAP = 8
BADGE = 13
"""A player badge's radius (its number is ``SMALL``, bold)."""
STATUS_LINE = BODY + 5
STATUS_LINES = 3
"""The status takes up to three lines (two unless a player's name is very long)."""
TOTAL_LINE = 30
SEATING = {2: ((0, 1),), 3: ((0, 1), (2,)), 4: ((0, 1), (3, 2))}
"""The players' panels in rows, clockwise round the table: four players' partners (seats 0
and 2, 1 and 3) sit opposite each other across the middle, and a third player's panel fills
the bottom row (no empty quarter)."""
TOTAL_NAME = 220
"""A name in the totals is clipped to this width: its points always show."""


def header_height(scene: TableScene, subtitle: str, width: int = WIDTH) -> int:
    """How tall ``header`` is: the game and ``subtitle`` on one line (two if they do not fit),
    the status on one or two."""
    return _title_lines(scene, subtitle, width) * (TITLE + 6) + 8 + _status_height(scene, width)


def _title_lines(scene: TableScene, subtitle: str, width: int) -> int:
    game = t(f"{scene.game_key}.name", scene.locale)
    room = width - 2 * MARGIN - length(game, TITLE, True) - 12
    return 1 if not subtitle or length(drawable(subtitle), SMALL, False) <= room else 2


def _status_height(scene: TableScene, width: int) -> int:
    shown = wrapped(drawable(scene.status), BODY, False, width - 2 * MARGIN, STATUS_LINES)
    return len(shown) * STATUS_LINE + 6


def header(canvas: Canvas, scene: TableScene, subtitle: str) -> int:
    """Game name and ``subtitle`` on top, the status (whose turn, the result) below; returns
    where the header ends."""
    theme = canvas.theme
    game = t(f"{scene.game_key}.name", scene.locale)
    width = canvas.text((MARGIN, 8), game, size=TITLE, bold=True)
    y = 8
    if subtitle:
        if _title_lines(scene, subtitle, canvas.width) == 1:
            canvas.text((MARGIN + width + 12, y + 7), subtitle, colour=theme.muted)
        else:
            y += TITLE + 6
            canvas.text((MARGIN, y), subtitle, colour=theme.muted, max_width=canvas.width - 24)
    y += TITLE + 10
    lines = canvas.lines(
        (MARGIN, y),
        scene.status,
        canvas.width - 2 * MARGIN,
        size=BODY,
        colour=theme.accent,
        most=STATUS_LINES,
    )
    canvas.marks.append(Mark("text", "status", (MARGIN, y, canvas.width - MARGIN, y + 2 * BODY)))
    return y + lines * STATUS_LINE + 6


def player_badge(canvas: Canvas, x: int, y: int, seat: int, radius: int = BADGE) -> None:
    """The seat's badge (its colour and number) centred at ``(x, y)``."""
    canvas.badge((x, y), radius, PLAYER_COLOURS[seat % len(PLAYER_COLOURS)], str(seat + 1))


def _sides(scene: TableScene) -> Sequence[tuple[str, int]]:
    return scene.score_labels or [(name, seat) for seat, name in enumerate(scene.names)]


def _total_items(scene: TableScene) -> list[tuple[int, str, int]]:
    """Each side's badge seat, its text and that text's width."""
    items = []
    for label, column in _sides(scene):
        bold = column in scene.view["winners"]
        name = clipped(drawable(label), SMALL, bold, TOTAL_NAME)
        text = plain_score(name, scene.view["scores"][column], scene.locale)
        items.append((column, text, length(text, SMALL, bold)))
    return items


def _total_rows(scene: TableScene, width: int) -> list[list[tuple[int, str, int]]]:
    heading = length(t("scores.total", scene.locale), SMALL, True) + 12
    rows: list[list[tuple[int, str, int]]] = [[]]
    x = MARGIN + heading
    for item in _total_items(scene):
        needed = 2 * BADGE + 6 + item[2] + 18
        if rows[-1] and x + needed > width - MARGIN:
            rows.append([])
            x = MARGIN + heading
        rows[-1].append(item)
        x += needed
    return rows


def totals_height(scene: TableScene, width: int = WIDTH) -> int:
    return len(_total_rows(scene, width)) * TOTAL_LINE + 14


def totals(canvas: Canvas, scene: TableScene, top: int) -> None:
    """Each side's total, after "Total", in as many lines as they need, along the bottom."""
    theme = canvas.theme
    view = scene.view
    canvas.line(((MARGIN, top), (canvas.width - MARGIN, top)), theme.line)
    heading = canvas.text(
        (MARGIN, top + 10), t("scores.total", scene.locale), colour=theme.muted, bold=True
    )
    y = top + 10
    for row in _total_rows(scene, canvas.width):
        x = MARGIN + heading + 12
        for column, text, width in row:
            winner = column in view["winners"]
            player_badge(canvas, x + BADGE, y + SMALL // 2 + 1, column)
            canvas.text(
                (x + 2 * BADGE + 6, y),
                text,
                bold=winner,
                colour=theme.accent if winner else theme.text,
                role="player",
            )
            x += 2 * BADGE + 6 + width + 18
        y += TOTAL_LINE


def plain_score(name: str, points: int, locale: str) -> str:
    return t("table.score", locale, name=name, count=points)


def flow(
    widths: Sequence[int], left: int, right: int, gap: int = GAP, keep: Collection[int] = ()
) -> list[tuple[int, int]]:
    """Where things ``widths`` wide go in rows from ``left`` to ``right``: ``(x, row)`` each,
    a new row where the next would not fit. An index in ``keep`` (a label) stays on the row
    of the thing after it."""
    placed = []
    x, row = left, 0
    for index, width in enumerate(widths):
        needed = width
        if index in keep and index + 1 < len(widths):
            needed += gap + widths[index + 1]
        if x > left and x + needed > right:
            x, row = left, row + 1
        placed.append((x, row))
        x += width + gap
    return placed


@functools.cache
def named_card(keys: tuple[str, ...], locale: str) -> tuple[int, int]:
    """The size of a card that shows its name whole: as wide as the longest word of the cards
    ``keys`` needs in any language (so the layout is the same in every language), as tall as
    the longest name needs in ``locale`` at that width (one line or two)."""
    width, _ = name_lines([card_name(key, other) for key in keys for other in LOCALES])
    lines = max(
        len(wrapped(card_name(key, locale), SMALL, False, width - 2 * NAME_PADDING)) for key in keys
    )
    return width, 3 + CARD_BAND + 4 + lines * LINE + 6


PAD = 12
"""Inside a panel."""


@functools.lru_cache(maxsize=2048)
def fact_lines(parts: tuple[str, ...], width: int) -> tuple[str, ...]:
    """``parts`` joined by " · " in lines of at most ``width`` pixels, broken between parts
    (cached: the same facts come back in every picture)."""
    lines: list[str] = []
    for part in (drawable(part) for part in parts):
        if lines and length(f"{lines[-1]} · {part}", SMALL, False) <= width:
            lines[-1] = f"{lines[-1]} · {part}"
        else:
            lines.append(part)
    return tuple(lines)


@functools.lru_cache(maxsize=2048)
def _head_layout(name: str, facts: tuple[str, ...], width: int) -> tuple[int, tuple[str, ...]]:
    """The name's width in a panel ``width`` wide and the facts' lines below it (none when
    they fit beside the name, in one line)."""
    room = width - 2 * PAD - 2 * BADGE - 8
    name_w = min(length(drawable(name), BODY, True), room)
    beside = fact_lines(facts, room - name_w - 12)
    if len(beside) <= 1 and length(beside[0] if beside else "", SMALL, False) <= room - name_w - 12:
        return name_w, ()
    return name_w, fact_lines(facts, width - 2 * PAD)


def seat_head_height(scene: TableScene, seat: int, width: int, facts: Sequence[str]) -> int:
    """How tall ``seat_head`` is in a panel ``width`` wide."""
    _, below = _head_layout(scene.names[seat], tuple(facts), width)
    return PAD + 2 * BADGE + len(below) * (LINE + 2) + 6


def seat_head(
    canvas: Canvas, scene: TableScene, seat: int, box: tuple[int, ...], facts: Sequence[str]
) -> int:
    """A panel's first line: the seat's badge, the player's name and ``facts`` (beside the
    name if they fit, else in lines below it); returns where the head ends."""
    x0, y0, x1 = box[0], box[1], box[2]
    player_badge(canvas, x0 + PAD + BADGE, y0 + PAD + BADGE, seat)
    name_x = x0 + PAD + 2 * BADGE + 8
    name_w, below = _head_layout(scene.names[seat], tuple(facts), x1 - x0)
    canvas.text(
        (name_x, y0 + PAD + 1),
        scene.names[seat],
        size=BODY,
        bold=True,
        max_width=name_w,
        role="player",
    )
    muted = canvas.theme.muted
    if not below:
        canvas.text((name_x + name_w + 12, y0 + PAD + 3), " · ".join(facts), colour=muted)
    for number, line in enumerate(below):
        y = y0 + PAD + 2 * BADGE + 2 + number * (LINE + 2)
        canvas.text((x0 + PAD, y), line, colour=muted, max_width=x1 - x0 - 2 * PAD)
    return y0 + seat_head_height(scene, seat, x1 - x0, facts)
