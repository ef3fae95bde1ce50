"""The PNG files written from paletted pictures: any decoder must read back exactly the
picture's indices and colours."""

from __future__ import annotations

import io
import random
import zlib

import pytest
from PIL import Image

from bot.pictures import draw, png
from bot.pictures.palette import DARK, theme_colours, theme_palette
from bot.pictures.scene import HandScene
from games import REGISTRY
from tests.pictures.test_drawing import NAMES, playable, played, table_scene

ENTRIES = bytes(channel for colour in theme_colours(DARK) for channel in colour)
"""The dark theme's palette as the PNG holds it."""


def decoded(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def assert_reads_back(picture: Image.Image, data: bytes) -> None:
    read = decoded(data)
    assert read.mode == "P" and read.size == picture.size
    assert read.tobytes() == picture.tobytes()
    assert read.convert("RGB").tobytes() == picture.convert("RGB").tobytes()


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_tables_and_hands_of_every_game_decode_to_their_paletted_pictures(key) -> None:
    players = REGISTRY[key].player_counts[-1]
    state, events = played(key, players, {}, 20, seed=3)
    table = draw.table_canvas(table_scene(state, events, "de"))
    assert_reads_back(table.image, table.png())
    for seat in range(players):
        scene = HandScene(key, state.view(seat), NAMES[:players], "ru", playable(state, seat))
        hand = draw.hand_canvas(scene)
        assert_reads_back(hand.image, hand.png())


@pytest.mark.parametrize("width", [1, 2, 37, 960])
def test_pictures_of_any_size_are_written_whole_across_strips(width: int) -> None:
    per_strip = png.STRIP // (width + 1)
    rng = random.Random(width)
    for height in (1, per_strip, per_strip + 1, 2 * per_strip + 3):
        indices = rng.randbytes(width * height).translate(bytes(range(128)) * 2)
        picture = Image.frombytes("P", (width, height), indices)
        picture.putpalette(ENTRIES)
        assert_reads_back(picture, png.paletted_png(picture, ENTRIES))


def test_every_index_the_palette_mapping_chooses_is_in_the_written_palette() -> None:
    """The palette is written without its padding to 256 (copies of its first colour, which
    the mapping never prefers to the first)."""
    rng = random.Random(7)
    noise = Image.frombytes("RGB", (256, 256), rng.randbytes(256 * 256 * 3))
    mapped = noise.quantize(palette=theme_palette(DARK), dither=Image.Dither.NONE)
    assert mapped.getextrema()[1] < len(ENTRIES) // 3


def test_without_isal_the_standard_zlib_writes_the_same_picture(monkeypatch) -> None:
    state, events = played("kami", 4, {}, 20, seed=3)
    table = draw.table_canvas(table_scene(state, events, "en"))
    monkeypatch.setattr(png, "compressobj", zlib.compressobj)
    written = table.png()
    assert_reads_back(table.image, written)
