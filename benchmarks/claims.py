"""What the liveness check costs a claim (several processes on PostgreSQL, issue 18).

Run with ``python benchmarks/claims.py --database-url postgresql+asyncpg://…/<database>`` (an
empty database of its own: the benchmark creates Glory's tables in it and leaves rows behind).

A claim (``bot/storage/claims.py``) is one statement, taken once per burst of a game's
deliveries and once per AI turn. Since claims are tied to their owner's liveness
(``bot/storage/liveness.py``), the statement also asks ``pg_locks`` whether the holder of a
claim that is otherwise held is still running. This measures the statement's round trip as
the bot makes it (``Store``'s autocommit connection, SQLAlchemy and asyncpg), with and without
that condition, the two alternating so that the machine's load touches both alike:

- **free**: nobody holds the claim (the common case: a courier's release deletes it);
- **own**: this store holds it already;
- **refused**: another running store holds it within its lease (the only case that reads
  ``pg_locks``);
- **dead owner**: the holder's lease runs but its process is gone (only the new statement
  takes it; the old one refuses);

and the sweep's query for unclaimed outbox entries (``Store.pending_publications``, every
10 s in each process) over ``--entries`` entries of games held by a running store.

``--peers N`` opens N more shared stores first, as N other processes would: each holds its
liveness lock and its connections, so ``pg_locks`` has more to read.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import asyncpg
from sqlalchemy import text

from bot.outbox.entries import RESYNC, Publication
from bot.storage import claims, liveness
from bot.storage.models import utcnow
from bot.storage.repository import Store
from tests.store.conftest import new_lobby

WITH_LIVENESS = claims.CLAIM
WITHOUT_LIVENESS = text(claims.CLAIM.text.replace(f"OR {liveness.dead('claims.owner')}", ""))
"""The claim as it was before liveness: the same statement without its last condition."""
assert WITHOUT_LIVENESS.text != WITH_LIVENESS.text

SWEEP_WITHOUT_LIVENESS = """
    SELECT id FROM outbox
    WHERE created_at < :cutoff AND NOT EXISTS (
        SELECT 1 FROM claims
        WHERE claims.game_id = outbox.game_id AND claims.kind = 'outbox'
          AND claims.lease_until >= now()
    )
"""


async def claim_with(store: Store, statement, game_id: int, kind: str) -> bool:  # type: ignore[no-untyped-def]
    async with store._autocommit() as connection:
        result = await connection.execute(
            statement,
            {
                "game": game_id,
                "kind": kind,
                "owner": store.origin,
                "token": uuid.uuid4().hex,
                "version": None,
                "lease": 30.0,
            },
        )
        return result.first() is not None


def positional(statement: str) -> str:
    """A claim's text with asyncpg's numbered parameters instead of SQLAlchemy's names."""
    for number, name in enumerate(("game", "kind", "owner", "token", "version", "lease"), 1):
        statement = re.sub(rf":{name}\b", f"${number}", statement)
    return statement


async def timed(action: Callable[[], Awaitable[object]]) -> float:
    started = time.perf_counter()
    await action()
    return (time.perf_counter() - started) * 1e6


