"""Requests of the bot's token per move (issue 32): what a move costs in Discord's global
budget, counted in the emulator while the real bot plays.

A move must ping the next player (a new DM) and show the table; the rest should not need the
token: a replaced hand DM is deleted through the click that last updated it (an interaction
webhook, outside the global limit), and a waiting player's DM is not edited when only its
move number would change.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from pathlib import Path
from typing import Any

from bot.loopback import Actor, Emulator, Message
from bot.loopback.bot_process import glory_bot
from bot.loopback.ratelimits import counts_against_global
from bot.loopback.ui_players import Table, act_randomly, open_and_start, wait_for_movers

from .test_glory_bot import assert_clean_log

MOVES = 24


async def play_moves(table: Table, moves: int, rng: random.Random, pause: float) -> None:
    """Random menu actions until ``moves`` more moves are made, ``pause`` s apart."""
    target = table.version() + moves
    while table.running and table.version() < target:
        movers = await wait_for_movers(table)
        if not movers:
            return
        await act_randomly(rng.choice(movers), rng)
        await asyncio.sleep(pause)


async def settled(emulator: Emulator, quiet: float = 1.5, timeout: float = 20.0) -> None:
    """Until the bot has made no request for ``quiet`` seconds (its deliveries are done)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    seen = len(emulator.rest_calls)
    while loop.time() < deadline:
        await asyncio.sleep(quiet)
        if len(emulator.rest_calls) == seen:
            return
        seen = len(emulator.rest_calls)


def dm_ids(emulator: Emulator) -> set[int]:
    return {channel.id for channel in emulator.world.channels.values() if channel.is_dm}


def dm_deletions_through_channels(emulator: Emulator) -> list[Any]:
    """``DELETE /channels/{dm}/messages/{id}``: DMs deleted with the bot's token."""
    dms = dm_ids(emulator)
    return [
        call
        for call in emulator.calls("DELETE", "/channels/")
        if int(call.path.split("/")[2]) in dms
    ]


async def play_kami(
    emulator: Emulator, tmp_path: Path, moves: int, seed: str, *, pause: float
) -> list[Actor]:
    """Three players play ``moves`` moves of Kami with the real bot, ``pause`` s apart; the
    bot's deliveries are done and its log is clean. The players."""
    players = [emulator.add_actor(name) for name in ("alice", "bob", "carol")]
    async with glory_bot(emulator, tmp_path) as bot:
        table = await open_and_start(emulator, players, "kami", options="target=5")
        await play_moves(table, moves, random.Random(seed), pause=pause)
        await settled(emulator)
        await assert_clean_log(bot, emulator)
    return players


def _shown(revision: Any) -> tuple[str, str, str]:
    """What a DM revision shows, less its footer (the game and the move number)."""
    embeds = [{k: v for k, v in embed.items() if k != "footer"} for embed in revision.embeds]
    return (
        revision.content,
        json.dumps(embeds, sort_keys=True),
        json.dumps(revision.components, sort_keys=True),
    )


def footer_only_changes(message: Message) -> int:
    """How often a DM was changed into what it showed already, but for its footer."""
    shown = [_shown(revision) for revision in message.history] + [_shown(message)]
    return sum(1 for before, after in itertools.pairwise(shown) if before == after)


async def test_a_replaced_hand_dm_is_deleted_through_the_last_click_on_it(
    emulator: Emulator, tmp_path: Path
) -> None:
    """Every turn's new DM replaces the player's previous one; that one is the DM they
    clicked to make their last move, and it is deleted through that click's interaction
    token, not through the channel (a request of the bot's token), once. Only DMs nobody
    clicked (the first DMs of players not on turn at the start) go through the channel."""
    players = await play_kami(emulator, tmp_path, MOVES, "webhook-deletes", pause=0.05)
    updated = {
        record.response_message_id
        for record in emulator.interactions.values()
        if record.callback_type in (6, 7)
    }
    through_channel = dm_deletions_through_channels(emulator)
    through_click = emulator.calls("DELETE", "/messages/@original")
    assert len(through_click) >= 5
    assert [call.status for call in through_click] == [204] * len(through_click)
    assert [call.status for call in through_channel] == [204] * len(through_channel)
    clicked_but_deleted_by_channel = [
        call.path for call in through_channel if int(call.path.split("/")[-1]) in updated
    ]
    assert clicked_but_deleted_by_channel == []
    assert len(through_channel) <= len(players)  # the first DMs, never clicked
    assert not any(counts_against_global(call.path) for call in through_click)


async def test_a_hand_dm_is_edited_through_the_last_click_on_it(
    emulator: Emulator, tmp_path: Path
) -> None:
    """A hand DM brought up to date by the courier (another player's move changed what a
    waiting player holds, or its picture came late) is edited through the token of the click
    that last updated it: the channel route (a request of the bot's token) edits only DMs
    that no click had updated yet."""
    await play_kami(emulator, tmp_path, MOVES, "webhook-edits", pause=0.05)
    records = [r for r in emulator.interactions.values() if r.callback_type in (6, 7)]
    through_click = sum(r.original_edits for r in records if r.callback_type == 7)
    assert through_click >= 3  # an answer that updated its DM needs no @original edit itself
    first_click = {}
    for record in sorted(records, key=lambda r: r.callback_at or 0.0):
        first_click.setdefault(record.response_message_id, record.callback_at or 0.0)
    dms = dm_ids(emulator)
    through_channel = [
        call
        for call in emulator.calls("PATCH", "/channels/")
        if int(call.path.split("/")[2]) in dms
    ]
    clicked_before = [
        call.path
        for call in through_channel
        if first_click.get(int(call.path.split("/")[-1]), float("inf")) < call.started
    ]
    assert clicked_before == []


async def test_a_click_too_old_to_delete_its_dm_leaves_it_to_the_channel(
    emulator: Emulator, tmp_path: Path
) -> None:
    """A token Discord no longer honours (here: one that lives 0.8 s) costs one refused
    request, and the DM is deleted through the channel instead: each player keeps one hand."""
    emulator.interaction_token_lifetime = 0.8
    players = await play_kami(emulator, tmp_path, 8, "old-tokens", pause=1.0)
    refused = [c for c in emulator.calls("DELETE", "/messages/@original") if c.status == 404]
    assert refused
    through_channel = dm_deletions_through_channels(emulator)
    assert len(through_channel) >= len(refused)
    for player in players:
        live = [m for m in emulator.dms_of(player.user) if not m.deleted and not m.ephemeral]
        assert len(live) == 1, f"{player.user.name} has {len(live)} hand DMs"


async def test_a_waiting_hand_dm_is_not_edited_when_only_its_move_number_changes(
    emulator: Emulator, tmp_path: Path
) -> None:
    """In Kami every player's line of cards is part of each player's private view, so most
    moves used to edit every waiting DM, whose text shows only the hand: one edit in three
    changed nothing but the move number in the footer. None does now."""
    await play_kami(emulator, tmp_path, MOVES, "footers", pause=0.3)
    dms = dm_ids(emulator)
    messages = [m for m in emulator.world.messages.values() if m.channel_id in dms]
    assert sum(len(m.history) for m in messages) > MOVES  # DMs were edited, by answers too
    assert [footer_only_changes(m) for m in messages if footer_only_changes(m)] == []
