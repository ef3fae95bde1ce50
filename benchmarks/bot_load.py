"""Load benchmark of the real bot process through the loopback Discord emulator (issue 7).

    .venv/bin/python benchmarks/bot_load.py                 # the standard run (about 2 min)
    .venv/bin/python benchmarks/bot_load.py --quick         # a smoke run (about 20 s)
    .venv/bin/python benchmarks/bot_load.py --database-url postgresql+asyncpg://u@host/empty_db
    .venv/bin/python benchmarks/bot_load.py --processes 2 --database-url postgresql+asyncpg://u@host/postgres

``--processes N`` runs N bot processes, one per shard, on one PostgreSQL and measures the
ramp only (``benchmarks/shard_load.py`` says what and how).

What runs where: ``python -m bot`` is a separate process with its SQLite file on disk; this
process hosts the emulator (bot/loopback) and simulated players who act only
through Discord: ``/play``, lobby buttons, and random legal menu actions in their DM hands.

What is measured, per phase:
- latency from the emulator writing INTERACTION_CREATE to the bot's callback arriving
  (p50 / p99 / max), at a fixed offered rate of menu actions spread over the active games
  (open loop: a game has at most one action in flight, like a player waiting for the table);
- sustained actions per second: the offered rate is raised step by step until p99 passes
  100 ms or the bot cannot keep up (achieved < 95 % of offered);
- the bot's RSS (from /proc, sampled every 100 ms): peak, and the growth over the idle bot
  divided by the number of active games; optionally with many finished games stored;
- the same latency for a minimal discord.py bot that answers every interaction with no work
  (bot/loopback/reference_bot.py, ``/ping``), as the floor: once as a phase of its own, and
  in ``--paired-rounds`` windows taken in turn with the bot's right after its main phase (the
  machine's speed drifts within minutes, so the ratio of medians from the same minutes is the
  fairer comparison);
- the time from a move's acknowledgement (its callback reaching the emulator) to the new DM
  that tells the next player it is their turn (p50 / p99), in the main phase and in a phase
  with injected faults (``--fault-seconds``): 5 % of the bot's REST calls answered 429, 1 %
  500, 2 % served 4 s late, as in the soak test (bot/loopback/soak.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import re
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from bot.loopback import Emulator, InteractionRecord, WaitTimeout  # noqa: E402
from bot.loopback.bot_process import GLORY_BOT, bot_process  # noqa: E402
from bot.loopback.soak import BOT_ROUTES  # noqa: E402
from bot.loopback.ui_players import Table, act_randomly, footer_in, open_and_start  # noqa: E402

GAMES = ("kami", "call_to_glory", "clans_and_glory")
NOOP_BOT = (sys.executable, "-m", "bot.loopback.reference_bot")
P99_LIMIT_SECONDS = 0.100


@dataclass
class Phase:
    name: str
    offered_per_second: float
    achieved_per_second: float
    actions: int
    p50_ms: float
    p99_ms: float
    max_ms: float
    timeouts: int
    bot_cpu_percent: float = 0.0
    workers_cpu_percent: float = 0.0
    """CPU of the bot's child processes (picture and AI workers), beside its own."""
    bot_cpu_ms_per_move: float | None = None
    """The bot's own CPU per move made: the load-independent cost of a move (a click that
    opens a sub-menu costs a fraction of it, so the click rate alone says little)."""
    moves_per_second: float | None = None
    driver_cpu_percent: float = 0.0
    """CPU of this process: the emulator plus the simulated players."""
    turn_dms: int = 0
    ack_to_dm_p50_ms: float | None = None
    ack_to_dm_p99_ms: float | None = None
    """From a move's acknowledgement to the next player's new DM (see ``turn_dm_delays``)."""
    moves: int = 0
    upload_kb_per_move: float | None = None
    """Bytes of pictures (attachments) the bot uploaded in the phase, per move made in it."""
    table_updates_per_second: float | None = None
    ack_to_table_p50_ms: float | None = None
    ack_to_table_p99_ms: float | None = None
    """From a move's acknowledgement to the first showing of its table (``table_delays``)."""
    play_p50_ms: float | None = None
    play_p99_ms: float | None = None
    """Latency of the clicks that made a move (stored it, then answered with the new hand)."""
    submenu_p50_ms: float | None = None
    submenu_p99_ms: float | None = None
    """Latency of the other menu clicks (a sub-menu opened; nothing stored)."""


