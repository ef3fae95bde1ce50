"""The turn clock: a reminder before the deadline, the AI's move at it, the AI taking over a
seat whose player keeps missing turns, and the button that takes the seat back.

No test sleeps for a deadline: the bot's clock reads SimCord's virtual time (``SimClock``), and
``env.advance_time`` moves it; the pure decisions are tested with plain values.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from sqlmodel import select

from bot.app import GloryBot
from bot.flows.clock import REMINDER_LEAD, TurnClock, WallClock, turn_plan
from bot.flows.session import AI_MARK, LoadedGame
from bot.i18n import t
from bot.outbox.entries import Publication
from bot.process.config import Settings
from bot.storage.models import GameRow, GameStatus, ResultRow, SeatRow
from bot.storage.repository import SeatTurns
from tests.bot.conftest import make_bot
from tests.bot.driver import (
    Table,
    answer_of,
    catalog_pattern,
    components,
    current_table,
    live_dm_hand,
    lobby_message,
    message_text,
    new_table,
    open_lobby,
    reply_text,
    start,
)
from tests.bot.forge import forged_click
from tests.bot.test_ai_players import human_move

TURN = 120
"""The lobby's 2-minute turn time (seats-menu value ``c1``)."""
REMIND_BEFORE = TURN * REMINDER_LEAD
TAKEOVER_AFTER = 2


class SimClock:
    """The turn clock on SimCord's virtual time: ``env.advance_time`` runs its timers."""

    def __init__(self, env: Any) -> None:
        self.env = env

    def now(self) -> datetime:
        return self.env.now()

    async def sleep_until(self, when: datetime) -> None:
        left = (when - self.env.now()).total_seconds()
        if left > 0:
            await asyncio.sleep(left)


def clock_bot(database_url: str, pause: float = 0) -> GloryBot:
    """The bot with its AI in a thread of the test's process, quick, and no readable pause
    (``pause``: one, in virtual seconds)."""
    return make_bot(
        database_url,
        ai_pause_seconds=pause,
        ai_max_ms=20,
        missed_turns_for_takeover=TAKEOVER_AFTER,
    )


@pytest.fixture
def simcord_bot(database_url) -> GloryBot:
    return clock_bot(database_url)


async def clock_game(env: Any, *, closed_dms: tuple[int, ...] = ()) -> Table:
    """A started 2-player Kami game with a 2-minute turn clock, on virtual time."""
    table = new_table(env, 2, closed_dms=closed_dms)
    table.bot.clock.time = SimClock(env)
    await open_lobby(table, "kami", {"target": 5})
    host = table.players[0].member
    await host.select(lobby_message(table), ["c1"], custom_id=f"glory:seats:{table.game_id}")
    assert (await table.loaded()).row.turn_seconds == TURN
    await start(table)
    return table


async def until(table: Table, ready: Callable[[LoadedGame], bool], what: str) -> LoadedGame:
    """Let the bot work (the AI searches in a thread) until ``ready``; then deliver. The game
    is returned as a snapshot: the store's own row changes with every later move."""
    for _ in range(10_000):
        loaded = await table.loaded()
        if ready(loaded):
            await table.bot.outbox.idle()
            return (await table.loaded()).snapshot()
        await asyncio.sleep(0.002)
    raise AssertionError(what)


def seconds_left(env: Any, loaded: LoadedGame) -> float:
    deadline = loaded.row.turn_deadline
    assert deadline is not None
    if deadline.tzinfo is None:
        deadline = deadline.replace(tzinfo=UTC)
    return (deadline - env.now()).total_seconds()


def reminders(table: Table, seat: int) -> list[Any]:
    """The reminder DMs ``seat`` got."""
    player = table.players[seat]
    pattern = catalog_pattern("clock.reminder", "en")
    return [
        message
        for message in player.user.dm_channel.history(viewer=player.user)
        if pattern.search(message.content or "")
    ]


