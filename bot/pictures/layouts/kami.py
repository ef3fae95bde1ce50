"""Kami: a panel per player, seated round the table as they sit (partners opposite each
other), each with its plays in rows, the defence card beside the attack card it came with;
the attack under way marked, and the mercenary stacks of a duel.

Every card shows its name whole: Kami's cards of equal value (Spear and Horseman, the two
Dragons, Tower and Madman) differ by their name and colour only.
"""

from __future__ import annotations

from bot.i18n import t
from bot.pictures.canvas import Canvas, Face
from bot.pictures.layouts.common import (
    GAP,
    MARGIN,
    PAD,
    SEATING,
    header,
    header_height,
    named_card,
    seat_head,
    seat_head_height,
    totals,
    totals_height,
)
from bot.pictures.palette import KAMI_COLOURS
from bot.pictures.phone import LINE, WIDTH
from bot.pictures.scene import HandScene, TableScene, card_name
from games.kami.cards import NAMES, VALUES

KEYS = tuple(f"kami.card.{name}" for name in NAMES)
CARD_GAP = 6
"""Between the defence card and the attack card of a play."""
PAIR_GAP = 16
"""Between two plays side by side."""
STACKS_PER_ROW = 4


def face(name: str, locale: str) -> Face:
    index = NAMES.index(name)
    return Face(str(VALUES[index]), card_name(f"kami.card.{name}", locale), KAMI_COLOURS[name])


def card_size(locale: str) -> tuple[int, int]:
    return named_card(KEYS, locale)


