"""Every click is answered within Discord's 3 s, however slow Discord is with everything else.

The real bot process against the emulator, which refuses an answer that comes later than 3 s
(10062), as Discord does. Before the outbox, a slow DM deletion or a 429 on the table edit held
the game's lock and the next click was answered after 4 s.
"""

from __future__ import annotations

import random
from pathlib import Path

from bot.loopback import Actor, Emulator, Message
from bot.loopback.bot_process import glory_bot
from bot.loopback.faults import CHANNEL_MESSAGE, INTERACTION_CALLBACK
from bot.loopback.ui_players import (
    Table,
    act_randomly,
    live_hand,
    menu_components,
    open_and_start,
    play_until_version,
    shown_version,
    state_version,
)

from .test_glory_bot import assert_clean_log


def table_version(table: Table) -> int:
    return shown_version(table.current_message())


async def use_without_waiting(actor: Actor, hand: Message, rng: random.Random) -> None:
    """Use a random control of ``hand`` that plays a move (a select's choice, or a button of
    a one-level menu), without waiting for an answer Discord is going to refuse."""
    control = rng.choice(menu_components(hand))
    if control["type"] == 2:
        await actor.click(hand, custom_id=control["custom_id"])
    else:
        value = rng.choice(control["options"])["value"]
        await actor.select(hand, [value], custom_id=control["custom_id"])


def assert_every_click_answered_in_time(emulator: Emulator) -> None:
    late = emulator.late_interactions()
    assert late == [], [(item.record.data, item.waited) for item in late]
    assert all(record.acknowledged for record in emulator.interactions.values())


async def test_a_slow_dm_deletion_delays_no_click(emulator: Emulator, tmp_path: Path) -> None:
    players = [emulator.add_actor(name) for name in ("alice", "bob", "carol")]
    async with glory_bot(emulator, tmp_path) as bot:
        table = await open_and_start(emulator, players, "clans_and_glory")
        dm_channels = "|".join(str(p.dm_channel.id) for p in players)
        slow = emulator.faults.delay("DELETE", rf"^/channels/({dm_channels})/messages/\d+$", 4.0)
        await play_until_version(table, table.version() + 6, random.Random("slow-delete"))
        assert slow.hits >= 1, "an old hand DM was deleted while a player moved"
        assert_every_click_answered_in_time(emulator)
        emulator.faults.clear()
        await assert_clean_log(bot, emulator)


async def test_a_rate_limited_table_edit_and_a_double_click_are_answered_in_time(
    emulator: Emulator, tmp_path: Path
) -> None:
    players = [emulator.add_actor(name) for name in ("alice", "bob")]
    rng = random.Random("double")
    async with glory_bot(emulator, tmp_path) as bot:
        table = await open_and_start(emulator, players, "kami")
        await play_until_version(table, 3, rng)
        table_path = rf"^/channels/{emulator.channel.id}/messages/\d+$"
        limited = emulator.faults.rate_limit("PATCH", table_path, retry_after=4.0, times=1)
        mover = next(p for p in players if live_hand(p) is not None)
        await act_randomly(mover, rng)  # its table edit meets the 429
        await emulator.wait_for(lambda: limited.hits, timeout=5, what="the 429 on the table")
        # The next player clicks twice at once while the table edit waits out its 429.
        mover = next(p for p in players if live_hand(p) is not None)
        hand = live_hand(mover)
        assert hand is not None
        control = menu_components(hand)[0]
        if control["type"] == 2:
            clicks = [await mover.click(hand, custom_id=control["custom_id"]) for _ in range(2)]
        else:
            value = [control["options"][0]["value"]]
            clicks = [
                await mover.select(hand, value, custom_id=control["custom_id"]) for _ in range(2)
            ]
        for click in clicks:
            await click.response(timeout=5)
        assert_every_click_answered_in_time(emulator)
        await emulator.wait_for(
            lambda: table_version(table) == table.version(),
            timeout=15,
            what="the table at the game's version, after its 429",
        )
        await assert_clean_log(bot, emulator)


async def test_a_refused_click_answer_still_publishes_the_move(
    emulator: Emulator, tmp_path: Path
) -> None:
    """Discord refuses the answer to a move (10062); the move stands, the table shows it and
    the next player is told it is their turn."""
    players = [emulator.add_actor(name) for name in ("alice", "bob", "carol")]
    rng = random.Random("refused")
    async with glory_bot(emulator, tmp_path) as bot:
        table = await open_and_start(emulator, players, "clans_and_glory")
        await play_until_version(table, 2, rng)
        for _ in range(50):  # until a move passes the turn to another player
            mover = next(p for p in players if live_hand(p) is not None)
            hand = live_hand(mover)
            before = state_version(hand)
            refused = emulator.faults.fail(
                "POST", INTERACTION_CALLBACK, 404, code=10062, message="Unknown interaction"
            )
            await use_without_waiting(mover, hand, rng)
            await emulator.wait_for(
                lambda refused=refused: refused.hits, timeout=5, what="the refused answer"
            )
            # Nobody clicks: the table and the next hand must come by themselves.
            next_mover = await emulator.wait_for(
                lambda before=before: next(
                    (p for p in players if (h := live_hand(p)) and state_version(h) > before),
                    None,
                ),
                timeout=10,
                what="a hand at the new version",
            )
            await emulator.wait_for(
                lambda before=before: table_version(table) > before,
                timeout=10,
                what="the table's new version",
            )
            if next_mover is not mover:
                break
        else:
            raise AssertionError("no move passed the turn")
        emulator.faults.clear()
        await play_until_version(table, table.version() + 2, rng)
        log = bot.log_path.read_text(errors="replace")
        assert "Discord refused the update (10062)" in log
        await assert_clean_log(bot, emulator)


async def test_a_failing_table_edit_is_retried_after_discords_errors(
    emulator: Emulator, tmp_path: Path
) -> None:
    players = [emulator.add_actor(name) for name in ("alice", "bob")]
    async with glory_bot(emulator, tmp_path) as bot:
        table = await open_and_start(emulator, players, "kami")
        failing = emulator.faults.fail("PATCH", CHANNEL_MESSAGE, 503, times=2)
        await play_until_version(table, 3, random.Random("retry"))
        await emulator.wait_for(lambda: failing.hits == 2, timeout=10, what="two refused edits")
        await emulator.wait_for(
            lambda: table_version(table) >= 3, timeout=15, what="the table after the retries"
        )
        assert_every_click_answered_in_time(emulator)
        await assert_clean_log(bot, emulator)
