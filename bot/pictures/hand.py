"""A player's hand as a picture: grouped and sorted as players hold cards, the cards they can
play now framed and the others dimmed while it is their turn.

As wide as its cards need and at most ``phone.WIDTH``, in rows; every card shows its name
whole (Clans and Glory's cards: their colour's shape and letter).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.i18n import t
from bot.pictures.canvas import Canvas, Face
from bot.pictures.fonts import drawable, length
from bot.pictures.layouts import call_to_glory, clans_and_glory, kami
from bot.pictures.layouts.common import BADGE, GAP, MARGIN, PAD, player_badge
from bot.pictures.phone import BODY, LINE, SMALL, WIDTH
from bot.pictures.scene import HandScene

Groups = Callable[[HandScene], list[tuple[str, Face, int]]]
GAMES: dict[str, tuple[Groups, Callable[[str], tuple[int, int]]]] = {
    "call_to_glory": (call_to_glory.hand_groups, call_to_glory.card_size),
    "kami": (kami.hand_groups, kami.card_size),
    "clans_and_glory": (clans_and_glory.hand_groups, clans_and_glory.card_size),
}
LIFT = 4
"""How far a playable card is lifted."""


def _note(scene: HandScene) -> tuple[str, bool]:
    """What the line under the name says, and whether it is the accent (cards to play now)."""
    on_turn = scene.on_turn and bool(scene.playable)
    note = "pictures.playable" if on_turn else "pictures.waiting"
    if scene.on_turn and not on_turn:
        note = "pictures.your_turn"  # a decision without cards (drawing, passing …)
    if scene.view["is_over"]:
        note = "pictures.your_hand"
    return t(note, scene.locale), on_turn


def hand(scene: HandScene) -> Canvas:
    groups_of, size_of = GAMES[scene.game_key]
    groups = groups_of(scene)
    card_w, card_h = size_of(scene.locale)
    seat = scene.view["seat"]
    locale = scene.locale
    note, on_turn = _note(scene)
    per_row = max(1, (WIDTH - 2 * MARGIN - 2 * PAD + GAP) // (card_w + GAP))
    shown = min(per_row, max(1, len(groups)))
    name = drawable(scene.names[seat])
    head_w = 2 * MARGIN + 2 * BADGE + 8 + length(name, BODY, True)
    note_w = 2 * MARGIN + length(drawable(note), SMALL, False)
    cards_w = 2 * MARGIN + 2 * PAD + shown * (card_w + GAP) - GAP
    if not groups:
        empty = drawable(t("pictures.empty_hand", locale))
        cards_w = 2 * MARGIN + 2 * PAD + length(empty, SMALL, False)
    width = min(WIDTH, max(cards_w, head_w, note_w))
    rows = max(1, -(-len(groups) // per_row))
    top = MARGIN + 2 * BADGE + 8
    cards_top = top + PAD + LIFT
    height = cards_top + rows * (card_h + GAP + LIFT) - GAP + PAD + 8 + LINE + MARGIN
    canvas = Canvas(width, height, scene.theme, paletted=True)
    theme = canvas.theme
    player_badge(canvas, MARGIN + BADGE, MARGIN + BADGE, seat)
    canvas.text(
        (MARGIN + 2 * BADGE + 8, MARGIN + 1),
        scene.names[seat],
        size=BODY,
        bold=True,
        max_width=width - 2 * MARGIN - 2 * BADGE - 8,
        role="player",
    )
    bottom = height - MARGIN - LINE - 4
    canvas.area((MARGIN // 2, top, width - MARGIN // 2, bottom), ("seat", seat))
    canvas.text(
        (MARGIN, bottom + 6),
        note,
        colour=theme.accent if on_turn else theme.muted,
        max_width=width - 2 * MARGIN,
    )
    if not groups:
        canvas.text((MARGIN + PAD, cards_top), t("pictures.empty_hand", locale), colour=theme.muted)
    for index, (token, card_face, count) in enumerate(groups):
        row, column = divmod(index, per_row)
        x = MARGIN + PAD + column * (card_w + GAP)
        y = cards_top + row * (card_h + GAP + LIFT)
        emphasis = ""
        if on_turn:
            emphasis = "legal" if token in scene.playable else "dim"
        lift = -LIFT if emphasis == "legal" else 0
        canvas.card(
            (x, y + lift, x + card_w, y + lift + card_h),
            card_face,
            ("hand", token),
            emphasis=emphasis,
            count=count,
        )
    return canvas
