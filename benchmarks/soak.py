"""The soak of tests/loopback/test_soak.py, longer and with its figures printed.

    .venv/bin/python benchmarks/soak.py                         # 150 games, 2 kills
    .venv/bin/python benchmarks/soak.py --games 300 --kills 4
    .venv/bin/python benchmarks/soak.py --discord-rate-limits   # Discord's own limits too
    .venv/bin/python benchmarks/soak.py --discord-rate-limits --request-times

The real bot process plays every game to its end through the loopback emulator while Discord
misbehaves (a share of REST calls answered 429 or 500 or served seconds late, double clicks,
players joining at the same moment) and the bot is killed with SIGKILL now and then. At the
end it checks what ``bot/loopback/soak.py`` checks and prints one JSON report; the exit
status is 1 if a check failed.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import os
import shutil
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from bot.loopback.bot_process import GLORY_BOT, bot_process  # noqa: E402
from bot.loopback.ratelimits import counts_against_global  # noqa: E402
from bot.loopback.soak import (  # noqa: E402
    STALL_SECONDS,
    SoakSettings,
    busiest_second,
    faulty_emulator,
    soak,
)
from bot.outbox.budget import REQUEST_TIMES_ENV  # noqa: E402

STEPS_PER_GAME = 120
"""Roughly how many menu actions a game of the mix takes (spreads the kills over the run)."""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    defaults = SoakSettings()
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--kills", type=int, default=defaults.kills)
    parser.add_argument("--seed", default="bench-soak")
    parser.add_argument("--rate-limited", type=float, default=defaults.rate_limited)
    parser.add_argument("--server-error", type=float, default=defaults.server_error)
    parser.add_argument("--slow", type=float, default=defaults.slow)
    parser.add_argument("--double-click", type=float, default=defaults.double_click)
    parser.add_argument(
        "--discord-rate-limits",
        action="store_true",
        help="also Discord's per-route and global rate limits (RateLimits.discord_like)",
    )
    parser.add_argument(
        "--minutes",
        type=float,
        default=None,
        help="stop playing in time for the whole run to end within this many minutes (a "
        "measuring slot); the games not over by then are reported as problems",
    )
    parser.add_argument(
        "--request-times",
        action="store_true",
        help="record every token request's times in the bot (let through, headers, first "
        "bytes written) and at the emulator (kernel arrival, door thread, loop), keep them in "
        "the work directory and compare them per second in the report",
    )
    return parser.parse_args(argv)


REPORT_SECONDS = 120.0
"""What ``--minutes`` leaves for the end of a run: the outbox settling, the checks."""


async def main_async(args: argparse.Namespace) -> dict[str, object]:
    began = time.perf_counter()
    settings = SoakSettings(
        games=args.games,
        seed=args.seed,
        rate_limited=args.rate_limited,
        server_error=args.server_error,
        slow=args.slow,
        double_click=args.double_click,
        kills=args.kills,
        discord_rate_limits=args.discord_rate_limits,
        play_until=None if args.minutes is None else began + args.minutes * 60 - REPORT_SECONDS,
    )
    workdir = Path(tempfile.mkdtemp(prefix="glory-soak-"))
    print(f"work directory (bot log, SQLite): {workdir}", flush=True)
    database = workdir / "glory.db"
    bot_times = workdir / "bot_requests.txt"
    if args.request_times:
        os.environ[REQUEST_TIMES_ENV] = str(bot_times)  # the bot's environment is this one's
    async with (
        faulty_emulator(settings) as emulator,
        bot_process(
            emulator,
            workdir / "bot.log",
            argv=GLORY_BOT,
            database_url=f"sqlite+aiosqlite:///{database}",
            ready_timeout=60,
        ) as bot,
    ):
        try:
            report = await soak(
                emulator,
                bot,
                database,
                settings,
                expected_steps=args.games * STEPS_PER_GAME,
                progress=lambda line: print(line, flush=True),
            )
        finally:
            door_times = [
                (c.started, c.read, c.handled, c.rate_limited, c.method, c.path)
                for c in emulator.rest_calls
                if counts_against_global(c.path) and c.handled
            ]
            if args.request_times:  # kept when the soak fails too
                with (workdir / "door_requests.txt").open("w") as file:
                    file.writelines(" ".join(map(str, row)) + "\n" for row in door_times)
    result = {
        "games": report.games,
        "moves": report.moves,
        "clicks": report.clicks,
        "seconds": round(report.seconds, 1),
        "moves_per_second": round(report.moves / report.seconds, 1),
        "interactions": report.interactions,
        "unanswered_while_bot_down": report.unanswered,
        "slowest_answer_ms": round(report.slowest_answer * 1000, 1),
        "turn_dms_checked": report.turn_dms,
        "faults_injected": dict(report.faults),
        "kill_9_restarts": report.restarts,
        "global_429s": report.global_429s,
        "harness_lag_worst_s": round(report.harness_lag, 2),
        "token_requests": asdict(report.arrivals) if report.arrivals is not None else None,
        "stall_limit_s": STALL_SECONDS,
        "stall_limit_before_a_first_dm_s": round(STALL_SECONDS + report.first_dm_wait, 1),
        "games_not_over": sum(
            1 for problem in report.problems if problem.endswith(", not finished")
        ),
        "problems": report.problems,
    }
    if args.request_times:
        result["request_times"] = compare_times(bot_times, door_times, report.global_429s)
    if not report.problems and not args.request_times:
        shutil.rmtree(workdir)  # kept when the soak fails, for the bot's log (or the times)
    return result


def compare_times(
    bot_file: Path, door: list[tuple[float, float, float, bool, str, str]], refused: int
) -> dict[str, object]:
    """The bot's token requests per second as the bot let them through, sent their headers
    and wrote their first bytes, against their arrival at the emulator (the kernel's time),
    when its door's thread read them and when its loop handled them; every time is
    ``CLOCK_MONOTONIC``, which the bot's process and this one share."""
    bot = [line.split() for line in bot_file.read_text().splitlines() if line.strip()]
    granted = [float(row[0]) for row in bot]
    headers = [float(row[1]) for row in bot if float(row[1])]
    written = [float(row[2]) for row in bot if float(row[2])]
    arrived = [row[0] for row in door]
    read = [row[1] for row in door if row[1]]
    written_sorted, late = sorted(written), 0.0
    for at in arrived:  # the arrival's lag behind the nearest write before it
        i = bisect.bisect_right(written_sorted, at + 0.0005)
        if i:
            late = max(late, at - written_sorted[i - 1])
    return {
        "bot_requests": len(bot),
        "door_requests": len(door),
        "busiest_second_let_through": busiest_second(granted),
        "busiest_second_headers": busiest_second(headers),
        "busiest_second_written": busiest_second(written),
        "busiest_second_arrived_kernel": busiest_second(arrived),
        "busiest_second_read_by_door": busiest_second(read),
        "written_after_headers_worst_s": round(
            max((float(r[2]) - float(r[1]) for r in bot if float(r[1]) and float(r[2])), default=0),
            3,
        ),
        "read_after_arrival_worst_s": round(max((r[1] - r[0] for r in door if r[1]), default=0), 3),
        "arrival_after_a_write_worst_s": round(late, 3),
        "global_429s": refused,
    }


def main(argv: list[str] | None = None) -> int:
    result = asyncio.run(main_async(parse_args(argv)))
    print(json.dumps(result, indent=2))
    return 1 if result["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
