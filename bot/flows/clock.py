"""The turn clock: no table waits forever for a player who walked away.

A lobby may set a turn time. While a game runs with one, every move stores when the next turn
runs out (``games.turn_deadline``, written in the move's own transaction), so the deadline
survives restarts and is the same for every process. Before it the player is reminded once;
at it the AI makes one move for them (``bot.ai.autoplay``); after a number of missed turns in a
row the AI keeps the seat until the player takes it back.

The pure decisions (what a move does to a seat's record, when the next turn runs out, when
its reminder is due: ``turn_plan``) are here; the timers that act on them are
``TurnClock.watch``. Time comes from a ``Clock`` (the wall clock, or a test's), so no test
sleeps for a deadline.

Once only, whatever the number of processes and restarts: the reminder is claimed in the
database (``games.reminded_version``, compared with the turn's version) in the same
transaction as its outbox entry, so it is sent once and survives a crash; the AI's move at
the deadline is claimed for the turn (``Autoplay.claim_turn``) before the search, so one
process searches, and it is a compare-and-swap on the version like every move.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Protocol

import discord

from bot.flows.session import LoadedGame, load_game
from bot.i18n import t
from bot.interactions.answers import Answer
from bot.interactions.replies import guarded, reply
from bot.messages.languages import user_locale
from bot.outbox.delivery import CANNOT_DM, nonce
from bot.outbox.entries import Publication
from bot.render import presenter_for
from bot.storage.models import GameStatus, SeatRow, utcnow
from bot.storage.repository import SeatTurns
from games import State

if TYPE_CHECKING:
    from collections.abc import Mapping

    from bot.flows.game_locks import GameLocks
    from bot.flows.turn_hooks import TurnPlayer
    from bot.messages.languages import Languages
    from bot.messages.publisher import Publisher
    from bot.outbox.dispatch import Outbox
    from bot.process.config import Settings
    from bot.storage.repository import Store
    from games import Game

log = logging.getLogger(__name__)

TURN_TIMES = (None, 120, 600, 3600, 86400)
"""The lobby's choices, in seconds (``None``: no clock)."""
REMINDER_LEAD = 0.25
"""The reminder comes when this share of the turn time is left: 30 s of 2 minutes, 15 minutes
of an hour, 6 hours of a day."""
LONGEST_SLEEP = 3600.0
"""The wall clock sleeps at most this long at once and looks at the time again (a machine
that was suspended, a clock that was set)."""
RETRY_SECONDS = 5.0
"""After a failed stand-in move (the search or the database failed), the next try."""


def turn_time_text(seconds: int | None, locale: str) -> str:
    """ "off", "10 minutes", "24 hours" in ``locale``."""
    return t("clock.off" if not seconds else f"clock.seconds.{seconds}", locale)


def ai_controlled(row: SeatRow) -> bool:
    """The AI decides this seat's moves: an AI player, or a human seat it took over."""
    return row.ai_level is not None or row.takeover


class Clock(Protocol):
    """Where the turn clock gets its time: the wall clock in the bot, a test's clock in tests."""

    def now(self) -> datetime:
        """The time now (aware, UTC)."""
        ...

    async def sleep_until(self, when: datetime) -> None:
        """Return once ``now()`` has reached ``when`` (at once if it has already)."""
        ...


class WallClock:
    def now(self) -> datetime:
        return utcnow()

    async def sleep_until(self, when: datetime) -> None:
        while (left := (when - self.now()).total_seconds()) > 0:
            await asyncio.sleep(min(left, LONGEST_SLEEP))


def aware(when: datetime) -> datetime:
    """A stored time (SQLite gives it back without its zone) as an aware UTC time."""
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


@dataclass(frozen=True)
class TurnPlan:
    """What the clock does during one turn: remind ``seat`` at ``remind_at`` (``None``: it was
    reminded already), and let the AI move for it at ``deadline`` if the game is still at
    ``version`` then."""

    version: int
    seat: int
    deadline: datetime
    remind_at: datetime | None