def rss_bytes(pid: int) -> int:
    """Resident set size of a process, from /proc (Linux); 0 if it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except FileNotFoundError:
        return 0
    return 0


def descendants(pid: int) -> list[int]:
    """The process ids of ``pid``'s children, their children and so on (Linux)."""
    found: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            with contextlib.suppress(OSError):
                children = [int(c) for c in (task / "children").read_text().split()]
                found += children
                todo += children
    return found


def workers_cpu_seconds(pid: int) -> float:
    """CPU time so far of the processes ``pid`` started (its worker pools)."""
    return sum(cpu_seconds(child) for child in descendants(pid))


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far, from /proc/<pid>/stat (Linux)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):  # the process is gone
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class RssSampler:
    """Samples a process's RSS every 100 ms in the background and keeps the peak."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak = rss_bytes(pid)
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            self.peak = max(self.peak, rss_bytes(self.pid))
            await asyncio.sleep(0.1)

    def start(self) -> None:
        self.peak = rss_bytes(self.pid)
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> int:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        return self.peak


def percentile(sorted_values: list[float], fraction: float) -> float:
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, round(fraction * (len(sorted_values) - 1)))
    return sorted_values[index]


async def bounded_gather(jobs: list[Callable[[], Awaitable[None]]], concurrency: int) -> None:
    semaphore = asyncio.Semaphore(concurrency)

    async def run(job: Callable[[], Awaitable[None]]) -> None:
        async with semaphore:
            await job()

    await asyncio.gather(*(run(job) for job in jobs))


async def create_tables(
    emulator: Emulator,
    count: int,
    players: int,
    *,
    games: tuple[str, ...],
    concurrency: int,
    prefix: str,
    ai: tuple[str, ...] = (),
) -> list[Table]:
    """``count`` started games, cycling through ``games``, each with its own players and
    channel (the bot allows one open game per channel), plus AI players of the levels in
    ``ai``."""
    seated = [
        [emulator.add_actor(f"{prefix}{number}p{seat}") for seat in range(players)]
        for number in range(count)
    ]
    channels = [await emulator.add_channel(f"{prefix}-table-{n}") for n in range(count)]
    tables: list[Table | None] = [None] * count

    def job(number: int) -> Callable[[], Awaitable[None]]:
        async def start() -> None:
            game = games[number % len(games)]
            tables[number] = await open_and_start(
                emulator, seated[number], game, channel=channels[number], ai=ai
            )

        return start

    await bounded_gather([job(n) for n in range(count)], concurrency)
    return [table for table in tables if table is not None]


async def store_finished_games(
    emulator: Emulator, count: int, *, games: tuple[str, ...], concurrency: int
) -> None:
    """``count`` games that exist in the database but are over (cancelled lobbies).

    ``concurrency`` hosts work in parallel, each in its own channel, one lobby at a time.
    """
    hosts = [emulator.add_actor(f"archivist{n}") for n in range(concurrency)]
    channels = [await emulator.add_channel(f"archive-{n}") for n in range(concurrency)]

    async def worker(number: int) -> None:
        host, channel = hosts[number], channels[number]
        for index in range(number, count, concurrency):
            game = games[index % len(games)]
            lobby = await (await host.slash("play", game=game, channel=channel)).settled(timeout=30)
            await (await host.click(lobby, label="Cancel")).response(timeout=30)

    await asyncio.gather(*(worker(n) for n in range(concurrency)))


@contextlib.contextmanager
def no_collector_pauses() -> Iterator[None]:
    """No cycle collection in this process (players and emulator) while a phase is measured.

    The emulator keeps every message, edit and interaction, so this process's full
    collections grew to 80-190 ms during the ramp. Each one held up the dispatch of
    interactions and the time-stamping of the bot's answers, then let them go in a burst, and
    set the p99 of the step it fell in (timed inside the bot, the same clicks were fast until
    that burst). This process collects between phases instead.
    """
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@dataclass
class OfferedLoad:
    """What a measured window of offered load gave (``offer_load``)."""

    records: list[InteractionRecord]
    timeouts: int
    started: float
    """``time.perf_counter()`` when the window began (the records' clock)."""
    wall_started: float
    """``time.time()`` at the same moment (PostgreSQL's clock)."""
    deadline: float
    window: float
    in_window: list[InteractionRecord]
    """The actions answered before the deadline."""
    before: Any
    after: Any
    """``measure()`` right before and right after the window (CPU counters)."""


async def offer_load(
    rate: float,
    seconds: float,
    pick: Callable[[set[int]], int | None],
    act: Callable[[int], Awaitable[InteractionRecord | None]],
    measure: Callable[[], Any],
) -> OfferedLoad:
    """Offer ``rate`` actions per second for ``seconds``, at most one in flight per table
    (``pick(busy)`` chooses an idle one, or None), with no cycle collection in this process;
    then wait for the actions still in flight."""
    busy: set[int] = set()
    records: list[InteractionRecord] = []
    timeouts = 0

    async def one(table: int) -> None:
        nonlocal timeouts
        try:
            record = await act(table)
            if record is not None:
                records.append(record)
        except WaitTimeout:
            timeouts += 1
        finally:
            busy.discard(table)

    tasks: list[asyncio.Task[None]] = []
    interval = 1.0 / rate
    with no_collector_pauses():
        before = measure()
        started, wall_started = time.perf_counter(), time.time()
        deadline = started + seconds
        next_launch = started
        while (now := time.perf_counter()) < deadline:
            if now < next_launch:
                await asyncio.sleep(next_launch - now)
                continue
            next_launch += interval
            table = pick(busy)
            if table is not None:
                busy.add(table)
                tasks.append(asyncio.create_task(one(table)))
        window = time.perf_counter() - started
        after = measure()
        in_window = [r for r in records if r.callback_at is not None and r.callback_at <= deadline]
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=60)
    return OfferedLoad(
        records, timeouts, started, wall_started, deadline, window, in_window, before, after
    )


