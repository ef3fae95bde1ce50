"""Every message the bot builds fits Discord's limits, in every language, with long names.

Discord refuses an oversized message with 400 / 50035 and the player sees nothing, so each
payload here goes through the same validator SimCord and the loopback emulator use
(``bot/loopback/discord_limits.py``). Random playthroughs of every game, player count and option
combination (like ``test_rendering.py``, without Discord) are rendered in English, German and
Russian with 32-character display names: names full of Markdown (which escaping doubles),
Cyrillic and wide characters. Checked: the lobby, the table, every hand (full and as a DM) with
its menus at every level, ``/scores`` (every page), ``/standings`` with 100 players, ``/rules``
and the notices. Long Kami games (the highest target, many rounds) are played to their end.
"""

from __future__ import annotations

import random
import string
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord.utils import escape_markdown

from bot.flows.session import LoadedGame
from bot.i18n import LOCALES, catalog, placeholders, t
from bot.loopback.discord_limits import COMPONENTS_V2, CONTENT, message_problems
from bot.messages import guide
from bot.messages.controls import breadcrumb, lobby_view, menu_controls, resolve, table_view
from bot.messages.scores import scores_message
from bot.ratings.board import PER_PAGE, board_pages, standings_message
from bot.ratings.queries import BoardEntry, ranked
from bot.render import presenter_for
from bot.render.common import lobby_embed, log_lines, safe_names, table_embed
from bot.render.limits import EMBED_DESCRIPTION, FIELD_VALUE, first_lines, last_lines
from bot.render.messages import (
    CHART_FILE,
    HAND_FILE,
    TABLE_FILE,
    hand_layout,
    table_layout,
)
from bot.render.story import RecentMoves
from bot.storage.models import GameRow, GameStatus, SeatRow
from games import REGISTRY, State
from games.menu import MenuTree, action_at, choices_at
from tests.bot.test_scores import long_kami_game
from tests.games.protocol import option_combinations

MIXED_NAMES = [
    "Aleksandra Konstantinopolskaya_1",
    "Щекочихин-Крестовоздвиженский Ян",
    "龍" * 32,
    "> # - 1. [x](y) @everyone <@1> _",
]
MARKDOWN_NAMES = ["*_" * 16, "_`" * 16, "~|" * 16, "`*" * 16]
"""Every character escaped: 64 characters each once ``escape_markdown`` has run."""
NAME_SETS = (MIXED_NAMES, MARKDOWN_NAMES)
LOCALE_CODES = ("en", "de", "ru")
CASES = [
    pytest.param(
        key,
        players,
        options,
        NAME_SETS[number % len(NAME_SETS)],
        id=f"{key}-{players}p-{'-'.join(f'{k}={v}' for k, v in options.items())}-names{number % 2}",
    )
    for key, game in REGISTRY.items()
    for players in game.player_counts
    for number, options in enumerate(option_combinations(game, players))
]
RENDER_EVERY = 50
"""Render every n-th position (and the last) of each playthrough."""


def test_the_names_are_32_characters_and_escaping_lengthens_some() -> None:
    for names in NAME_SETS:
        assert all(len(name) == 32 for name in names), names
    assert all(len(escape_markdown(name)) == 64 for name in MARKDOWN_NAMES)


# ---------------------------------------------------------------- helpers


def loaded_for(
    state: State | None,
    key: str,
    options: dict[str, Any],
    names: Sequence[str],
    *,
    status: GameStatus = GameStatus.ACTIVE,
    version: int = 1,
) -> LoadedGame:
    row = GameRow(
        id=9_223_372_036_854_775_807,  # the largest BIGINT: the longest id in a custom_id
        guild_id=1,
        channel_id=1,
        host_id=100,
        game_key=key,
        options=options,
        status=status,
        version=version,
        expires_at=datetime.now(UTC) + timedelta(minutes=10),
    )
    seats = [
        SeatRow(game_id=1, seat=seat, user_id=100 + seat, display_name=name)
        for seat, name in enumerate(names)
    ]
    return LoadedGame(row=row, seats=seats, game=REGISTRY[key], state=state)


def wire(embed: discord.Embed | None = None, view: discord.ui.View | None = None) -> dict:
    """A message body as discord.py sends it."""
    return {
        "embeds": [embed.to_dict()] if embed is not None else [],
        "components": view.to_components() if view is not None else [],
    }