def turn_plan(loaded: LoadedGame, now: datetime) -> TurnPlan | None:
    """The clock's plan for the turn ``loaded`` is in; ``None``: nothing to time (no turn time,
    the game is over or not running, the AI plays the seat on turn).

    The deadline is the stored one. A turn with a turn time but none stored is a seat that its
    player took back from the AI during the AI's turn (an AI's turn has no deadline): it runs
    for a whole turn time from ``now`` (kept in memory only, so a restart starts it again).
    """
    seconds = loaded.row.turn_seconds
    state = loaded.state
    if not seconds or loaded.status is not GameStatus.ACTIVE or state is None:
        return None
    seat = state.to_move
    if seat is None or state.is_over or ai_controlled(loaded.seats[seat]):
        return None
    stored = loaded.row.turn_deadline
    deadline = aware(stored) if stored is not None else now + timedelta(seconds=seconds)
    version = loaded.row.version
    remind_at = None
    if loaded.row.reminded_version != version:
        remind_at = deadline - timedelta(seconds=seconds * REMINDER_LEAD)
    return TurnPlan(version, seat, deadline, remind_at)


@dataclass
class _Timer:
    plan: TurnPlan
    task: asyncio.Task[None]
    firing: bool = False
    """Past its sleeps: the AI is moving (not cancelled when the next turn is armed)."""


