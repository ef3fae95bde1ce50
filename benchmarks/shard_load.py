"""``bot_load.py --processes N``: N bot processes, one per shard, sharing one PostgreSQL.

    .venv/bin/python benchmarks/bot_load.py --processes 2 \\
        --database-url postgresql+asyncpg://glory@127.0.0.1:54339/postgres

``--database-url`` names a PostgreSQL server (and a database to connect to first) on this
machine; a fresh database is created there for the run and dropped afterwards. The emulator
recommends N shards and has one guild on each; the games are spread over those guilds' channels.

Where the moves come from (``--moves-from``):

- ``channel`` (default): players press "My hand" on the table and play from the ephemeral hand
  it answers with, in the game's channel. Those clicks belong to the guild, so each arrives at
  the process of that guild's shard: the load spreads over the processes.
- ``dm``: players play from their DM hands. Discord sends every DM click to shard 0, so one
  process takes every move whatever N is (the other processes only deliver what those moves
  publish in their guilds... and not even that: the courier is the process that made the
  move). This shows what sharding does not spread.

After an unmeasured warm-up (``--warmup-seconds`` at the ramp's first rate), a main phase at
``--rate`` for ``--seconds`` gives the costs per move with many moves behind them; then the
ramp. Measured per step of offered load (open loop, at most one action in flight per game): p50 and
p99 of the click → answer latency, achieved actions and moves (menu clicks) per second, the CPU
of every bot process, of PostgreSQL (the server's processes, found from a backend's parent) and
of this driver (the emulator and the players), and from ``pg_stat_database`` the transactions
and rows written per move. The highest step whose p99 stays under ``--p99-limit-ms`` (50) and
that keeps up (≥ 95 % of the offered rate) is the sustained rate.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from benchmarks.bot_load import cpu_seconds, offer_load, percentile
from bot.loopback import Actor, Emulator, InteractionRecord, Message
from bot.loopback.bot_process import shard_bots
from bot.loopback.ui_players import (
    MENU_ID,
    Table,
    act_randomly,
    highest_version,
    menu_components,
    open_and_start,
    state_version,
    use_random_control,
)
from bot.storage.engine import normalise_url

PROCESS_SETTINGS = {"AI_WORKERS": "0", "LOG_LEVEL": "WARNING"}


@dataclass
class Step:
    offered_per_second: float
    achieved_per_second: float
    moves_per_second: float
    """Stored moves per second (a menu click may be a step of a move that stores nothing)."""
    clicks_on_menus_per_second: float
    actions: int
    p50_ms: float
    p99_ms: float
    max_ms: float
    timeouts: int
    cpu_percent: dict[str, float] = field(default_factory=dict)
    """CPU per process over the step, in % of one core: ``bot-shard-n``, ``postgres``,
    ``driver``."""
    commits_per_move: float | None = None
    rows_written_per_move: float | None = None
    postgres_cpu_ms_per_move: float | None = None
    bots_cpu_ms_per_move: float | None = None
    postgres_share_of_cpu: float | None = None
    """PostgreSQL's CPU over the bots' and PostgreSQL's together (the driver left out)."""