async def absent_players_turn_runs_out(table: Table) -> LoadedGame:
    """Seat 1 (who never clicks) is on turn: the clock runs out and the AI moves for them."""
    env = table.env
    loaded = (await table.loaded()).snapshot()
    assert loaded.state.to_move == 1 and not loaded.seats[1].takeover
    plan = table.bot.clock.armed(table.game_id)
    assert plan is not None and plan.version == loaded.row.version and plan.seat == 1
    await env.advance_time(seconds_left(env, loaded) + 1)
    return await until(
        table, lambda now: now.row.version > loaded.row.version, "the AI stood in for seat 1"
    )


# ---------------------------------------------------------------- a game nobody waits for


async def test_a_game_finishes_though_one_player_never_clicks(simcord_env) -> None:
    rng = random.Random(14)
    table = await clock_game(simcord_env)
    name = table.players[1].user.name
    ran_out = t("autoplay.clock", "en", seat=name)
    # The log names seats as the table does now: the AI mark once it holds the seat.
    taken = t("autoplay.takeover", "en", seat=f"{name} {AI_MARK}")
    missed = 0
    for _ in range(3_000):
        loaded = await until(table, lambda _: True, "")
        if loaded.status is not GameStatus.ACTIVE:
            break
        seat = loaded.state.to_move
        if seat == 0:
            await human_move(table, 0, rng)
            await until(table, lambda now, v=loaded.row.version: now.row.version > v, "a move")
        elif loaded.seats[1].takeover:
            assert table.bot.clock.armed(table.game_id) is None, "the AI's turn is not timed"
            await until(
                table, lambda now, v=loaded.row.version: now.row.version > v, "the AI moved"
            )
        else:
            after = await absent_players_turn_runs_out(table)
            missed += 1
            log = message_text(current_table(table))
            if missed < TAKEOVER_AFTER:
                assert ran_out in log and not after.seats[1].takeover
                assert after.seats[1].missed_turns == missed
            else:
                # The AI keeps the seat now, and the table marks it.
                assert taken in log and after.seats[1].takeover
                assert f"{name} {AI_MARK}" in log
                absent = table.players[1].user
                dms_at_takeover = {m.id for m in absent.dm_channel.history(viewer=absent)}
    else:
        raise AssertionError("the game did not end")
    assert missed == TAKEOVER_AFTER, "once taken over, no turn of seat 1 is timed"
    assert loaded.status is GameStatus.FINISHED
    async with table.bot.store.session() as session:
        results = (
            await session.exec(select(ResultRow).where(ResultRow.game_id == table.game_id))
        ).all()
    by_seat = {result.seat: result for result in results}
    assert by_seat[1].autoplayed and not by_seat[0].autoplayed
    assert all(result.with_ai for result in results)
    # Player 1 was reminded once for each turn the clock ran out on.
    assert len(reminders(table, 1)) == TAKEOVER_AFTER
    # While the AI held the seat, its turns were shown in the DM there was, never pinged.
    absent = table.players[1].user
    assert {m.id for m in absent.dm_channel.history(viewer=absent)} <= dms_at_takeover


async def seat_one_on_turn(table: Table, rng: random.Random) -> LoadedGame:
    """Player 0 plays until seat 1 is on turn."""
    for _ in range(100):
        loaded = await until(table, lambda _: True, "")
        if loaded.state.to_move == 1:
            return loaded
        await human_move(table, 0, rng)
        await until(table, lambda now, v=loaded.row.version: now.row.version > v, "a move")
    raise AssertionError("seat 1 never got the turn")


