"""A hand's answer is built as JSON and from texts kept per state (bot_load's click latency).

``controls.menu_controls`` writes the components ``controls.menu_view`` would send without
discord.py's items, and a state's hand texts, menu levels and labels are kept for every
``LoadedGame`` of that state (``session.Derived``). Neither may change a single character of
what a player sees: these tests compare both with the plain build, for every game, seat,
language and menu level along random games.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from types import SimpleNamespace

import discord
import pytest

from bot.flows.session import LoadedGame
from bot.i18n import LOCALES
from bot.messages.controls import (
    PrebuiltControls,
    breadcrumb,
    label_whole_menu,
    menu_controls,
    menu_tree,
    menu_view,
    resolve,
)
from bot.render import presenter_for
from bot.render.messages import hand_layout
from bot.render.story import RecentMoves
from bot.storage.models import GameStatus
from games import REGISTRY, State
from games.menu import choices_at
from tests.bot.test_rendering import loaded_for

RECENT = RecentMoves(
    [SimpleNamespace(version=2, seat=0, events=[{"type": "autoplay", "seat": 1, "why": "clock"}])]
)
"""A latest move to tell in the hands' stories."""


def fresh(loaded: LoadedGame) -> LoadedGame:
    """The same game with nothing derived yet (no kept texts, views or menu levels)."""
    return LoadedGame(row=loaded.row, seats=loaded.seats, game=loaded.game, state=loaded.state)


def positions(key: str, games: int = 3, moves: int = 40) -> Iterator[State]:
    game = REGISTRY[key]
    for seed in range(games):
        state = game.new_state(3, seed)
        rng = random.Random(seed)
        for _ in range(moves):
            if state.is_over:
                break
            yield state
            state = game.state_from_json(state.to_json())
            state.apply(rng.choice(state.legal_actions()))
        yield state


def paths(state: State, depth: int = 3) -> Iterator[tuple[int, ...]]:
    """Every menu position down to ``depth`` whose level offers choices, and the top."""
    actions = state.legal_actions()
    stack: list[tuple[tuple[int, ...], tuple[str, ...]]] = [((), ())]
    while stack:
        path, tokens = stack.pop()
        yield path
        if len(path) < depth:
            for index, token in enumerate(choices_at(actions, tokens)):
                if choices_at(actions, (*tokens, token)):
                    stack.append(((*path, index), (*tokens, token)))


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_menu_controls_send_what_menu_view_sends(key: str) -> None:
    presenter = presenter_for(key)

    async def check() -> None:  # discord.py's views want a running loop
        for state in positions(key):
            loaded = loaded_for(state, {})
            for seat in range(state.num_players):
                for locale in LOCALES:
                    for path in paths(state) if state.to_move == seat else [()]:
                        built = menu_controls(loaded, presenter, seat, locale, path)
                        plain = menu_view(fresh(loaded), presenter, seat, locale, path)
                        if plain is None:
                            assert built is None
                        else:
                            assert built is not None
                            assert built.to_components() == plain.to_components()

    asyncio.run(check())


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_a_menu_labelled_ahead_opens_every_level_without_the_seats_view(key: str) -> None:
    """What the courier leaves with the hand DM of the player on turn (``label_whole_menu``)
    lets a click into any sub-menu of that state render without computing the seat's view,
    and shows exactly what a build from nothing shows."""
    presenter = presenter_for(key)

    async def check() -> None:
        for state in positions(key, games=2, moves=30):
            seat = state.to_move
            if seat is None:
                continue
            courier = loaded_for(state, {})
            hand_layout(courier, presenter, seat, "de", full=False)
            label_whole_menu(courier, presenter, seat, "de")
            for path in paths(state):
                click = LoadedGame(
                    row=courier.row,
                    seats=courier.seats,
                    game=courier.game,
                    state=state,
                    _memo=courier._memo,
                )
                tokens = resolve(menu_tree(click), path)
                assert tokens is not None
                crumb = breadcrumb(click, presenter, seat, tokens, "de")
                embed = hand_layout(click, presenter, seat, "de", notice=crumb, full=False)
                built = menu_controls(click, presenter, seat, "de", path)
                assert click._views == {}, "a label was made on the click"
                plain = menu_view(fresh(click), presenter, seat, "de", path)
                assert plain is not None and built is not None
                assert built.to_components() == plain.to_components()
                again = hand_layout(
                    fresh(click),
                    presenter,
                    seat,
                    "de",
                    notice=breadcrumb(fresh(click), presenter, seat, tokens, "de"),
                    full=False,
                )
                assert embed.to_components() == again.to_components()

    asyncio.run(check())