def summary(samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"median {statistics.median(ordered):7.0f} µs   p99 {p99:7.0f} µs"


async def measure(store: Store, holder: Store, repeat: int, entries: int) -> None:
    # (claims name games by id only; these ids are far from the lobbies made below)
    free_game, own_game, held_game, dead_game = (10**9 + n for n in range(4))
    dead_owner = uuid.uuid4().hex[:16]  # an origin whose lock nobody holds: a killed process
    assert await holder.claim(held_game, claims.OUTBOX, lease=3600)
    assert await store.claim(own_game, claims.OUTBOX, lease=3600)

    async def release_free() -> None:
        async with store._autocommit() as connection:
            await connection.execute(
                text("DELETE FROM claims WHERE game_id = :g"), {"g": free_game}
            )

    async def plant_dead_claim() -> None:
        async with store._autocommit() as connection:
            await connection.execute(
                text(
                    "INSERT INTO claims (game_id, kind, owner, token, version, lease_until) "
                    "VALUES (:g, 'outbox', :o, :t, NULL, now() + interval '1 hour') "
                    "ON CONFLICT (game_id, kind) DO UPDATE SET owner = excluded.owner, "
                    "token = excluded.token, lease_until = excluded.lease_until"
                ),
                {"g": dead_game, "o": dead_owner, "t": uuid.uuid4().hex},
            )

    raw = await asyncpg.connect(
        store.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
    )
    prepared = {
        name: await raw.prepare(positional(statement.text))
        for name, statement in (
            ("without liveness", WITHOUT_LIVENESS),
            ("with liveness", WITH_LIVENESS),
        )
    }

    async def bot_path(name: str, game_id: int) -> bool:
        statement = WITH_LIVENESS if name == "with liveness" else WITHOUT_LIVENESS
        return await claim_with(store, statement, game_id, claims.OUTBOX)

    async def statement_alone(name: str, game_id: int) -> bool:
        row = await prepared[name].fetchrow(
            game_id, claims.OUTBOX, store.origin, uuid.uuid4().hex, None, 30.0
        )
        return row is not None

    cases = (
        ("free", free_game, release_free),
        ("own", own_game, None),
        ("refused", held_game, None),
        ("dead owner", dead_game, plant_dead_claim),
    )
    for title, claim in (
        ("the bot's path: Store's autocommit connection, SQLAlchemy, asyncpg", bot_path),
        ("the statement alone: prepared once, on one asyncpg connection", statement_alone),
    ):
        figures: dict[tuple[str, str], list[float]] = {}
        taken: dict[tuple[str, str], int] = {}
        for _ in range(repeat):
            for name in prepared:
                for case, game_id, before in cases:
                    if before is not None:
                        await before()
                    started = time.perf_counter()
                    got = await claim(name, game_id)
                    elapsed = (time.perf_counter() - started) * 1e6
                    figures.setdefault((case, name), []).append(elapsed)
                    taken[(case, name)] = taken.get((case, name), 0) + got
        print(f"CLAIM, one round trip ({repeat} each), {title}:")
        for case, _, _ in cases:
            for name in prepared:
                print(
                    f"  {case:10} {name:17} {summary(figures[(case, name)])}"
                    f"   taken {taken[(case, name)]}/{repeat}"
                )
    await raw.close()

    # The sweep: entries of games a running store holds (its couriers at work).
    for channel_id in range(entries):
        lobby = await new_lobby(store, channel_id=1000 + channel_id, guild_id=1)
        assert lobby.id is not None
        await store.publish(lobby.id, Publication(RESYNC))
        assert await holder.claim(lobby.id, claims.OUTBOX, lease=3600)
    async with store._autocommit() as connection:
        await connection.execute(
            text("UPDATE outbox SET created_at = created_at - interval '1 minute'")
        )
    sweeps: dict[str, list[float]] = {"without liveness": [], "with liveness": []}
    cutoff = utcnow() - timedelta(seconds=30)
    for _ in range(max(10, repeat // 10)):

        async def old_sweep() -> None:
            async with store._autocommit() as connection:
                rows = (
                    await connection.execute(text(SWEEP_WITHOUT_LIVENESS), {"cutoff": cutoff})
                ).all()
                assert rows == []

        async def new_sweep() -> None:
            found = await store.pending_publications(
                older_than=timedelta(seconds=30), unclaimed=True
            )
            assert found == []

        sweeps["without liveness"].append(await timed(old_sweep))
        sweeps["with liveness"].append(await timed(new_sweep))
    print(f"the sweep's query, {entries} entries of held games (nothing to take):")
    for name, samples in sweeps.items():
        print(f"  {name:17} {summary(samples)}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", required=True, help="an empty PostgreSQL database")
    parser.add_argument("--repeat", type=int, default=2000)
    parser.add_argument("--peers", type=int, default=0, help="other running stores")
    parser.add_argument("--entries", type=int, default=200)
    arguments = parser.parse_args()
    store = await Store.open(arguments.database_url, shared=True)
    holder = await Store.open(arguments.database_url, shared=True)
    peers = [await Store.open(arguments.database_url, shared=True) for _ in range(arguments.peers)]
    try:
        async with store.engine.connect() as connection:
            locks = (await connection.execute(text("SELECT count(*) FROM pg_locks"))).scalar()
            version = (await connection.execute(text("SHOW server_version"))).scalar()
        print(f"PostgreSQL {version}; {2 + len(peers)} running stores; {locks} rows in pg_locks")
        await measure(store, holder, arguments.repeat, arguments.entries)
    finally:
        for opened in (store, holder, *peers):
            await opened.close()


if __name__ == "__main__":
    asyncio.run(main())