async def test_the_reminder_comes_once_before_the_deadline(simcord_env) -> None:
    env = simcord_env
    table = await clock_game(env)
    loaded = await seat_one_on_turn(table, random.Random(3))
    before = len(env.http_requests)
    await env.advance_time(seconds_left(env, loaded) - REMIND_BEFORE - 1)
    await table.bot.outbox.idle()
    assert reminders(table, 1) == []
    await env.advance_time(2)
    await table.bot.outbox.idle()
    [reminder] = reminders(table, 1)
    deadline = int(loaded.row.turn_deadline.replace(tzinfo=UTC).timestamp())
    assert f"<t:{deadline}:R>" in reminder.content
    assert f"<#{table.channel.id}>" in reminder.content
    assert reminders(table, 0) == []
    # The reminder is a new DM (it notifies) and pings nobody else: no mention is allowed.
    posts = [
        r
        for r in env.http_requests[before:]
        if r.method == "POST" and r.path.endswith("/messages") and r.json.get("content")
    ]
    assert [r.json["allowed_mentions"] for r in posts] == [{"parse": []}]
    # Claimed in the database: asking again for this turn is refused.
    assert (
        await table.bot.store.claim_reminder(
            table.game_id, loaded.row.version, Publication.remind(1)
        )
        is None
    )
    await env.advance_time(REMIND_BEFORE - 2)
    await table.bot.outbox.idle()
    assert len(reminders(table, 1)) == 1
    assert (await table.loaded()).row.version == loaded.row.version, "not yet run out"


async def test_a_player_with_closed_dms_is_reminded_in_the_channel_alone(simcord_env) -> None:
    env = simcord_env
    table = await clock_game(env, closed_dms=(1,))
    loaded = await seat_one_on_turn(table, random.Random(5))
    before = len(env.http_requests)
    await env.advance_time(seconds_left(env, loaded) - REMIND_BEFORE + 1)
    await table.bot.outbox.idle()
    user = table.players[1].user.id
    notices = [
        r
        for r in env.http_requests[before:]
        if r.method == "POST"
        and r.path == f"/channels/{table.channel.id}/messages"
        and catalog_pattern("clock.reminder_notice", "en").search(r.json.get("content") or "")
    ]
    assert len(notices) == 1
    allowed = notices[0].json["allowed_mentions"]
    assert allowed["parse"] == [] and [int(u) for u in allowed["users"]] == [user]
    assert f"<@{user}>" in notices[0].json["content"]
    assert str(table.players[0].user.id) not in notices[0].json["content"]


# ---------------------------------------------------------------- taking the seat back


async def test_the_player_takes_the_seat_back_and_nobody_else_can(simcord_env) -> None:
    env = simcord_env
    rng = random.Random(8)
    table = await clock_game(env)
    name = table.players[1].user.name
    for _ in range(TAKEOVER_AFTER):
        await seat_one_on_turn(table, rng)
        await absent_players_turn_runs_out(table)
    loaded = await table.loaded()
    assert loaded.seats[1].takeover and f"{name} {AI_MARK}" in message_text(current_table(table))
    player = table.players[1]
    custom_id = f"glory:back:{table.game_id}:1"
    hand = next(
        message
        for message in reversed(player.user.dm_channel.history(viewer=player.user))
        if any(getattr(c, "custom_id", None) == custom_id for c in components(message))
    )
    assert hand.id == loaded.seats[1].hand_message_id, "the hand DM offers the button"
    # Another player cannot take it (a forged click from their own hand), nor can a control
    # whose custom_id does not parse.
    other = table.players[0]
    own = live_dm_hand(table, 0) or next(
        iter(reversed(other.user.dm_channel.history(viewer=other.user)))
    )
    refused = await forged_click(env, other.user, own, custom_id)
    assert answer_of(refused).flags.ephemeral
    assert reply_text(refused) == t("clock.take_back_not_yours", "en")
    game = table.game_id
    for forged in ("glory:back:", "glory:back:1", f"glory:back:{game}:x", "glory:back:1:2:3"):
        result = await forged_click(env, other.user, own, forged)
        assert reply_text(result) == t("error.damaged_control", "en"), forged
    assert (await table.loaded()).seats[1].takeover
    # The player takes it back: the hand is shown with a word, the AI mark goes.
    result = await player.user.click(hand, custom_id=custom_id)
    assert result.acknowledged
    assert t("clock.taken_back", "en") in message_text(answer_of(result).message)
    assert not any(
        getattr(c, "custom_id", None) == custom_id for c in components(answer_of(result).message)
    )
    await table.bot.outbox.idle()
    after = await table.loaded()
    assert (after.seats[1].takeover, after.seats[1].missed_turns) == (False, 0)
    assert f"{name} {AI_MARK}" not in message_text(current_table(table))
    # A second press (an old copy of the button) changes nothing and says so.
    again = await forged_click(env, player.user, hand, custom_id)
    assert t("clock.not_taken_over", "en") in reply_text(again)
    # The player's turns are timed again (and the AI no longer plays them unasked).
    loaded = await seat_one_on_turn(table, rng)
    assert not loaded.seats[1].takeover
    await until(table, lambda _: True, "")
    assert (await table.loaded()).row.version == loaded.row.version
    after = await absent_players_turn_runs_out(table)
    assert after.seats[1].missed_turns == 1 and not after.seats[1].takeover


