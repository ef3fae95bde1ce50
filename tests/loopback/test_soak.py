"""The soak, bounded for CI: 56 games through a faulty Discord with two kill -9 restarts, and
a few games within a small global limit of Discord's that the bot must share between them.

``benchmarks/soak.py`` runs the same soak longer and reports its figures; see
``bot/loopback/soak.py`` for what it does and checks.
"""

from __future__ import annotations

import bisect
from pathlib import Path

from bot.loopback import Emulator
from bot.loopback.bot_process import glory_bot
from bot.loopback.ratelimits import counts_against_global
from bot.loopback.soak import SoakSettings, faulty_emulator, log_excerpt, soak

from .test_glory_bot import assert_clean_log

SETTINGS = SoakSettings(games=56, seed="ci-soak")
EXPECTED_STEPS = 56 * 120
"""Roughly how many menu actions the games take (it spreads the two kills over the run)."""


async def test_every_game_finishes_and_every_move_is_published_despite_discords_faults(
    tmp_path: Path,
) -> None:
    database = tmp_path / "glory.db"
    async with faulty_emulator(SETTINGS) as emulator, glory_bot(emulator, tmp_path) as bot:
        report = await soak(emulator, bot, database, SETTINGS, expected_steps=EXPECTED_STEPS)
    lag = f"\n(the soak's own loop was late by {report.harness_lag:.1f} s at worst)"
    assert report.problems == [], "\n".join(report.problems[:40]) + lag + log_excerpt(bot.log_path)
    assert report.restarts == 2
    assert report.faults["rate_limited"] > 0 and report.faults["server_error"] > 0
    assert report.faults["slow"] > 0
    assert report.slowest_answer <= 3.0
    assert report.turn_dms > report.games
    await assert_clean_log(bot, emulator)


RATE_LIMITED = SoakSettings(
    games=6, seed="ci-rate-limited", kills=0, discord_rate_limits=True, global_limit=20
)
"""Six games whose couriers ask for more than 20 requests a second: the bot's global budget
(``bot/outbox/budget.py``) is saturated for most of the run, as 300 games saturate Discord's 50."""


def busiest_second(emulator: Emulator) -> int:
    """The most requests of the bot's token that the emulator received within any second
    (more than in any of the emulator's own windows, which start with the first request after
    the last one ended, as Discord's may)."""
    times = sorted(c.started for c in emulator.rest_calls if counts_against_global(c.path))
    return max(bisect.bisect_left(times, at + 1.0) - i for i, at in enumerate(times))


async def test_games_within_a_saturated_global_limit_all_finish_evenly_without_a_global_429(
    tmp_path: Path,
) -> None:
    """Discord's per-route limits and a global limit of 20 requests a second (the bot told
    the same): every game finishes, every move is published (the tables show the last move,
    each turn got its DM), none stalls (45 s without anyone able to act), and Discord's global
    limit never answers 429: the pacer keeps every request within it."""
    database = tmp_path / "glory.db"
    settings = RATE_LIMITED.bot_settings()
    async with (
        faulty_emulator(RATE_LIMITED) as emulator,
        glory_bot(emulator, tmp_path, settings) as bot,
    ):
        report = await soak(emulator, bot, database, RATE_LIMITED, expected_steps=6 * 120)
        assert emulator.rate_limits.global_limit == 20
        busiest = busiest_second(emulator)
    assert report.problems == [], "\n".join(report.problems[:40]) + log_excerpt(bot.log_path)
    assert report.global_429s == 0
    assert busiest >= 15  # the budget was used up (Discord's own windows were never passed)
    assert report.games == RATE_LIMITED.games
    assert report.turn_dms > report.games
    await assert_clean_log(bot, emulator)
