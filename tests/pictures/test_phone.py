"""Pictures a phone can read: every text the canvas draws (``Canvas.writings``) is at least
the phone's smallest legible size once Discord shrinks the picture to a phone's width, no card
name is cut in any language, and nothing is drawn over a text.

The positions are those of ``test_drawing.py`` (every game, player count and option value, at
the start, in the middle and near the end, each in another language) plus pictures made to
hold every card of every game in every language, with the longest names players may have.
"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from bot.i18n import LOCALES, t
from bot.pictures import draw
from bot.pictures.canvas import Canvas, Written
from bot.pictures.chart import axis, nice_step, trend
from bot.pictures.palette import DARK
from bot.pictures.phone import MIN_PHONE_TEXT, PHONE_WIDTH, WIDTH, phone_scale
from bot.pictures.scene import ChartScene, HandScene, TableScene, TrendScene, plain
from bot.render import presenter_for
from games import REGISTRY, events_for
from games.call_to_glory.cards import VALUES as GLORY_VALUES
from games.kami.cards import NAMES as KAMI_CARDS
from tests.pictures.test_drawing import cases, playable, played

LONG_NAMES = [
    "Анна-Мария Кузнецова-Щербакова",
    "Jürgen Weißmüller-Schönberger",
    "Chloé 🤖",
    "W" * 32,
]


def status_of(state: Any, names: list[str], locale: str) -> str:
    """The status line the bot draws: whose turn it is and what they decide (plain text)."""
    seat = state.to_move if state.to_move is not None else 0
    decision = presenter_for(state.game_key).decision(state.decision, locale)
    return plain(t("table.turn", locale, name=names[seat], decision=decision))


def pictures_of(key: str, players: int, options: dict) -> list[tuple[str, Canvas]]:
    """The table and every hand at three positions, each in another language."""
    drawn = []
    names = LONG_NAMES[:players]
    for locale, moves in zip(LOCALES, (0, 15, 400), strict=True):
        state, events = played(key, players, options, moves, seed=players * 5 + moves)
        scene = TableScene(
            key,
            state.view(None),
            names,
            locale,
            status_of(state, names, locale),
            events_for(events, None),
        )
        drawn.append((f"{locale} table", draw.table_canvas(scene)))
        for seat in range(players):
            hand = HandScene(key, state.view(seat), names, locale, playable(state, seat))
            drawn.append((f"{locale} hand {seat}", draw.hand_canvas(hand)))
    return drawn


def too_small(canvas: Canvas) -> list[Written]:
    """Texts smaller than the phone's minimum once the picture is shown at the phone's width."""
    scale = phone_scale(canvas.width)
    return [w for w in canvas.writings if w.size * scale < MIN_PHONE_TEXT]


def overlapping(first: tuple[int, ...], second: tuple[int, ...]) -> bool:
    return (
        first[0] < second[2]
        and second[0] < first[2]
        and first[1] < second[3]
        and second[1] < first[3]
    )


def inside(inner: tuple[int, ...], outer: tuple[int, ...]) -> bool:
    return (
        inner[0] >= outer[0]
        and inner[1] >= outer[1]
        and inner[2] <= outer[2]
        and inner[3] <= outer[3]
    )


def covered_texts(canvas: Canvas) -> list[Any]:
    """Texts that overlap another text, or a card they are not written on (a badge over a
    name, a card of a fan over the one under it)."""
    found = []
    writings = canvas.writings
    for index, first in enumerate(writings):
        for second in writings[index + 1 :]:
            if overlapping(first.box, second.box):
                found.append((first.shown, second.shown))
    tiles = [m for m in canvas.marks if m.kind in ("card", "back", "slot")]
    for writing in writings:
        for tile in tiles:
            if overlapping(writing.box, tile.box) and not inside(writing.box, tile.box):
                found.append((writing.shown, tile.tag))
    return found


def outside(canvas: Canvas) -> list[Written]:
    return [w for w in canvas.writings if not inside(w.box, (0, 0, canvas.width, canvas.height))]


@pytest.mark.parametrize(("key", "players", "options"), cases())
def test_every_text_is_legible_on_a_phone_and_nothing_covers_it(key, players, options) -> None:
    for what, canvas in pictures_of(key, players, options):
        assert canvas.width <= WIDTH, what
        assert too_small(canvas) == [], what
        assert outside(canvas) == [], what
        assert covered_texts(canvas) == [], what
        cut = [w for w in canvas.writings if w.clipped and w.role != "player"]
        assert cut == [], what  # only a player's long name may be clipped


def every_card_hand(key: str, locale: str) -> HandScene:
    """A hand holding every card of the game (twice, for the "×2" beside the value)."""
    game = REGISTRY[key]
    players = game.player_counts[0]
    state = game.new_state(players, 1)
    view = dict(state.view(0))
    if key == "kami":
        view["hand"] = [name for name in KAMI_CARDS for _ in range(2)]
    elif key == "call_to_glory":
        view["hand"] = [value for value in GLORY_VALUES for _ in range(2)]
    else:
        view["hand"] = [
            {"card": f"{colour}-{value}", "colour": colour, "value": value}
            for colour in ("red", "blue", "green", "yellow", "purple", "orange", "black")
            for value in (0, 9)
        ]
    return HandScene(key, view, LONG_NAMES[:players], locale, playable(state, 0))


def kami_table_with_every_card(locale: str, players: int) -> TableScene:
    """Kami's table with every card type face up in the lines (and on the mercenary stacks of
    a duel)."""
    state = REGISTRY["kami"].new_state(players, 1)
    view = dict(state.view(None))
    lines = []
    for seat in range(players):
        shift = seat * 3
        cards = [KAMI_CARDS[(shift + index) % len(KAMI_CARDS)] for index in range(4)]
        lines.append(
            {
                "defense": [{"card": name} for name in cards],
                "attack": [{"card": name} for name in reversed(cards)],
            }
        )
    view["lines"] = lines
    if view.get("mercenaries"):
        view["mercenaries"] = [
            {"height": 3, "top": name} for name in KAMI_CARDS[: len(view["mercenaries"])]
        ]
    names = LONG_NAMES[:players]
    return TableScene("kami", view, names, locale, "status", ())


def card_names(canvas: Canvas) -> dict[str, list[Written]]:
    names: dict[str, list[Written]] = {}
    for writing in canvas.writings:
        if writing.role == "name":
            names.setdefault(writing.text, []).append(writing)
    return names


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("key", ["call_to_glory", "kami"])
def test_every_card_name_is_shown_whole_in_every_language(key: str, locale: str) -> None:
    canvas = draw.hand_canvas(every_card_hand(key, locale))
    names = card_names(canvas)
    cards = [m for m in canvas.marks if m.kind == "card"]
    keys = (
        [f"kami.card.{name}" for name in KAMI_CARDS]
        if key == "kami"
        else [f"call_to_glory.card.{value}" for value in GLORY_VALUES]
    )
    expected = {t(card, locale).rsplit(" (", 1)[0] for card in keys}
    assert set(names) == expected
    for name, writings in names.items():
        for writing in writings:
            assert not writing.clipped and "…" not in writing.shown, name
            assert any(inside(writing.box, card.box) for card in cards), name
    assert too_small(canvas) == [] and covered_texts(canvas) == []


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_kami_tables_show_every_card_name_whole(players: int, locale: str) -> None:
    canvas = draw.table_canvas(kami_table_with_every_card(locale, players))
    names = card_names(canvas)
    assert set(names) == {t(f"kami.card.{name}", locale).rsplit(" (", 1)[0] for name in KAMI_CARDS}
    for writings in names.values():
        assert all(not writing.clipped for writing in writings)
    assert too_small(canvas) == [] and covered_texts(canvas) == [] and outside(canvas) == []


def test_the_phone_rule_is_what_the_tables_are_drawn_for() -> None:
    """A 600-pixel table shown 400 wide: its smallest text (18 px) is 12 px on the phone."""
    assert phone_scale(WIDTH) == PHONE_WIDTH / WIDTH
    assert 18 * phone_scale(WIDTH) >= MIN_PHONE_TEXT > 17 * phone_scale(WIDTH)
    assert phone_scale(300) == 1.0  # a narrow picture is not enlarged: its own size counts


def test_a_960_pixel_table_with_9_pixel_labels_fails_the_phone_rule() -> None:
    """The check can fail: the old tables' labels were 7–9 px in 960 px."""
    canvas = Canvas(960, 400, DARK)
    canvas.text((10, 10), "Known in hand", size=9)
    assert [w.text for w in too_small(canvas)] == ["Known in hand"]