def table(scene: TableScene) -> Canvas:
    view = scene.view
    locale = scene.locale
    subtitle = t(
        "kami.view.round",
        locale,
        round=view["round"],
        ending=t(f"kami.option.ending.{view['ending']}", locale),
        target=view["target"],
    )
    card_w, card_h = named_card(KEYS, locale)
    rows = SEATING[view["players"]]
    inner = WIDTH - 2 * MARGIN
    heights = []
    for row in rows:
        panel_w = (inner - GAP * (len(row) - 1)) // len(row)
        heights.append(max(_panel_height(scene, seat, panel_w, card_w, card_h) for seat in row))
    stacks = view.get("mercenaries") or []
    stack_rows = -(-len(stacks) // STACKS_PER_ROW)
    stacks_h = LINE + 8 + stack_rows * (card_h + 10) if stacks else 0
    top = header_height(scene, subtitle)
    height = top + sum(h + GAP for h in heights) + stacks_h + totals_height(scene) + 6
    canvas = Canvas(WIDTH, height, scene.theme, paletted=True)
    header(canvas, scene, subtitle)
    moved = {
        event.get("seat")
        for event in scene.last_events
        if event.get("type") in ("lead", "counter", "attack")
    }
    y = top
    for row, row_h in zip(rows, heights, strict=True):
        panel_w = (inner - GAP * (len(row) - 1)) // len(row)
        for index, seat in enumerate(row):
            x = MARGIN + index * (panel_w + GAP)
            _seat(
                canvas, scene, seat, (x, y, x + panel_w, y + row_h), seat in moved, card_w, card_h
            )
        y += row_h + GAP
    if stacks:
        _stacks(canvas, scene, y, card_w, card_h)
        y += stacks_h
    totals(canvas, scene, y)
    return canvas


def _pairs_per_row(panel_w: int, card_w: int) -> int:
    pair = 2 * card_w + CARD_GAP
    return max(1, (panel_w - 2 * PAD + PAIR_GAP) // (pair + PAIR_GAP))


def _plays(view: dict, seat: int) -> int:
    line = view["lines"][seat]
    return max(1, len(line["defense"]), len(line["attack"]))


def _facts(view: dict, seat: int, locale: str) -> list[str]:
    facts = [t("pictures.hand_size", locale, count=view["hand_sizes"][seat])]
    team = _team_of(view, seat)
    if team is not None:
        facts.insert(0, t("pictures.team", locale, number=team + 1))
    return facts


def _panel_height(scene: TableScene, seat: int, panel_w: int, card_w: int, card_h: int) -> int:
    view = scene.view
    rows = -(-_plays(view, seat) // _pairs_per_row(panel_w, card_w))
    head = seat_head_height(scene, seat, panel_w, _facts(view, seat, scene.locale))
    return head + LINE + 4 + rows * (card_h + 10) + PAD - 6


def _team_of(view: dict, seat: int) -> int | None:
    teams = view.get("teams")
    if not teams:
        return None
    return next(number for number, team in enumerate(teams) if seat in team)


def _seat(
    canvas: Canvas,
    scene: TableScene,
    seat: int,
    box: tuple[int, int, int, int],
    moved: bool,
    card_w: int,
    card_h: int,
) -> None:
    view = scene.view
    theme = canvas.theme
    locale = scene.locale
    x0, _, x1, _ = box
    canvas.area(box, ("seat", seat), turn=view["to_move"] == seat and not view["is_over"])
    top = seat_head(canvas, scene, seat, box, _facts(view, seat, locale))
    line = view["lines"][seat]
    current = view.get("current_attack")
    per_row = _pairs_per_row(x1 - x0, card_w)
    pair_w = 2 * card_w + CARD_GAP
    for column in range(per_row):
        x = x0 + PAD + column * (pair_w + PAIR_GAP)
        canvas.text((x, top), t("pictures.defense", locale), colour=theme.muted, max_width=card_w)
        canvas.text(
            (x + card_w + CARD_GAP, top),
            t("pictures.attack", locale),
            colour=theme.muted,
            max_width=card_w,
        )
    top += LINE + 4
    plays = _plays(view, seat)
    for play in range(plays):
        row, column = divmod(play, per_row)
        x = x0 + PAD + column * (pair_w + PAIR_GAP)
        y = top + row * (card_h + 10)
        for kind, cards, cx in (
            ("defense", line["defense"], x),
            ("attack", line["attack"], x + card_w + CARD_GAP),
        ):
            cbox = (cx, y, cx + card_w, y + card_h)
            if play >= len(cards):
                canvas.slot(cbox, "", (kind, seat))
                continue
            card = cards[play]
            newest = play == len(cards) - 1
            emphasis = "last" if newest and moved else ""
            if kind == "attack" and newest and current and current["seat"] == seat:
                emphasis = "last"
            if card["card"] is None:
                canvas.back(cbox, (kind, seat), emphasis=emphasis)
            else:
                canvas.card(
                    cbox, face(card["card"], locale), (kind, seat, card["card"]), emphasis=emphasis
                )


def _stacks(canvas: Canvas, scene: TableScene, y: int, card_w: int, card_h: int) -> None:
    theme = canvas.theme
    canvas.text((MARGIN, y), t("pictures.stacks", scene.locale), colour=theme.muted)
    y += LINE + 8
    for index, stack in enumerate(scene.view["mercenaries"]):
        row, column = divmod(index, STACKS_PER_ROW)
        x = MARGIN + column * (card_w + GAP)
        box = (x, y + row * (card_h + 10), x + card_w, y + row * (card_h + 10) + card_h)
        if stack["height"] and stack["top"]:
            canvas.card(
                box,
                face(stack["top"], scene.locale),
                ("stack", index, stack["top"]),
                count=stack["height"],
            )
        else:
            canvas.slot(box, "–", ("stack", index))


def hand_groups(scene: HandScene) -> list[tuple[str, Face, int]]:
    """The hand by card type in the order of the game's card list (values rising)."""
    counts: dict[str, int] = {}
    for name in scene.view["hand"] or []:
        counts[name] = counts.get(name, 0) + 1
    return [(name, face(name, scene.locale), counts[name]) for name in NAMES if name in counts]
