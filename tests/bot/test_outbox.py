"""What a move publishes goes through the outbox: retried, coalesced, never shown twice.

SimCord answers REST calls in-process and without discord.py's own retries, and its virtual
clock (``env.advance_time``) runs the couriers' backoffs and the answers' deferral timer
without sleeping.
"""

from __future__ import annotations

import asyncio
import gc
import random
import re
import weakref
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
import pytest
import simcord.http.router

import bot.ratings.board as rating_board
from bot.interactions.answers import DEFER_AFTER
from bot.outbox.courier import Courier
from bot.outbox.delivery import made_during
from bot.outbox.entries import MOVE, START, Entry
from bot.outbox.pace import TablePace
from bot.render.common import moves_made
from tests.bot.conftest import make_bot
from tests.bot.driver import (
    answer_of,
    as_sent,
    commit_behind_discords_back,
    components,
    current_table,
    footer_text,
    live_dm_hand,
    menu_custom_id,
    message_text,
    new_table,
    open_lobby,
    play_one_move,
    quick_game,
    seat_on_turn,
    snapshot,
    start,
    table_version,
)
from tests.bot.forge import forged_click

BOT_ROUTE = re.compile(r"^/(channels|users|guilds)/")
"""REST routes of the bot itself (not an interaction's callback or follow-ups)."""


def table_patches(env: Any, table: Any) -> list[Any]:
    return [
        r
        for r in env.http_requests
        if r.method == "PATCH" and r.path.startswith(f"/channels/{table.channel.id}/messages/")
    ]


async def play_the_first_action(env: Any, table: Any) -> tuple[Any, int]:
    """The player on turn plays their first legal action from their DM; (the click's result,
    the version it makes)."""
    seat = seat_on_turn(table)
    loaded = await table.loaded()
    version = loaded.row.version  # read now: the row is the one the move will update
    custom_id = menu_custom_id(loaded, seat, loaded.state.legal_actions()[0])
    result = await forged_click(env, table.players[seat].user, live_dm_hand(table, seat), custom_id)
    return result, version + 1