async def offered_load(
    name: str,
    rate: float,
    seconds: float,
    pick: Callable[[set[int]], int | None],
    act: Callable[[int], Awaitable[InteractionRecord | None]],
    bot_pid: int,
    emulator: Emulator | None = None,
    settle: float = 1.0,
) -> Phase:
    """Offer ``rate`` actions per second for ``seconds``; one action in flight per table."""
    load = await offer_load(
        rate,
        seconds,
        pick,
        act,
        lambda: (cpu_seconds(bot_pid), time.process_time(), workers_cpu_seconds(bot_pid)),
    )
    records, started, deadline, window = load.records, load.started, load.deadline, load.window
    bot_cpu, driver_cpu = (load.after[0] - load.before[0], load.after[1] - load.before[1])
    workers_cpu = load.after[2] - load.before[2]
    latencies = sorted(r.latency for r in records if r.latency is not None)
    delays: list[float] = []
    table_lags: list[float] = []
    uploaded, moves, showings = 0, 0, 0
    if emulator is not None:
        await asyncio.sleep(settle)  # the last turn DMs of the phase
        delays = sorted(turn_dm_delays(emulator, records))
        table_lags, showings = table_delays(emulator, records, started, deadline)
        table_lags.sort()
        uploaded = uploaded_bytes(emulator, started, deadline + settle)
        moves = len({_footer(r.callback_data) for r in records if r.callback_type == 7} - {None})
    plays = sorted(r.latency for r in records if r.latency is not None and _made_move(r))
    submenus = sorted(r.latency for r in records if r.latency is not None and not _made_move(r))
    return Phase(
        name=name,
        offered_per_second=rate,
        achieved_per_second=round(len(load.in_window) / window, 1),
        actions=len(records),
        p50_ms=round(percentile(latencies, 0.50) * 1000, 2),
        p99_ms=round(percentile(latencies, 0.99) * 1000, 2),
        max_ms=round((latencies[-1] if latencies else float("nan")) * 1000, 2),
        timeouts=load.timeouts,
        bot_cpu_percent=round(100 * bot_cpu / window, 1),
        driver_cpu_percent=round(100 * driver_cpu / window, 1),
        workers_cpu_percent=round(100 * workers_cpu / window, 1),
        bot_cpu_ms_per_move=round(1000 * bot_cpu / moves, 2) if moves else None,
        moves_per_second=round(moves / window, 1) if emulator is not None else None,
        turn_dms=len(delays),
        ack_to_dm_p50_ms=round(percentile(delays, 0.50) * 1000, 1) if delays else None,
        play_p50_ms=_ms(plays, 0.50),
        play_p99_ms=_ms(plays, 0.99),
        submenu_p50_ms=_ms(submenus, 0.50),
        submenu_p99_ms=_ms(submenus, 0.99),
        ack_to_dm_p99_ms=round(percentile(delays, 0.99) * 1000, 1) if delays else None,
        moves=moves,
        upload_kb_per_move=round(uploaded / moves / 1024, 1) if moves else None,
        table_updates_per_second=round(showings / window, 1) if emulator is not None else None,
        ack_to_table_p50_ms=_ms(table_lags, 0.50),
        ack_to_table_p99_ms=_ms(table_lags, 0.99),
    )


