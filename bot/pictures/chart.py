"""The score chart: each side's cumulative points after every round, with the result.

Lines differ by colour, by marker shape and by the label at their end, so they read without
telling colours apart.
"""

from __future__ import annotations

from bot.i18n import t
from bot.pictures.canvas import Canvas, Mark
from bot.pictures.fonts import font
from bot.pictures.palette import PLAYER_COLOURS
from bot.pictures.scene import ChartScene

WIDTH, HEIGHT = 720, 400
LEFT, RIGHT, TOP, BOTTOM = 56, 170, 74, 44
MARKERS = ("circle", "square", "triangle", "diamond")


def chart(scene: ChartScene) -> Canvas:
    canvas = Canvas(WIDTH, HEIGHT, scene.theme)
    theme = canvas.theme
    draw = canvas.draw
    locale = scene.locale
    canvas.text((16, 10), scene.title, size=19, bold=True, max_width=WIDTH - 32)
    canvas.text((16, 38), scene.result, size=14, colour=theme.accent, max_width=WIDTH - 32)
    series = []
    for label, column in scene.sides:
        total, points = 0, [0]
        for row in scene.round_scores:
            total += row[column]
            points.append(total)
        series.append((label, column, points))
    rounds = len(scene.round_scores)
    low = min(0, *(min(p) for _, _, p in series)) if series else 0
    high = max(1, *(max(p) for _, _, p in series)) if series else 1
    plot = (LEFT, TOP, WIDTH - RIGHT, HEIGHT - BOTTOM)

    def at(index: int, value: int) -> tuple[int, int]:
        x = plot[0] + (plot[2] - plot[0]) * index // max(1, rounds)
        y = plot[3] - (plot[3] - plot[1]) * (value - low) // max(1, high - low)
        return x, y

    for step in range(5):
        value = low + (high - low) * step // 4
        _, y = at(0, value)
        draw.line((plot[0], y, plot[2], y), fill=theme.line, width=1)
        canvas.text((8, y - 8), str(value), size=12, colour=theme.muted)
    for index in range(rounds + 1):
        x, _ = at(index, low)
        label = str(index) if index else t("pictures.chart.start", locale)
        draw.text((x, plot[3] + 14), label, font=font(12), fill=theme.muted, anchor="mm")
    canvas.text(
        (plot[2] - 60, HEIGHT - 22), t("pictures.chart.round", locale), size=12, colour=theme.muted
    )
    ends = []
    for number, (label, column, points) in enumerate(series):
        colour = PLAYER_COLOURS[column % len(PLAYER_COLOURS)]
        xy = [at(index, value) for index, value in enumerate(points)]
        if len(xy) > 1:
            draw.line(xy, fill=colour, width=3)
        marker = MARKERS[number % len(MARKERS)]
        for x, y in xy:
            canvas.shape(marker, (x - 5, y - 5), 10, colour)
        ends.append((xy[-1][1], label, points[-1], colour, marker, column))
        canvas.marks.append(
            Mark(
                "series",
                (label, tuple(points)),
                (xy[0][0], min(y for _, y in xy), xy[-1][0], max(y for _, y in xy)),
            )
        )
    # Labels at the right, in the order of the lines' ends, kept apart.
    last_y = -100
    for y, label, total, colour, marker, _ in sorted(ends):
        y = max(y, last_y + 20)
        last_y = y
        canvas.shape(marker, (plot[2] + 10, y - 5), 10, colour)
        canvas.text((plot[2] + 26, y - 9), f"{label}: {total}", size=13, max_width=RIGHT - 30)
    return canvas
