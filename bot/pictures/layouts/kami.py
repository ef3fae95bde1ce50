"""Kami: a panel per player with their defence line (face-down cards as backs) above their
attack line, the attack under way marked, and the mercenary stacks of a duel."""

from __future__ import annotations

from bot.i18n import t
from bot.pictures.canvas import Canvas, Face
from bot.pictures.layouts.common import HEADER, MARGIN, SCORES, header, player_badge, score_strip
from bot.pictures.palette import OKABE_ITO
from bot.pictures.scene import HandScene, TableScene, card_name
from games.kami.cards import NAMES, VALUES

WIDTH = 960
TYPE_COLOURS = (*OKABE_ITO, (150, 150, 150))
CARD_W, CARD_H = 46, 64
PANEL_H = 200
STACKS_H = 96


def face(name: str, locale: str) -> Face:
    index = NAMES.index(name)
    return Face(str(VALUES[index]), card_name(f"kami.card.{name}", locale), TYPE_COLOURS[index])


def table(scene: TableScene) -> Canvas:
    view = scene.view
    players = view["players"]
    rows = (players + 1) // 2
    extra = STACKS_H if view.get("mercenaries") else 0
    height = HEADER + 6 + rows * (PANEL_H + 10) + extra + SCORES + 10
    canvas = Canvas(WIDTH, height, scene.theme, paletted=True)
    locale = scene.locale
    subtitle = t(
        "kami.view.round",
        locale,
        round=view["round"],
        ending=t(f"kami.option.ending.{view['ending']}", locale),
        target=view["target"],
    )
    header(canvas, scene, subtitle)
    moved = {
        event.get("seat")
        for event in scene.last_events
        if event.get("type") in ("lead", "counter", "attack")
    }
    panel_w = (WIDTH - 2 * MARGIN - 10) // 2
    top = HEADER + 6
    for seat in range(players):
        x = MARGIN + (seat % 2) * (panel_w + 10)
        y = top + (seat // 2) * (PANEL_H + 10)
        _seat(canvas, scene, seat, (x, y, x + panel_w, y + PANEL_H), seat in moved)
    if view.get("mercenaries"):
        _stacks(canvas, scene, top + rows * (PANEL_H + 10))
    score_strip(canvas, scene, height - SCORES - 6)
    return canvas


def _team_of(view: dict, seat: int) -> int | None:
    teams = view.get("teams")
    if not teams:
        return None
    return next(number for number, team in enumerate(teams) if seat in team)


def _seat(
    canvas: Canvas, scene: TableScene, seat: int, box: tuple[int, int, int, int], moved: bool
) -> None:
    view = scene.view
    theme = canvas.theme
    locale = scene.locale
    x0, y0, x1, _ = box
    canvas.area(box, ("seat", seat), turn=view["to_move"] == seat and not view["is_over"])
    player_badge(canvas, x0 + 18, y0 + 18, seat)
    canvas.text((x0 + 34, y0 + 8), scene.names[seat], size=16, bold=True, max_width=x1 - x0 - 60)
    facts = [t("pictures.hand_size", locale, count=view["hand_sizes"][seat])]
    team = _team_of(view, seat)
    if team is not None:
        facts.insert(0, t("pictures.team", locale, number=team + 1))
    canvas.text(
        (x0 + 34, y0 + 30), " · ".join(facts), size=13, colour=theme.muted, max_width=x1 - x0 - 44
    )
    line = view["lines"][seat]
    current = view.get("current_attack")
    rows = (
        (t("pictures.defense", locale), line["defense"], "defense"),
        (t("pictures.attack", locale), line["attack"], "attack"),
    )
    y = y0 + 52
    for label, cards, kind in rows:
        canvas.text((x0 + 10, y + 24), label, size=12, colour=theme.muted, max_width=84)
        x = x0 + 98
        room = x1 - 10 - x
        step = (
            CARD_W + 6
            if len(cards) * (CARD_W + 6) <= room
            else max(12, (room - CARD_W) // max(1, len(cards) - 1))
        )
        for index, card in enumerate(cards):
            newest = index == len(cards) - 1
            emphasis = ""
            if newest and moved:
                emphasis = "last"
            if kind == "attack" and newest and current and current["seat"] == seat:
                emphasis = "last"
            cbox = (x, y, x + CARD_W, y + CARD_H)
            if card["card"] is None:
                canvas.back(cbox, (kind, seat), emphasis=emphasis)
            else:
                canvas.card(
                    cbox, face(card["card"], locale), (kind, seat, card["card"]), emphasis=emphasis
                )
            x += step
        y += CARD_H + 10


def _stacks(canvas: Canvas, scene: TableScene, y: int) -> None:
    theme = canvas.theme
    canvas.text((MARGIN, y), t("pictures.stacks", scene.locale), size=13, colour=theme.muted)
    x = MARGIN
    for index, stack in enumerate(scene.view["mercenaries"]):
        box = (x, y + 20, x + CARD_W, y + 20 + CARD_H)
        if stack["height"] and stack["top"]:
            canvas.card(
                box,
                face(stack["top"], scene.locale),
                ("stack", index, stack["top"]),
                count=stack["height"],
            )
        else:
            canvas.slot(box, "–", ("stack", index))
        x += CARD_W + 22


def hand_groups(scene: HandScene) -> list[tuple[str, Face, int]]:
    """The hand by card type in the order of the game's card list (values rising)."""
    counts: dict[str, int] = {}
    for name in scene.view["hand"] or []:
        counts[name] = counts.get(name, 0) + 1
    return [(name, face(name, scene.locale), counts[name]) for name in NAMES if name in counts]