def v2_wire(layout: Any) -> dict:
    """A V2 message body as discord.py sends it (``render.layout.Layout``), with the files
    its galleries show."""
    files = [{"id": n, "filename": p.filename} for n, p in enumerate(layout.pictures)]
    return {"flags": 1 << 15, "components": layout.to_components(), "attachments": files}


PICTURE_SETS = ((), (TABLE_FILE, HAND_FILE, CHART_FILE))
"""Without pictures (the text carries the board) and with every picture."""


def check_table(
    loaded: LoadedGame, history: Sequence[Sequence[dict]], locale: str, what: str
) -> None:
    """The table as V2, with and without its pictures."""
    presenter = presenter_for(loaded.row.game_key)
    log = log_lines(presenter, history[-12:], safe_names(loaded.names), locale)
    for pictures in PICTURE_SETS:
        layout = table_layout(
            loaded, presenter, log, locale, pictures=pictures, controls=table_view(loaded, locale)
        )
        assert_fits(f"{what} (pictures {pictures})", v2_wire(layout))


def check_hand(
    loaded: LoadedGame,
    seat: int,
    locale: str,
    what: str,
    *,
    recent: Sequence[Sequence[dict]] = (),
    notice: str | None = None,
    path: tuple[int, ...] = (),
) -> None:
    """A hand as V2, full and as a DM, with and without pictures, with its story."""
    presenter = presenter_for(loaded.row.game_key)
    names = tuple(safe_names(loaded.names))
    controls = menu_controls(loaded, presenter, seat, locale, path, names)
    for pictures in PICTURE_SETS:
        for full in (True, False):
            layout = hand_layout(
                loaded,
                presenter,
                seat,
                locale,
                notice=notice,
                recent=recent,
                full=full,
                pictures=pictures,
                controls=controls,
            )
            assert_fits(f"{what} (full={full}, pictures {pictures})", v2_wire(layout))


def assert_fits(what: str, payload: dict[str, Any]) -> None:
    problems = message_problems(payload)
    assert not problems, f"{what}: {problems}"


# ---------------------------------------------------------------- every game, every option


@pytest.mark.parametrize(("key", "players", "options", "names"), CASES)
def test_every_message_of_a_random_playthrough_fits_discords_limits(
    key: str, players: int, options: dict[str, Any], names: list[str]
) -> None:
    game = REGISTRY[key]
    names = names[:players]
    rng = random.Random(f"limits-{key}-{players}-{sorted(options.items())}")
    check_lobby(key, options, names)
    state = game.new_state(players, rng.randrange(2**32), options)
    history: list[list[dict]] = [list(state.opening_events)]
    step = 0
    while not state.is_over:
        actions = state.legal_actions()
        tokens: tuple[str, ...] = ()
        indices: tuple[int, ...] = ()
        render = step % RENDER_EVERY == 0
        while (action := action_at(actions, tokens)) is None:
            if render:
                check_menu(state, key, options, names, indices)
            choices = choices_at(actions, tokens)
            index = rng.randrange(len(choices))
            tokens, indices = (*tokens, choices[index]), (*indices, index)
        if render:
            check_position(state, key, options, names, history, step)
        history.append(state.apply(action))
        step += 1
    check_position(state, key, options, names, history, step)
    for status in (GameStatus.FINISHED, GameStatus.ABANDONED, GameStatus.CANCELLED):
        loaded = loaded_for(state, key, options, names, status=status, version=step)
        for locale in LOCALE_CODES:
            check_table(loaded, history, locale, f"{status} table")
            check_scores(loaded, locale)
            check_game_over(loaded, locale)


def check_lobby(key: str, options: dict[str, Any], names: list[str]) -> None:
    presenter = presenter_for(key)
    for status in (GameStatus.LOBBY, GameStatus.EXPIRED, GameStatus.ACTIVE):
        loaded = loaded_for(None, key, options, names, status=status)
        for locale in LOCALE_CODES:
            for focus in range(len(loaded.game.options)):
                view = lobby_view(loaded, presenter, locale, focus)
                assert_fits(f"lobby {status}", wire(lobby_embed(loaded, presenter, locale), view))


def check_menu(
    state: State, key: str, options: dict[str, Any], names: list[str], path: tuple[int, ...]
) -> None:
    """The hand of the player on turn at one level of their move menu, as a click shows it."""
    seat = state.to_move
    assert seat is not None
    presenter = presenter_for(key)
    loaded = loaded_for(state, key, options, names)
    tokens = resolve(MenuTree.of(state.legal_actions()), path)
    assert tokens is not None
    for locale in LOCALE_CODES:
        notice = breadcrumb(loaded, presenter, seat, tokens, locale)
        check_hand(loaded, seat, locale, f"menu at {path}", notice=notice, path=path)