async def test_a_player_who_moves_on_a_taken_seat_gets_it_back(simcord_env, database_url) -> None:
    env = simcord_env
    rng = random.Random(21)
    table = await clock_game(env)
    for _ in range(TAKEOVER_AFTER):
        await seat_one_on_turn(table, rng)
        await absent_players_turn_runs_out(table)
    assert (await table.loaded()).seats[1].takeover
    # The AI now takes a readable pause before each move: the player is back in time to play
    # from their hand DM, which carries the move menu beside the button.
    bot = clock_bot(database_url, pause=30)
    bot.time = SimClock(env)
    await env.restart_bot(bot)
    loaded = await seat_one_on_turn(table, rng)
    assert loaded.seats[1].takeover
    await human_move(table, 1, rng)
    after = await until(table, lambda now: now.row.version > loaded.row.version, "the move")
    assert (after.seats[1].takeover, after.seats[1].missed_turns) == (False, 0)
    name = table.players[1].user.name
    assert f"{name} {AI_MARK}" not in message_text(current_table(table))
    last = await table.bot.store.recent_moves(table.game_id, 1)
    assert last[0].seat == 1 and last[0].events[0].get("type") != "autoplay", "the player's own"


# ---------------------------------------------------------------- restarts


async def test_a_restart_rearms_the_stored_deadline_and_a_passed_one_fires_at_once(
    simcord_env, database_url
) -> None:
    env = simcord_env
    rng = random.Random(31)
    table = await clock_game(env)
    loaded = await seat_one_on_turn(table, rng)
    await env.advance_time(seconds_left(env, loaded) - REMIND_BEFORE + 1)
    await table.bot.outbox.idle()
    assert len(reminders(table, 1)) == 1
    # A restart: the new process arms the stored deadline, without a second reminder.
    bot = clock_bot(database_url)
    bot.time = SimClock(env)
    await env.restart_bot(bot)
    plan = bot.clock.armed(table.game_id)
    assert plan is not None and plan.version == loaded.row.version
    assert plan.deadline == loaded.row.turn_deadline.replace(tzinfo=UTC)
    assert plan.remind_at is None, "reminded already, by the process before"
    after = await absent_players_turn_runs_out(table)
    assert len(reminders(table, 1)) == 1
    assert t("autoplay.clock", "en", seat=table.players[1].user.name) in message_text(
        current_table(table)
    )
    # The bot is down (its timers stopped) while the next deadline of seat 1 passes.
    loaded = await seat_one_on_turn(table, rng)
    assert loaded.row.version >= after.row.version
    table.bot.clock.close()
    await env.advance_time(seconds_left(env, loaded) + 60)
    assert (await table.loaded()).row.version == loaded.row.version
    bot = clock_bot(database_url)
    bot.time = SimClock(env)
    await env.restart_bot(bot)
    moved = await until(
        table, lambda now: now.row.version > loaded.row.version, "the passed deadline fired"
    )
    assert moved.seats[1].missed_turns == 2 and moved.seats[1].takeover