def children_of(parent: int) -> list[int]:
    """Every process whose parent is ``parent`` (PostgreSQL's backends and workers)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(FileNotFoundError, ProcessLookupError, IndexError):
            if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == parent:
                found.append(int(entry.name))
    return found


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


class Postgres:
    """The benchmark's database on a local server: created fresh, measured, dropped."""

    def __init__(self, server_url: str) -> None:
        self.server = normalise_url(server_url)
        self.name = f"glory_bench_{uuid.uuid4().hex[:10]}"
        self.url = self.server.set(database=self.name).render_as_string(hide_password=False)
        self.admin: AsyncEngine = create_async_engine(self.server, isolation_level="AUTOCOMMIT")
        self.postmaster: int | None = None
        self._cpu_seen: dict[int, float] = {}
        self._cpu_total = 0.0

    async def __aenter__(self) -> Postgres:
        async with self.admin.connect() as connection:
            await connection.execute(text(f'CREATE DATABASE "{self.name}"'))
            backend = (await connection.execute(text("SELECT pg_backend_pid()"))).scalar_one()
        with contextlib.suppress(FileNotFoundError):  # a server on another machine: no CPU
            self.postmaster = parent_of(int(backend))
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        async with self.admin.connect() as connection:
            await connection.execute(text(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)'))
        await self.admin.dispose()

    def cpu(self) -> float:
        """CPU seconds of the whole server so far (its postmaster and its children: the
        backends of every database on it, so the benchmark's server should be its own). A
        backend's CPU counts from when it is first seen; one that ends between two calls
        loses what it used since the first of them (the bots' connections stay open)."""
        if self.postmaster is None:
            return 0.0
        for pid in [self.postmaster, *children_of(self.postmaster)]:
            used = cpu_seconds(pid)
            self._cpu_total += used - self._cpu_seen.get(pid, used)
            self._cpu_seen[pid] = used
        return self._cpu_total

    async def written(self) -> tuple[int, int]:
        """(commits, rows inserted + updated + deleted) in the benchmark's database so far."""
        async with self.admin.connect() as connection:
            await connection.execute(text("SELECT pg_stat_clear_snapshot()"))
            row = (
                await connection.execute(
                    text(
                        "SELECT xact_commit, tup_inserted + tup_updated + tup_deleted"
                        " FROM pg_stat_database WHERE datname = :name"
                    ),
                    {"name": self.name},
                )
            ).one()
        return int(row[0]), int(row[1])

    async def stored_moves(self, until: float | None = None) -> int:
        """Moves stored so far, or made by the wall-clock time ``until`` (the players' menu
        clicks include steps of a move that store nothing)."""
        engine = create_async_engine(self.url)
        query = "SELECT count(*) FROM moves"
        values = {}
        if until is not None:
            query += " WHERE created_at <= :until"
            values["until"] = datetime.fromtimestamp(until, UTC)
        try:
            async with engine.connect() as connection:
                counted = await connection.execute(text(query), values)
                return int(counted.scalar_one())
        finally:
            await engine.dispose()

    async def connections(self) -> int:
        async with self.admin.connect() as connection:
            return int(
                (
                    await connection.execute(
                        text("SELECT count(*) FROM pg_stat_activity WHERE datname = :name"),
                        {"name": self.name},
                    )
                ).scalar_one()
            )


def channel_hand(actor: Actor, table: Table) -> Message | None:
    """The player's ephemeral hand in the table's channel, if it shows the newest state."""
    newest = highest_version(table.players)
    hands = [
        message
        for message in actor.emulator.ephemerals_for(actor.user)
        if message.channel_id == table.message.channel_id and menu_components(message)
    ]
    hand = max(hands, key=lambda m: (state_version(m), m.id), default=None)
    return hand if hand is not None and state_version(hand) >= newest else None


async def act_in_channel(actor: Actor, table: Table, rng: random.Random) -> InteractionRecord:
    """One click in the game's channel: a menu of the player's ephemeral hand there, or "My
    hand" on the table first when that hand is missing or out of date."""
    hand = channel_hand(actor, table)
    if hand is None:
        record = await actor.click(table.current_message(), custom_id=table.hand_custom_id)
        return await record.response(timeout=10)
    record = await use_random_control(actor, hand, rng)
    return await record.response(timeout=10)


def told_by_dm(table: Table) -> list[Actor]:
    """The players whose DM hand shows controls: the bot's DM says it is their turn."""
    return [
        actor
        for actor in table.players
        if any(menu_components(m) for m in actor.dms if not m.ephemeral)
    ]


def is_move(record: InteractionRecord) -> bool:
    return bool(MENU_ID.match(str(record.data.get("custom_id", ""))))


async def offered_step(
    rate: float,
    seconds: float,
    tables: list[Table],
    act: Callable[[Table], Awaitable[InteractionRecord | None]],
    movers: Callable[[Table], list[Actor]],
    rng: random.Random,
    cpu: Mapping[str, Callable[[], float]],
    postgres: Postgres,
) -> Step:
    """Offer ``rate`` actions per second for ``seconds``; at most one in flight per table."""

    def pick(busy: set[int]) -> int | None:
        for _ in range(50):  # bounded random probing for an idle game with a player to act
            index = rng.randrange(len(tables))
            if index not in busy and movers(tables[index]):
                return index
        return None

    await asyncio.sleep(1.5)  # PostgreSQL publishes its counters about once a second
    commits, rows = await postgres.written()
    moves_before = await postgres.stored_moves()

    async def follow_postgres() -> None:
        while True:  # new backends are counted from their first sample: sample often
            postgres.cpu()
            await asyncio.sleep(0.5)

    following = asyncio.create_task(follow_postgres())
    load = await offer_load(
        rate,
        seconds,
        pick,
        lambda index: act(tables[index]),
        lambda: {name: measure() for name, measure in cpu.items()},
    )
    records, window, in_window = load.records, load.window, load.in_window
    used = {name: load.after[name] - load.before[name] for name in cpu}
    wall_deadline = load.wall_started + seconds
    following.cancel()
    moves_in_window = await postgres.stored_moves(until=wall_deadline) - moves_before
    await asyncio.sleep(1.5)
    commits_after, rows_after = await postgres.written()
    latencies = sorted(r.latency for r in records if r.latency is not None)
    moves = await postgres.stored_moves() - moves_before
    bots = sum(seconds for name, seconds in used.items() if name.startswith("bot"))
    database = used.get("postgres", 0.0)
    return Step(
        offered_per_second=rate,
        achieved_per_second=round(len(in_window) / window, 1),
        moves_per_second=round(moves_in_window / window, 1),
        clicks_on_menus_per_second=round(sum(1 for r in in_window if is_move(r)) / window, 1),
        actions=len(records),
        p50_ms=round(percentile(latencies, 0.50) * 1000, 2),
        p99_ms=round(percentile(latencies, 0.99) * 1000, 2),
        max_ms=round((latencies[-1] if latencies else float("nan")) * 1000, 2),
        timeouts=load.timeouts,
        cpu_percent={name: round(100 * seconds / window, 1) for name, seconds in used.items()},
        commits_per_move=round((commits_after - commits) / moves, 2) if moves else None,
        rows_written_per_move=round((rows_after - rows) / moves, 2) if moves else None,
        postgres_cpu_ms_per_move=(
            round(1000 * database / moves_in_window, 2) if moves_in_window else None
        ),
        bots_cpu_ms_per_move=round(1000 * bots / moves_in_window, 2) if moves_in_window else None,
        postgres_share_of_cpu=round(database / (database + bots), 2) if database + bots else None,
    )


async def spread_tables(
    emulator: Emulator, count: int, players: int, games: tuple[str, ...], shards: int
) -> list[Table]:
    """``count`` started games, game ``n`` in a channel of the guild on shard ``n % shards``."""
    guilds = [await emulator.add_guild(f"shard {shard}", shard=shard) for shard in range(shards)]
    semaphore = asyncio.Semaphore(16)

    async def start(number: int) -> Table:
        guild = guilds[number % shards]
        seated = [
            emulator.add_actor(f"s{number}p{seat}", guilds=(guild,)) for seat in range(players)
        ]
        channel = await emulator.add_channel(f"table-{number}", guild=guild)
        async with semaphore:
            return await open_and_start(
                emulator, seated, games[number % len(games)], channel=channel
            )

    return list(await asyncio.gather(*(start(n) for n in range(count))))


@contextlib.asynccontextmanager
async def running(args: argparse.Namespace, workdir: Path) -> AsyncIterator[tuple[Any, ...]]:
    async with (
        Postgres(args.database_url) as postgres,
        Emulator(record_limit=20_000, shard_count=args.processes) as emulator,
        shard_bots(
            emulator, workdir, postgres.url, args.processes, settings=PROCESS_SETTINGS
        ) as bots,
    ):
        yield postgres, emulator, bots


async def run(args: argparse.Namespace, workdir: Path) -> dict[str, object]:
    if make_url(args.database_url).get_backend_name() not in ("postgresql", "postgres"):
        raise SystemExit("--processes needs --database-url of a PostgreSQL server")
    rng = random.Random(args.seed)
    async with running(args, workdir) as (postgres, emulator, bots):
        began = time.perf_counter()
        tables = await spread_tables(
            emulator, args.games, args.players, args.game_keys, args.processes
        )
        print(f"started {len(tables)} games in {time.perf_counter() - began:.0f} s", flush=True)
        cpu: dict[str, Callable[[], float]] = {
            f"bot-shard-{n}": (lambda pid=bot.process.pid: cpu_seconds(pid))
            for n, bot in enumerate(bots)
        }
        cpu["postgres"] = postgres.cpu
        cpu["driver"] = time.process_time

        def movers(table: Table) -> list[Actor]:
            return table.movers() if args.moves_from == "dm" else told_by_dm(table)

        async def act(table: Table) -> InteractionRecord | None:
            able = movers(table)  # may have changed since the table was picked
            if not able:
                return None
            actor = rng.choice(able)
            if args.moves_from == "dm":
                return await act_randomly(actor, rng)
            return await act_in_channel(actor, table, rng)

        # Unmeasured: the first hands are asked for and the processes' memory fills.
        await offered_step(
            args.ramp[0], args.warmup_seconds, tables, act, movers, rng, cpu, postgres
        )
        main = await offered_step(args.rate, args.seconds, tables, act, movers, rng, cpu, postgres)
        print(json.dumps({"main": asdict(main)}), flush=True)
        steps: list[Step] = []
        sustained: Step | None = None
        for rate in args.ramp:
            step = await offered_step(
                rate, args.ramp_seconds, tables, act, movers, rng, cpu, postgres
            )
            print(json.dumps(asdict(step)), flush=True)
            steps.append(step)
            keeps_up = step.achieved_per_second >= 0.95 * rate and not step.timeouts
            if step.p99_ms > args.p99_limit_ms or not keeps_up:
                break
            sustained = step
        connections = await postgres.connections()
        errors = sum(
            bot.log_path.read_text(errors="replace").count(" ERROR ")
            + bot.log_path.read_text(errors="replace").count("Traceback")
            for bot in bots
        )
        dispatched = dict(emulator.gateway.stats.dispatched_by_shard)
    return {
        "processes": args.processes,
        "moves_from": args.moves_from,
        "active_games": len(tables),
        "p99_limit_ms": args.p99_limit_ms,
        "main": asdict(main),
        "steps": [asdict(step) for step in steps],
        "sustained": asdict(sustained) if sustained is not None else None,
        "sustained_actions_per_second": sustained.achieved_per_second if sustained else 0.0,
        "sustained_moves_per_second": sustained.moves_per_second if sustained else 0.0,
        "database_connections_at_the_end": connections,
        "events_dispatched_by_shard": {str(k): v for k, v in sorted(dispatched.items())},
        "bot_errors_logged": errors,
        "emulator_unhandled_routes": emulator.unhandled,
    }