def test_a_menu_is_labelled_ahead_only_for_the_seat_on_turn() -> None:
    state = next(positions("kami"))
    assert state.to_move is not None
    waiting = (state.to_move + 1) % state.num_players
    loaded = loaded_for(state, {})
    label_whole_menu(loaded, presenter_for("kami"), waiting, "en")
    assert not [key for key in loaded._memo if key[0] == "label"]
    assert loaded._views == {}


@pytest.mark.parametrize("status", [GameStatus.FINISHED, GameStatus.CANCELLED])
def test_no_controls_once_the_game_is_over(status: GameStatus) -> None:
    state = next(positions("kami"))
    loaded = loaded_for(state, {})
    loaded.row.status = status
    assert menu_controls(loaded, presenter_for("kami"), state.to_move or 0, "en") is None


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_kept_hand_texts_are_the_texts_of_a_fresh_build(key: str) -> None:
    """One ``LoadedGame`` renders every seat's hand in turn (each with notices and both
    ``full`` settings): each equals the hand built with nothing kept, so no seat's text (its
    private cards) can show up in another seat's hand."""
    presenter = presenter_for(key)
    for state in positions(key, games=2, moves=25):
        loaded = loaded_for(state, {})
        for seat in [*range(state.num_players), *range(state.num_players)]:
            for locale in ("en", "ru"):
                for full in (True, False):
                    for notice in (None, "Chosen so far: something"):
                        kept = hand_layout(
                            loaded,
                            presenter,
                            seat,
                            locale,
                            notice=notice,
                            full=full,
                            recent=RECENT,
                        )
                        plain = hand_layout(
                            fresh(loaded),
                            presenter,
                            seat,
                            locale,
                            notice=notice,
                            full=full,
                            recent=RECENT,
                        )
                        assert kept.to_components() == plain.to_components()


def test_a_new_state_starts_with_nothing_kept() -> None:
    """What was derived belongs to one state: the game after a move shares none of it."""
    state = next(positions("call_to_glory"))
    loaded = loaded_for(state, {})
    loaded.row.state = state.to_json()
    hand_layout(loaded, presenter_for("call_to_glory"), 0, "en")
    assert loaded.snapshot()._memo is loaded._memo
    after = loaded.after_move(REGISTRY["call_to_glory"].state_from_json(state.to_json()))
    assert after._memo == {} and after._views == {}


def test_prebuilt_controls_go_through_discord_py_as_they_are() -> None:
    """discord.py's own payload builder sends the JSON unchanged and stores nothing for it."""
    from discord.webhook.async_ import interaction_message_response_params

    rows = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": "c"}]}]
    controls = PrebuiltControls(rows)
    params = interaction_message_response_params(
        type=discord.InteractionResponseType.message_update.value,
        view=controls,
        previous_allowed_mentions=None,
    )
    assert params.payload["data"]["components"] == rows
    assert "flags" not in params.payload["data"]
    assert controls.is_finished() and not controls.is_dispatchable()
    assert controls.timeout is None


def first_move_published(key: str) -> tuple[LoadedGame, State]:
    """The game after the first legal move of a 3-player position, as the bot stores it: its
    publication computed, then the game made the stored one (``after_move``)."""
    from bot.flows.moves import move_publication, private_parts

    before = next(positions(key))
    loaded = loaded_for(before, {})
    loaded.row.state = before.to_json()
    after = REGISTRY[key].state_from_json(before.to_json())
    after.apply(after.legal_actions()[0])
    move_publication(after, 3, private_parts(loaded.view, 3), before.to_move)
    return loaded.after_move(after), after


def test_the_game_after_a_move_starts_from_the_views_its_publication_made() -> None:
    moved, after = first_move_published("kami")
    assert set(moved._views) == {None, 0, 1, 2}
    assert all(moved._views[seat] == after.view(seat) for seat in (None, 0, 1, 2))


def test_the_next_move_compares_with_the_private_parts_kept_with_the_state() -> None:
    """A move's publication keeps each seat's private part of the new state with it: the next
    move reads them from any ``LoadedGame`` of that state (no seat's view computed again), and
    they are what a fresh computation gives."""
    from bot.flows.moves import private_parts, private_parts_key

    moved, after = first_move_published("clans_and_glory")
    later = LoadedGame(
        row=moved.row, seats=moved.seats, game=moved.game, state=after, _memo=moved._memo
    )
    kept = later.derived(private_parts_key(3), lambda: pytest.fail("computed again"))
    assert later._views == {}
    assert kept == private_parts(fresh(later).view, 3)
