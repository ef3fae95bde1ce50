"""The soak, bounded for CI: 56 games through a faulty Discord with two kill -9 restarts.

``benchmarks/soak.py`` runs the same soak longer and reports its figures; see
``bot/loopback/soak.py`` for what it does and checks.
"""

from __future__ import annotations

from pathlib import Path

from bot.loopback.bot_process import glory_bot
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
