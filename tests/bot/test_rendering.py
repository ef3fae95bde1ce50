"""Every game, player count and option combination through the bot's menus and presenters.

No Discord here: random games are played by walking the same menu tree the buttons show
(``games.menu``), and every position is rendered exactly as the bot renders it. This
covers the full option product cheaply; ``test_games_e2e.py`` plays a covering set for real.
"""

from __future__ import annotations

import random
import re
from types import SimpleNamespace
from typing import Any

import pytest

from bot.flows.session import LoadedGame
from bot.i18n import LOCALES, has
from bot.render import presenter_for
from bot.render.common import log_lines, table_embed
from bot.render.messages import hand_alt, hand_layout, table_alt, table_layout
from bot.render.story import RecentMoves, private_lines
from bot.storage.models import GameRow, GameStatus, SeatRow
from games import REGISTRY, State, events_for
from games.menu import action_at, choices_at
from tests.bot.driver import layout_texts
from tests.games.protocol import option_combinations

CASES = [
    (key, players, options)
    for key, game in REGISTRY.items()
    for players in game.player_counts
    for options in option_combinations(game, players)
]
NAMES = ["Ann", "Bob", "Cem", "Dia"]
RENDER_EVERY = 25
"""Render every n-th position in full (events and menus are checked at every step)."""


def loaded_for(state: State, options: dict[str, Any]) -> LoadedGame:
    row = GameRow(
        id=1,
        guild_id=1,
        channel_id=1,
        host_id=1,
        game_key=state.game_key,
        options=options,
        status=GameStatus.ACTIVE,
        version=1,
    )
    seats = [
        SeatRow(game_id=1, seat=seat, user_id=100 + seat, display_name=NAMES[seat])
        for seat in range(state.num_players)
    ]
    return LoadedGame(row=row, seats=seats, game=REGISTRY[state.game_key], state=state)


def embed_text(embed: Any) -> str:
    return "\n".join(
        [embed.title or "", embed.description or ""]
        + [f"{f.name}\n{f.value}" for f in embed.fields]
    )


def spy_views(state: State) -> list[int | None]:
    """Record which seats' views are asked for (to prove the table asks only for None)."""
    asked: list[int | None] = []
    original = state.view

    def view(seat: int | None) -> dict:
        asked.append(seat)
        return original(seat)

    state.view = view  # type: ignore[method-assign]
    return asked


@pytest.mark.parametrize(("key", "players", "options"), CASES, ids=str)
def test_every_position_renders_and_public_text_uses_only_public_views(
    key: str, players: int, options: dict[str, Any]
) -> None:
    game = REGISTRY[key]
    presenter = presenter_for(key)
    rng = random.Random(f"{key}-{players}-{sorted(options.items())}")
    state = game.new_state(players, rng.randrange(2**32), options)
    history: list[list[dict]] = [list(state.opening_events)]
    seats: list[int] = []
    for event in state.opening_events:
        line = presenter.event_line(event, NAMES[:players], "en")
        assert line or event["type"] in presenter.silent_events, event["type"]
    step = 0
    while not state.is_over:
        assert has(presenter.key("decision", state.decision or "none")), state.decision
        actions = state.legal_actions()
        path: tuple[str, ...] = ()
        view = state.view(state.to_move)
        while (action := action_at(actions, path)) is None:
            choices = choices_at(actions, path)
            assert 1 <= len(choices) <= 25
            for token in choices:
                word = token.partition(":")[0]
                assert has(presenter.key("menu", word)), token
                label = presenter.token_label(token, view, NAMES, "en")
                assert label and len(label) <= 100
            path = (*path, rng.choice(choices))
        seats.append(state.to_move)
        events = state.apply(action)
        history.append(events)
        for event in events:
            line = presenter.event_line(event, NAMES[:players], "en")
            assert line or event["type"] in presenter.silent_events, event["type"]
        step += 1
        if step % RENDER_EVERY == 0 or state.is_over:
            render_position(state, options, history, seats)


