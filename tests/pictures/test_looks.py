"""What the pictures show besides the cards: Kami partners opposite each other, no empty
quarter, colours that are right and apart for colour-blind players, and the words the text
of the messages uses."""

from __future__ import annotations

import math

import pytest

from bot.i18n import LOCALES, t
from bot.pictures import draw
from bot.pictures.palette import KAMI_COLOURS, OKABE_ITO, RGB
from bot.pictures.phone import WIDTH
from games import REGISTRY
from tests.pictures.test_drawing import played, table_scene

# Machado, Oliveira and Fernandes (2009), severity 1: linear RGB as a dichromat sees it.
DICHROMATS = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
APART = 20
"""CIE76 ΔE between two colours that must not be taken for each other (about 2.3 is just
noticeable; 20 tells two card colours apart at a glance)."""


def _linear(channel: int) -> float:
    value = channel / 255
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def _srgb(value: float) -> int:
    value = min(1.0, max(0.0, value))
    encoded = 1.055 * value ** (1 / 2.4) - 0.055 if value > 0.0031308 else 12.92 * value
    return round(255 * encoded)


def lab(colour: RGB) -> tuple[float, float, float]:
    r, g, b = (_linear(channel) for channel in colour)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(value: float) -> float:
        return value ** (1 / 3) if value > 0.008856 else 7.787 * value + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def seen_by(colour: RGB, matrix: tuple[tuple[float, ...], ...]) -> RGB:
    linear = [_linear(channel) for channel in colour]
    return tuple(_srgb(sum(m * c for m, c in zip(row, linear, strict=True))) for row in matrix)  # type: ignore[return-value]


def delta(first: RGB, second: RGB) -> float:
    return math.dist(lab(first), lab(second))


def test_the_silver_dragon_is_silver_and_the_gold_dragon_gold() -> None:
    _, a, b = lab(KAMI_COLOURS["silver_dragon"])
    assert math.hypot(a, b) < 10  # grey: no hue to speak of
    _, a, b = lab(KAMI_COLOURS["gold_dragon"])
    assert math.hypot(a, b) > 40 and 50 < math.degrees(math.atan2(b, a)) < 100  # a deep yellow
    assert KAMI_COLOURS["gold_dragon"] != OKABE_ITO[4]  # not the blue it was drawn in


@pytest.mark.parametrize("vision", ["normal", *DICHROMATS])
def test_kami_cards_of_equal_value_differ_in_colour_for_colour_blind_players(vision) -> None:
    """Spear and Horseman, the Dragons, Tower and Madman share a value: their colours stay
    apart under each kind of colour blindness (their names differ anyway)."""
    identity = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    matrix = DICHROMATS.get(vision, identity)
    for first, second in (
        ("spear", "horseman"),
        ("silver_dragon", "gold_dragon"),
        ("tower", "madman"),
    ):
        seen = seen_by(KAMI_COLOURS[first], matrix), seen_by(KAMI_COLOURS[second], matrix)
        assert delta(*seen) >= APART, (first, second)


def areas(canvas) -> dict[int, tuple[int, int, int, int]]:
    return {mark.tag[1]: mark.box for mark in canvas.marked("area") if mark.tag[0] == "seat"}


def test_kami_partners_sit_opposite_each_other() -> None:
    """Four players: partners (seats 0 and 2, 1 and 3) share neither a row nor a column."""
    state, events = played("kami", 4, {}, 10, seed=1)
    for locale in LOCALES:
        boxes = areas(draw.table_canvas(table_scene(state, events, locale)))
        for seat, partner in ((0, 2), (1, 3)):
            first, second = boxes[seat], boxes[partner]
            assert first[0] != second[0] and first[1] != second[1], locale


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_players_panels_fill_every_row_they_are_in(key) -> None:
    """No empty quarter: each row of players' panels spans the picture's width (three players:
    two panels, then one as wide as both)."""
    for players in REGISTRY[key].player_counts:
        state, events = played(key, players, {}, 12, seed=players)
        canvas = draw.table_canvas(table_scene(state, events, "en"))
        rows: dict[int, list[tuple[int, int, int, int]]] = {}
        for box in areas(canvas).values():
            rows.setdefault(box[1], []).append(box)
        for boxes in rows.values():
            left = min(box[0] for box in boxes)
            right = max(box[2] for box in boxes)
            assert left <= 16 and right >= WIDTH - 16, (players, boxes)


WORDS = [
    # (picture key and its values, text key and its values): the picture's word must be the
    # one the text uses.
    (("pictures.board", {"number": 2}), ("clans_and_glory.menu.board", {"arg": 2})),
    (("pictures.discard_pile", {"number": 1}), ("call_to_glory.menu.pile", {"arg": 1})),
    (("pictures.draw_piles", {}), ("call_to_glory.view.draw_piles", {"first": 1, "second": 2})),
    (("pictures.display", {}), ("call_to_glory.view.player", {"count": 2})),
    (("pictures.tasks", {}), ("call_to_glory.view.my_tasks", {})),
    (("pictures.defense", {}), ("kami.view.player", {"count": 2})),
    (("pictures.attack", {}), ("kami.view.player", {"count": 2})),
    (("pictures.stacks", {}), ("kami.view.mercenaries", {})),
    (("pictures.hand_size", {"count": 2}), ("kami.view.player", {"count": 2})),
]


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize(("picture", "text"), WORDS, ids=lambda pair: pair[0])
def test_pictures_use_the_words_of_the_text(picture, text, locale) -> None:
    values = {"name": "N", "display": "D", "points": "P", "defense": "D", "attack": "A"}
    values.update({"tasks": "T", "stacks": "S", "shields": "S"})
    word = t(picture[0], locale, **picture[1])
    sentence = t(text[0], locale, **{**values, **text[1]})
    assert word.lower() in sentence.lower(), (word, sentence)
