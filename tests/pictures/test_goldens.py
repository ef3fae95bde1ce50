"""Golden images: fixed positions of every game must still look the same.

The positions are ``bot.pictures.gallery.SAMPLES`` and the finished games of ``CHARTS`` (the
pictures in ``docs/pictures.md``).
A picture may differ from its golden in at most ``TOLERANCE`` of its pixels by more than
``CHANNEL_STEP`` in a colour channel (a Pillow or FreeType upgrade moves antialiased edges).
After an intended change of the pictures, regenerate them with::

    python -m bot.pictures.gallery tests/pictures/goldens
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.pictures.gallery import CHARTS, SAMPLES, chart, pictures

GOLDENS = Path(__file__).parent / "goldens"
CHANNEL_STEP = 40
TOLERANCE = 0.005


def differing_share(drawn: bytes, golden: Path) -> float:
    new = Image.open(io.BytesIO(drawn)).convert("RGB")
    old = Image.open(golden).convert("RGB")
    assert new.size == old.size, f"{golden.name}: size {new.size} instead of {old.size}"
    difference = (
        ImageChops.difference(new, old)
        .convert("L")
        .point(lambda value: 255 if value > CHANNEL_STEP else 0)
    )
    changed = difference.histogram()[255]
    return changed / (new.width * new.height)


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda sample: sample.name)
def test_sample_positions_look_like_their_goldens(sample) -> None:
    for name, png in pictures(sample).items():
        share = differing_share(png, GOLDENS / name)
        assert share <= TOLERANCE, f"{name}: {share:.2%} of the pixels changed"


@pytest.mark.parametrize("sample", CHARTS, ids=lambda sample: sample.name)
def test_sample_charts_look_like_their_goldens(sample) -> None:
    for name, png in chart(sample).items():
        share = differing_share(png, GOLDENS / name)
        assert share <= TOLERANCE, f"{name}: {share:.2%} of the pixels changed"


def test_the_tolerance_catches_a_changed_card() -> None:
    """A single changed card is far more than the tolerance (the test can fail)."""
    sample = SAMPLES[0]
    name, png = next(iter(pictures(sample).items()))
    image = Image.open(io.BytesIO(png)).convert("RGB")
    image.paste((255, 0, 0), (100, 100, 152, 174))
    changed = io.BytesIO()
    image.save(changed, format="PNG")
    assert differing_share(changed.getvalue(), GOLDENS / name) > TOLERANCE