def render_position(
    state: State, options: dict[str, Any], history: list[list[dict]], seats: list[int]
) -> None:
    """The table and every hand as the bot writes them; ``seats``: who made each move of
    ``history`` after the opening (the stories need it)."""
    loaded = loaded_for(state, options)
    presenter = presenter_for(state.game_key)
    asked = spy_views(state)
    log = log_lines(presenter, history[-6:], NAMES, "en")
    public = "\n".join(layout_texts(table_layout(loaded, presenter, log, "en")))
    public += "\n" + table_alt(loaded, presenter, "en")
    assert asked and set(asked) == {None}, "the table must render from view(None) only"
    assert "{" not in public and len(public) < 6000
    for line in log:
        assert line in public
    moves = [
        SimpleNamespace(version=number + 2, seat=seat, events=events)
        for number, (seat, events) in enumerate(zip(seats, history[1:], strict=True))
    ][-12:]
    recent = RecentMoves(moves)
    for seat in range(state.num_players):
        hidden = hidden_lines(presenter, history[-12:], seat, state.num_players)
        for line in hidden | set(private_lines(presenter, history[-6:], seat, NAMES, "en")):
            assert line not in public, f"private line {line!r} on the table"
        for full in (True, False):
            hand = "\n".join(
                layout_texts(
                    hand_layout(
                        loaded,
                        presenter,
                        seat,
                        "en",
                        recent=recent,
                        full=full,
                    )
                )
            )
            hand += "\n" + hand_alt(loaded, presenter, seat, "en")
            assert "{" not in hand
            for line in hidden:
                assert line not in hand, f"another seat's private line {line!r} in a hand"
        quiet = "\n".join(layout_texts(hand_layout(loaded, presenter, seat, "en", full=False)))
        table_lines = [
            x
            for x in presenter.table_lines(state.view(seat), NAMES[: state.num_players], "en")
            if x
        ]
        on_turn = state.to_move == seat
        assert (table_lines[0] in quiet) == on_turn, "a DM shows the table to decide, only then"
    del state.view  # drop the spy


def hidden_lines(presenter: Any, moves: list[list[dict]], seat: int, players: int) -> set[str]:
    """Log lines only other seats may read: their private events, unless an event ``seat``
    may see reads the same."""
    mine: set[str] = set()
    theirs: set[str] = set()
    for events in moves:
        for event in events:
            line = presenter.event_line(event, NAMES[:players], "en")
            if not line:
                continue
            visible = event.get("visible_to")
            if visible is None or seat in visible:
                mine.add(f"• {line}")
            else:
                theirs.add(f"• {line}")
    return theirs - mine


def test_public_events_never_include_private_ones() -> None:
    events = [{"type": "a"}, {"type": "b", "visible_to": [1]}]
    assert events_for(events, None) == [{"type": "a"}]


def test_option_labels_exist_for_every_option_and_choice() -> None:
    for key, game in REGISTRY.items():
        presenter = presenter_for(key)
        assert presenter.game_name("en")
        for option in game.options:
            assert has(presenter.key("option", option.name)), option.name
            for choice in option.choices:
                if isinstance(choice, str):
                    assert has(presenter.key("option", option.name, choice)), (option.name, choice)


_ = SimpleNamespace


# ---------------------------------------------------------------- catalog-named positions

LATIN = re.compile("[A-Za-z]")
RUSSIAN_NAMES = ["Аня", "Боря", "Вера", "Глеб"]


def clans_positions(players: int) -> list[str]:
    state = REGISTRY["clans_and_glory"].new_state(players, 1)
    return [p["position"] for b in state.view(None)["boards"] for p in b["positions"]]


@pytest.mark.parametrize("players", REGISTRY["clans_and_glory"].player_counts)
def test_clans_positions_are_catalog_names_in_every_language(players: int) -> None:
    presenter = presenter_for("clans_and_glory")
    positions = clans_positions(players)
    for locale in LOCALES:
        labels = [presenter.position_label(position, locale) for position in positions]
        assert len(set(labels)) == len(labels), f"{locale}: two positions read alike"
        assert not any("{" in label or label in positions for label in labels), labels
    russian = [presenter.position_label(position, "ru") for position in positions]
    assert all(re.fullmatch(r"[СЮ]\d+|[ЗВ]", label) for label in russian), russian
    # Columns count from 1 along the row, like the boards: n0 is the first board's first.
    assert [presenter.position_label(p, "en") for p in ("n0", "s4", "hl", "hr")] == [
        "N1",
        "S5",
        "W",
        "E",
    ]
    assert [presenter.position_label(p, "de") for p in ("n0", "hr")] == ["N1", "O"]


def test_clans_positions_read_from_the_catalog_in_menus_events_and_rows() -> None:
    presenter = presenter_for("clans_and_glory")
    names = RUSSIAN_NAMES[:2]
    assert presenter.token_label("position:hl", {}, names, "ru") == "Место З"
    assert presenter.token_label("position:s10", {}, names, "de") == "Platz S11"
    placed = {"type": "card_placed", "seat": 1, "board": 1, "position": "n4", "card": "red-5"}
    assert presenter.event_line(placed, names, "ru") == (
        "Боря кладёт на место С5 (планшет 2): Красная 5."
    )
    assert presenter.event_line(placed, names, "en") == "Боря seated Red 5 at N5 on board 2."
    rows = presenter.table_lines(
        REGISTRY["clans_and_glory"].new_state(2, 1).view(None), names, "ru"
    )
    assert any(row.startswith("У костра: З ") for row in rows), rows
    assert any(row.startswith("Север: С1 ") for row in rows), rows