def uploaded_bytes(emulator: Emulator, since: float, until: float) -> int:
    """Bytes of files the bot uploaded (messages, edits, interaction answers) in the window."""
    total = 0
    for call in list(emulator.rest_calls):
        if not since <= call.started <= until or not isinstance(call.body, dict):
            continue
        data = call.body.get("data")
        message = data if isinstance(data, dict) else call.body
        for file in message.get("attachments") or []:
            if isinstance(file, dict):
                total += int(file.get("size") or 0)
    return total


GAME_AND_MOVE = re.compile(r"#(?P<game>\d+) · move (?P<move>\d+)")


def _footer(body: object) -> tuple[int, int] | None:
    """(game, version) from a message body's footer ("Game #3 · move 17": the moves made; the
    deal is version 1), its first embed's or, in a V2 message, its small print."""
    if not isinstance(body, dict):
        return None
    text = footer_in(body.get("embeds") or [], body.get("components") or [])
    found = GAME_AND_MOVE.search(text)
    return (int(found["game"]), int(found["move"]) + 1) if found else None


def _made_move(record: InteractionRecord) -> bool:
    """Whether a menu click stored a move: its answer shows a later move than the clicked
    control was made for (``glory:m:<game>:<version>:…`` / ``glory:s:…``)."""
    parts = str(record.data.get("custom_id", "")).split(":")
    shown = _footer(record.callback_data)
    return len(parts) > 3 and shown is not None and parts[3].isdigit() and shown[1] > int(parts[3])


def _ms(latencies: list[float], share: float) -> float | None:
    return round(percentile(latencies, share) * 1000, 2) if latencies else None


def acknowledged_moves(records: list[InteractionRecord]) -> dict[tuple[int, int], float]:
    """When each move was acknowledged, by (game, version): the first answer that edited the
    clicked hand to that version (its footer names both)."""
    answered: dict[tuple[int, int], float] = {}
    for record in records:
        if record.callback_type == 7 and record.callback_at is not None:
            key = _footer(record.callback_data)
            if key is not None:
                answered.setdefault(key, record.callback_at)
    return answered


