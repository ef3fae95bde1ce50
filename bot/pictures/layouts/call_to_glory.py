"""Call to Glory: the two draw piles and discard piles in the middle, a panel per player with
their display, the cards the table knows they hold, ninjas and revealed tasks."""

from __future__ import annotations

from collections.abc import Iterable

from bot.i18n import t
from bot.pictures.canvas import Canvas, Face
from bot.pictures.layouts.common import HEADER, MARGIN, SCORES, header, player_badge, score_strip
from bot.pictures.palette import OKABE_ITO
from bot.pictures.scene import HandScene, TableScene, card_name
from games.call_to_glory.cards import INDEX_OF

WIDTH = 960
TYPE_COLOURS = (*OKABE_ITO, (150, 150, 150), (140, 96, 60))
CARD_W, CARD_H = 52, 74
SMALL_W, SMALL_H = 38, 54
PILES = 128
PANEL_H = 200


def face(value: int, locale: str) -> Face:
    colour = TYPE_COLOURS[INDEX_OF[value] % len(TYPE_COLOURS)]
    return Face(str(value), card_name(f"call_to_glory.card.{value}", locale), colour)


def _last(scene: TableScene) -> tuple[set[tuple[int, int]], set[int], set[str]]:
    """What the last move touched: (seat, value) of a laid set, discard piles, draw sources."""
    laid: set[tuple[int, int]] = set()
    piles: set[int] = set()
    sources: set[str] = set()
    for event in scene.last_events:
        kind = event.get("type")
        if kind == "set_laid" and event.get("value") is not None:
            laid.add((event["seat"], event["value"]))
        elif kind in ("set_discarded", "card_discarded") and isinstance(event.get("pile"), int):
            piles.add(event["pile"] - 1)  # piles are counted from 1
        elif kind == "card_drawn" and isinstance(event.get("source"), str):
            sources.add(event["source"])
    return laid, piles, sources


