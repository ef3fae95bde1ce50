"""A crash between committing a move and telling the next player: the restart tells them.

The real bot process is killed with SIGKILL while Discord (the emulator) holds its request
to post the next player's hand DM, so the move is stored and acknowledged but that player was
never told. After the restart on the same SQLite file the bot must send that DM by itself.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from .bot_process import glory_bot
from .emulator import Emulator
from .emulator.faults import CHANNEL_MESSAGES, UNLIMITED, RestFault
from .test_glory_bot import assert_clean_log
from .ui_players import act_randomly, live_hand, open_and_start, play_until_version, state_version

FOOTER_MOVE = re.compile(r"move (?P<move>\d+)")
HOLD_SECONDS = 8.0


def table_move(message) -> int:  # type: ignore[no-untyped-def]
    """The state version the public table shows (its footer: "Game #1 · move 7")."""
    footer = (message.embeds[0].get("footer") or {}).get("text", "")
    match = FOOTER_MOVE.search(footer)
    assert match, footer
    return int(match["move"])


async def test_the_next_players_dm_lost_in_a_crash_is_sent_after_the_restart(
    emulator: Emulator, tmp_path: Path
) -> None:
    players = [emulator.add_actor(name) for name in ("alice", "bob", "carol")]
    rng = random.Random("recovery")
    async with glory_bot(emulator, tmp_path) as bot:
        table = await open_and_start(emulator, players, "clans_and_glory")
        await emulator.wait_for(
            lambda: all(emulator.dms_of(p.user) for p in players), timeout=10, what="every hand"
        )
        # From now on Discord sits on every new message, then refuses it (so no message the
        # dead process asked for can appear later): the next turn's DM is never delivered.
        held = emulator.faults.add(
            RestFault("POST", CHANNEL_MESSAGES, 500, times=UNLIMITED, delay=HOLD_SECONDS)
        )
        for _ in range(200):
            movers = await emulator.wait_for(
                lambda: held.hits or [p for p in players if live_hand(p) is not None],
                timeout=10,
                what="a player able to act, or a held message",
            )
            if held.hits:
                break
            await act_randomly(rng.choice(movers), rng)
        assert held.hits, "no move passed the turn to another player"
        await emulator.wait_for(
            lambda: table_move(table.message) > 1, timeout=10, what="the table at the new move"
        )
        committed = table_move(table.message)
        assert all(live_hand(p) is None or state_version(live_hand(p)) < committed for p in players)

        await bot.kill()
        emulator.faults.clear()
        await bot.start()
        await bot.wait_ready(emulator)

        # Nobody clicks: the bot itself sends the hand of the player on turn.
        await emulator.wait_for(
            lambda: any(
                (hand := live_hand(p)) is not None and state_version(hand) == committed
                for p in players
            ),
            timeout=15,
            what=f"a DM with the controls of move {committed}",
        )
        assert "left by the last run" in bot.log_path.read_text(errors="replace")
        await play_until_version(table, committed + 2, rng)
        await assert_clean_log(bot, emulator)
