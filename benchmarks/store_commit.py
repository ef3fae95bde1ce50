"""What a move costs the store: ``Store.commit_move`` and the click's read, without Discord.

    .venv/bin/python benchmarks/store_commit.py                       # SQLite file (about 10 s)
    .venv/bin/python benchmarks/store_commit.py --database-url postgresql+asyncpg://u@host/empty_db

A click reads its game (``game_with_seats``, from memory while it is played) and commits one
move (``commit_move``: on SQLite on the event loop when nothing else writes, else in the next
group-commit batch). This measures both as the bot calls them, in two phases:

- **one at a time**: ``--moves`` moves of one game after another, each awaited (the inline
  path on SQLite, one transaction per move on PostgreSQL): p50 / p99 of a commit and of a read;
- **together**: ``--games`` games each committing ``--moves`` moves, all at once (the group
  commit path): moves per second and p50 / p99 of a commit as its caller waits for it.

Written for issue 35 (the store split by aggregate) to show that the split moved nothing: run
it on the code before and after, alternating, on a quiet machine. It measures the store alone;
``bot_load.py`` measures the whole bot.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.outbox.entries import Publication
from bot.storage.repository import MoveRecord, Store
from tests.store.conftest import join, new_lobby, start

MOVE = MoveRecord(seat=0, action={"kind": "play", "card": 3}, events=[{"kind": "played"}])
PUBLISH = Publication.move(hands=[0, 1, 2], fresh=[])
STATE = {"deck": list(range(60)), "hands": [[1, 2, 3, 4, 5]] * 3, "scores": [0, 0, 0]}


async def new_game(store: Store, channel_id: int) -> int:
    """A started three-seat game at version 1."""
    lobby = await new_lobby(store, channel_id=channel_id)
    assert lobby.id is not None
    for user in (2, 3):
        await join(store, lobby.id, user, capacity=3)
    await start(store, lobby.id, state=STATE)
    return lobby.id


async def play(
    store: Store,
    game_id: int,
    moves: int,
    commits: list[float],
    reads: list[float] | None = None,
) -> None:
    """``moves`` moves of one game, each read and committed as a click does."""
    for _ in range(moves):
        started = time.perf_counter()
        found = await store.game_with_seats(game_id)
        if reads is not None:
            reads.append(time.perf_counter() - started)
        assert found is not None
        started = time.perf_counter()
        await store.commit_move(
            game_id,
            expected_version=found[0].version,
            state=STATE,
            move=MOVE,
            publication=PUBLISH,
        )
        commits.append(time.perf_counter() - started)


def quantiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"p50 {statistics.median(ordered) * 1e3:.3f} ms, p99 {p99 * 1e3:.3f} ms"


async def one_at_a_time(store: Store, moves: int) -> None:
    game_id = await new_game(store, channel_id=1)
    await play(store, game_id, 50, [])  # warm-up: the game in memory, statements compiled
    commits: list[float] = []
    reads: list[float] = []
    await play(store, game_id, moves, commits, reads)
    print(f"one at a time, {moves} moves: commit {quantiles(commits)}; read {quantiles(reads)}")


async def together(store: Store, games: int, moves: int) -> None:
    game_ids = [await new_game(store, channel_id=100 + n) for n in range(games)]
    commits: list[float] = []
    started = time.perf_counter()
    await asyncio.gather(*(play(store, game_id, moves, commits) for game_id in game_ids))
    elapsed = time.perf_counter() - started
    print(
        f"together, {games} games x {moves} moves: {len(commits) / elapsed:.0f} moves/s, "
        f"commit {quantiles(commits)}"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database-url", help="an empty PostgreSQL database (default: SQLite)")
    parser.add_argument("--moves", type=int, default=2000, help="moves per game (default 2000)")
    parser.add_argument("--games", type=int, default=50, help="games of the second phase")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        url = args.database_url or f"sqlite+aiosqlite:///{directory}/glory.db"
        store = await Store.open(url)
        try:
            await one_at_a_time(store, args.moves)
            await together(store, args.games, max(1, args.moves // 10))
        finally:
            await store.close()


if __name__ == "__main__":
    asyncio.run(main())