def turn_dm_delays(emulator: Emulator, records: list[InteractionRecord]) -> list[float]:
    """Seconds from a move's acknowledgement to the new DM of the player whose turn it made.

    A move's answer edits the clicked hand to the new state (its footer names the game and
    the new version); the turn's DM is the first hand DM posted for that game and version.
    Moves answered by a deferral are left out (their new state comes in a later edit).
    """
    answered = acknowledged_moves(records)
    delays = []
    seen: set[tuple[int, int]] = set()
    for call in list(emulator.rest_calls):
        if call.method != "POST" or not call.path.endswith("/messages") or call.status != 200:
            continue
        key = _footer(call.body)
        if key is None or key in seen or key not in answered:
            continue
        channel = emulator.world.channels.get(int(call.path.split("/")[2]))
        if channel is not None and channel.is_dm:
            seen.add(key)
            delays.append(call.finished - answered[key])
    return [delay for delay in delays if delay >= 0]


def table_delays(
    emulator: Emulator, records: list[InteractionRecord], since: float, until: float
) -> tuple[list[float], int]:
    """Seconds from a move's acknowledgement to the first showing of its table that includes
    it (an edit or a new table message whose footer names that move or a later one); and how
    many times tables were shown between ``since`` and ``until``.

    Tables are paced (``bot/outbox/pace.py``): under load one showing covers several moves,
    and this says how long the public table lags behind the players' own hands. A move whose
    table has not been shown yet counts with the time it has waited so far (at least that)."""
    answered = acknowledged_moves(records)
    showings: dict[int, list[tuple[float, int]]] = {}
    count = 0
    for call in list(emulator.rest_calls):
        if call.method not in ("PATCH", "POST") or call.status != 200:
            continue
        if not call.path.startswith("/channels/") or "/messages" not in call.path:
            continue
        channel = emulator.world.channels.get(int(call.path.split("/")[2]))
        key = _footer(call.body)
        if key is None or channel is None or channel.is_dm:
            continue
        showings.setdefault(key[0], []).append((call.finished, key[1]))
        count += since <= call.finished <= until
    delays = []
    for (game, version), acknowledged in answered.items():
        table = showings.get(game, ())
        shown = [at for at, move in table if move >= version and at >= acknowledged]
        delays.append((min(shown) if shown else time.perf_counter()) - acknowledged)
    return delays, count


def random_action(
    tables: list[Table], rng: random.Random
) -> Callable[[int], Awaitable[InteractionRecord | None]]:
    """A random menu action by a player of the table who can act; ``None`` when, by the time
    the action starts, nobody can any more (the bot changed the hands since the table was
    picked: under heavy load that happens)."""

    async def act(table: int) -> InteractionRecord | None:
        movers = tables[table].movers()
        return await act_randomly(rng.choice(movers), rng) if movers else None

    return act


def table_picker(tables: list[Table], rng: random.Random) -> Callable[[set[int]], int | None]:
    def pick(busy: set[int]) -> int | None:
        for _ in range(50):  # bounded random probing for an idle table with a player to act
            index = rng.randrange(len(tables))
            if index not in busy and tables[index].movers():
                return index
        return None

    return pick


