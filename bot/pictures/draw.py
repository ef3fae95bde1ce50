"""From a scene to PNG bytes: the one entry point of the drawing code (pure, thread-safe)."""

from __future__ import annotations

from collections.abc import Callable

from bot.pictures.canvas import Canvas
from bot.pictures.chart import chart, trend
from bot.pictures.hand import hand
from bot.pictures.layouts import call_to_glory, clans_and_glory, kami
from bot.pictures.scene import ChartScene, HandScene, TableScene, TrendScene

TABLES: dict[str, Callable[[TableScene], Canvas]] = {
    "call_to_glory": call_to_glory.table,
    "kami": kami.table,
    "clans_and_glory": clans_and_glory.table,
}


def table_canvas(scene: TableScene) -> Canvas:
    return TABLES[scene.game_key](scene)


def hand_canvas(scene: HandScene) -> Canvas:
    return hand(scene)


def chart_canvas(scene: ChartScene) -> Canvas:
    return chart(scene)


def table_png(scene: TableScene) -> bytes:
    return table_canvas(scene).png()


def hand_png(scene: HandScene) -> bytes:
    return hand_canvas(scene).png()


def chart_png(scene: ChartScene) -> bytes:
    return chart_canvas(scene).png()


def trend_png(scene: TrendScene) -> bytes:
    return trend(scene).png()
