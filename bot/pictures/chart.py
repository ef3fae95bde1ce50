"""The score chart (each side's cumulative points after every round, with the result) and a
player's rating trend (``/profile``).

Lines differ by colour, by marker shape and by the label at their end, so they read without
telling colours apart. The value axis steps in round numbers (1, 2 or 5 times a power of ten:
0/50/100/150, not 0/37/75/112), and the chart is as wide as the tables, its texts as large.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from bot.i18n import t
from bot.pictures.canvas import Canvas, Mark
from bot.pictures.fonts import drawable, length
from bot.pictures.palette import PLAYER_COLOURS, RGB
from bot.pictures.phone import LINE, SMALL, WIDTH
from bot.pictures.scene import ChartScene, TrendScene

HEIGHT = 420
MARGIN = 14
TITLE = 22
RESULT = 20
MARKERS = ("circle", "square", "triangle", "diamond")
MARKER = 12
LABEL_ROOM = 190
"""At most this wide, the labels at the lines' ends (a longer name is clipped)."""


def nice_step(span: float, intervals: int = 4) -> float:
    """The smallest round step (1, 2 or 5 times a power of ten) that covers ``span`` in at
    most ``intervals`` steps."""
    if span <= 0:
        return 1.0
    raw = span / intervals
    power = 10.0 ** math.floor(math.log10(raw))
    for multiple in (1, 2, 5, 10):
        if multiple * power >= raw - 1e-9:
            return multiple * power
    return 10 * power


def axis(low: float, high: float, *, whole: bool) -> list[float]:
    """The value axis's ticks: round numbers from at or below ``low`` to at or above
    ``high`` (``whole``: steps of at least 1, for points)."""
    step = nice_step(high - low)
    if whole:
        step = max(1.0, step)
    first = math.floor(low / step + 1e-9) * step
    last = math.ceil(high / step - 1e-9) * step
    count = round((last - first) / step)
    return [first + index * step for index in range(count + 1)]


def tick_label(value: float, ticks: Sequence[float]) -> str:
    step = ticks[1] - ticks[0] if len(ticks) > 1 else 1.0
    if step >= 1 and float(value).is_integer():
        return str(int(value))
    decimals = max(0, -math.floor(math.log10(step)))
    return f"{value:.{decimals}f}"


def _heading(canvas: Canvas, title: str, result: str) -> int:
    """The title and the result in lines as wide as the chart; returns where they end."""
    lines = canvas.lines((MARGIN, 10), title, canvas.width - 2 * MARGIN, size=TITLE, bold=True)
    y = 10 + lines * (TITLE + 5) + 2
    if result:
        lines = canvas.lines(
            (MARGIN, y), result, canvas.width - 2 * MARGIN, size=RESULT, colour=canvas.theme.accent
        )
        y += lines * (RESULT + 5)
    return y + 22


