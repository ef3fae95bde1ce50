"""The soak of tests/loopback/test_soak.py, longer and with its figures printed.

    .venv/bin/python benchmarks/soak.py                         # 150 games, 2 kills
    .venv/bin/python benchmarks/soak.py --games 300 --kills 4
    .venv/bin/python benchmarks/soak.py --discord-rate-limits   # Discord's own limits too

The real bot process plays every game to its end through the loopback emulator while Discord
misbehaves (a share of REST calls answered 429 or 500 or served seconds late, double clicks,
players joining at the same moment) and the bot is killed with SIGKILL now and then. At the
end it checks what ``bot/loopback/soak.py`` checks and prints one JSON report; the exit
status is 1 if a check failed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from bot.loopback.bot_process import GLORY_BOT, bot_process  # noqa: E402
from bot.loopback.soak import (  # noqa: E402
    STALL_SECONDS,
    SoakSettings,
    faulty_emulator,
    soak,
)

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
        report = await soak(
            emulator,
            bot,
            database,
            settings,
            expected_steps=args.games * STEPS_PER_GAME,
            progress=lambda line: print(line, flush=True),
        )
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
    if not report.problems:
        shutil.rmtree(workdir)  # kept when the soak fails, for the bot's log
    return result


def main(argv: list[str] | None = None) -> int:
    result = asyncio.run(main_async(parse_args(argv)))
    print(json.dumps(result, indent=2))
    return 1 if result["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
