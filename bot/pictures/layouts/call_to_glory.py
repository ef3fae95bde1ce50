"""Call to Glory: the two draw piles and the two discard piles on top, a panel per player
(seated round the table) with their display (groups with "×n"), the cards the table knows
they hold, their ninjas and revealed tasks.

On the table a card is a chip: its value on its colour. In Call to Glory the value names the
card (each of the nine characters has its own), and a chip is a third of a named card's width,
which is what lets a phone show a whole display. The hand shows the names.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.i18n import t
from bot.pictures.canvas import Canvas, Face, chip_width
from bot.pictures.fonts import drawable, length
from bot.pictures.layouts.common import (
    GAP,
    MARGIN,
    PAD,
    SEATING,
    flow,
    header,
    header_height,
    named_card,
    seat_head,
    seat_head_height,
    totals,
    totals_height,
)
from bot.pictures.palette import BROWN, GREY, OKABE_ITO
from bot.pictures.phone import LINE, SMALL, WIDTH
from bot.pictures.scene import HandScene, TableScene, card_name
from games.call_to_glory.cards import INDEX_OF, VALUES

KEYS = tuple(f"call_to_glory.card.{value}" for value in VALUES)
TYPE_COLOURS = (*OKABE_ITO, GREY, BROWN)
CHIP_H = 44
BACK_W, BACK_H = 48, 64
SMALL_CHIP = 34
"""The width (and height) of the cards under the top of a discard pile."""
FAN = 4
"""How many cards of a discard pile are shown (the top one and the three under it)."""


def face(value: int, locale: str) -> Face:
    colour = TYPE_COLOURS[INDEX_OF[value] % len(TYPE_COLOURS)]
    return Face(str(value), card_name(f"call_to_glory.card.{value}", locale), colour)


def chip(value: int, label: str = "") -> Face:
    """A card on the table: its value (or ``label``) on its colour, without its name."""
    colour = TYPE_COLOURS[INDEX_OF[value] % len(TYPE_COLOURS)]
    return Face(label or str(value), "", colour)


def card_size(locale: str) -> tuple[int, int]:
    """A card in the hand, with its name."""
    return named_card(KEYS, locale)


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
    locale = scene.locale
    subtitle = t(
        "call_to_glory.view.round", locale, round=view["round"], total=view["rounds_total"]
    )
    rows = SEATING[view["players"]]
    inner = WIDTH - 2 * MARGIN
    heights = []
    for row in rows:
        panel_w = (inner - GAP * (len(row) - 1)) // len(row)
        heights.append(max(_panel_height(scene, seat, panel_w) for seat in row))
    top = header_height(scene, subtitle)
    piles_h = LINE + 4 + CHIP_H + 24
    height = top + piles_h + sum(h + GAP for h in heights) + totals_height(scene) + 6
    canvas = Canvas(WIDTH, height, scene.theme, paletted=True)
    header(canvas, scene, subtitle)
    laid, piles, sources = _last(scene)
    _piles(canvas, scene, top, piles, sources)
    y = top + piles_h
    for row, row_h in zip(rows, heights, strict=True):
        panel_w = (inner - GAP * (len(row) - 1)) // len(row)
        for index, seat in enumerate(row):
            x = MARGIN + index * (panel_w + GAP)
            _seat(canvas, scene, seat, (x, y, x + panel_w, y + row_h), laid)
        y += row_h + GAP
    totals(canvas, scene, y)
    return canvas


def _piles(canvas: Canvas, scene: TableScene, y: int, piles: set[int], sources: set[str]) -> None:
    view = scene.view
    theme = canvas.theme
    locale = scene.locale
    label = t("pictures.draw_piles", locale)
    draw_w = max(length(drawable(label), SMALL, False), 2 * BACK_W + GAP)
    canvas.text((MARGIN, y), label, colour=theme.muted)
    for index, count in enumerate(view["draw_piles"]):
        x = MARGIN + index * (BACK_W + GAP)
        box = (x, y + LINE + 4, x + BACK_W, y + LINE + 4 + BACK_H)
        emphasis = "last" if f"draw{index + 1}" in sources else ""
        if count:
            canvas.back(box, ("draw", index), emphasis=emphasis, count=count)
        else:
            canvas.slot(box, "0", ("draw", index))
    block = (WIDTH - 2 * MARGIN - draw_w - 2 * 2 * GAP) // 2
    x = MARGIN + draw_w + 2 * GAP
    for index, pile in enumerate(view["discard_piles"]):
        label = t("pictures.discard_pile", locale, number=index + 1)
        canvas.text((x, y), label, colour=theme.muted, max_width=block)
        top_emphasis = "last" if index in piles or f"discard{index + 1}" in sources else ""
        _fan(canvas, pile, (x, y + LINE + 4, x + block), top_emphasis, index, locale)
        x += block + 2 * GAP


def _fan(
    canvas: Canvas,
    pile: list[int],
    at: tuple[int, int, int],
    emphasis: str,
    index: int,
    locale: str,
) -> None:
    """A discard pile: its top card, the ones under it smaller to its left, each whole, and
    "+n" for the cards below those."""
    x, y, _ = at
    if not pile:
        canvas.slot((x, y, x + SMALL_CHIP + 10, y + CHIP_H), "–", ("discard", index))
        return
    shown = pile[-FAN:]
    hidden = len(pile) - len(shown)
    if hidden:
        x += canvas.text(
            (x, y + (CHIP_H - SMALL) // 2 - 2), f"+{hidden}", colour=canvas.theme.muted
        )
        x += 6
    for position, value in enumerate(shown):
        newest = position == len(shown) - 1
        if newest:
            width = chip_width(str(value))
            box = (x, y, x + width, y + CHIP_H)
        else:
            width = SMALL_CHIP
            box = (x, y + CHIP_H - SMALL_CHIP, x + width, y + CHIP_H)
        canvas.card(
            box, chip(value), ("discard", index, value), emphasis=emphasis if newest else ""
        )
        x += width + 4


def _facts(view: dict, seat: int, locale: str) -> list[str]:
    facts = [
        t("pictures.hand_size", locale, count=view["hand_sizes"][seat]),
        t("pictures.round_points", locale, count=view["display_points"][seat]),
    ]
    ninja = view.get("ninja")
    if ninja and ninja["held"][seat]:
        facts.append(t("pictures.ninjas", locale, count=ninja["held"][seat]))
    return facts


def _items(scene: TableScene, seat: int, laid: set[tuple[int, int]]) -> list[tuple]:
    """What a player's panel shows after its first line, in order: a label, then its chips
    (``("label", text)`` or ``("chip", face, tag, emphasis, count)``)."""
    view = scene.view
    locale = scene.locale
    items: list[tuple] = []
    display = view["displays"][seat]
    if display:
        items.append(("label", t("pictures.display", locale)))
        for entry in display:
            value = entry["value"]
            emphasis = "last" if (seat, value) in laid else ""
            items.append(("chip", chip(value), ("display", seat, value), emphasis, entry["count"]))
    known = view["known_hand_cards"][seat]
    if known:
        items.append(("label", t("pictures.known", locale)))
        for value, count in _grouped(known):
            items.append(("chip", chip(value), ("known", seat, value), "", count))
    tasks = view.get("tasks")
    revealed = [record for record in (tasks or {}).get("revealed", []) if record["seat"] == seat]
    if revealed:
        items.append(("label", t("pictures.tasks", locale)))
        for record in revealed:
            label = f"{str(record['deck']).upper()}: {record['value']}"
            face_ = chip(record["value"], label)
            items.append(("chip", face_, ("task", seat, record["value"]), "", 0))
    return items


def _width(item: tuple) -> int:
    if item[0] == "label":
        return length(drawable(item[1]), SMALL, False)
    return chip_width(item[1].label, item[4])


def _placed(items: list[tuple], panel_w: int) -> list[tuple[int, int]]:
    """Each item's ``(x, y)`` from the panel's top left below its head; a label never ends
    a row (one too long to share a row with a chip gets a short row of its own)."""
    labels = {index for index, item in enumerate(items) if item[0] == "label"}
    placed = flow([_width(item) for item in items], PAD, panel_w - PAD, keep=labels)
    rows: dict[int, bool] = {}
    for item, (_, row) in zip(items, placed, strict=True):
        rows[row] = rows.get(row, False) or item[0] == "chip"
    tops, y = {}, 0
    for row in sorted(rows):
        tops[row] = y
        y += CHIP_H + GAP if rows[row] else LINE + 2
    return [(x, tops[row]) for x, row in placed]


def _items_height(items: list[tuple], panel_w: int) -> int:
    placed = _placed(items, panel_w)
    if not placed:
        return 0
    last_y = placed[-1][1]
    last_chip = any(
        item[0] == "chip" for item, (_, y) in zip(items, placed, strict=True) if y == last_y
    )
    return last_y + (CHIP_H + GAP if last_chip else LINE + 2)


def _panel_height(scene: TableScene, seat: int, panel_w: int) -> int:
    head = seat_head_height(scene, seat, panel_w, _facts(scene.view, seat, scene.locale))
    return head + _items_height(_items(scene, seat, set()), panel_w) + PAD - 4


def _seat(
    canvas: Canvas,
    scene: TableScene,
    seat: int,
    box: tuple[int, int, int, int],
    laid: set[tuple[int, int]],
) -> None:
    view = scene.view
    theme = canvas.theme
    x0, _, x1, _ = box
    turn = view["turn_seat"] == seat and not view["is_over"]
    canvas.area(box, ("seat", seat), turn=turn)
    top = seat_head(canvas, scene, seat, box, _facts(view, seat, scene.locale))
    items = _items(scene, seat, laid)
    placed = _placed(items, x1 - x0)
    with_chips = {y for item, (_, y) in zip(items, placed, strict=True) if item[0] == "chip"}
    for item, (x, y) in zip(items, placed, strict=True):
        y += top
        if item[0] == "label":
            middle = (CHIP_H - SMALL) // 2 - 2 if y - top in with_chips else 0
            canvas.text((x0 + x, y + middle), item[1], colour=theme.muted)
            continue
        _, chip_face, tag, emphasis, count = item
        width = chip_width(chip_face.label, count)
        canvas.card(
            (x0 + x, y, x0 + x + width, y + CHIP_H), chip_face, tag, emphasis=emphasis, count=count
        )


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