async def glory_phases(
    args: argparse.Namespace, workdir: Path, floor: Measure | None = None
) -> dict[str, object]:
    rng = random.Random(args.seed)
    results: dict[str, object] = {}
    async with Emulator(record_limit=20_000) as emulator:
        database_url = args.database_url or f"sqlite+aiosqlite:///{workdir / 'glory.db'}"
        argv = GLORY_BOT
        if args.profile:
            argv = (sys.executable, "-m", "cProfile", "-o", str(args.profile), "-m", "bot")
        async with bot_process(
            emulator, workdir / "glory.log", argv=argv, database_url=database_url
        ) as bot:
            assert bot.process is not None
            pid = bot.process.pid
            await asyncio.sleep(0.5)
            idle_rss = rss_bytes(pid)
            print(f"bot idle at {idle_rss / 2**20:.1f} MB RSS", flush=True)
            if args.stored:
                began = time.perf_counter()
                await store_finished_games(
                    emulator, args.stored, games=args.game_keys, concurrency=32
                )
                print(
                    f"stored {args.stored} finished games in {time.perf_counter() - began:.0f} s",
                    flush=True,
                )
            stored_rss = rss_bytes(pid)
            began = time.perf_counter()
            tables = await create_tables(
                emulator, args.games, args.players, games=args.game_keys, concurrency=32, prefix="g"
            )
            print(f"started {len(tables)} games in {time.perf_counter() - began:.0f} s", flush=True)
            started_rss = rss_bytes(pid)
            sampler = RssSampler(pid)
            sampler.start()

            act = random_action(tables, rng)
            pick = table_picker(tables, rng)
            phases = [
                await offered_load("glory", args.rate, args.seconds, pick, act, pid, emulator)
            ]
            print(json.dumps(asdict(phases[0])), flush=True)
            if floor is not None and args.paired_rounds:

                async def measure(name: str, seconds: float) -> Phase:
                    return await offered_load(name, args.rate, seconds, pick, act, pid)

                results.update(await paired_rounds(args, measure, floor))
            sustained = 0.0
            for rate in args.ramp:
                phase = await offered_load(
                    "glory-ramp", rate, args.ramp_seconds, pick, act, pid, emulator
                )
                print(json.dumps(asdict(phase)), flush=True)
                phases.append(phase)
                keeps_up = phase.achieved_per_second >= 0.95 * rate and not phase.timeouts
                if phase.p99_ms > P99_LIMIT_SECONDS * 1000 or not keeps_up:
                    break
                sustained = max(sustained, phase.achieved_per_second)
            peak_rss = await sampler.stop()
            if args.fault_seconds:
                # Discord misbehaving: the clicks' answers must stay fast, the turn DMs come
                # when Discord lets them (the bot's own calls only; see soak.BOT_ROUTES).
                await asyncio.sleep(5)  # after the ramp's last step, an idle bot again
                emulator.faults.randomly(
                    seed=args.seed,
                    rate_limited=0.05,
                    server_error=0.01,
                    slow=0.02,
                    slow_seconds=4.0,
                    path_pattern=BOT_ROUTES,
                )
                faulty = await offered_load(
                    "glory-faults",
                    args.rate,
                    args.fault_seconds,
                    pick,
                    act,
                    pid,
                    emulator,
                    settle=15.0,  # a turn DM may wait out a 4 s delay and discord.py's retries
                )
                emulator.faults.clear()
                print(json.dumps(asdict(faulty)), flush=True)
                results["faults_phase"] = asdict(faulty)
            results.update(
                {
                    "glory_phases": [asdict(p) for p in phases],
                    "sustained_actions_per_second_p99_under_100ms": sustained,
                    "bot_idle_rss_mb": round(idle_rss / 2**20, 1),
                    "bot_rss_after_storing_mb": round(stored_rss / 2**20, 1),
                    "bot_rss_after_starting_mb": round(started_rss / 2**20, 1),
                    "bot_peak_rss_mb": round(peak_rss / 2**20, 1),
                    "rss_kb_per_active_game": round((peak_rss - idle_rss) / 1024 / len(tables), 1),
                    "active_games": len(tables),
                    "stored_games": args.stored + len(tables),
                    "emulator_unhandled_routes": emulator.unhandled,
                }
            )
            log = bot.log_path.read_text(errors="replace")
            results["bot_errors_logged"] = log.count(" ERROR ") + log.count("Traceback")
    return results


def ai_moves_per_second(database: Path, since: float, until: float) -> float:
    """Moves of AI players stored between two wall-clock times, per second (from the file)."""
    with sqlite3.connect(database) as connection:
        rows = connection.execute(
            "SELECT m.created_at FROM moves m JOIN seats s"
            " ON s.game_id = m.game_id AND s.seat = m.seat WHERE s.ai_level IS NOT NULL"
        ).fetchall()
    stamps = [datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp() for (text,) in rows]
    return round(sum(1 for stamp in stamps if since <= stamp <= until) / (until - since), 1)


