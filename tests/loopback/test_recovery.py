"""A crash between committing a move and telling the next player: the restart tells them.

The real bot process is killed with SIGKILL while Discord (the emulator) holds its request
to post the next player's hand DM, so the move is stored and acknowledged but that player was
never told. After the restart on the same SQLite file the bot must send that DM by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
import time
from pathlib import Path

from bot.loopback import Actor, Emulator
from bot.loopback.bot_process import glory_bot
from bot.loopback.faults import CHANNEL_MESSAGES, UNLIMITED, RestFault
from bot.loopback.ui_players import (
    act_randomly,
    footer_text,
    highest_version,
    live_hand,
    open_and_start,
    play_until_version,
    shown_version,
    state_version,
)

from .test_glory_bot import assert_clean_log

HOLD_SECONDS = 8.0
SLOW_POST_SECONDS = 8.0


def table_move(message) -> int:  # type: ignore[no-untyped-def]
    """The state version the public table shows (its footer: "Game #1 · move 7")."""
    version = shown_version(message)
    assert version, footer_text(message)
    return version


def stored_version(tmp_path: Path) -> int:
    """The running game's version in the bot's database (read-only beside the bot)."""
    database = f"file:{tmp_path / 'glory.db'}?mode=ro"
    with contextlib.closing(sqlite3.connect(database, uri=True)) as db:
        row = db.execute("SELECT max(version) FROM games WHERE status = 'active'").fetchone()
    return int(row[0] or 0)


async def play_until_hit(
    emulator: Emulator, players: list[Actor], fault: RestFault, rng: random.Random
) -> None:
    """Random moves by whoever can act until a request meets ``fault`` (at most 200)."""
    for _ in range(200):
        movers = await emulator.wait_for(
            lambda: fault.hits or [p for p in players if live_hand(p) is not None],
            timeout=10,
            what="a player able to act, or a request meeting the fault",
        )
        if fault.hits:
            return
        await act_randomly(rng.choice(movers), rng)


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
        await play_until_hit(emulator, players, held, rng)
        assert held.hits, "no move passed the turn to another player"
        # The stored version, not the table's: the table may still be a move behind (its
        # picture is drawn by then), and a player may have moved again meanwhile.
        await emulator.wait_for(
            lambda: table_move(table.message) == stored_version(tmp_path) > 1,
            timeout=10,
            what="the table at the stored move",
        )
        committed = stored_version(tmp_path)
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


async def test_a_turn_dm_the_dead_process_made_and_the_player_used_is_not_sent_twice(
    emulator: Emulator, tmp_path: Path
) -> None:
    """Discord serves the dead process's turn DM late, the player moves from it, and only then
    does Discord answer the new process's post for the same DM (its nonce): Discord returns
    the DM the player used. The bot must take that DM as the hand it is, not announce the turn
    once more with a second DM rendered before the moves."""
    alice, _bob = players = [emulator.add_actor(name) for name in ("alice", "bob")]
    rng = random.Random("late turn DM")
    async with glory_bot(emulator, tmp_path) as bot:
        table = await open_and_start(emulator, players, "kami", options="target=5")
        await emulator.wait_for(
            lambda: all(emulator.dms_of(p.user) for p in players), timeout=10, what="every hand"
        )
        channel = emulator.world.existing_dm_channel(alice.user)
        assert channel is not None
        alices_posts = rf"^/channels/{channel.id}/messages$"
        # Alice's next turn DM: Discord sits on it for 2 s, then creates it.
        late = emulator.faults.add(RestFault("POST", alices_posts, None, delay=2.0))
        await play_until_hit(emulator, players, late, rng)
        assert late.hits, "the turn never passed to alice"
        await bot.kill()
        # The new process's post of that DM: Discord answers it only after alice has moved.
        slow = emulator.faults.add(RestFault("POST", alices_posts, None, delay=SLOW_POST_SECONDS))
        await bot.start()
        await bot.wait_ready(emulator)
        # Alice moves only once that post is on its way (had she moved first, the new process
        # would rightly have had no turn to announce, and this case would not be tested).
        await emulator.wait_for(lambda: slow.hits, timeout=15, what="the new process's post")
        answered_at = time.monotonic() + SLOW_POST_SECONDS
        turn_dm = await emulator.wait_for(
            lambda: live_hand(alice), timeout=10, what="the dead process's turn DM"
        )
        while live_hand(alice) is not None:  # alice plays her whole turn from that DM
            await act_randomly(alice, rng)
        assert time.monotonic() < answered_at, "alice's turn outlasted Discord's hold on the post"
        # Discord answers the post, and the bot acts on the answer.
        await asyncio.sleep(answered_at - time.monotonic() + 1.0)
        later = [m for m in emulator.dms_of(alice.user) if m.id > turn_dm.id and not m.ephemeral]
        assert later == [], "no second DM announces the turn alice already took"
        await play_until_version(table, highest_version(players) + 2, rng)
        await assert_clean_log(bot, emulator)
