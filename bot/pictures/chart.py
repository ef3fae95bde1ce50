"""The score chart (each side's cumulative points after every round, with the result) and a
player's rating trend (``/profile``).

Lines differ by colour, by marker shape and by the label at their end, so they read without
telling colours apart.
"""

from __future__ import annotations

from bot.i18n import t
from bot.pictures.canvas import Canvas, Mark
from bot.pictures.fonts import font
from bot.pictures.palette import PLAYER_COLOURS
from bot.pictures.scene import ChartScene, TrendScene

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


def trend(scene: TrendScene) -> Canvas:
    """One line per game: the rating after each of the player's recent games in it."""
    canvas = Canvas(WIDTH, HEIGHT, scene.theme)
    theme = canvas.theme
    draw = canvas.draw
    canvas.text((16, 10), scene.title, size=19, bold=True, max_width=WIDTH - 32)
    values = [value for _, points in scene.series for value in points]
    low, high = min(values, default=0.0), max(values, default=1.0)
    if high - low < 1:
        low, high = low - 0.5, high + 0.5
    longest = max((len(points) for _, points in scene.series), default=1)
    plot = (LEFT, TOP - 24, WIDTH - RIGHT, HEIGHT - BOTTOM)

    def at(index: int, value: float) -> tuple[float, float]:
        x = plot[0] + (plot[2] - plot[0]) * index / max(1, longest - 1)
        y = plot[3] - (plot[3] - plot[1]) * (value - low) / (high - low)
        return x, y

    for step in range(5):
        value = low + (high - low) * step / 4
        _, y = at(0, value)
        draw.line((plot[0], y, plot[2], y), fill=theme.line, width=1)
        canvas.text((8, int(y) - 8), f"{value:.1f}", size=12, colour=theme.muted)
    canvas.text(
        (plot[2] - 60, HEIGHT - 22),
        t("pictures.trend.games", scene.locale),
        size=12,
        colour=theme.muted,
    )
    last_y = -100.0
    for number, (label, points) in enumerate(scene.series):
        colour = PLAYER_COLOURS[number % len(PLAYER_COLOURS)]
        marker = MARKERS[number % len(MARKERS)]
        xy = [at(index, value) for index, value in enumerate(points)]
        if len(xy) > 1:
            draw.line(xy, fill=colour, width=3)
        for x, y in xy:
            canvas.shape(marker, (int(x) - 5, int(y) - 5), 10, colour)
        canvas.marks.append(
            Mark(
                "series",
                (label, tuple(points)),
                (
                    int(xy[0][0]),
                    int(min(y for _, y in xy)),
                    int(xy[-1][0]),
                    int(max(y for _, y in xy)),
                ),
            )
        )
        y = max(xy[-1][1], last_y + 20)
        last_y = y
        canvas.shape(marker, (plot[2] + 10, int(y) - 5), 10, colour)
        canvas.text(
            (plot[2] + 26, int(y) - 9), f"{label}: {points[-1]:.1f}", size=13, max_width=RIGHT - 30
        )
    return canvas