def _plot(
    canvas: Canvas,
    top: int,
    ticks: Sequence[float],
    positions: int,
    labels: Sequence[str],
    x_title: str,
    right: int,
) -> tuple[int, int, int, int]:
    """The grid with its value ticks on the left and ``labels`` under ``positions`` points;
    returns the plot's box."""
    theme = canvas.theme
    tick_texts = [tick_label(value, ticks) for value in ticks]
    left = MARGIN + max(length(text, SMALL, False) for text in tick_texts) + 8
    bottom = canvas.height - MARGIN - LINE - (LINE if x_title else 0) - 8
    box = (left, top, right, bottom)
    low, high = ticks[0], ticks[-1]
    for value, text in zip(ticks, tick_texts, strict=True):
        y = round(bottom - (bottom - top) * (value - low) / (high - low))
        canvas.line(((left, y), (right, y)), theme.line)
        canvas.text(
            (left - 8 - length(text, SMALL, False), y - SMALL // 2 - 2), text, colour=theme.muted
        )
    every = max(1, math.ceil(positions / 8))
    for index in range(positions):
        if index % every and index != positions - 1:
            continue
        x = left + (right - left) * index // max(1, positions - 1)
        canvas.centred(x, bottom + 10 + SMALL // 2, labels[index], SMALL, theme.muted)
    if x_title:
        width = length(drawable(x_title), SMALL, False)
        canvas.text((right - width, bottom + 12 + LINE), x_title, colour=theme.muted)
    return box


def _at(
    box: tuple[int, int, int, int], ticks: Sequence[float], positions: int
) -> Callable[[int, float], tuple[int, int]]:
    left, top, right, bottom = box
    low, high = ticks[0], ticks[-1]

    def at(index: int, value: float) -> tuple[int, int]:
        x = left + (right - left) * index // max(1, positions - 1)
        y = round(bottom - (bottom - top) * (value - low) / (high - low))
        return x, y

    return at


def _end_labels(
    canvas: Canvas, ends: list[tuple[int, str, str, RGB, str]], x: int, top: int, bottom: int
) -> None:
    """Each line's label (its name and its last value) at its end's height, kept apart and
    within the plot; a long name is clipped, never the value."""
    room = canvas.width - MARGIN - x - 2 * MARKER
    ends = sorted(ends)
    step = LINE + 2
    ys: list[int] = []
    for y, *_ in ends:
        ys.append(max(y, ys[-1] + step) if ys else y)
    overflow = (ys[-1] + SMALL // 2) - bottom if ys else 0
    if overflow > 0:
        ys = [max(top, y - overflow) for y in ys]
        for index in range(1, len(ys)):
            ys[index] = max(ys[index], ys[index - 1] + step)
    for y, (_, name, value, colour, marker) in zip(ys, ends, strict=True):
        left = x + MARKER + 4
        canvas.shape(marker, (left, y - MARKER // 2), MARKER, colour)
        left += MARKER + 6
        tail = f": {value}"
        shown = canvas.text(
            (left, y - SMALL // 2 - 2),
            name,
            max_width=room - MARKER - length(tail, SMALL, False),
            role="player",
        )
        canvas.text((left + shown, y - SMALL // 2 - 2), tail)


def _label_room(texts: Sequence[str]) -> int:
    return min(LABEL_ROOM, max(length(drawable(text), SMALL, False) for text in texts))


Line = tuple[str, Sequence[float], str, RGB]
"""A line to draw: its label, its points, its last value as written, its colour."""


def _graph(
    canvas: Canvas,
    top: int,
    lines: Sequence[Line],
    ticks: Sequence[float],
    labels: Sequence[str],
    x_title: str,
) -> Canvas:
    """The plot with ``lines`` (each marked with its own shape and labelled at its end)."""
    positions = len(labels)
    texts = [f"{label}: {value}" for label, _, value, _ in lines]
    right = WIDTH - MARGIN - 2 * MARKER - 16 - _label_room(texts or ["0"])
    box = _plot(canvas, top, ticks, positions, labels, x_title, right)
    at = _at(box, ticks, positions)
    ends = []
    for number, (label, points, value, colour) in enumerate(lines):
        marker = MARKERS[number % len(MARKERS)]
        xy = [at(index, point) for index, point in enumerate(points)]
        if len(xy) > 1:
            canvas.draw.line(xy, fill=colour, width=3)
        for x, y in xy:
            canvas.shape(marker, (x - MARKER // 2, y - MARKER // 2), MARKER, colour)
        ends.append((xy[-1][1], label, value, colour, marker))
        canvas.marks.append(
            Mark(
                "series",
                (label, tuple(points)),
                (xy[0][0], min(y for _, y in xy), xy[-1][0], max(y for _, y in xy)),
            )
        )
    _end_labels(canvas, ends, box[2], box[1], box[3])
    canvas.marks.append(Mark("axis", tuple(ticks), box))
    return canvas


def chart(scene: ChartScene) -> Canvas:
    canvas = Canvas(WIDTH, HEIGHT, scene.theme)
    locale = scene.locale
    top = _heading(canvas, scene.title, scene.result)
    lines: list[Line] = []
    for label, column in scene.sides:
        total, points = 0, [0]
        for row in scene.round_scores:
            total += row[column]
            points.append(total)
        colour = PLAYER_COLOURS[column % len(PLAYER_COLOURS)]
        lines.append((label, points, str(points[-1]), colour))
    values = [value for _, points, _, _ in lines for value in points] or [0]
    ticks = axis(min(0, *values), max(1, *values), whole=True)
    if scene.rounds:
        rounds = range(1, len(scene.round_scores) + 1)
        labels = [t("pictures.chart.start", locale), *(str(number) for number in rounds)]
        x_title = t("pictures.chart.round", locale)
    else:
        labels = [t("pictures.chart.start", locale), t("pictures.chart.end", locale)]
        x_title = ""
    return _graph(canvas, top, lines, ticks, labels, x_title)


def trend(scene: TrendScene) -> Canvas:
    """One line per game: the rating after each of the player's recent games in it."""
    canvas = Canvas(WIDTH, HEIGHT, scene.theme)
    top = _heading(canvas, scene.title, "")
    values = [value for _, points in scene.series for value in points] or [0.0]
    low, high = min(values), max(values)
    if high - low < 1:
        low, high = low - 0.5, high + 0.5
    ticks = axis(low, high, whole=False)
    positions = max((len(points) for _, points in scene.series), default=1)
    lines: list[Line] = [
        (label, points, f"{points[-1]:.1f}", PLAYER_COLOURS[number % len(PLAYER_COLOURS)])
        for number, (label, points) in enumerate(scene.series)
    ]
    labels = [str(index + 1) for index in range(positions)]
    return _graph(canvas, top, lines, ticks, labels, t("pictures.trend.games", scene.locale))
