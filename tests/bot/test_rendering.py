"""Every game, player count and option combination through the bot's menus and presenters.

No Discord here: random games are played by walking the same menu tree the buttons show
(``bot.controls.resolve``), and every position is rendered exactly as the bot renders it. This
covers the full option product cheaply; ``test_games_e2e.py`` plays a covering set for real.
"""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from bot.i18n import has
from bot.render import presenter_for
from bot.render.common import hand_embed, log_lines, private_log_lines, table_embed
from bot.session import LoadedGame
from bot.storage.models import GameRow, GameStatus, SeatRow
from games import REGISTRY, State, events_for
from games.menu import action_at, choices_at
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
        events = state.apply(action)
        history.append(events)
        for event in events:
            line = presenter.event_line(event, NAMES[:players], "en")
            assert line or event["type"] in presenter.silent_events, event["type"]
        step += 1
        if step % RENDER_EVERY == 0 or state.is_over:
            render_position(state, options, history)


def render_position(state: State, options: dict[str, Any], history: list[list[dict]]) -> None:
    loaded = loaded_for(state, options)
    presenter = presenter_for(state.game_key)
    asked = spy_views(state)
    public = embed_text(table_embed(loaded, presenter, history[-6:], "en"))
    assert asked and set(asked) == {None}, "the table must render from view(None) only"
    assert "{" not in public and len(public) < 6000
    for line in log_lines(presenter, history[-6:], NAMES, "en"):
        assert line in public
    for seat in range(state.num_players):
        private = private_log_lines(presenter, history[-2:], seat, NAMES, "en")
        for line in private:
            assert line not in public, f"private line {line!r} on the table"
        hand = embed_text(hand_embed(loaded, presenter, seat, "en", private_log=private))
        assert "{" not in hand
        quiet = embed_text(hand_embed(loaded, presenter, seat, "en", full=False))
        table_lines = [
            x
            for x in presenter.table_lines(state.view(seat), NAMES[: state.num_players], "en")
            if x
        ]
        waiting = state.to_move not in (None, seat)
        assert (table_lines[0] in quiet) != waiting, "a waiting player's DM shows only theirs"
    del state.view  # drop the spy


def test_public_events_never_include_private_ones() -> None:
    events = [{"type": "a"}, {"type": "b", "visible_to": [1]}]
    assert events_for(events, None) == [{"type": "a"}]


def test_option_labels_exist_for_every_option_and_choice() -> None:
    for key, game in REGISTRY.items():
        presenter = presenter_for(key)
        assert presenter.game_name("en") and presenter.rules("en")
        for option in game.options:
            assert has(presenter.key("option", option.name)), option.name
            for choice in option.choices:
                if isinstance(choice, str):
                    assert has(presenter.key("option", option.name, choice)), (option.name, choice)


_ = SimpleNamespace