def table(scene: TableScene) -> Canvas:
    view = scene.view
    players = view["players"]
    rows = (players + 1) // 2
    height = HEADER + PILES + rows * (PANEL_H + 10) + SCORES + 10
    canvas = Canvas(WIDTH, height, scene.theme, paletted=True)
    locale = scene.locale
    subtitle = t(
        "call_to_glory.view.round", locale, round=view["round"], total=view["rounds_total"]
    )
    header(canvas, scene, subtitle)
    laid, piles, sources = _last(scene)
    _piles(canvas, scene, HEADER + 4, piles, sources)
    top = HEADER + PILES
    panel_w = (WIDTH - 2 * MARGIN - 10) // 2
    for seat in range(players):
        x = MARGIN + (seat % 2) * (panel_w + 10)
        y = top + (seat // 2) * (PANEL_H + 10)
        _seat(canvas, scene, seat, (x, y, x + panel_w, y + PANEL_H), laid)
    score_strip(canvas, scene, height - SCORES - 6)
    return canvas


def _piles(canvas: Canvas, scene: TableScene, y: int, piles: set[int], sources: set[str]) -> None:
    view = scene.view
    theme = canvas.theme
    x = MARGIN
    for index, count in enumerate(view["draw_piles"]):
        label = t("pictures.draw_pile", scene.locale, number=index + 1)
        canvas.text((x, y), label, size=13, colour=theme.muted)
        box = (x + 8, y + 20, x + 8 + CARD_W + 8, y + 20 + CARD_H + 12)
        emphasis = "last" if f"draw{index + 1}" in sources else ""
        if count:
            canvas.back(box, ("draw", index), emphasis=emphasis, count=count)
        else:
            canvas.slot(box, "0", ("draw", index))
        x += 110
    x += 10
    for index, pile in enumerate(view["discard_piles"]):
        label = t("pictures.discard_pile", scene.locale, number=index + 1)
        label += f" · {t('common.cards', scene.locale, count=len(pile))}"
        canvas.text((x, y), label, size=13, colour=theme.muted)
        shown = pile[-8:]
        top_emphasis = "last" if index in piles or f"discard{index + 1}" in sources else ""
        if not shown:
            canvas.slot((x, y + 20, x + CARD_W, y + 20 + CARD_H), "–", ("discard", index))
        for position, value in enumerate(shown):
            box = (x + position * 30, y + 20, x + position * 30 + CARD_W, y + 20 + CARD_H)
            newest = position == len(shown) - 1
            canvas.card(
                box,
                face(value, scene.locale),
                ("discard", index, value),
                emphasis=top_emphasis if newest else "",
            )
        x += 30 * 7 + CARD_W + 40


def _seat(
    canvas: Canvas,
    scene: TableScene,
    seat: int,
    box: tuple[int, int, int, int],
    laid: set[tuple[int, int]],
) -> None:
    view = scene.view
    theme = canvas.theme
    locale = scene.locale
    x0, y0, x1, _ = box
    turn = view["turn_seat"] == seat and not view["is_over"]
    canvas.area(box, ("seat", seat), turn=turn)
    player_badge(canvas, x0 + 18, y0 + 18, seat)
    canvas.text((x0 + 34, y0 + 8), scene.names[seat], size=16, bold=True, max_width=x1 - x0 - 200)
    facts = [
        t("pictures.hand_size", locale, count=view["hand_sizes"][seat]),
        t("common.points", locale, count=view["display_points"][seat]),
    ]
    ninja = view.get("ninja")
    if ninja and ninja["held"][seat]:
        facts.append(t("pictures.ninjas", locale, count=ninja["held"][seat]))
    canvas.text(
        (x0 + 34, y0 + 30), " · ".join(facts), size=13, colour=theme.muted, max_width=x1 - x0 - 44
    )
    canvas.text((x0 + 10, y0 + 52), t("pictures.display", locale), size=12, colour=theme.muted)
    x = x0 + 10
    for entry in view["displays"][seat]:
        if x + CARD_W > x1 - 8:
            break
        emphasis = "last" if (seat, entry["value"]) in laid else ""
        canvas.card(
            (x, y0 + 70, x + CARD_W, y0 + 70 + CARD_H),
            face(entry["value"], locale),
            ("display", seat, entry["value"]),
            emphasis=emphasis,
            count=entry["count"],
        )
        x += CARD_W + 10
    known = view["known_hand_cards"][seat]
    extras_y = y0 + 70 + CARD_H + 10
    x = x0 + 10
    if known:
        width = canvas.text(
            (x, extras_y + 18), t("pictures.known", locale), size=12, colour=theme.muted
        )
        x += width + 8
        for value, count in _grouped(known):
            canvas.card(
                (x, extras_y, x + SMALL_W, extras_y + SMALL_H - 10),
                face(value, locale),
                ("known", seat, value),
                count=count,
            )
            x += SMALL_W + 12
    tasks = view.get("tasks")
    if tasks:
        revealed = [record for record in tasks["revealed"] if record["seat"] == seat]
        if revealed:
            x += 10
            width = canvas.text(
                (x, extras_y + 18), t("pictures.tasks", locale), size=12, colour=theme.muted
            )
            x += width + 8
            for record in revealed:
                if x + SMALL_W > x1:
                    break
                deck = str(record["deck"]).upper()
                task = face(record["value"], locale)
                canvas.card(
                    (x, extras_y, x + SMALL_W, extras_y + SMALL_H - 10),
                    Face(deck, task.label, task.colour),
                    ("task", seat, record["value"]),
                )
                x += SMALL_W + 8


def _grouped(values: Iterable[int]) -> list[tuple[int, int]]:
    counts: dict[int, int] = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    return sorted(counts.items())


def hand_groups(scene: HandScene) -> list[tuple[str, Face, int]]:
    """The hand as players hold it: one group per character, by value."""
    return [
        (str(value), face(value, scene.locale), count)
        for value, count in _grouped(scene.view["hand"] or [])
    ]