async def mixed_phase(args: argparse.Namespace, workdir: Path) -> dict[str, object]:
    """The humans' clicks while AI players search: ``--games`` games of which a quarter seat
    one human and strong AI players, the others only humans, at ``--rate`` human actions/s.

    The bot runs with its defaults (one search worker process, a readable pause before each
    AI move), so the AI searches compete with the bot and the players for this machine's two
    cores, as they would on a small host.
    """
    rng = random.Random(args.seed)
    database = workdir / "mixed.db"
    async with (
        Emulator(record_limit=20_000) as emulator,
        bot_process(
            emulator,
            workdir / "mixed.log",
            argv=GLORY_BOT,
            database_url=f"sqlite+aiosqlite:///{database}",
        ) as bot,
    ):
        assert bot.process is not None
        with_ai = args.games // 4
        ai = ("strong",) * (args.players - 1)
        tables = await create_tables(
            emulator,
            args.games - with_ai,
            args.players,
            games=args.game_keys,
            concurrency=32,
            prefix="h",
        )
        tables += await create_tables(
            emulator, with_ai, 1, games=args.game_keys, concurrency=32, prefix="a", ai=ai
        )

        act = random_action(tables, rng)
        began = time.time()
        phase = await offered_load(
            "mixed", args.rate, args.mixed_seconds, table_picker(tables, rng), act,
            bot.process.pid, emulator,
        )  # fmt: skip
        ended = began + args.mixed_seconds
        log = bot.log_path.read_text(errors="replace")
    print(json.dumps(asdict(phase)), flush=True)
    return {
        "mixed_phase": asdict(phase),
        "mixed_games_with_ai": with_ai,
        "mixed_ai_moves_per_second": ai_moves_per_second(database, began, ended),
        "mixed_bot_errors_logged": log.count(" ERROR ") + log.count("Traceback"),
    }


Measure = Callable[[str, float], Awaitable[Phase]]
"""Offer the load to one bot for a number of seconds: ``await measure(name, seconds)``."""


@contextlib.asynccontextmanager
async def floor_bot(args: argparse.Namespace, workdir: Path) -> AsyncIterator[Measure]:
    """The no-op bot, ready to be measured at ``--rate`` for any number of windows."""
    async with (
        Emulator(record_limit=20_000) as emulator,
        bot_process(emulator, workdir / "noop.log", argv=NOOP_BOT) as bot,
    ):
        assert bot.process is not None
        pid = bot.process.pid
        await emulator.wait_for(lambda: emulator.commands.get(None), what="no-op bot sync")
        users = [emulator.add_actor(f"u{n}") for n in range(args.games)]
        rng = random.Random(args.seed)

        def pick(busy: set[int]) -> int | None:
            for _ in range(50):  # bounded random probing for an idle user
                index = rng.randrange(len(users))
                if index not in busy:
                    return index
            return None

        async def act(index: int) -> InteractionRecord:
            return await (await users[index].slash("ping")).response(timeout=10)

        async def measure(name: str, seconds: float) -> Phase:
            return await offered_load(name, args.rate, seconds, pick, act, pid)

        yield measure


async def paired_rounds(
    args: argparse.Namespace, glory: Measure, floor: Measure
) -> dict[str, object]:
    """The bot and the floor measured in alternating windows of the same minutes.

    This machine's speed drifts by a quarter and more within minutes, and the floor phase runs
    long after the bot's main phase; alternating short windows puts both under the same
    conditions, so the ratio of their medians says more than one pair of phases far apart.
    """
    ratios, rounds = [], []
    for _ in range(args.paired_rounds):
        bot_window = await glory("glory-paired", args.paired_seconds)
        floor_window = await floor("floor-paired", args.paired_seconds)
        rounds.append({"glory_p50_ms": bot_window.p50_ms, "floor_p50_ms": floor_window.p50_ms})
        if floor_window.p50_ms:
            ratios.append(bot_window.p50_ms / floor_window.p50_ms)
    median = statistics.median(ratios) if ratios else None
    print(f"paired rounds: p50 ratios {[round(ratio, 2) for ratio in ratios]}", flush=True)
    return {
        "paired_rounds": rounds,
        "paired_p50_vs_floor_median": round(median, 2) if median is not None else None,
    }