def check_position(
    state: State,
    key: str,
    options: dict[str, Any],
    names: list[str],
    history: list[list[dict]],
    step: int,
) -> None:
    """Table and every hand (full, as a DM, with a notice) at one position."""
    loaded = loaded_for(state, key, options, names, version=step)
    # Nobody's last move among them: every seat's story is as long as it gets.
    recent = RecentMoves(
        [SimpleNamespace(version=n, seat=-1, events=e) for n, e in enumerate(history[-12:])]
    )
    for locale in LOCALE_CODES:
        check_table(loaded, history, locale, "table")
        for seat in range(state.num_players):
            notice = t("move.stale", locale)
            check_hand(
                loaded,
                seat,
                locale,
                f"hand of seat {seat}",
                recent=RecentMoves(recent.moves[-12:]),
                notice=notice,
            )
        check_scores(loaded, locale)


def check_scores(loaded: LoadedGame, locale: str) -> list[str]:
    """Every ``/scores`` page fits; the rounds each page shows, first page first."""
    first = scores_message(loaded, locale)
    count = 1 if first["view"] is None else page_count(first["view"])
    pages = []
    for page in range(1, count + 1):
        content = scores_message(loaded, locale, page)
        assert_fits(f"/scores page {page} of {count}", wire(content["embed"], content["view"]))
        pages.append(content["embed"].fields[0].value)
    return pages


def page_count(view: discord.ui.View) -> int:
    """The page the last button (⏭) leads to: ``glory:sc:<game>:<page>:last``."""
    last = view.to_components()[-1]["components"][-1]
    return int(last["custom_id"].split(":")[3])


# ---------------------------------------------------------------- long games


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_long_kami_game_fits_at_its_end_with_every_round_on_one_page(players: int) -> None:
    """Kami to its end with the highest target: dozens of rounds, pages of ``/scores``."""
    state = long_kami_game(players, rounds=40)
    options = {"target": 30, "ending": "kami"}
    for names in NAME_SETS:
        loaded = loaded_for(state, "kami", options, names[:players], status=GameStatus.FINISHED)
        for locale in LOCALE_CODES:
            check_table(loaded, [], locale, "long game table")
            for seat in range(players):
                check_hand(loaded, seat, locale, "long game hand")
            pages = check_scores(loaded, locale)
            lines = [line for page in pages for line in page.splitlines()]
            expected = [t("scores.round", locale, number=n, scores="") for n in range(1, 41)]
            assert len(lines) == len(state.round_scores) and len(pages) >= 4
            assert all(line.startswith(e) for line, e in zip(lines, expected, strict=False))


def test_a_long_kami_game_is_rendered_while_it_runs() -> None:
    """The table, hands and scores of a 4-player game with many rounds, at every round end."""
    game = REGISTRY["kami"]
    options = {"target": 30, "ending": "kami"}
    rng = random.Random(7)
    state = game.new_state(4, 7, options)
    history: list[list[dict]] = [list(state.opening_events)]
    rounds = 0
    while not state.is_over:
        history.append(state.apply(rng.choice(state.legal_actions())))
        if len(state.round_scores) > rounds:
            rounds = len(state.round_scores)
            check_position(state, "kami", options, MARKDOWN_NAMES, history, len(history))
    assert rounds >= 15


# ---------------------------------------------------------------- /standings, /rules, notices


@pytest.mark.parametrize("caller_rank", [1, PER_PAGE, PER_PAGE + 1, 100])
def test_standings_with_100_players_fit_on_every_page(caller_rank: int) -> None:
    board = ranked(
        [
            BoardEntry(10**18 + rank, "", 50.0 - rank / 10, 0.8, 10_000 - rank, 5_000 - rank)
            for rank in range(1, 101)
        ]
        + [BoardEntry(0, level, 30.0, 1.0, 99_999, 99_999) for level in ("easy", "strong")]
    )
    pages = board_pages([("clans_and_glory", board), ("kami", board)])
    caller = board[caller_rank - 1].user_id
    for locale in LOCALE_CODES:
        for page in (1, 2, len(pages)):
            content = standings_message(pages, page, caller, locale, game=None, with_ai=True)
            assert_fits("standings", wire(content["embed"], content["view"]))
            text = content["embed"].description or ""
            assert f"<@{caller}>" in text, "the caller always sees their line"
            assert text.count("\n") <= PER_PAGE + 1


