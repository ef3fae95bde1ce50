"""Discord's budget: how many requests a move costs the bot's token, route by route (issue 32).

    .venv/bin/python benchmarks/budget.py                  # both mixes (about 4 min)
    .venv/bin/python benchmarks/budget.py --quick          # a smoke run (about 1 min)

A bot token has about 50 requests a second in all (``GLOBAL_REQUESTS_PER_SECOND``), shared by
every process; interaction callbacks and their webhooks (``/interactions/...``,
``/webhooks/...``) are not counted. That, not the CPU, is the ceiling of a large Glory. This
runs the real bot (``python -m bot``, its own process, a SQLite file) against the loopback
emulator, with players clicking through their DMs, and counts every request the emulator
receives in a measured window, by route, divided by the moves stored in that window:

- **standard mix**: ``--games`` games, ``--rate`` random menu actions a second over all of
  them (one in flight per game), as in ``benchmarks/bot_load.py``'s main phase;
- **human pace**: ``--human-games`` games in which the player on turn makes one move every
  ``--pace`` seconds (8 s: reading the table, choosing), clicking through the menu as a person
  does.

It prints one JSON line per mix and a summary: token requests per move (target <= 1.3 at
human pace), interaction requests per move, each route with what it is for, and how many
games at human pace fit in ``GLOBAL_REQUESTS_PER_SECOND`` (``50 / (token requests per move /
pace)``). The emulator's own cost of checking every request against Discord's API description
(``bot/loopback/openapi.py``) is reported too (``contract_us_per_request``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import re
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "benchmarks"))

from bot_load import create_tables, offer_load, random_action, table_picker  # noqa: E402

from bot.loopback import Emulator  # noqa: E402
from bot.loopback.bot_process import GLORY_BOT, bot_process  # noqa: E402
from bot.loopback.ratelimits import counts_against_global  # noqa: E402
from bot.loopback.rest import RestCall  # noqa: E402
from bot.loopback.ui_players import Table, act_randomly  # noqa: E402

GAMES = ("kami", "call_to_glory", "clans_and_glory")
GLOBAL_REQUESTS_PER_SECOND = 50
TARGET_TOKEN_REQUESTS_PER_MOVE = 1.3

PURPOSES = {
    "POST /channels/{dm}/messages": "a new hand DM: the turn's ping (a game's first DMs too)",
    "PATCH /channels/{dm}/messages/{id}": "a hand DM brought up to date, never clicked",
    "DELETE /channels/{dm}/messages/{id}": "the hand DM a newer one replaced, never clicked",
    "DELETE /webhooks/{app}/{token}/messages/@original": "the hand DM a newer one replaced, "
    "through the player's last click on it",
    "GET /channels/{dm}/messages": "a finished game tidies each player's DMs (one read)",
    "PATCH /channels/{channel}/messages/{id}": "the table shown (paced, many moves per edit)",
    "POST /channels/{channel}/messages": "a table posted, a notice (closed DMs, lobby expired)",
    "DELETE /channels/{channel}/messages/{id}": "a lobby or table message removed",
    "POST /users/@me/channels": "a DM channel opened (the first DM of a player)",
    "POST /interactions/{id}/{token}/callback": "a click's answer (the clicked hand updated)",
    "POST /webhooks/{app}/{token}": "a follow-up after a deferred answer",
    "PATCH /webhooks/{app}/{token}/messages/@original": "a hand DM brought up to date through "
    "the player's last click on it (or a deferred answer completed)",
}

_ID = re.compile(r"^\d+$")


def route_of(emulator: Emulator, call: RestCall) -> str:
    """``POST /channels/{dm}/messages``: the route with its ids named, DMs apart from channels."""
    parts = call.path.strip("/").split("/")
    named = []
    for index, part in enumerate(parts):
        if parts[0] == "channels" and index == 1 and _ID.match(part):
            channel = emulator.world.channels.get(int(part))
            named.append("{dm}" if channel is not None and channel.is_dm else "{channel}")
        elif parts[0] in ("interactions", "webhooks") and index == 1:
            named.append("{id}" if parts[0] == "interactions" else "{app}")
        elif parts[0] in ("interactions", "webhooks") and index == 2:
            named.append("{token}")
        elif _ID.match(part):
            named.append("{id}")
        else:
            named.append(part)
    return f"{call.method} /{'/'.join(named)}"


@dataclass
class Mix:
    name: str
    games: int
    seconds: float
    moves: int
    moves_per_second: float
    token_requests: int
    interaction_requests: int
    token_requests_per_move: float
    interaction_requests_per_move: float
    token_requests_per_second: float
    by_route: dict[str, dict[str, object]] = field(default_factory=dict)
    global_429s: int = 0
    contract_us_per_request: float | None = None
    human_paced_games_within_budget: int | None = None


def moves_between(database: Path, since: float, until: float) -> int:
    """Moves stored between two wall-clock times (from the bot's SQLite file)."""
    with sqlite3.connect(database) as connection:
        rows = connection.execute("SELECT created_at FROM moves").fetchall()
    stamps = [datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp() for (text,) in rows]
    return sum(1 for stamp in stamps if since <= stamp < until)


def measure(
    emulator: Emulator,
    name: str,
    games: int,
    database: Path,
    window: tuple[float, float, float, float],
    pace: float | None = None,
) -> Mix:
    """The requests the emulator received in ``window`` (perf_counter start and end, wall
    start and end), by route, per move stored meanwhile."""
    started, ended, wall_started, wall_ended = window
    seconds = ended - started
    calls = [c for c in list(emulator.rest_calls) if started <= c.started < ended]
    moves = moves_between(database, wall_started, wall_ended)
    routes = Counter(route_of(emulator, call) for call in calls)
    token = sum(1 for call in calls if counts_against_global(call.path))
    interaction = len(calls) - token
    per_move = token / moves if moves else float("nan")
    by_route = {
        route: {
            "per_move": round(count / moves, 3) if moves else None,
            "token": counts_against_global(route.split(" ", 1)[1]),
            "for": PURPOSES.get(route, ""),
        }
        for route, count in routes.most_common()
    }
    checks, spent = emulator.contract_checks, emulator.contract_seconds
    mix = Mix(
        name=name,
        games=games,
        seconds=round(seconds, 1),
        moves=moves,
        moves_per_second=round(moves / seconds, 2),
        token_requests=token,
        interaction_requests=interaction,
        token_requests_per_move=round(per_move, 3),
        interaction_requests_per_move=round(interaction / moves, 3) if moves else float("nan"),
        token_requests_per_second=round(token / seconds, 1),
        by_route=by_route,
        global_429s=emulator.rate_limits.served_by_route.get("global", 0),
        contract_us_per_request=round(spent / checks * 1e6, 1) if checks else None,
    )
    if pace is not None and moves:
        mix.human_paced_games_within_budget = int(GLOBAL_REQUESTS_PER_SECOND / (per_move / pace))
    return mix


async def play_at_human_pace(table: Table, rng: random.Random, pace: float, until: float) -> None:
    """The player on turn makes a move every ``pace`` seconds (jittered), clicking through
    the menu a moment apart as a person does, until ``until`` (perf_counter)."""
    await asyncio.sleep(rng.uniform(0, pace))
    while time.perf_counter() < until:
        version = table.version()
        moved_at = time.perf_counter()
        for _ in range(30):
            movers = table.movers()
            if not movers or table.version() > version or time.perf_counter() >= until:
                break
            await act_randomly(rng.choice(movers), rng)
            await asyncio.sleep(rng.uniform(0.2, 0.6))
        rest = pace - (time.perf_counter() - moved_at)
        await asyncio.sleep(max(0.5, rng.uniform(0.75, 1.25) * rest))


@contextlib.asynccontextmanager
async def games_running(
    workdir: Path, name: str, games: int, concurrency: int
) -> AsyncIterator[tuple[Emulator, list[Table], Path]]:
    """The real bot on a SQLite file of its own and ``games`` started games of three players,
    through a fresh emulator: ``(emulator, tables, database)``."""
    async with Emulator(record_limit=200_000) as emulator:
        database = workdir / f"{name}.db"
        async with bot_process(
            emulator,
            workdir / f"{name}.log",
            argv=GLORY_BOT,
            database_url=f"sqlite+aiosqlite:///{database}",
            ready_timeout=60,
        ):
            tables = await create_tables(
                emulator, games, 3, games=GAMES, concurrency=concurrency, prefix=name[0]
            )
            yield emulator, tables, database


async def human_mix(args: argparse.Namespace, workdir: Path) -> Mix:
    rng = random.Random(args.seed)
    async with games_running(workdir, "human", args.human_games, 16) as (emulator, tables, db):
        warm, length = args.pace * 2, args.human_seconds
        until = time.perf_counter() + warm + length
        playing = asyncio.gather(*(play_at_human_pace(t, rng, args.pace, until) for t in tables))
        await asyncio.sleep(warm)
        started, wall_started = time.perf_counter(), time.time()
        await playing
        window = (started, time.perf_counter(), wall_started, time.time())
        await asyncio.sleep(2)  # the last moves' deliveries
        return measure(emulator, "human pace", len(tables), db, window, args.pace)


async def standard_mix(args: argparse.Namespace, workdir: Path) -> Mix:
    rng = random.Random(args.seed)
    async with games_running(workdir, "standard", args.games, 32) as (emulator, tables, db):
        act, pick = random_action(tables, rng), table_picker(tables, rng)
        await offer_load(args.rate, 3.0, pick, act, lambda: None)  # warm up
        load = await offer_load(args.rate, args.seconds, pick, act, lambda: None)
        window = (load.started, load.deadline, load.wall_started, load.wall_started + load.window)
        await asyncio.sleep(2)
        return measure(emulator, "standard mix", len(tables), db, window)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games of the standard mix")
    parser.add_argument("--rate", type=float, default=100.0, help="standard mix: actions/s")
    parser.add_argument("--seconds", type=float, default=30.0, help="standard mix: window")
    parser.add_argument("--human-games", type=int, default=40, help="games at human pace")
    parser.add_argument("--pace", type=float, default=8.0, help="seconds between moves")
    parser.add_argument("--human-seconds", type=float, default=90.0, help="human pace: window")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--only", choices=("standard", "human"), default=None)
    parser.add_argument("--quick", action="store_true", help="a small, fast smoke run")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.seconds, args.human_games, args.human_seconds = 20, 10.0, 12, 30.0
        args.rate = 30.0
    return args


async def main_async(args: argparse.Namespace) -> dict[str, object]:
    mixes: list[Mix] = []
    with tempfile.TemporaryDirectory(prefix="glory-budget-") as folder:
        workdir = Path(folder)
        if args.only in (None, "standard"):
            mixes.append(await standard_mix(args, workdir))
            print(json.dumps(asdict(mixes[-1])), flush=True)
        if args.only in (None, "human"):
            mixes.append(await human_mix(args, workdir))
            print(json.dumps(asdict(mixes[-1])), flush=True)
    summary: dict[str, object] = {
        "global_requests_per_second": GLOBAL_REQUESTS_PER_SECOND,
        "target_token_requests_per_move_at_human_pace": TARGET_TOKEN_REQUESTS_PER_MOVE,
    }
    for mix in mixes:
        key = mix.name.replace(" ", "_")
        summary[f"{key}_token_requests_per_move"] = mix.token_requests_per_move
        summary[f"{key}_interaction_requests_per_move"] = mix.interaction_requests_per_move
        if mix.human_paced_games_within_budget is not None:
            summary["human_paced_games_within_budget"] = mix.human_paced_games_within_budget
    return summary


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    summary = asyncio.run(main_async(args))
    print(json.dumps(summary), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