# ---------------------------------------------------------------- the decisions


NOW = datetime(2030, 5, 1, 12, 0, tzinfo=UTC)


@dataclass
class FakeState:
    to_move: int | None
    is_over: bool = False


def game(
    *,
    seconds: int | None = TURN,
    to_move: int | None = 0,
    deadline: datetime | None = NOW,
    reminded: int | None = None,
    takeover: bool = False,
    ai_level: str | None = None,
    status: GameStatus = GameStatus.ACTIVE,
) -> LoadedGame:
    row = GameRow(
        id=7,
        guild_id=1,
        channel_id=2,
        host_id=3,
        game_key="kami",
        status=status,
        version=5,
        turn_seconds=seconds,
        turn_deadline=deadline,
        reminded_version=reminded,
    )
    seats = [
        SeatRow(game_id=7, seat=0, user_id=10, takeover=takeover, ai_level=ai_level),
        SeatRow(game_id=7, seat=1, user_id=11),
    ]
    return LoadedGame(row=row, seats=seats, game=None, state=FakeState(to_move))  # type: ignore[arg-type]


def test_a_turn_is_reminded_a_quarter_of_its_time_before_its_deadline() -> None:
    plan = turn_plan(game(), NOW)
    assert plan is not None
    assert (plan.version, plan.seat, plan.deadline) == (5, 0, NOW)
    assert plan.remind_at == NOW - timedelta(seconds=30)
    day = turn_plan(game(seconds=86400), NOW)
    assert day is not None and day.remind_at == NOW - timedelta(hours=6)


def test_a_reminded_turn_is_not_reminded_again_but_still_runs_out() -> None:
    plan = turn_plan(game(reminded=5), NOW)
    assert plan is not None and plan.remind_at is None and plan.deadline == NOW
    assert turn_plan(game(reminded=4), NOW).remind_at is not None  # an earlier turn's


def test_a_stored_deadline_without_a_zone_is_read_as_utc() -> None:
    plan = turn_plan(game(deadline=NOW.replace(tzinfo=None)), NOW)
    assert plan is not None and plan.deadline == NOW


def test_nothing_is_timed_without_a_clock_or_a_human_on_turn() -> None:
    assert turn_plan(game(seconds=None), NOW) is None
    assert turn_plan(game(to_move=None), NOW) is None
    assert turn_plan(game(takeover=True), NOW) is None
    assert turn_plan(game(ai_level="strong"), NOW) is None
    assert turn_plan(game(status=GameStatus.FINISHED), NOW) is None


def test_a_turn_without_a_stored_deadline_runs_a_whole_turn_time_from_now() -> None:
    """The seat was taken back during the AI's turn, which had no deadline."""
    plan = turn_plan(game(deadline=None), NOW)
    assert plan is not None and plan.deadline == NOW + timedelta(seconds=TURN)


def unwired_clock(settings: Settings, time: Any) -> TurnClock:
    """A turn clock with its settings and time only: what its pure parts and timers use."""
    unused: Any = None
    return TurnClock(
        store=unused,
        registry=unused,
        settings=settings,
        outbox=unused,
        languages=unused,
        publisher=unused,
        locks=unused,
        autoplay=unused,
        time=time,
    )


def clock(missed_turns_for_takeover: int = 3) -> TurnClock:
    settings = Settings(missed_turns_for_takeover=missed_turns_for_takeover)
    fixed = SimpleNamespace(now=lambda: NOW)
    return unwired_clock(settings, fixed)


