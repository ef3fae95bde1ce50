"""Tables and hands are drawn straight in the theme's palette; they must be exactly what the
RGB drawing mapped to that palette was (what the goldens hold and players saw), pixel for
pixel, for every game, player count and language."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from bot.i18n import LOCALES
from bot.pictures import draw
from bot.pictures.canvas import Canvas, Face
from bot.pictures.palette import DARK, theme_palette
from bot.pictures.scene import HandScene
from games import REGISTRY
from tests.pictures.test_drawing import NAMES, playable, played, table_scene
from tests.pictures.test_goldens import CHANNEL_STEP


def in_rgb(draw_canvas, *args) -> Image.Image:
    """``draw_canvas(*args)`` as it was drawn before the palette: on RGB canvases (cards on
    RGBA tiles), mapped to the palette as a whole."""
    post_init = Canvas.__post_init__

    def rgb(canvas: Canvas) -> None:
        canvas.paletted = False
        post_init(canvas)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Canvas, "__post_init__", rgb)
        canvas = draw_canvas(*args)
    assert canvas.image.mode == "RGB"
    return canvas.image.quantize(palette=theme_palette(canvas.theme), dither=Image.Dither.NONE)


def in_palette(draw_canvas, *args) -> Image.Image:
    canvas = draw_canvas(*args)
    assert canvas.image.mode == "P"
    return canvas.image


def coarse_differences(first: Image.Image, second: Image.Image) -> int:
    """Pixels differing by more than the goldens' step in a channel."""
    difference = ImageChops.difference(first.convert("RGB"), second.convert("RGB"))
    steps = difference.convert("L").point(lambda value: 255 if value > CHANNEL_STEP else 0)
    return steps.histogram()[255]


@pytest.mark.parametrize(
    ("key", "players"),
    [(key, players) for key, game in REGISTRY.items() for players in game.player_counts],
)
def test_tables_and_hands_in_the_palette_are_the_rgb_drawings_mapped_to_it(key, players) -> None:
    for locale, moves in zip(LOCALES, (0, 15, 400), strict=True):
        state, events = played(key, players, {}, moves, seed=players * 11 + moves)
        scene = table_scene(state, events, locale)
        table = in_palette(draw.table_canvas, scene)
        assert table.tobytes() == in_rgb(draw.table_canvas, scene).tobytes(), locale
        for seat in range(players):
            hand = HandScene(key, state.view(seat), NAMES[:players], locale, playable(state, seat))
            drawn = in_palette(draw.hand_canvas, hand)
            assert drawn.tobytes() == in_rgb(draw.hand_canvas, hand).tobytes(), (locale, seat)


def across_two_panels(canvas: Canvas) -> Canvas:
    canvas.area((5, 5, 100, 75), ("seat", 0))
    canvas.area((100, 5, 195, 75), ("seat", 1), turn=True)
    canvas.text((50, 30), "Анна-Мария Кузнецова", size=16, bold=True)
    return canvas


def overflowing_card(canvas: Canvas) -> Canvas:
    canvas.area((5, 5, 195, 135), ("seat", 0))
    face = Face("888", "Name", (0, 158, 115), shape="circle", letter="WWWW")
    canvas.card((20, 20, 84, 112), face, "card", count=3)
    return canvas


@pytest.mark.parametrize("drawing", [across_two_panels, overflowing_card])
def test_what_no_sprite_fits_is_blended_within_the_goldens_step_of_the_rgb_drawing(
    drawing,
) -> None:
    """A text over two grounds, a card whose letters leave its tile: no layout draws them,
    and the paletted canvas blends them over its own colours instead of drawing exactly."""
    paletted = in_palette(lambda: drawing(Canvas(200, 140, DARK, paletted=True)))
    rgb = in_rgb(lambda: drawing(Canvas(200, 140, DARK, paletted=True)))
    assert coarse_differences(paletted, rgb) == 0
