"""How long a sub-menu click takes to write its answer: the hand as a V2 message.

Run with ``python benchmarks/hand_layout.py``. A four-player Call to Glory game is played 40
random moves; the player on turn's menu is labelled ahead (as the courier does when it sends
the turn DM) and their story made once, as in the bot. Then, ``--runs`` times, ``--clicks``
answers to a click into the first sub-menu are built exactly as ``Publisher.menu_hand`` builds
them (the story from the state's memo, the menu's rows, the hand's layout) and turned into the
callback's payload by discord.py's own ``interaction_message_response_params``; the best run's
time per click is printed. Nothing talks to Discord or the database.
"""

from __future__ import annotations

import argparse
import random
import time
from types import SimpleNamespace

from discord.webhook.async_ import interaction_message_response_params

from bot.flows.session import LoadedGame
from bot.messages.controls import label_whole_menu, menu_controls
from bot.render import presenter_for
from bot.render.common import shown_names
from bot.render.layout import edit_fields
from bot.render.messages import hand_layout
from bot.render.story import RecentMoves
from bot.storage.models import GameRow, GameStatus, SeatRow
from games import REGISTRY


def position(moves: int) -> tuple[LoadedGame, RecentMoves]:
    """A four-player Call to Glory game after ``moves`` random moves, and its latest moves."""
    state = REGISTRY["call_to_glory"].new_state(4, 3, {})
    rng = random.Random(3)
    logged = []
    for number in range(moves):
        seat = state.to_move
        events = state.apply(rng.choice(state.legal_actions()))
        logged.append(SimpleNamespace(version=number + 2, seat=seat, events=events))
    row = GameRow(
        id=1, guild_id=1, channel_id=1, host_id=1, game_key="call_to_glory",
        status=GameStatus.ACTIVE, version=moves + 1,
    )  # fmt: skip
    seats = [
        SeatRow(game_id=1, seat=seat, user_id=100 + seat, display_name=name)
        for seat, name in enumerate(["Anna", "Boris", "Kenta", "Dana"])
    ]
    loaded = LoadedGame(row=row, seats=seats, game=REGISTRY["call_to_glory"], state=state)
    return loaded, RecentMoves(logged[-12:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--clicks", type=int, default=500)
    args = parser.parse_args()
    loaded, recent = position(40)
    presenter = presenter_for("call_to_glory")
    assert loaded.state is not None
    seat = loaded.state.to_move
    assert seat is not None
    label_whole_menu(loaded, presenter, seat, "en")
    best = float("inf")
    for _ in range(args.runs):
        began = time.perf_counter()
        for _ in range(args.clicks):
            names = shown_names(loaded)
            controls = menu_controls(loaded, presenter, seat, "en", (0,), names)
            layout = hand_layout(
                loaded,
                presenter,
                seat,
                "en",
                notice="Chosen so far: Draw",
                recent=recent,
                full=False,
                controls=controls,
                names=names,
            )
            interaction_message_response_params(type=7, **edit_fields(layout))
        best = min(best, (time.perf_counter() - began) / args.clicks)
    print(f"a sub-menu click's V2 hand: {best * 1e6:.1f} µs (best of {args.runs} runs)")


if __name__ == "__main__":
    main()