async def main_async(args: argparse.Namespace) -> dict[str, object]:
    workdir = Path(tempfile.mkdtemp(prefix="glory-bench-"))
    print(f"work directory (bot logs, SQLite): {workdir}", flush=True)
    if args.processes:
        from benchmarks.shard_load import run as shard_run

        results = await shard_run(args, workdir)
        shutil.rmtree(workdir)
        return results
    async with floor_bot(args, workdir) as measure_floor:
        results = await glory_phases(args, workdir, measure_floor)
        floor = await measure_floor("no-op floor", args.seconds)
    print(json.dumps(asdict(floor)), flush=True)
    if args.mixed_seconds:
        results.update(await mixed_phase(args, workdir))
    results["floor"] = asdict(floor)
    glory_p50 = results["glory_phases"][0]["p50_ms"]  # type: ignore[index]
    results["p50_vs_floor"] = round(glory_p50 / floor.p50_ms, 1) if floor.p50_ms else None
    shutil.rmtree(workdir)  # kept when the run fails, for the logs
    return results


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="active games (default 200)")
    parser.add_argument("--players", type=int, default=3, help="players per game")
    parser.add_argument("--rate", type=float, default=100.0, help="offered actions/s")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of the main phase")
    parser.add_argument("--ramp", type=float, nargs="*", default=[50, 100, 150, 200, 300, 400, 600])
    parser.add_argument("--ramp-seconds", type=float, default=8.0)
    parser.add_argument(
        "--fault-seconds",
        type=float,
        default=20.0,
        help="a phase at --rate with Discord's faults injected (0: none)",
    )
    parser.add_argument(
        "--mixed-seconds",
        type=float,
        default=20.0,
        help="a phase at --rate with a quarter of the games against strong AI players (0: none)",
    )
    parser.add_argument(
        "--paired-rounds",
        type=int,
        default=4,
        help="windows of the bot and the floor in turn after the main phase (0: none)",
    )
    parser.add_argument("--paired-seconds", type=float, default=5.0)
    parser.add_argument("--stored", type=int, default=0, help="finished games stored first")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--database-url",
        help="an empty database for the bot instead of a new SQLite file, e.g. PostgreSQL's",
    )
    parser.add_argument(
        "--game-keys", nargs="+", choices=GAMES, default=list(GAMES), help="games to cycle through"
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=0,
        help="N bot processes, one per shard, on the PostgreSQL of --database-url (a fresh "
        "database is made there); only the ramp is run (benchmarks/shard_load.py)",
    )
    parser.add_argument(
        "--moves-from",
        choices=("channel", "dm"),
        default="channel",
        help="with --processes: play from ephemeral hands in the game's channel (spread over "
        "the shards) or from DM hands (all on shard 0)",
    )
    parser.add_argument(
        "--warmup-seconds",
        type=float,
        default=10.0,
        help="with --processes: unmeasured load at the ramp's first rate before the main phase",
    )
    parser.add_argument(
        "--p99-limit-ms",
        type=float,
        default=50.0,
        help="with --processes: the ramp's latency limit",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        help="run the bot of the main phases under cProfile and write its statistics here",
    )
    parser.add_argument("--quick", action="store_true", help="a small, fast smoke run")
    args = parser.parse_args(argv)
    args.game_keys = tuple(args.game_keys)
    if args.quick:
        args.games, args.seconds, args.ramp, args.ramp_seconds = 30, 5.0, [50, 100], 3.0
        args.fault_seconds = args.mixed_seconds = 5.0
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    results = asyncio.run(main_async(args))
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
