"""Hidden information stays hidden in what issue 29 added: the collapsed menus (complete moves
name the mover's own cards, and only the mover sees them), and the game-over message."""

from __future__ import annotations

import random

import pytest

from bot.messages.controls import menu_controls, menu_layout
from bot.messages.game_over import final_line, game_over
from bot.render import presenter_for
from bot.render.common import shown_names
from bot.storage.models import GameStatus
from games import REGISTRY
from tests.bot.test_payload_limits import loaded_for
from tests.bot.test_rendering import spy_views

NAMES = ["Ann", "Ben", "Cem", "Dan"]
CONFIGS = [(key, players) for key, game in REGISTRY.items() for players in game.player_counts]


@pytest.mark.parametrize(("key", "players"), CONFIGS)
def test_complete_moves_are_labelled_from_the_movers_view_and_shown_to_the_mover_alone(
    key: str, players: int
) -> None:
    rng = random.Random(f"leak-{key}-{players}")
    state = REGISTRY[key].new_state(players, rng.randrange(2**32))
    presenter = presenter_for(key)
    step = 0
    while not state.is_over and step < 300:
        if step % 5 == 0:
            mover = state.to_move
            loaded = loaded_for(state, key, {}, NAMES[:players])
            names = shown_names(loaded)
            asked = spy_views(state)
            for locale in ("en", "ru"):
                shown = menu_layout(loaded, presenter, mover, locale, (), names)
                stack = [entry.path for entry in shown.entries if not entry.whole]
                while stack:
                    deeper = menu_layout(loaded, presenter, mover, locale, stack.pop(), names)
                    stack += [entry.path for entry in deeper.entries if not entry.whole]
            assert set(asked) <= {mover}, f"the menu read views {set(asked)}"
            del state.view
            for seat in range(players):
                controls = menu_controls(loaded, presenter, seat, "en", names=names)
                rows = [] if controls is None else controls.to_components()
                ids = [c["custom_id"] for row in rows for c in row["components"]]
                menu = [i for i in ids if i.startswith(("glory:m:", "glory:s:"))]
                assert bool(menu) == (seat == mover), "only the mover gets a move menu"
        state.apply(rng.choice(state.legal_actions()))
        step += 1


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_the_game_over_message_reads_only_the_public_view(key: str) -> None:
    rng = random.Random(f"over-{key}")
    state = REGISTRY[key].new_state(2, rng.randrange(2**32))
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    for status in (GameStatus.FINISHED, GameStatus.ABANDONED, GameStatus.CANCELLED):
        loaded = loaded_for(state, key, {}, NAMES[:2], status=status)
        asked = spy_views(state)
        game_over(loaded, {})
        for seat in range(2):
            final_line(loaded, seat, "en")
        assert set(asked) <= {None}, f"the end read views {set(asked)}"
        del state.view