async def test_no_rest_call_but_the_clicks_own_answer_is_made_while_a_game_is_locked(
    simcord_env, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await quick_game(simcord_env, players=3)
    bot = table.bot
    under_lock: list[str] = []
    original = simcord.http.router.dispatch

    def watched(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
        if BOT_ROUTE.match(path) and any(lock.locked() for lock in bot.locks._locks.values()):
            under_lock.append(f"{method} {path}")
        return original(backend, method, path, **kwargs)

    monkeypatch.setattr(simcord.http.router, "dispatch", watched)
    rng = random.Random(4)
    moves = 0
    while moves < 15 and seat_on_turn(table) is not None:  # a deal can end the short game
        await play_one_move(table, rng)
        moves += 1
    assert moves >= 3, "the game went on long enough to overlap clicks and deliveries"
    await table.players[0].member.slash(table.channel, "table")
    await table.players[0].member.slash(table.channel, "cancel")
    await bot.outbox.idle()
    assert under_lock == []


async def test_a_failed_table_edit_is_retried_until_it_shows_the_move(simcord_env) -> None:
    table = await quick_game(simcord_env)
    await table.bot.outbox.idle()
    shown = table_version(table)
    simcord_env.inject_error(
        "PATCH", f"/channels/{table.channel.id}/messages/*", status=503, times=3
    )
    click, version = await play_the_first_action(simcord_env, table)
    assert click.acknowledged
    assert table_version(table) == shown < version, "Discord refused the edit so far"
    assert await table.bot.store.pending_publications(), "the publication waits in the outbox"
    await simcord_env.advance_time(1 + 2 + 4)  # the courier's backoff: 1, 2, 4 s
    await table.bot.outbox.idle()
    assert table_version(table) == version
    assert await table.bot.store.pending_publications() == []


async def test_table_edits_made_while_discord_refuses_are_coalesced_to_the_newest(
    simcord_env,
) -> None:
    table = await quick_game(simcord_env)
    path = f"/channels/{table.channel.id}/messages/*"
    simcord_env.inject_error("PATCH", path, status=503, times=None)
    rng = random.Random(9)
    for _ in range(4):
        await play_one_move_from_dms(simcord_env, table, rng)
    newest = (await table.loaded()).row.version
    simcord_env.backend.faults.clear()
    before = len(table_patches(simcord_env, table))
    await simcord_env.advance_time(60)
    await table.bot.outbox.idle()
    after = table_patches(simcord_env, table)[before:]
    assert len(after) == 1, "one edit shows all the moves made meanwhile"
    assert table_version(table) == newest


async def test_a_burst_of_moves_is_shown_on_the_table_at_most_once_a_pace(simcord_env) -> None:
    """The first move after a quiet while is shown at once; moves made within the pace after
    it wait and are shown together by one edit (each showing draws the table's picture, and
    Discord allows a channel about five edits in five seconds)."""
    table = await quick_game(simcord_env, players=3)
    outbox = table.bot.outbox
    await outbox.idle()
    # Longer than SimCord's settling deadline, so that a click does not wait for the pace in
    # real time; ``advance_time`` lets it pass.
    outbox.pace.pace_seconds = 30.0
    await simcord_env.advance_time(30)  # a quiet while since the game's start was shown
    rng = random.Random(12)
    before = len(table_patches(simcord_env, table))
    await play_one_move_from_dms(simcord_env, table, rng)
    first = (await table.loaded()).row.version
    assert table_version(table) == first, "a move after a quiet while is shown at once"
    for _ in range(3):
        await play_one_move_from_dms(simcord_env, table, rng)
    newest = (await table.loaded()).row.version
    assert newest == first + 3
    assert table_version(table) == first, "moves within the pace wait for it"
    assert len(table_patches(simcord_env, table)) == before + 1
    await simcord_env.advance_time(30)
    await outbox.idle()
    assert table_version(table) == newest
    assert len(table_patches(simcord_env, table)) == before + 2, "one edit shows the burst"


async def test_the_tables_of_all_games_share_a_budget_and_a_waiting_table_shows_every_move(
    simcord_env,
) -> None:
    """Discord allows a bot about 50 requests a second, and every showing of a table draws
    its picture: the tables of all games together are shown within a budget per second, in
    the order they asked. A table that waits for its turn shows everything played meanwhile
    in one edit; the players' own DMs never wait for it."""
    tables = [await quick_game(simcord_env, players=2) for _ in range(3)]
    outbox = tables[0].bot.outbox
    await outbox.idle()
    # One table every 30 s: longer than SimCord's settling deadline, so a click does not wait
    # for the budget in real time; ``advance_time`` lets it pass.
    outbox.pace = TablePace(0, per_second=1 / 30)
    rng = random.Random(5)
    patches = [len(table_patches(simcord_env, table)) for table in tables]
    for table in tables:
        await play_one_move_from_dms(simcord_env, table, rng)
    await play_one_move_from_dms(simcord_env, tables[2], rng)  # the last one moves twice
    newest = [(await table.loaded()).row.version for table in tables]
    shown = [table_version(table) == version for table, version in zip(tables, newest, strict=True)]
    assert shown == [True, False, False], "the first table goes at once, the others wait"
    for table in tables:  # every player on turn got their DM meanwhile
        assert live_dm_hand(table, (await table.loaded()).state.to_move) is not None
    await simcord_env.advance_time(30)
    shown = [table_version(table) == version for table, version in zip(tables, newest, strict=True)]
    assert shown == [True, True, False]
    await simcord_env.advance_time(30)
    await outbox.idle()
    assert [table_version(table) for table in tables] == newest
    after = [len(table_patches(simcord_env, table)) for table in tables]
    assert [a - b for a, b in zip(after, patches, strict=True)] == [1, 1, 1], (
        "one edit per table, the last one showing both its moves"
    )


async def test_a_game_starts_and_ends_at_once_whatever_the_budget_of_the_tables(
    simcord_env,
) -> None:
    """The budget holds back the tables of moves, which come in hundreds a second; a game's
    start (its table and everyone's first DM, which go out from the channel's lane), its end
    and a table someone asked for (/table) happen once per game and are never held back."""
    busy = await quick_game(simcord_env, players=2)
    outbox = busy.bot.outbox
    await outbox.idle()
    outbox.pace = TablePace(0, per_second=1 / 30)
    await play_one_move_from_dms(simcord_env, busy, random.Random(8))  # the budget is used up
    table = await quick_game(simcord_env, players=3)  # starts within SimCord's settling time
    assert table_version(table) == (await table.loaded()).row.version
    on_turn = (await table.loaded()).state.to_move
    assert live_dm_hand(table, on_turn) is not None
    before = current_table(table).id
    await table.players[0].member.slash(table.channel, "table")
    assert current_table(table).id != before, "/table posts the table again at once"
    await play_one_move_from_dms(simcord_env, busy, random.Random(9))
    assert table_version(busy) < (await busy.loaded()).row.version, "a move's table waits"
    await busy.players[0].member.slash(busy.channel, "cancel")
    ended = await busy.loaded()  # a cancel is a version but not a move: the footer counts moves
    assert table_version(busy) == moves_made(ended) + 1, "the end is shown at once"
    assert "cancelled" in message_text(current_table(busy))


async def play_one_move_from_dms(env: Any, table: Any, rng: random.Random) -> None:
    """Like ``play_one_move``, but the driver reads whose turn it is from the database (the
    table may lag behind while Discord refuses its edits)."""
    loaded = await table.loaded()
    seat = loaded.state.to_move
    action = rng.choice(loaded.state.legal_actions())
    dm = live_dm_hand(table, seat)
    if dm is None:  # the turn's DM is late too: a modified client could still click
        dm = await table.players[seat].member.click(current_table(table), label="My hand")
        dm = dm.response.message
        actor = table.players[seat].member
    else:
        actor = table.players[seat].user
    result = await forged_click(env, actor, dm, menu_custom_id(loaded, seat, action))
    assert result.acknowledged


@pytest.mark.parametrize("code", [10062, 10008])
async def test_a_refused_click_answer_does_not_stop_the_moves_publication(
    simcord_env, code: int
) -> None:
    """Discord refuses the answer (10062: it came too late; 10008: the clicked DM was deleted
    as it was clicked, replaced by a newer one); the move stands and is shown, and the refusal
    is a warning in the log, not an error."""
    table = await quick_game(simcord_env, players=3)
    seat = seat_on_turn(table)
    dm = live_dm_hand(table, seat)
    simcord_env.inject_error("POST", "/interactions/*/callback", status=404, code=code, times=1)
    click, version = await play_the_first_action(simcord_env, table)
    assert not click.acknowledged, "Discord refused the answer"
    await table.bot.outbox.idle()
    loaded = await table.loaded()
    assert loaded.row.version == version
    assert table_version(table) == version, "the table shows the move"
    user = table.players[seat].user
    clicked = next(m for m in user.dm_channel.history(viewer=user) if m.id == dm.id)
    assert footer_text(clicked).endswith(f"move {version - 1}"), (
        "the DM the refused answer did not update is updated by the outbox"
    )
    to_move = loaded.state.to_move
    if to_move is not None and to_move != seat:
        nxt = live_dm_hand(table, to_move)
        assert nxt is not None and f":{version}:" in components(nxt)[0].custom_id


async def test_a_courier_that_delivered_everything_is_freed_without_the_cycle_collector(
    simcord_env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A courier retires after every move's delivery: hundreds a second under load. Left in a
    reference cycle with its lanes, each would wait for the cycle collector, whose longer
    collections pause the event loop."""
    table = await quick_game(simcord_env, players=3)
    await table.bot.outbox.idle()
    couriers: list[weakref.ref[Courier]] = []
    original = Courier.__init__

    def recorded(self: Courier, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        couriers.append(weakref.ref(self))

    monkeypatch.setattr(Courier, "__init__", recorded)
    gc.disable()
    try:
        rng = random.Random(5)
        for _ in range(3):
            await play_one_move(table, rng)
            await table.bot.outbox.idle()
        assert couriers, "the moves were delivered by couriers"
        assert not table.bot.outbox.couriers, "every courier retired"
        alive = [ref for ref in couriers if ref() is not None]
        assert not alive, f"{len(alive)} of {len(couriers)} retired couriers are still in memory"
    finally:
        gc.enable()


async def test_a_redelivered_publication_shows_nothing_twice(simcord_env) -> None:
    table = await quick_game(simcord_env, players=3)
    rng = random.Random(2)
    for _ in range(3):
        await play_one_move(table, rng)
    await table.bot.outbox.idle()
    seat = seat_on_turn(table)
    user = table.players[seat].user
    dms = len(user.dm_channel.history(viewer=user))
    posts = len([r for r in simcord_env.http_requests if r.method == "POST"])
    # Deliver the start and the last move again, as a restart that found their entries
    # still stored would (a crash after showing them, before forgetting them).
    everyone = list(range(3))
    version = (await table.loaded()).row.version
    table.bot.outbox.deliver(
        [
            Entry(10_001, table.game_id, 1, START, {"hands": everyone, "fresh": everyone}),
            Entry(10_002, table.game_id, version, MOVE, {"hands": everyone, "fresh": [seat]}),
        ]
    )
    await table.bot.outbox.idle()
    assert len(user.dm_channel.history(viewer=user)) == dms, "no second turn DM"
    new_posts = [r for r in simcord_env.http_requests if r.method == "POST"][posts:]
    assert [r.path for r in new_posts] == [], "no message is posted again"


def slow_down(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> None:
    """Make the coroutine method ``owner.name`` take twice the deferral delay."""
    original = getattr(owner, name)

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(DEFER_AFTER * 2)
        return await original(*args, **kwargs)

    monkeypatch.setattr(owner, name, slow)


async def test_a_slow_database_gets_the_click_deferred_in_time(
    simcord_env, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await quick_game(simcord_env)
    slow_down(monkeypatch, table.bot.store, "commit_move")  # a database that takes two seconds
    seat = seat_on_turn(table)
    loaded = await table.loaded()
    custom_id = menu_custom_id(loaded, seat, loaded.state.legal_actions()[0])
    dm = live_dm_hand(table, seat)
    version = loaded.row.version
    result = await forged_click(simcord_env, table.players[seat].user, dm, custom_id)
    await simcord_env.advance_time(DEFER_AFTER * 3)
    # Without the timer the answer would have been the edit of the DM (type 7) after the
    # commit, two seconds late; it was deferred first, then the DM was edited.
    assert result.deferred, "acknowledged by a deferral while the commit was running"
    assert (await snapshot(table))[0] == version + 1
    await table.bot.outbox.idle()
    assert table_version(table) == version + 1


async def test_a_slow_command_is_deferred_in_time_and_then_answered(
    simcord_env, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await quick_game(simcord_env)
    slow_down(monkeypatch, rating_board, "rated_games")  # the leaderboard's first read
    before = len(simcord_env.http_requests)
    result = await table.players[0].member.slash(table.channel, "standings")
    await simcord_env.advance_time(DEFER_AFTER * 3)
    callbacks = [
        r.json["type"]
        for r in simcord_env.http_requests[before:]
        if r.method == "POST" and r.path.endswith("/callback")
    ]
    assert callbacks == [5], "acknowledged with a 'thinking…' deferral, then answered"
    answer = answer_of(result)
    assert not answer.flags.ephemeral, (
        "/standings answers in the channel, so its deferral is public"
    )
    assert answer.message.embeds, "the standings replaced the placeholder"


async def test_a_late_request_of_a_process_that_died_is_shown_over_once_it_can_no_longer_land(
    simcord_env, database_url
) -> None:
    """Discord may carry out a request of a process that died after the new one showed the
    game: here the table and the turn DM are set back to what the dead process knew. The
    games a restart took over are shown again once such requests can no longer land."""
    table = await quick_game(simcord_env)
    rng = random.Random(11)
    turn_dms: dict[int, Any] = {}  # each seat's DM of its latest turn
    while len(turn_dms) < 2:
        seat = seat_on_turn(table)
        turn_dms[seat] = live_dm_hand(table, seat)
        await play_one_move(table, rng)
    old_table = current_table(table)
    next_seat = await commit_behind_discords_back(table, rng)
    old_dm = turn_dms[next_seat]
    version = (await table.loaded()).row.version
    await simcord_env.restart_bot(make_bot(database_url))
    await table.bot.outbox.idle()
    assert table_version(table) == version
    new_dm = live_dm_hand(table, next_seat)
    assert components(new_dm)[0].custom_id.split(":")[3] == str(version)

    # The dead process's requests, served late.
    bot = table.bot
    channel = bot.get_partial_messageable(table.channel.id)
    await channel.get_partial_message(old_table.id).edit(**as_sent(old_table))
    dm = bot.get_partial_messageable(new_dm.channel.id, type=discord.ChannelType.private)
    await dm.get_partial_message(new_dm.id).edit(**as_sent(old_dm))
    assert table_version(table) < version
    assert components(live_dm_hand(table, next_seat))[0].custom_id.split(":")[3] != str(version)

    await simcord_env.advance_time(bot.outbox.in_flight_seconds + 1)
    await bot.outbox.idle()
    assert table_version(table) == version
    live = live_dm_hand(table, next_seat)
    assert live.id == new_dm.id, "shown again in place: no second turn notification"
    assert components(live)[0].custom_id.split(":")[3] == str(version)
    assert await bot.store.pending_publications() == []


async def test_a_turn_dm_whose_send_returned_after_later_moves_does_not_stand_for_a_newer_turn(
    simcord_env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """discord.py returns from a send that used up a rate-limit bucket only after the bucket's
    window, seconds after Discord made the message. If the player meanwhile moved from that DM
    and the turn came round to them again, the DM (made before their new turn) must not count
    as its notification: the new turn gets a DM of its own."""
    table = await quick_game(simcord_env)
    rng = random.Random(4)
    await table.bot.outbox.idle()
    mover = seat_on_turn(table)
    waiting = 1 - mover
    user = table.players[waiting].user
    delivery = table.bot.outbox.delivery
    original = delivery.send_dm
    held: list[discord.Message] = []

    async def answered_late(row: Any, content: dict, key: int) -> discord.Message:
        message = await original(row, content, key)
        if row.user_id == user.id and not held:
            held.append(message)
            # While discord.py sleeps out the bucket: the player moves from this DM until the
            # turn passes, and the other player until it comes back.
            assert await commit_behind_discords_back(table, rng) == mover
            assert await commit_behind_discords_back(table, rng) == waiting
        return message

    monkeypatch.setattr(delivery, "send_dm", answered_late)
    await play_one_move(table, rng)
    while seat_on_turn(table) == mover:  # Kami: a player may move again
        await play_one_move(table, rng)
    await table.bot.outbox.idle()
    assert held, "the waiting player's turn DM was sent"
    loaded = await table.loaded()
    assert loaded.state.to_move == waiting
    live = live_dm_hand(table, waiting)
    assert live is not None and live.id != held[0].id, "the new turn has a DM of its own"
    assert components(live)[0].custom_id.split(":")[3] == str(loaded.row.version)
    left = [m for m in user.dm_channel.history(viewer=user) if components(m)]
    assert [m.id for m in left] == [live.id], "the held DM was replaced, not left behind"


def test_a_dm_counts_for_the_version_the_game_was_at_when_discord_made_it() -> None:
    reached = datetime(2026, 11, 25, 12, 0, 0, 250_600, tzinfo=UTC)  # the game reached v9
    assert made_during(reached + timedelta(milliseconds=3), reached, 7, 9) == 9
    assert made_during(reached.replace(microsecond=250_000), reached, 7, 9) == 9  # same ms
    assert made_during(reached - timedelta(milliseconds=2), reached, 7, 9) == 7
    naive = reached.replace(tzinfo=None)  # SQLite gives UTC back without a zone
    assert made_during(reached - timedelta(seconds=1), naive, 7, 9) == 7
    assert made_during(reached + timedelta(seconds=1), naive, 7, 9) == 9


async def test_a_move_while_the_first_dms_go_out_sends_only_the_late_seats_dm_again(
    simcord_env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game's first DMs go out one seat after another, and under load the player on turn
    may move before the last seat's DM is out. That DM alone is shown again as the game is
    then; the seats already shown are left alone. (Before, the move made the whole start go
    again, the table's edit first, while every seat's lane waited for the first DMs: under
    load each move of the players who had their DM started it over, and the seats still
    waiting were never pinged — the soak's stalled games.)"""
    table = new_table(simcord_env, 3)
    await open_lobby(table, "kami", {"target": 5})
    delivery = table.bot.outbox.delivery
    original = delivery.send_dm
    last = table.players[2].user
    moved: list[int] = []

    async def a_move_meanwhile(row: Any, content: dict, key: int) -> discord.Message:
        message = await original(row, content, key)
        if row.user_id == last.id and not moved:
            moved.append(await commit_behind_discords_back(table, random.Random(7)))
        return message

    monkeypatch.setattr(delivery, "send_dm", a_move_meanwhile)
    await start(table)
    await table.bot.outbox.idle()
    assert moved, "a move was made while the last seat's first DM went out"
    others = {table.players[seat].user.dm_channel.id for seat in (0, 1)}
    again = [
        f"{r.method} {r.path}"
        for r in simcord_env.http_requests
        if r.path.startswith("/channels/")
        and int(r.path.split("/")[2]) in others
        and r.method in ("PATCH", "DELETE")
    ]
    assert again == [], "the seats already shown were shown again"
