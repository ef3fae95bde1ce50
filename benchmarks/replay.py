"""How long a replay step takes: the last position of a game of about 300 moves.

Run with ``python benchmarks/replay.py``. A game is played by random legal moves (the first
seed whose game has at least ``--moves`` moves) and stored in a SQLite file exactly as the bot
stores one. Then, each the median of ``--repeat`` runs:

The default is a four-player Kami game (to 15 points: about 300 moves in teams); a
Call to Glory game is longer (``--game call_to_glory --players 2 --moves 550``).

- **open**: ``/replay`` on a game not in memory: read its record (row, seats, every move)
  and the server's hands setting, rebuild and check every position through the engine,
  render the last position (table, log line, hands) and its buttons as the JSON Discord
  receives;
- **step**: a button on a replay in memory (``source.Replays``, which also keeps the server's
  hands setting for up to 30 s): the last position from the nearest checkpoint, rendered the
  same way;
- **move**: for comparison, part of the CPU of a move in the bot on the same game: decode
  the stored state, apply the last action, encode and decode it again (as
  ``MoveFlow.commit_action`` does) and render the table. A real move also computes every
  seat's view for its publication, renders the mover's hand and commits (``bot_load.py``
  measures it whole: about 2 ms at the median through the loopback Discord).

Nothing talks to Discord, so the figures are the bot's own work for each answer.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.flows.session import LoadedGame
from bot.render import presenter_for
from bot.render.common import table_embed
from bot.replays.source import Replays, build_replay, load_record
from bot.replays.view import position_game, replay_message
from bot.storage.engine import dumps, loads
from bot.storage.models import GameRow, GameStatus, MoveRow, SeatRow
from bot.storage.repository import OPENING_SEAT, Store
from games import REGISTRY


def long_game(key: str, players: int, moves: int) -> tuple[int, list]:
    """The first seed whose random game has ``moves`` to ``moves`` + 10 % moves, and its
    moves."""
    game = REGISTRY[key]
    for seed in range(10_000):
        rng = random.Random(seed)
        state = game.new_state(players, seed, {})
        played = []
        while not state.is_over:
            seat = state.to_move
            action = rng.choice(state.legal_actions())
            played.append((seat, action.to_json(), state.apply(action)))
        if moves <= len(played) <= moves * 1.1:
            return seed, played
    raise SystemExit(f"no {key} game with {moves} moves")


async def store_game(store: Store, key: str, players: int, seed: int, played: list) -> int:
    game = REGISTRY[key]
    state = game.new_state(players, seed, {})
    opening = state.opening_events
    for _, action, _ in played:
        state.apply(game.action_from_json(action))
    async with store.session() as session:
        row = GameRow(
            guild_id=1,
            channel_id=1,
            host_id=1,
            game_key=key,
            options={},
            status=GameStatus.FINISHED,
            version=len(played) + 1,
            seed=seed,
            state=state.to_json(),
        )
        session.add(row)
        await session.flush()
        assert row.id is not None
        for seat in range(players):
            session.add(
                SeatRow(
                    game_id=row.id, seat=seat, user_id=100 + seat, display_name=f"Player {seat + 1}"
                )
            )
        session.add(
            MoveRow(
                game_id=row.id,
                version=1,
                seat=OPENING_SEAT,
                action={"kind": "opening"},
                events=opening,
            )
        )
        for number, (seat, action, events) in enumerate(played, start=2):
            session.add(
                MoveRow(game_id=row.id, version=number, seat=seat, action=action, events=events)
            )
        await session.commit()
        return row.id


def payload(message: dict) -> dict:
    """What goes to Discord: the embed and the components as JSON."""
    return {"embeds": [message["embed"].to_dict()], "components": message["view"].to_components()}


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


async def run(key: str, players: int, moves: int, repeat: int) -> None:
    seed, played = long_game(key, players, moves)
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(f"sqlite+aiosqlite:///{folder}/replay.db")
        try:
            game_id = await store_game(store, key, players, seed, played)
            opens, steps, move_costs = [], [], []
            for _ in range(repeat):
                begin = time.perf_counter()
                record = await load_record(store, game_id)
                assert record is not None
                replay = build_replay(REGISTRY[key], record)
                assert replay.problem is None
                reveal = await store.replay_hands(record.row.guild_id)
                payload(replay_message(record, replay, replay.last, "en", reveal=reveal))
                opens.append(time.perf_counter() - begin)
            replays = Replays(store, REGISTRY)
            await replays.get(game_id)
            await replays.reveal(1)
            for _ in range(repeat):
                begin = time.perf_counter()
                found = await replays.get(game_id)
                assert found is not None and found[1] is not None
                record, replay = found
                reveal = await replays.reveal(record.row.guild_id)
                payload(replay_message(record, replay, replay.last, "en", reveal=reveal))
                steps.append(time.perf_counter() - begin)
            before_last = position_game(record, replay, replay.last - 1)
            stored_state = before_last.state.to_json()
            action = REGISTRY[key].action_from_json(played[-1][1])
            presenter = presenter_for(key)
            for _ in range(repeat):
                begin = time.perf_counter()
                state = REGISTRY[key].state_from_json(stored_state)
                events = state.apply(action)
                reloaded = REGISTRY[key].state_from_json(loads(dumps(state.to_json())))
                loaded = LoadedGame(
                    row=record.row, seats=record.seats, game=REGISTRY[key], state=reloaded
                )
                table_embed(loaded, presenter, [events], "en").to_dict()
                move_costs.append(time.perf_counter() - begin)
        finally:
            await store.close()
    print(
        f"{key}, {players} players, seed {seed}: {len(played)} moves, "
        f"{len(replay.round_starts) + 1} rounds"
    )
    print(f"open (read, rebuild and check {len(played)} moves, render): {median_ms(opens):.2f} ms")
    print(f"step (replay in memory, render the last position): {median_ms(steps):.2f} ms")
    print(
        f"move (decode, apply, encode, render the table), for comparison: "
        f"{median_ms(move_costs):.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="kami", choices=sorted(REGISTRY))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    asyncio.run(run(args.game, args.players, args.moves, args.repeat))


if __name__ == "__main__":
    main()
