"""The pictures of every game, player count and option value, in every language: their
structure (size, every seat's area, every visible card and nothing hidden), drawn from views.

Checked through the canvas's record of what it drew (``Canvas.marks``), not by reading pixels.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from PIL import Image

from bot.i18n import LOCALES, t
from bot.pictures import draw
from bot.pictures.chart import trend
from bot.pictures.layouts import call_to_glory
from bot.pictures.phone import WIDTH
from bot.pictures.scene import ChartScene, HandScene, TableScene, TrendScene
from games import REGISTRY, InvalidOptions, State, events_for
from tests.games.ai.twins import twin

NAMES = ["Анна-Мария Кузнецова", "Jürgen Weißmüller", "Chloé 🤖", "Дмитрий"]
MAX_PNG = 150 * 1024
MOVES_SHOWN = {"set_laid", "card_discarded", "set_discarded", "card_drawn", "card_placed"}
"""Events whose cards or piles the table frames as the last move."""


def cases() -> list[Any]:
    found = []
    for key, game in REGISTRY.items():
        for players in game.player_counts:
            found.append(pytest.param(key, players, {}, id=f"{key}-{players}-default"))
            for option in game.options:
                for value in option.choices:
                    if value == option.default:
                        continue
                    options = {option.name: value}
                    try:
                        game.resolve_options(players, options)
                    except InvalidOptions:
                        continue
                    found.append(
                        pytest.param(
                            key, players, options, id=f"{key}-{players}-{option.name}={value}"
                        )
                    )
    return found


def played(key: str, players: int, options: dict, moves: int, seed: int) -> tuple[State, list]:
    state = REGISTRY[key].new_state(players=players, seed=seed, options=options)
    rng = random.Random(seed)
    events: list = []
    for _ in range(moves):
        if state.is_over:
            break
        events = state.apply(rng.choice(state.legal_actions()))
    return state, events


def playable(state: State, seat: int) -> frozenset[str]:
    if state.to_move != seat:
        return frozenset()
    return frozenset(
        token.partition(":")[2]
        for action in state.legal_actions()
        for token in action.menu_path
        if token.startswith("card:")
    )


def table_scene(state: State, events: list, locale: str) -> TableScene:
    return TableScene(
        state.game_key,
        state.view(None),
        NAMES[: state.num_players],
        locale,
        "status",
        events_for(events, None),
    )


def visible_public_cards(view: dict) -> Counter:
    """Face-up cards the public view shows on the table (by token), and the face-down count."""
    shown: Counter = Counter()
    if view["game"] == "call_to_glory":
        for pile in view["discard_piles"]:
            shown.update(str(v) for v in pile[-call_to_glory.FAN :])
        for display in view["displays"]:
            shown.update(str(entry["value"]) for entry in display)
        for known in view["known_hand_cards"]:
            shown.update(str(v) for v in set(known))
    elif view["game"] == "kami":
        for line in view["lines"]:
            for card in line["defense"] + line["attack"]:
                shown[card["card"] or "back"] += 1
    else:
        for board in view["boards"]:
            for position in board["positions"]:
                if position["occupied"]:
                    shown[position["card"] or "back"] += 1
    return shown


def drawn_cards(canvas) -> Counter:
    drawn: Counter = Counter()
    for mark in canvas.marks:
        if mark.kind == "card" and mark.tag[0] not in ("task", "stack"):
            drawn[str(mark.tag[-1])] += 1
        elif mark.kind == "back" and mark.tag is not None and mark.tag[0] != "draw":
            drawn["back"] += 1
    return drawn


@pytest.mark.parametrize(("key", "players", "options"), cases())
def test_every_game_draws_its_table_and_hands_from_views(key, players, options) -> None:
    for locale, moves in zip(LOCALES, (0, 15, 400), strict=True):
        state, events = played(key, players, options, moves, seed=players * 7 + moves)
        scene = table_scene(state, events, locale)
        canvas = draw.table_canvas(scene)
        assert canvas.width == WIDTH and 200 <= canvas.height <= 1600
        areas = {mark.tag for mark in canvas.marked("area")}
        assert {("seat", seat) for seat in range(players)} <= areas
        turn = [mark.tag for mark in canvas.marked("area") if mark.emphasis == "turn"]
        assert turn == ([] if state.is_over else [("seat", state.to_move)])
        assert drawn_cards(canvas) == visible_public_cards(scene.view), locale
        assert not any(
            mark.tag[0] == "hand" for mark in canvas.marks if isinstance(mark.tag, tuple)
        )
        png = canvas.png()
        assert len(png) <= MAX_PNG
        for seat in range(players):
            view = state.view(seat)
            hand = draw.hand_canvas(
                HandScene(key, view, NAMES[:players], locale, playable(state, seat))
            )
            cards = [mark for mark in hand.marked("card")]
            held = view["hand"] or []
            tokens = [c["card"] if isinstance(c, dict) else str(c) for c in held]
            # Grouped cards carry their count: together they are exactly the hand.
            assert sum(mark.count for mark in cards) == len(tokens)
            assert {mark.tag[1] for mark in cards} == set(tokens)
            if state.to_move == seat and not state.is_over and playable(state, seat):
                legal = {mark.tag[1] for mark in cards if mark.emphasis == "legal"}
                assert legal == playable(state, seat) & set(tokens)


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_hidden_cards_change_no_public_picture_and_no_other_hand(key) -> None:
    """Twins (states differing only in cards hidden from a seat) draw identical pictures."""
    game = REGISTRY[key]
    players = game.player_counts[-1]
    rng = random.Random(key)
    for moves in (3, 20, 60):
        state, events = played(key, players, {}, moves, seed=moves)
        if state.is_over:
            continue
        seat = 0
        other = twin(state, seat, rng)
        assert other.view(None) == state.view(None)
        for locale in LOCALES:
            assert draw.table_png(table_scene(state, events, locale)) == draw.table_png(
                table_scene(other, events, locale)
            )
            mine = HandScene(key, state.view(seat), NAMES[:players], locale, playable(state, seat))
            twins = HandScene(key, other.view(seat), NAMES[:players], locale, playable(other, seat))
            assert draw.hand_png(mine) == draw.hand_png(twins)


def test_score_chart_has_a_line_per_side_with_cumulative_points() -> None:
    scene = ChartScene(
        "kami",
        [[3, 0, 3, 0], [0, 5, 0, 5], [4, 0, 4, 0]],
        [("Anna & Chloé", 0), ("Bernd & Дмитрий", 1)],
        "ru",
        "Kami",
        "Победа",
    )
    canvas = draw.chart_canvas(scene)
    series = {mark.tag for mark in canvas.marked("series")}
    assert series == {("Anna & Chloé", (0, 3, 3, 7)), ("Bernd & Дмитрий", (0, 0, 5, 5))}
    image = Image.open(__import__("io").BytesIO(canvas.png()))
    assert image.size == (canvas.width, canvas.height)


@pytest.mark.parametrize("locale", ["en", "de", "ru"])
def test_a_rating_trend_draws_one_line_per_game_with_every_rating(locale: str) -> None:
    series = [("Kami", (0.0, 1.4, 2.9, 2.1)), ("Clans and Glory", (0.0, -0.8))]
    canvas = trend(TrendScene(series, locale, t("pictures.trend.title", locale)))
    drawn = [mark.tag for mark in canvas.marks if mark.kind == "series"]
    assert drawn == [(label, tuple(points)) for label, points in series]
    png = canvas.png()
    assert png.startswith(b"\x89PNG") and len(png) <= 150_000
