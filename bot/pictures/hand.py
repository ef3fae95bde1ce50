"""A player's hand as a picture: grouped and sorted as players hold cards, the cards they can
play now framed and the others dimmed while it is their turn."""

from __future__ import annotations

from bot.i18n import t
from bot.pictures.canvas import Canvas
from bot.pictures.layouts import call_to_glory, clans_and_glory, kami
from bot.pictures.layouts.common import MARGIN, player_badge
from bot.pictures.scene import HandScene

GROUPS = {
    "call_to_glory": call_to_glory.hand_groups,
    "kami": kami.hand_groups,
    "clans_and_glory": clans_and_glory.hand_groups,
}
CARD_W, CARD_H, GAP = 64, 92, 14
PER_ROW = 10


def hand(scene: HandScene) -> Canvas:
    groups = GROUPS[scene.game_key](scene)
    rows = max(1, (len(groups) + PER_ROW - 1) // PER_ROW)
    per_row = min(PER_ROW, max(1, len(groups)))
    width = max(420, 2 * MARGIN + per_row * (CARD_W + GAP) + 10)
    height = 56 + rows * (CARD_H + GAP + 6) + 30
    canvas = Canvas(width, height, scene.theme, paletted=True)
    theme = canvas.theme
    seat = scene.view["seat"]
    locale = scene.locale
    player_badge(canvas, MARGIN + 10, 22, seat)
    canvas.text((MARGIN + 26, 11), scene.names[seat], size=17, bold=True, max_width=width - 60)
    on_turn = scene.on_turn and bool(scene.playable)
    note = "pictures.playable" if on_turn else "pictures.waiting"
    if scene.on_turn and not on_turn:
        note = "pictures.your_turn"  # a decision without cards (drawing, passing …)
    if scene.view["is_over"]:
        note = "pictures.your_hand"
    canvas.text(
        (MARGIN, height - 26),
        t(note, locale),
        size=13,
        colour=theme.accent if on_turn else theme.muted,
        max_width=width - 2 * MARGIN,
    )
    canvas.area((4, 44, width - 4, height - 32), ("seat", seat))
    if not groups:
        canvas.text((MARGIN + 6, 60), t("pictures.empty_hand", locale), size=14, colour=theme.muted)
    for index, (token, card_face, count) in enumerate(groups):
        row, column = divmod(index, PER_ROW)
        x = MARGIN + 4 + column * (CARD_W + GAP)
        y = 56 + row * (CARD_H + GAP + 6)
        emphasis = ""
        if on_turn:
            emphasis = "legal" if token in scene.playable else "dim"
        lift = -4 if emphasis == "legal" else 0
        canvas.card(
            (x, y + lift, x + CARD_W, y + lift + CARD_H),
            card_face,
            ("hand", token),
            emphasis=emphasis,
            count=count,
        )
    return canvas