def test_missed_turns_count_up_to_a_takeover_and_a_move_of_ones_own_resets_them() -> None:
    turns = clock(3)
    row = SeatRow(game_id=1, seat=2, user_id=5)
    assert turns.seat_turns_after(row, "clock") == SeatTurns(2, 1, False)
    row.missed_turns = 2
    assert turns.seat_turns_after(row, "clock") == SeatTurns(2, 3, True)
    assert turns.seat_turns_after(row, None) == SeatTurns(2, 0, False)
    row.missed_turns, row.takeover = 0, True
    assert turns.seat_turns_after(row, "takeover") is None  # the AI holds it: no change
    assert turns.seat_turns_after(row, None) == SeatTurns(2, 0, False)
    fresh = SeatRow(game_id=1, seat=0, user_id=6)
    assert turns.seat_turns_after(fresh, None) is None  # nothing to write


def test_the_next_deadline_is_a_turn_time_from_the_clocks_now() -> None:
    loaded = game()
    turns = clock()
    assert turns.deadline_after(loaded, FakeState(1)) == NOW + timedelta(seconds=TURN)  # type: ignore[arg-type]
    assert turns.deadline_after(loaded, FakeState(None)) is None  # type: ignore[arg-type]
    assert turns.deadline_after(loaded, FakeState(1, is_over=True)) is None  # type: ignore[arg-type]
    # The seat this move lets the AI take over gets no deadline.
    taking = SeatTurns(0, 3, True)
    assert turns.deadline_after(loaded, FakeState(0), taking) is None  # type: ignore[arg-type]
    assert turns.deadline_after(game(seconds=None), FakeState(0)) is None  # type: ignore[arg-type]


async def test_the_wall_clock_does_not_sleep_for_a_time_that_has_passed() -> None:
    wall = WallClock()
    assert abs((wall.now() - datetime.now(UTC)).total_seconds()) < 5
    await asyncio.wait_for(wall.sleep_until(wall.now() - timedelta(hours=1)), 1)


def test_the_reminder_names_the_game_the_channel_and_the_deadline_in_every_language() -> None:
    for locale in ("en", "de", "ru"):
        text = t("clock.reminder", locale, game="Kami", channel=42, deadline=1_900_000_000)
        assert "<#42>" in text and "<t:1900000000:R>" in text and "**Kami**" in text
        notice = t("clock.reminder_notice", locale, player="<@9>", game="Kami", deadline=1)
        assert notice.count("<@") == 1 and t("button.my_hand", locale) in notice


class FrozenClock:
    """Time stands still: a timer armed on it never wakes (this test only arms and replaces)."""

    def now(self) -> datetime:
        return NOW

    async def sleep_until(self, when: datetime) -> None:
        await asyncio.Event().wait()


async def test_one_timer_per_game_replaced_by_the_next_turn_and_stopped_by_close() -> None:
    turns = unwired_clock(Settings(), FrozenClock())
    loaded = game(deadline=NOW + timedelta(minutes=1))
    turns.watch(loaded)
    first = turns._timers[7].task
    assert turns.armed(7) == turn_plan(loaded, NOW)
    turns.watch(loaded)  # the same turn again (another look at it): the timer stays
    assert turns._timers[7].task is first
    loaded.row.version = 6  # the next turn
    turns.watch(loaded)
    second = turns._timers[7].task
    await asyncio.sleep(0)
    assert first.cancelled() and not second.done()
    assert turns.armed(7).version == 6
    loaded.seats[0].takeover = True  # the AI plays this turn: nothing to time
    turns.watch(loaded)
    await asyncio.sleep(0)
    assert second.cancelled() and turns.armed(7) is None
    loaded.seats[0].takeover = False
    turns.watch(loaded)
    third = turns._timers[7].task
    turns.close()
    await asyncio.sleep(0)
    assert third.cancelled() and turns.armed(7) is None
    turns.watch(loaded)  # a stopping bot arms nothing
    assert turns.armed(7) is None