def chart_canvas(key: str, players: int, locale: str, seed: int) -> Canvas:
    state = REGISTRY[key].new_state(players, seed)
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    view = state.view(None)
    sides = presenter_for(key).score_sides(view, LONG_NAMES[:players])
    return draw.chart_canvas(
        ChartScene(
            key,
            view["round_scores"],
            sides,
            locale,
            t(f"{key}.name", locale),
            "Result",
            rounds="round" in view,
        )
    )


@pytest.mark.parametrize("locale", LOCALES)
def test_charts_are_legible_on_a_phone(locale: str) -> None:
    for index, (key, game) in enumerate(REGISTRY.items()):
        canvas = chart_canvas(key, game.player_counts[-1], locale, seed=index + 3)
        assert canvas.width == WIDTH
        assert too_small(canvas) == [] and outside(canvas) == []
        assert covered_texts(canvas) == []
        values = [w.text for w in canvas.writings]
        assert all(not w.clipped for w in canvas.writings if w.role != "player"), values
    series = [("Kami", (0.0, 1.4, 2.9, 2.1)), ("Clans and Glory", (0.0, -0.8))]
    canvas = trend(TrendScene(series, locale, t("pictures.trend.title", locale)))
    assert too_small(canvas) == [] and outside(canvas) == [] and covered_texts(canvas) == []


def round_numbers(ticks: tuple[float, ...]) -> bool:
    step = ticks[1] - ticks[0]
    mantissa = step / 10 ** math.floor(math.log10(step))
    return round(mantissa, 6) in (1, 2, 5) and all(
        abs(value / step - round(value / step)) < 1e-6 for value in ticks
    )


@pytest.mark.parametrize(
    ("low", "high", "expected"),
    [
        (0, 112, (0, 50, 100, 150)),
        (0, 17, (0, 5, 10, 15, 20)),
        (0, 196, (0, 50, 100, 150, 200)),
        (0, 1, (0, 0.5, 1)),
        (-3, 8, (-5, 0, 5, 10)),
    ],
)
def test_the_value_axis_steps_in_round_numbers(low, high, expected) -> None:
    ticks = tuple(axis(low, high, whole=False))
    assert ticks == pytest.approx(expected)
    assert round_numbers(ticks)


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_every_chart_axis_is_round_and_holds_every_point(key: str) -> None:
    game = REGISTRY[key]
    for players in game.player_counts:
        canvas = chart_canvas(key, players, "en", seed=players)
        (axis_mark,) = canvas.marked("axis")
        ticks = axis_mark.tag
        assert 3 <= len(ticks) <= 6 and round_numbers(ticks)
        for series in canvas.marked("series"):
            points = series.tag[1]
            assert ticks[0] <= min(points) and max(points) <= ticks[-1]
        assert nice_step(ticks[-1] - ticks[0]) >= 1
