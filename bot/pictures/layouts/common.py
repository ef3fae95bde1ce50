"""Parts every table shares: the header (game, round, whose turn) and the score strip."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import t
from bot.pictures.canvas import Canvas, Mark
from bot.pictures.palette import PLAYER_COLOURS
from bot.pictures.scene import TableScene

HEADER = 58
SCORES = 40
MARGIN = 14


def header(canvas: Canvas, scene: TableScene, subtitle: str) -> None:
    """Game name and ``subtitle`` on the left, the status (whose turn, the result) below."""
    theme = canvas.theme
    game = t(f"{scene.game_key}.name", scene.locale)
    width = canvas.text((MARGIN, 8), game, size=20, bold=True)
    if subtitle:
        canvas.text((MARGIN + width + 14, 12), subtitle, size=15, colour=theme.muted)
    canvas.text(
        (MARGIN, 34),
        scene.status,
        size=15,
        colour=theme.accent,
        max_width=canvas.width - 2 * MARGIN,
    )
    canvas.marks.append(Mark("text", "status", (MARGIN, 34, canvas.width - MARGIN, 52)))


def player_badge(canvas: Canvas, x: int, y: int, seat: int, radius: int = 10) -> None:
    """The seat's badge (its colour and number) centred at ``(x, y)``."""
    canvas.badge((x, y), radius, PLAYER_COLOURS[seat % len(PLAYER_COLOURS)], str(seat + 1))


def score_strip(canvas: Canvas, scene: TableScene, top: int) -> None:
    """Each side's total, in one line along the bottom."""
    theme = canvas.theme
    view = scene.view
    labels: Sequence[tuple[str, int]] = scene.score_labels or [
        (name, seat) for seat, name in enumerate(scene.names)
    ]
    canvas.line(((MARGIN, top), (canvas.width - MARGIN, top)), theme.line)
    x = MARGIN
    room = (canvas.width - 2 * MARGIN) // max(1, len(labels))
    for label, column in labels:
        winner = column in view["winners"]
        text = plain_score(label, view["scores"][column], scene.locale)
        player_badge(canvas, x + 10, top + 20, column)
        canvas.text(
            (x + 26, top + 11),
            text,
            size=15,
            bold=winner,
            colour=theme.accent if winner else theme.text,
            max_width=room - 34,
        )
        x += room


def plain_score(name: str, points: int, locale: str) -> str:
    return t("table.score", locale, name=name, count=points)