@pytest.mark.parametrize("key", sorted(REGISTRY))
@pytest.mark.parametrize("url", [None, "https://example.org/" + "x" * 300])
def test_every_rules_page_fits_in_every_language(monkeypatch, key: str, url: str | None) -> None:
    """Each page of the /rules guide, with the footer naming the file or a long link button."""
    monkeypatch.setattr(guide, "repository_url", lambda: url)
    for locale in LOCALE_CODES:
        for page in range(1, guide.page_count(key) + 1):
            message = guide.guide_message(key, locale, page)
            assert_fits(f"/rules {key} {locale} page {page}", wire(**message))
            # An embed's limits are not a page a phone can show: keep every page short.
            assert len(message["embed"].description) <= 2000, (key, locale, page)


FOUR_LONG_NAMES = ", ".join(escape_markdown(name) for name in MARKDOWN_NAMES)
"""The longest a placeholder naming players gets: four escaped 32-character names."""


@pytest.mark.parametrize("locale", LOCALES)
def test_every_catalog_text_fits_a_message_even_naming_four_long_names(locale: str) -> None:
    """Notices and answers are catalog texts sent as a message's content (2,000 characters)."""
    too_long = []
    for key, message in catalog(locale).items():
        for form in message.values() if isinstance(message, dict) else [message]:
            params = {
                name: 99_999 if name == "count" else FOUR_LONG_NAMES for name in placeholders(form)
            }
            text = string.Formatter().vformat(form, (), params)
            if len(text) > CONTENT:
                too_long.append((key, len(text)))
    assert not too_long


def test_the_real_notices_fit() -> None:
    mentions = ", ".join(f"<@{10**18 + seat}>" for seat in range(4))
    link = (
        "https://discord.com/channels/1234567890123456789/1234567890123456789/1234567890123456789"
    )
    for locale in LOCALE_CODES:
        for text in (
            t("dm.closed", locale, mentions=mentions, button=t("button.my_hand", locale), count=4),
            t("table.moved", locale, link=link),
        ):
            assert_fits("notice", {"content": text})


# ---------------------------------------------------------------- how text is cut


def test_a_clipped_log_keeps_its_newest_lines_whole() -> None:
    lines = [f"• line {number} " + "x" * 200 for number in range(8)]
    kept = last_lines(lines, FIELD_VALUE)
    assert len(kept) <= FIELD_VALUE
    assert kept.endswith(lines[-1]) and kept.splitlines() == lines[-len(kept.splitlines()) :]


def test_a_single_line_longer_than_the_room_is_clipped_not_dropped() -> None:
    assert last_lines(["y" * 2000], 100) == "y" * 99 + "…"
    assert first_lines(["z" * 5000], EMBED_DESCRIPTION) == "z" * 4095 + "…"


def test_a_cut_description_ends_with_an_ellipsis_line_after_whole_lines() -> None:
    lines = [str(number) * 100 for number in range(10)] * 10
    text = first_lines(lines, 1000)
    assert len(text) <= 1000 and text.endswith("\n…")
    assert all(line in lines for line in text.splitlines()[:-1])


def test_the_tables_log_keeps_the_newest_lines_when_it_is_too_long() -> None:
    """Clans and Glory with four escaped long names: eight log lines exceed a field."""
    key, presenter = "clans_and_glory", presenter_for("clans_and_glory")
    names = safe_names(MARKDOWN_NAMES)
    state = REGISTRY[key].new_state(4, 3, {})
    rng = random.Random(3)
    history: list[list[dict]] = [list(state.opening_events)]
    log: list[str] = []
    while len("\n".join(log)) <= FIELD_VALUE:
        assert not state.is_over, "no position of this game needs its log clipped"
        history.append(state.apply(rng.choice(state.legal_actions())))
        log = log_lines(presenter, history[-6:], names, "ru")
    loaded = loaded_for(state, key, {}, MARKDOWN_NAMES)
    embed = table_embed(loaded, presenter, history[-6:], "ru")
    shown = embed.fields[-1].value.splitlines()
    assert shown == log[-len(shown) :] and shown[-1] == log[-1]
    assert_fits("table with a long log", wire(embed))


# ---------------------------------------------------------------- /replay and /history