class TurnClock:
    def __init__(
        self,
        *,
        store: Store,
        registry: Mapping[str, Game],
        settings: Settings,
        outbox: Outbox,
        languages: Languages,
        publisher: Publisher,
        locks: GameLocks,
        autoplay: TurnPlayer,
        time: Clock | None = None,
    ) -> None:
        self.store = store
        self.registry = registry
        self.settings = settings
        self.outbox = outbox
        self.languages = languages
        self.publisher = publisher
        self.locks = locks
        self.autoplay = autoplay
        self.time: Clock = time if time is not None else WallClock()
        """Where the time comes from (tests put a clock of their own here)."""
        self._timers: dict[int, _Timer] = {}
        self._closing = False

    def now(self) -> datetime:
        return self.time.now()

    def seat_turns_after(self, row: SeatRow, autoplay: str | None) -> SeatTurns | None:
        """The mover's clock record after its move, when the move changes it.

        The clock ran out (``autoplay == "clock"``): one more missed turn, and the AI takes
        the seat over once the player has missed ``missed_turns_for_takeover`` in a row. The
        player's own move: the count starts again (and a seat the AI held is theirs again).
        """
        if autoplay == "clock":
            missed = row.missed_turns + 1
            takeover = missed >= self.settings.missed_turns_for_takeover
            return SeatTurns(row.seat, missed, takeover)
        if autoplay is None and row.ai_level is None and (row.missed_turns or row.takeover):
            return SeatTurns(row.seat, 0, False)
        return None

    def deadline_after(
        self, loaded: LoadedGame, state: State, turns: SeatTurns | None = None
    ) -> datetime | None:
        """When the turn that ``state`` begins runs out: only while the game runs with a turn
        time and a human who plays for themself is on turn (``turns``: a record the same
        commit changes)."""
        seconds = loaded.row.turn_seconds
        seat = state.to_move
        if not seconds or state.is_over or seat is None:
            return None
        row = loaded.seats[seat]
        takeover = turns.takeover if turns is not None and turns.seat == seat else row.takeover
        if row.ai_level is not None or takeover:
            return None
        return self.now() + timedelta(seconds=seconds)

    # ---------------------------------------------------------------- timers

    def watch(self, loaded: LoadedGame) -> None:
        """Arm the reminder and the deadline of the turn ``loaded`` is in (if it has one).

        One timer per game: arming a new turn replaces the previous turn's timer, and arming
        the same turn again keeps the timer that runs. A deadline that passed while the bot
        was down fires at once.
        """
        if self._closing:
            return
        game_id = loaded.id
        plan = turn_plan(loaded, self.now())
        timer = self._timers.get(game_id)
        if timer is not None and not timer.task.done():
            if plan is not None and timer.plan.version == plan.version:
                return  # this turn is timed already
            if not timer.firing:
                timer.task.cancel()
        if plan is None:
            self._timers.pop(game_id, None)
            return
        task = asyncio.get_running_loop().create_task(self._run(game_id, plan))
        self._timers[game_id] = _Timer(plan, task)
        task.add_done_callback(lambda done: self._ended(game_id, done))

    def _ended(self, game_id: int, task: asyncio.Task[None]) -> None:
        timer = self._timers.get(game_id)
        if timer is not None and timer.task is task:
            del self._timers[game_id]

    def armed(self, game_id: int) -> TurnPlan | None:
        """The plan of the game's running timer, if any (for tests and diagnostics)."""
        timer = self._timers.get(game_id)
        return timer.plan if timer is not None and not timer.task.done() else None

    async def _run(self, game_id: int, plan: TurnPlan) -> None:
        try:
            if plan.remind_at is not None and self.now() < plan.deadline:
                await self.time.sleep_until(plan.remind_at)
                if self.now() < plan.deadline:
                    await self._remind(game_id, plan)
            await self.time.sleep_until(plan.deadline)
            timer = self._timers.get(game_id)
            if timer is not None and timer.task is asyncio.current_task():
                timer.firing = True
            await self._expire(game_id, plan)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: the turn clock failed", game_id)

    async def _remind(self, game_id: int, plan: TurnPlan) -> None:
        """Claim the turn's reminder and store its outbox entry (one transaction); deliver it."""
        try:
            entry = await self.store.claim_reminder(
                game_id, plan.version, Publication.remind(plan.seat)
            )
        except Exception:
            # Not worth a retry: the deadline still comes, and the AI still stands in.
            log.exception("game %s: could not store the turn's reminder", game_id)
            return
        if entry is not None:  # else another process, or an earlier run, has it
            self.outbox.deliver([entry])

    async def _expire(self, game_id: int, plan: TurnPlan) -> None:
        """The turn ran out: the AI makes one move for the absent player, if the game is still
        at that turn (``Autoplay.play`` checks again under the game's lock)."""
        from bot.ai.autoplay import STAND_IN_LEVEL  # autoplay imports this module

        while not self._closing:
            loaded = await load_game(self.store, self.registry, game_id)
            if (
                loaded is None
                or loaded.status is not GameStatus.ACTIVE
                or loaded.row.version != plan.version
                or loaded.state is None
                or loaded.state.to_move != plan.seat
                or ai_controlled(loaded.seats[plan.seat])
            ):
                return  # the player moved (or took the seat back, or the game ended)
            if not await self.autoplay.claim_turn(loaded):
                return  # another process's timer fired first and plays the turn
            try:
                await self.autoplay.play(loaded, plan.seat, STAND_IN_LEVEL, autoplay="clock")
                return
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception(
                    "game %s: the AI could not stand in for seat %s; trying again shortly",
                    game_id,
                    plan.seat,
                )
            await asyncio.sleep(RETRY_SECONDS)

    def close(self) -> None:
        """Stop every timer (the deadlines stay stored for the next start)."""
        self._closing = True
        for timer in self._timers.values():
            timer.task.cancel()
        self._timers.clear()

    # ---------------------------------------------------------------- the reminder

    async def send_reminder(self, loaded: LoadedGame, seat: int, version: int) -> None:
        """Deliver a claimed reminder (the courier of the seat's DM calls this): a new DM,
        which notifies the player, in their language; if their DMs are closed, a notice in
        the game's channel that mentions them alone. Nothing if the turn is over by now.

        Idempotent like every delivery: the nonce names the game and the turn.
        """
        state = loaded.state
        row = loaded.seats[seat]
        deadline = loaded.row.turn_deadline
        if (
            loaded.status is not GameStatus.ACTIVE
            or loaded.row.version != version
            or state is None
            or state.to_move != seat
            or ai_controlled(row)
            or deadline is None
        ):
            return
        when = int(aware(deadline).timestamp())
        store, delivery = self.store, self.outbox.delivery
        if not await store.dms_closed(row.user_id):
            languages = await self.languages.of_users([row.user_id])
            locale = languages.get(row.user_id, row.locale)
            text = t(
                "clock.reminder",
                locale,
                game=presenter_for(loaded.row.game_key).game_name(locale),
                channel=loaded.row.channel_id,
                deadline=when,
            )
            try:
                # The hand's DM channel (or the stored one), reopened if Discord forgot it.
                key = nonce(loaded.id, "remind", version)
                await delivery.send_dm(row, {"content": text}, key)
                return
            except discord.Forbidden as error:
                if error.code != CANNOT_DM:
                    raise
                await store.set_dms_closed(row.user_id, True)
        await delivery.notice(
            loaded,
            nonce(loaded.id, "remind", "closed", version),
            "clock.reminder_notice",
            mention=[row.user_id],
            player=f"<@{row.user_id}>",
            game=presenter_for(loaded.row.game_key).game_name(loaded.row.locale),
            deadline=when,
        )

    # ---------------------------------------------------------------- taking a seat back

    async def take_back(self, interaction: discord.Interaction, game_id: int, seat: int) -> None:
        """The "Take my seat back" button: the AI stops playing ``seat`` for its player.

        Under the game's lock: only the seat's own player may, and only while the AI holds
        the seat; the record is reset, the click is answered with the hand (in place), and
        the table (the AI mark goes) and the seat's hand DM are published through the outbox.
        """
        from bot.flows.moves import ended_key, in_private  # moves imports (through controls) this

        entry = None
        shown: set[int] = set()
        async with guarded(interaction, game_id):
            if not in_private(interaction):
                await reply(interaction, "move.private_only")
                return
            async with await self.locks.locked(interaction, game_id):
                loaded = await load_game(self.store, self.registry, game_id)
                if loaded is None:
                    await reply(interaction, "error.game_gone")
                    return
                if loaded.status is not GameStatus.ACTIVE:
                    await reply(interaction, ended_key(loaded.status))
                    return
                mine = loaded.seat_of(interaction.user.id)
                if mine is None or mine != seat:
                    await reply(interaction, "clock.take_back_not_yours")
                    return
                locale = user_locale(interaction)
                if not loaded.seats[seat].takeover:
                    notice = t("clock.not_taken_over", locale)
                else:
                    back = SeatTurns(seat, 0, False)
                    assert loaded.state is not None
                    # Back on turn: the turn runs from now, stored like a move's deadline.
                    deadline = (
                        self.deadline_after(loaded, loaded.state, back)
                        if loaded.state.to_move == seat
                        else None
                    )
                    entry = await self.store.set_seat_turns(
                        game_id, back, publication=Publication.move([seat], []), deadline=deadline
                    )
                    notice = t("clock.taken_back", locale)
                    now = await load_game(self.store, self.registry, game_id)
                    assert now is not None
                    loaded = now
                in_dm = interaction.guild_id is None
                recent = await self.publisher.recent_events(loaded)
                content, _ = await self.publisher.hand_content(
                    loaded, seat, locale, recent, notice=notice, full=not in_dm
                )
                answered = await Answer.of(interaction).update(**content)
                clicked = interaction.message.id if interaction.message else None
                if answered and in_dm and clicked == loaded.seats[seat].hand_message_id:
                    shown.add(seat)
        if entry is not None:
            self.outbox.deliver([entry], shown=shown)
            self.autoplay.turn_changed(game_id)