def test_a_russian_clans_and_glory_game_shows_no_latin_letters() -> None:
    """Table, hands, menus and every event line of a whole game, read in Russian."""
    game, presenter = REGISTRY["clans_and_glory"], presenter_for("clans_and_glory")
    rng = random.Random(5)
    state = game.new_state(3, rng.randrange(2**32), {})
    names = RUSSIAN_NAMES[:3]
    history: list[list[dict]] = [list(state.opening_events)]
    shown: list[str] = []
    while not state.is_over:
        actions, path = state.legal_actions(), ()
        view = state.view(state.to_move)
        while (action := action_at(actions, path)) is None:
            choices = choices_at(actions, path)
            shown += [presenter.token_label(token, view, names, "ru") for token in choices]
            path = (*path, rng.choice(choices))
        history.append(state.apply(action))
    for events in history:
        shown += [presenter.event_line(event, names, "ru") or "" for event in events]
    loaded = loaded_for(state, {})
    for seat, row in enumerate(loaded.seats):
        row.display_name = names[seat]
    shown.append(embed_text(table_embed(loaded, presenter, history[-6:], "ru")))
    shown += ["\n".join(layout_texts(hand_layout(loaded, presenter, s, "ru"))) for s in range(3)]
    latin = sorted({line for line in shown if LATIN.search(line)})
    assert not latin, latin[:5]
    assert any("Север: С1 " in line for line in shown), "the rows name their positions"


# ---------------------------------------------------------------- counted phrases


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        ("en", ["Draw piles: 21 cards and 1 card", "· 1 point this round", "· 5 points this"]),
        ("de", ["Zugstapel: 21 Karten und 1 Karte", "· 1 Punkt in dieser", "· 5 Punkte in"]),
        ("ru", ["Колоды добора: 21 карта и 1 карта", "раунде 1 очко", "раунде 5 очков"]),
    ],
)
def test_call_to_glory_counts_read_as_plural_phrases(locale: str, expected: list[str]) -> None:
    presenter = presenter_for("call_to_glory")
    view = REGISTRY["call_to_glory"].new_state(2, 3).view(None)
    view["draw_piles"] = [21, 1]
    view["display_points"] = [1, 5]
    text = "\n".join(presenter.table_lines(view, NAMES[:2], locale))
    for phrase in expected:
        assert phrase in text, (phrase, text)
    view["draw_piles"], view["display_points"] = [3, 12], [22, 0]
    text = "\n".join(presenter.table_lines(view, NAMES[:2], "ru"))
    assert "3 карты и 12 карт" in text and "раунде 22 очка" in text and "раунде 0 очков" in text


@pytest.mark.parametrize(
    ("locale", "soldiers", "text"),
    [
        ("en", 5, "Bob revealed 5 Soldiers (Demoralized)."),
        ("en", 1, "Bob revealed 1 Soldier (Demoralized)."),
        ("de", 5, "Bob zeigt 5 Soldaten (Demoralisiert)."),
        ("ru", 5, "Деморализация: у игрока Bob открыто 5 Солдат."),
        ("ru", 3, "Деморализация: у игрока Bob открыты 3 Солдата."),
        ("ru", 1, "Деморализация: у игрока Bob открыт 1 Солдат."),
    ],
)
def test_kami_soldier_reveals_count_with_plural_forms(locale, soldiers, text) -> None:
    event = {"type": "soldiers_revealed", "seat": 1, "soldiers": soldiers}
    assert presenter_for("kami").event_line(event, NAMES, locale) == text


@pytest.mark.parametrize(
    ("locale", "winners", "text"),
    [
        ("en", [0], "Final points: Ann 9, Bob 4. Winner: Ann."),
        ("en", [0, 1], "Final points: Ann 9, Bob 9. Winners: Ann, Bob."),
        ("de", [1], "Endstand: Ann 4, Bob 9. Gewonnen hat Bob."),
        ("ru", [0, 1], "Итоговые очки: Ann 9, Bob 9. Победители: Ann, Bob."),
    ],
)
def test_clans_result_names_one_winner_or_several(locale, winners, text) -> None:
    points = [9 if seat in winners else 4 for seat in range(2)]
    event = {"type": "result", "points": points, "cards": [3, 2], "winners": winners}
    assert presenter_for("clans_and_glory").event_line(event, NAMES[:2], locale) == text