@pytest.mark.parametrize(("key", "players"), [(k, p) for k in REGISTRY for p in (2, 4)])
@pytest.mark.parametrize("names", NAME_SETS, ids=["mixed", "markdown"])
def test_every_replay_position_fits_with_hands_in_every_language(key, players, names) -> None:
    from bot.replays.rebuild import LoggedStep, Replay
    from bot.replays.source import GameRecord
    from bot.replays.view import replay_message

    game = REGISTRY[key]
    rng = random.Random(players)
    state = game.new_state(players, 5, {})
    opening, steps = state.opening_events, []
    while not state.is_over:
        seat = state.to_move
        action = rng.choice(state.legal_actions())
        steps.append(LoggedStep(seat, action.to_json(), state.apply(action)))
    loaded = loaded_for(state, key, {}, names[:players], status=GameStatus.FINISHED)
    loaded.row.seed, loaded.row.state = 5, state.to_json()
    record = GameRecord(loaded.row, loaded.seats, steps, opening)
    replay = Replay.build(
        game,
        players=players,
        seed=5,
        options={},
        opening_events=opening,
        steps=steps,
        final_state=state.to_json(),
    )
    assert replay.problem is None
    positions = {0, 1, replay.last, *range(0, replay.last, max(replay.last // 6, 1))}
    shown_hands = 0
    for locale in LOCALE_CODES:
        titles = {t("replay.hand_of", locale, name=name)[:256] for name in safe_names(loaded.names)}
        for position in sorted(positions):
            content = replay_message(record, replay, position, locale, reveal=True)
            assert_fits(f"replay {position} {locale}", wire(content["embed"], content["view"]))
            hands = sum(1 for field in content["embed"].fields if field.name in titles)
            assert hands in (0, players), "every hand or none"
            shown_hands += hands
    assert shown_hands, "the hands fit at least somewhere"


@pytest.mark.parametrize("names", NAME_SETS, ids=["mixed", "markdown"])
def test_a_full_history_page_fits_in_every_language(names) -> None:
    from bot.messages.history import PER_PAGE as HISTORY_PAGE
    from bot.messages.history import EndedGame, history_message

    games = []
    for _ in range(HISTORY_PAGE):
        loaded = loaded_for(None, "kami", {}, names, status=GameStatus.FINISHED)
        loaded.row.updated_at = datetime.now(UTC)
        games.append(
            EndedGame(
                loaded.row,
                loaded.seats,
                [0, 1, 2, 3],
                99_999,
                datetime.now(UTC) - timedelta(days=3),
            )
        )
    for locale in LOCALE_CODES:
        content = history_message(
            games,
            10**9,
            123_456,
            locale,
            game="clans_and_glory",
            user=2**63 - 1,
            user_name=escape_markdown(names[0]),
        )
        assert_fits(f"history {locale}", wire(content["embed"], content["view"]))
        assert content["embed"].description.count("\n") == HISTORY_PAGE - 1, "no line was cut"


# ---------------------------------------------------------------- the game-over message


def check_game_over(loaded: LoadedGame, locale: str) -> None:
    """The game-over message (Components V2) of ``loaded`` in ``locale``, with a rating change
    for every seat, a player who left and the final chart, fits; it mentions the players
    alone."""
    from bot.messages.game_over import game_over
    from bot.messages.game_over_layout import chart_alt, game_over_layout, over_accent
    from bot.pictures.attach import CHART_FILE
    from bot.ratings.queries import SeatRatingChange
    from bot.render.layout import Picture

    loaded.row.locale = locale
    loaded.seats[-1].departed = True
    changes = {
        seat: SeatRatingChange(seat, -123.456, 98.765, seat != 0)
        for seat in range(len(loaded.seats))
    }
    over = game_over(loaded, changes, "everyone_left")
    chart = Picture(CHART_FILE, chart_alt(loaded))  # the final chart, its alt text the totals
    layout = game_over_layout(over, locale=locale, accent=over_accent(loaded), chart=chart)
    payload = {
        "components": layout,
        "flags": COMPONENTS_V2,
        "nonce": "1" * 19,
        "attachments": [{"id": 0, "filename": CHART_FILE}],
    }
    assert_fits(f"game over ({loaded.status}, {locale})", payload)
    assert over.mentions == tuple(seat.user_id for seat in loaded.seats)
    loaded.seats[-1].departed = False


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_game_over_message_of_a_long_game_fits_with_long_names(players: int) -> None:
    state = long_kami_game(players, rounds=40)
    options = {"target": 30, "ending": "kami"}
    for names in NAME_SETS:
        for status in (GameStatus.FINISHED, GameStatus.ABANDONED, GameStatus.CANCELLED):
            loaded = loaded_for(state, "kami", options, names[:players], status=status)
            for locale in LOCALE_CODES:
                check_game_over(loaded, locale)
