"""Couriers: deliver each game's outbox entries, in order, target by target, until they are shown.

A game's publications go to a few *targets*: its channel (lobby, table, notices) and each
seat's hand DM. Each target is a lane with its own task, so a table edit that Discord holds
back (a 429 with a long ``retry_after``, a slow response) never delays the next player's DM.
Within a lane the work is done in entry order and *coalesced*: a lane takes everything pending
for its target and shows the game as it is now, so ten moves made while Discord was slow are
one table edit. An entry is deleted from the outbox once every lane it named has shown it.

Failures: what a retry can cure (rate limits, Discord's 5xx, the network, a database hiccup)
is retried with backoff for as long as it takes (``retry_after`` when Discord gives one); an
answer no retry will change (a payload Discord refuses, a channel that is gone) is logged and
the work dropped; an unexpected exception (a bug) is retried a few times and then dropped, so
one bad entry cannot wedge a game. Entries stay in the database until delivered, so a restart
(``Outbox.resume``) or another process (``Outbox.sweep``) can always finish them; every call is
idempotent (``delivery``), so delivering twice shows nothing twice.

Several processes on one database (``Store.shared``): a game's courier first claims the game's
outbox (``bot/storage/claims.py``), so exactly one process delivers a game at a time. Claimed,
it takes every entry of the game that is stored (other processes' too); refused, it leaves its
entries to the holder. The holder adopts entries written elsewhere when that process's change
notice arrives, and once more when it lets go: its delivered entries are deleted and the claim
released in one transaction, and whatever is stored for the game after that is delivered again.
A process that dies holding a claim frees it at once (its liveness lock goes with its
connections, ``bot/storage/liveness.py``): its restarted self takes the game back at start-up,
and a sweep of any other process takes it over. One that stalls keeps it for the lease.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from sqlalchemy.exc import DBAPIError

from bot.flows.session import LoadedGame, load_game
from bot.outbox import budget
from bot.outbox import entries as kinds
from bot.outbox.delivery import Delivery, HandOutcome, Outdated, nonce
from bot.outbox.entries import Entry, Publication
from bot.outbox.pace import TABLE_PACE_SECONDS, TablePace
from bot.render import presenter_for
from bot.storage.claims import OUTBOX_LEASE_SECONDS
from bot.storage.repository import StorageConflict

if TYPE_CHECKING:
    from bot.outbox.host import OutboxHost

log = logging.getLogger(__name__)

TABLE = "table"
"""The lane of the game's channel: lobby, table and notices."""

SHOW = "show"
REDRAW = "redraw"
REPOST = "repost"
EXPIRED_NOTICE = "expired_notice"
OPEN_HANDS = "open_hands"
RESYNC = "resync"
PING = "ping"
REMIND = "remind"
SHOWS_TABLE = frozenset({SHOW, REPOST, REDRAW, RESYNC})
"""The channel lane's work that shows the table (and draws its picture): paced per game."""
FINAL = "final"
"""Marks the showing of a game's end: ``(SHOW, FINAL)``."""
GAME_OVER = "game_over"
"""A game's end: its game-over message (``(GAME_OVER, why)``, ``bot/messages/game_over.py``)."""


def outside_budget(op: tuple[Any, ...]) -> bool:
    """Whether the tables' budget for all games (``pace.TablePace``) lets ``op`` through at
    once: a game's start (its table and every player's first DM go out from the channel's
    lane), its end, and a table someone asked for (``/table``). Each happens once per game;
    moves are what come in hundreds a second."""
    return op[0] in (OPEN_HANDS, REPOST, GAME_OVER) or op == (SHOW, FINAL)


RETRY_BASE_SECONDS = 1.0
RETRY_CAP_SECONDS = 60.0
UNEXPECTED_TRIES = 5
"""How often an unexpected exception is retried before its work is dropped."""
OUTDATED_TRIES = 10
"""How often in a row a delivery may find the game changed under it before it gives up."""
SWEEP_SECONDS = 60.0
"""How often the outbox looks in the database for entries no courier of this process holds."""
DELETE_AFTER_SECONDS = 0.5
"""Delivered entries are forgotten in batches at most this long after delivery: a deletion is
a write transaction, and one per move would double the bot's writes. Until then a crash only
means one more, harmless, delivery."""
IN_FLIGHT_SECONDS = 10.0
"""How long after a process died Discord may still carry out a request it had sent. Such a
late edit shows a game as it was then, over what the new process showed since; so the games
a restart (or a sweep) took over are shown once more after this long."""
SWEEP_AGE = timedelta(seconds=30)
"""An entry younger than this is left to the process that wrote it (which hands it over after
the click's own answer)."""
SHARED_SWEEP_SECONDS = 10.0
"""With other processes: how often to look for entries whose courier's process died (or whose
lease ran out: a process that stalled, or a host that vanished)."""


def seat_lane(seat: int) -> str:
    return f"seat:{seat}"


class Retry(Exception):
    """A delivery failed in a way that waiting can cure."""

    def __init__(self, delay: float | None, cause: BaseException) -> None:
        super().__init__(str(cause))
        self.delay = delay
        self.cause = cause


def classify(error: BaseException) -> Retry | None:
    """A ``Retry`` if waiting can cure ``error`` (with Discord's ``retry_after`` if known)."""
    if isinstance(error, discord.RateLimited):
        return Retry(error.retry_after, error)
    if isinstance(error, discord.HTTPException):
        if error.status == 429 or error.status >= 500:
            return Retry(None, error)
        return None
    if isinstance(error, (aiohttp.ClientError, TimeoutError, OSError, DBAPIError)):
        return Retry(None, error)
    return None


@dataclass
class _Pending:
    entry: Entry
    lanes: set[str] = field(default_factory=set)


class Lane:
    """One target of one game: the work pending for it and the task doing it."""

    def __init__(self, courier: Courier, key: str) -> None:
        self.courier = courier
        self.key = key
        self.items: list[tuple[int, tuple[Any, ...]]] = []
        self.task: asyncio.Task[None] | None = None
        self._budget_wait: asyncio.Task[None] | None = None
        """The table's wait for the budget of all games, while it waits (``_table_turn``)."""

    @property
    def busy(self) -> bool:
        return self.task is not None and not self.task.done()

    def push(self, entry_id: int, op: tuple[Any, ...]) -> None:
        self.items.append((entry_id, op))
        if outside_budget(op) and self._budget_wait is not None:
            self._budget_wait.cancel()  # the lane goes on at once (``_table_turn``)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        failures = outdated_runs = 0
        while self.items:
            try:
                held = await self.courier.hold()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # noqa: BLE001 - the claim is asked for again
                failures += 1
                log.log(
                    logging.WARNING if failures == 3 else logging.INFO,
                    "game %s: could not claim its delivery (%s); retrying",
                    self.courier.game_id,
                    error,
                )
                await asyncio.sleep(self.courier.outbox.backoff(failures))
                continue
            if not held or not self.items:
                break  # another process delivers this game (or did: nothing left)
            if self.key != TABLE:
                await self.courier.opening.wait()
            elif any(op[0] in SHOWS_TABLE for _, op in self.items):
                await self._table_turn()
            batch = list(self.items)
            try:
                with budget.purpose(self._priority(batch), self.courier.game_id):
                    await self.courier.perform(self.key, [op for _, op in batch])
            except asyncio.CancelledError:
                raise
            except Outdated as outdated:
                outdated_runs += 1
                if outdated_runs <= OUTDATED_TRIES:
                    log.info("game %s: %s; showing it as it is now", self.courier.game_id, outdated)
                    continue
                game = self.courier.game_id
                log.error("game %s: the %s update kept being outdated; dropped", game, self.key)
            except Exception as error:  # noqa: BLE001 - classified in _after_failure
                failures += 1
                delay = self._after_failure(error, failures)
                if delay is not None:
                    await asyncio.sleep(delay)
                    continue
            failures = outdated_runs = 0
            if self.key == TABLE and any(op[0] in SHOWS_TABLE for _, op in batch):
                self.courier.outbox.pace.shown(self.courier.game_id)
            del self.items[: len(batch)]
            self.courier.lane_done(self.key, [entry_id for entry_id, _ in batch])
        self.courier.lane_idle()

    def _priority(self, batch: list[tuple[int, tuple[Any, ...]]]) -> int:
        """What the lane's requests are for, in Discord's global budget (``budget.py``): a
        seat's DM that pings a turn (or reminds of it) goes first, then hands, then tables."""
        if self.key == TABLE:
            return budget.TABLE
        if any(op[0] in (PING, REMIND) for _, op in batch):
            return budget.TURN
        return budget.HAND

    async def _table_turn(self) -> None:
        """Wait until the table may be shown (``pace.TablePace``): a game's start, its end or
        a /table that arrives while a move's showing waits for the budget cuts the wait short
        (the one edit then shows everything)."""
        pace, game = self.courier.outbox.pace, self.courier.game_id
        if not any(outside_budget(op) for _, op in self.items):
            self._budget_wait = asyncio.ensure_future(pace.wait(game))
            try:
                await self._budget_wait
                return
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    raise  # the lane itself is stopped
            finally:
                self._budget_wait = None
        await pace.wait(game, budgeted=False)

    def _after_failure(self, error: Exception, failures: int) -> float | None:
        """How long to wait before trying again, or ``None`` to drop the work (logged)."""
        game, outbox = self.courier.game_id, self.courier.outbox
        retry = classify(error)
        if retry is not None:
            delay = retry.delay if retry.delay is not None else outbox.backoff(failures)
            level = logging.WARNING if failures == 3 else logging.INFO
            log.log(
                level,
                "game %s: the %s update failed (%s); retrying in %.1f s",
                game,
                self.key,
                retry.cause,
                delay,
            )
            return delay
        if isinstance(error, discord.HTTPException):
            log.warning(
                "game %s: Discord refused the %s update (%s %s); dropped",
                game,
                self.key,
                error.status,
                error.code,
            )
            return None
        log.exception("game %s: could not deliver the %s update", game, self.key)
        if failures < UNEXPECTED_TRIES:
            return outbox.backoff(failures)
        log.error("game %s: gave up the %s update after %d tries", game, self.key, failures)
        return None


class Courier:
    """Delivers one game's outbox entries."""

    def __init__(self, outbox: Outbox, game_id: int) -> None:
        self.outbox = outbox
        self.game_id = game_id
        self.pending: dict[int, _Pending] = {}
        self.lanes: dict[str, Lane] = {}
        self._expanded: set[int] = set()
        self.opening = asyncio.Event()
        """Clear while a game's first DMs are being sent; the seats' lanes wait for it."""
        self.opening.set()
        self._openings: set[int] = set()
        self.token: str | None = None
        """The claim on the game's outbox (several processes); ``None`` for one process."""
        self.given_up = False
        """Another process's courier holds the game: this one delivers nothing."""
        self.done: list[int] = []
        """Entries delivered under the claim, deleted when it is released."""
        self._claiming: asyncio.Lock | None = None
        self._adopting: asyncio.Task[None] | None = None

    # ---------------------------------------------------------------- claim (several processes)

    async def hold(self) -> bool:
        """Whether this courier may deliver: always for one process; with others, once it
        holds the claim on the game's outbox (taken by the first lane that asks)."""
        if self.token is not None or not self.outbox.shared:
            return True
        if self._claiming is None:
            self._claiming = asyncio.Lock()
        async with self._claiming:
            releasing = self.outbox.releasing(self.game_id)
            if releasing is not None:
                await asyncio.shield(releasing)
            if self.token is None and not self.given_up:
                claimed = await self.outbox.bot.store.claim_outbox(
                    self.game_id, lease=self.outbox.lease_seconds
                )
                if claimed is None:
                    self.give_up()
                else:
                    self.token, stored = claimed
                    self.outbox.claimed(self)
                    self.adopt(stored, complete=True)
        return self.token is not None

    def adopt(self, stored: Collection[Entry], *, complete: bool = False) -> None:
        """Take on the game's stored entries that this courier does not have yet (written by
        another process); ``complete``: ``stored`` is everything stored, and a pending entry
        missing from it was delivered (and deleted) by another process's courier."""
        if self.given_up:
            return
        in_deletion = self.outbox.in_deletion
        if complete:
            known = {entry.id for entry in stored}
            for entry_id in [i for i in self.pending if i not in known]:
                self._drop(entry_id)
        for entry in stored:
            new = entry.id not in self.pending and entry.id not in self.done
            if new and entry.id not in in_deletion:
                self.add(entry)

    def adopt_soon(self) -> None:
        """Another process changed the game: look for entries it wrote (one look at a time)."""
        if self.token is None or self.given_up:
            return
        if self._adopting is None or self._adopting.done():
            self._adopting = asyncio.get_running_loop().create_task(self._adopt_stored())

    async def _adopt_stored(self) -> None:
        try:
            self.adopt(await self.outbox.bot.store.pending_publications(games=[self.game_id]))
        except Exception:  # noqa: BLE001 - the next renewal or the release looks again
            log.info("game %s: could not look for other processes' entries", self.game_id)

    def _drop(self, entry_id: int) -> None:
        """Forget an entry that another process delivered meanwhile."""
        self.pending.pop(entry_id, None)
        self._expanded.discard(entry_id)
        for lane in self.lanes.values():
            lane.items = [(i, op) for i, op in lane.items if i != entry_id]
        if entry_id in self._openings:
            self._openings.discard(entry_id)
            if not self._openings:
                self.opening.set()

    def give_up(self) -> None:
        """Another process's courier holds the game: leave everything to it (the entries stay
        stored; it adopts them)."""
        self.given_up = True
        self.pending.clear()
        self._expanded.clear()
        for lane in self.lanes.values():
            lane.items.clear()
        self._openings.clear()
        self.opening.set()

    # ---------------------------------------------------------------- intake

    def add(self, entry: Entry, shown: Collection[int] = ()) -> None:
        """Plan ``entry`` onto the lanes. ``shown``: seats whose hand the click's own answer
        already brought up to date (their lane skips that refresh)."""
        if entry.id in self.pending or self.given_up:
            return
        pending = self.pending[entry.id] = _Pending(entry)
        if entry.kind == kinds.START:
            self._openings.add(entry.id)
            self.opening.clear()
        # A hand the click's answer showed is skipped, unless its lane is at work right now:
        # what that lane sends may have been rendered before the move and land after the answer.
        busy = {key for key, lane in self.lanes.items() if lane.busy}
        shown = [seat for seat in shown if seat_lane(seat) not in busy]
        plan = list(self._plan(entry, shown))
        pending.lanes = {lane for lane, _ in plan}
        for lane, op in plan:
            self._lane(lane).push(entry.id, op)
        if not pending.lanes:
            self.lane_done("", [entry.id])

    @staticmethod
    def _plan(entry: Entry, shown: Collection[int]) -> Iterable[tuple[str, tuple[Any, ...]]]:
        kind = entry.kind
        if kind == kinds.END:
            yield TABLE, (SHOW, FINAL)
        elif kind in (kinds.MOVE, kinds.START, kinds.LOBBY):
            yield TABLE, (SHOW,)
        if entry.ends_game:
            yield TABLE, (GAME_OVER, entry.body.get("why"))
        if kind == kinds.START:
            # The first DMs go out from the channel's lane, so that everyone whose DMs are
            # closed is told in one message; the seats' lanes wait for it (``opening``).
            yield TABLE, (OPEN_HANDS, entry.version)
            return
        if kind == kinds.REDRAW:
            yield TABLE, (REDRAW,)
        elif kind == kinds.EXPIRE:
            yield TABLE, (SHOW,)
            yield TABLE, (EXPIRED_NOTICE,)
        elif kind == kinds.REPOST:
            yield TABLE, (REPOST, entry.id)
        elif kind == kinds.RESYNC:
            yield TABLE, (RESYNC, entry.id)
        elif kind == kinds.REMIND:
            yield seat_lane(int(entry.body["seat"])), (REMIND, entry.version)
        fresh = set(entry.fresh)
        for seat in entry.hands:
            if seat not in fresh and seat not in shown:
                yield seat_lane(seat), (SHOW,)
        for seat in sorted(fresh):
            yield seat_lane(seat), (PING, entry.version)

    def _lane(self, key: str) -> Lane:
        lane = self.lanes.get(key)
        if lane is None:
            lane = self.lanes[key] = Lane(self, key)
        return lane

    def lane_done(self, lane: str, entry_ids: Iterable[int]) -> None:
        delivered = []
        for entry_id in entry_ids:
            pending = self.pending.get(entry_id)
            if pending is None:
                continue
            pending.lanes.discard(lane)
            if lane == TABLE and entry_id in self._openings:
                self._openings.discard(entry_id)
                if not self._openings:
                    self.opening.set()
            if not pending.lanes:
                del self.pending[entry_id]
                self._expanded.discard(entry_id)
                delivered.append(entry_id)
        if self.token is not None:
            self.done.extend(delivered)  # deleted as the claim is released
        else:
            self.outbox.delivered(delivered)

    def lane_idle(self) -> None:
        if not self.pending and all(
            lane.task is None or lane.task.done() or lane.task is asyncio.current_task()
            for lane in self.lanes.values()
        ):
            # Each lane points back at its courier: without the lanes, the two are freed at
            # once rather than left for the cycle collector (a courier retires after every
            # move's delivery, hundreds a second under load).
            self.lanes.clear()
            self.outbox.retire(self)

    @property
    def busy(self) -> bool:
        return bool(self.pending)

    async def stop(self) -> None:
        tasks = [lane.task for lane in self.lanes.values() if lane.task is not None]
        if self._adopting is not None:
            tasks.append(self._adopting)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # ---------------------------------------------------------------- work

    async def perform(self, lane: str, ops: list[tuple[Any, ...]]) -> None:
        """Do ``ops`` (everything pending for ``lane``), showing the game as it is now."""
        bot = self.outbox.bot
        loaded = await self._load()
        if loaded is None:
            return  # the game is gone: nothing left to show
        recent = await bot.publisher.recent_events(loaded) if loaded.state is not None else []
        delivery = self.outbox.delivery
        if lane != TABLE:
            await self._perform_seat(loaded, int(lane.split(":")[1]), ops, recent)
            return
        shown = False
        for op in ops:
            kind = op[0]
            if kind == SHOW and not shown:
                await delivery.show_public(loaded, recent)
                shown = True
            elif kind == REPOST:
                await delivery.post_table(loaded, recent, nonce(loaded.id, "repost", op[1]))
                shown = True
            elif kind == REDRAW:  # a new language: the lobby message, and the table if any
                await delivery.show_lobby(loaded)
                if loaded.state is not None:
                    await delivery.show_table(loaded, recent)
            elif kind == EXPIRED_NOTICE:
                await self._tell_expired(loaded)
            elif kind == GAME_OVER:
                await delivery.post_game_over(loaded, op[1])
            elif kind == OPEN_HANDS:
                await self._open_hands(loaded, recent, op[1])
            elif kind == RESYNC:
                if not shown:
                    await delivery.show_public(loaded, recent)
                    shown = True
                self._expand_resync(loaded, op[1])

    async def _load(self) -> LoadedGame | None:
        """The game as it is now, in a snapshot that later moves leave alone.

        With other processes, memory behind the newest entry's version missed a move made
        elsewhere (its notice is still on its way): the game is read again.
        """
        bot = self.outbox.bot
        at_least = None
        if self.outbox.shared and self.pending:
            at_least = max(pending.entry.version for pending in self.pending.values())
        loaded = await load_game(bot.store, bot.registry, self.game_id, at_least=at_least)
        return None if loaded is None else loaded.snapshot()

    async def _open_hands(self, loaded: LoadedGame, recent: list, version: int) -> None:
        """Every seat's first DM, then one notice for all whose DMs are closed (a ping each).

        Each DM shows the game as it is when it is sent: under Discord's rate limits the last
        seat's may go out seconds after the first player has moved. A move made while one
        seat's DM goes out makes that DM alone go again (``_first_dm``): the seats already
        shown stay shown. (Raised out of here, the whole batch of the channel's lane went
        again, the table's edit first, while every seat's lane waited for the first DMs to be
        out: under load the players who had their DM kept moving, each move started it all
        over, and the seats still waiting for theirs were never pinged: the soak's stalls.)
        """
        closed = []
        for seat in range(len(loaded.seats)):
            if loaded.seats[seat].ai_level is not None:
                continue  # an AI player has no DMs
            shown = await self._first_dm(seat, version)
            if shown is None:
                return  # the game is gone (or never started)
            outcome, user_id = shown
            if outcome is not HandOutcome.SHOWN:
                closed.append(user_id)
        key = nonce(loaded.id, "closed", "start")
        await self.outbox.delivery.tell_closed_dms(loaded, closed, key)

    async def _first_dm(self, seat: int, version: int) -> tuple[HandOutcome, int] | None:
        """Seat's first DM (a ping: everyone's first DM is one), shown as the game is now,
        and again as it is then if a move comes meanwhile; the outcome and the user."""
        for _ in range(OUTDATED_TRIES):
            now = await self._load()
            if now is None or now.state is None:
                return None
            recent = await self.outbox.bot.publisher.recent_events(now)
            try:
                with budget.purpose(budget.TURN, now.id):
                    outcome = await self.outbox.delivery.show_hand(
                        now, seat, recent, ping_since=version
                    )
            except Outdated as outdated:
                log.info("game %s: %s; showing it as it is now", self.game_id, outdated)
                continue
            return outcome, now.seats[seat].user_id
        raise Outdated(f"game {self.game_id}: seat {seat}'s first DM kept being outdated")

    async def _tell_expired(self, loaded: LoadedGame) -> None:
        game = presenter_for(loaded.row.game_key).game_name(loaded.row.locale)
        minutes = self.outbox.bot.settings.lobby_minutes
        key = nonce(loaded.id, "expired")
        await self.outbox.delivery.notice(
            loaded, key, "lobby.expired_notice", game=game, count=minutes
        )

    def _expand_resync(self, loaded: LoadedGame, entry_id: int) -> None:
        """A resync shows every hand again and pings the seat on turn if it missed its DM."""
        pending = self.pending.get(entry_id)
        if pending is None or entry_id in self._expanded or loaded.state is None:
            return
        self._expanded.add(entry_id)
        for seat in range(len(loaded.seats)):
            pending.lanes.add(seat_lane(seat))
            self._lane(seat_lane(seat)).push(entry_id, (SHOW,))

    async def _perform_seat(
        self, loaded: LoadedGame, seat: int, ops: list[tuple[Any, ...]], recent: list
    ) -> None:
        state = loaded.state
        if state is None or seat >= len(loaded.seats) or loaded.seats[seat].ai_level is not None:
            return  # an AI player has no DMs
        reminders = [op[1] for op in ops if op[0] == REMIND]
        if reminders:  # the turn clock's reminder: a DM of its own (bot/flows/clock.py)
            await self.outbox.bot.clock.send_reminder(loaded, seat, max(reminders))
            if len(reminders) == len(ops):
                return
        pings = [op[1] for op in ops if op[0] == PING]
        ping_since = max(pings) if pings else None  # show_hand pings no seat the AI holds
        delivery = self.outbox.delivery
        outcome = await delivery.show_hand(loaded, seat, recent, ping_since=ping_since)
        if outcome is HandOutcome.FOUND_CLOSED:
            user = loaded.seats[seat].user_id
            await delivery.tell_closed_dms(loaded, [user], nonce(loaded.id, "closed", user))


class Outbox:
    """This process's couriers: hand entries over after a commit, resume them after a restart."""

    def __init__(
        self,
        bot: OutboxHost,
        *,
        retry_base: float = RETRY_BASE_SECONDS,
        retry_cap: float = RETRY_CAP_SECONDS,
        sweep_seconds: float = SWEEP_SECONDS,
        delete_after: float = DELETE_AFTER_SECONDS,
        in_flight_seconds: float = IN_FLIGHT_SECONDS,
        lease_seconds: float = OUTBOX_LEASE_SECONDS,
        table_pace: float = TABLE_PACE_SECONDS,
        table_updates: float | None = None,
    ) -> None:
        self.bot = bot
        self.pace = TablePace(table_pace, table_updates)
        """When each game's table may be shown next (kept across couriers)."""
        self.lease_seconds = lease_seconds
        """How long a courier's claim on a game lasts unrenewed (several processes)."""
        self._held: set[Courier] = set()
        self._letting_go: set[asyncio.Task[None]] = set()
        self._renewer: asyncio.Task[None] | None = None
        self._following = False
        self._releasing: dict[int, asyncio.Task[None]] = {}
        """Per game, a release in flight: the game's next courier claims after it (what the
        last one delivered is deleted by then, so it is not read back and delivered again)."""
        self.delivery = Delivery(bot)
        self.retry_base = retry_base
        self.retry_cap = retry_cap
        self.sweep_seconds = sweep_seconds
        self.delete_after = delete_after
        self.in_flight_seconds = in_flight_seconds
        self._resyncs: set[asyncio.Task[None]] = set()
        self.couriers: dict[int, Courier] = {}
        self._delivered: list[int] = []
        self._in_deletion: set[int] = set()
        self._deleting: asyncio.Task[None] | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._idle = asyncio.Event()
        self._idle.set()
        self._delete_timer: asyncio.TimerHandle | None = None
        self.closed = False

    def backoff(self, failures: int) -> float:
        return min(self.retry_cap, self.retry_base * 2 ** max(0, failures - 1))

    @property
    def shared(self) -> bool:
        """Other processes deliver from the same database (``Store.shared``)."""
        return self.bot.store.shared

    @property
    def in_deletion(self) -> set[int]:
        """Entries delivered and about to be deleted (not to be delivered again)."""
        return self._in_deletion

    # ---------------------------------------------------------------- several processes

    def follow_other_processes(self) -> None:
        """Adopt what other processes write for the games this one delivers (their change
        notices), from now on."""
        if self.shared and not self._following:
            self._following = True
            self.bot.store.game_changed.append(self._changed_elsewhere)

    def _changed_elsewhere(self, game_id: int) -> None:
        courier = self.couriers.get(game_id)
        if courier is not None:
            courier.adopt_soon()

    def releasing(self, game_id: int) -> asyncio.Task[None] | None:
        """The release of the game's previous courier, while it is in flight."""
        return self._releasing.get(game_id)

    def claimed(self, courier: Courier) -> None:
        """``courier`` holds its game's claim: keep it renewed until it lets go."""
        self._held.add(courier)
        if self._renewer is None or self._renewer.done():
            self._renewer = asyncio.get_running_loop().create_task(self._renew_forever())

    async def _renew_forever(self) -> None:
        while self._held:
            await asyncio.sleep(self.lease_seconds / 3)
            try:
                await self.renew()
            except Exception:
                log.exception("could not renew the claims on games being delivered")

    async def renew(self) -> None:
        """Extend the claims of the couriers at work; one whose claim was lost (this process
        stalled past the lease and another took the game over) stops. Each also adopts what
        other processes wrote for its game (in case their notices were missed)."""
        held = [courier for courier in self._held if courier.token is not None]
        if not held:
            return
        store = self.bot.store
        tokens = [courier.token for courier in held if courier.token is not None]
        kept = await store.renew_claims(tokens, lease=self.lease_seconds)
        for courier in held:
            if courier.token not in kept:
                log.warning("game %s: another process took over its delivery", courier.game_id)
                courier.token = None
                self._held.discard(courier)
                courier.give_up()
        done = [entry for courier in held if courier.token is not None for entry in courier.done]
        for courier in held:
            courier.done = []
        if done:  # a courier that stays busy for long has its delivered entries deleted now
            await store.published(done)
        games = [courier.game_id for courier in held if courier.token is not None]
        if games:
            stored = await store.pending_publications(games=games)
            for courier in held:
                if courier.token is not None:
                    courier.adopt([entry for entry in stored if entry.game_id == courier.game_id])

    def _let_go(self, courier: Courier) -> None:
        """A courier with nothing left: delete what it delivered and release its claim (one
        transaction), then deliver whatever other processes stored for the game meanwhile."""
        self._held.discard(courier)
        token, courier.token = courier.token, None
        if token is None:
            return
        courier.given_up = True  # retired: a late adoption must not revive it
        task = asyncio.get_running_loop().create_task(self._release(courier, token))
        self._releasing[courier.game_id] = task
        self._letting_go.add(task)
        task.add_done_callback(self._let_go_done)

    def _let_go_done(self, task: asyncio.Task[None]) -> None:
        self._letting_go.discard(task)
        self._check_idle()

    async def _release(self, courier: Courier, token: str) -> None:
        done, courier.done = courier.done, []
        try:
            left = await self.bot.store.release_outbox(courier.game_id, token, done)
        except Exception:
            # The claim lapses after its lease; a sweep delivers what is left (again, harmlessly).
            log.exception("game %s: could not release its delivery", courier.game_id)
            return
        finally:
            if self._releasing.get(courier.game_id) is asyncio.current_task():
                del self._releasing[courier.game_id]
        left = [entry for entry in left if entry.id not in self._in_deletion]
        if left:
            self.deliver(left)

    # ---------------------------------------------------------------- intake

    def deliver(self, entries: Iterable[Entry], *, shown: Collection[int] = ()) -> None:
        """Start delivering ``entries`` (just committed, or found in the database)."""
        if self.closed:
            return  # shutting down: the entries stay stored and the next start delivers them
        for entry in entries:
            if entry.id in self._in_deletion:
                continue
            courier = self.couriers.get(entry.game_id)
            if courier is None or courier.given_up:
                # (one that was refused or lost its claim is on its way out; the holder may
                # have let go since, so this entry gets a courier that asks again)
                courier = self.couriers[entry.game_id] = Courier(self, entry.game_id)
            self._idle.clear()
            courier.add(entry, shown)

    async def resume(self) -> int:
        """After a start: deliver every entry a previous run left; how many.

        With other processes, only the entries of games no live courier holds: the others
        are being delivered. A dead process's claims are free (its liveness lock is gone),
        so what this process was delivering before it was killed is taken back now."""
        self.follow_other_processes()
        entries = await self.bot.store.pending_publications(unclaimed=self.shared)
        self.deliver(entries)
        self.resync_later({entry.game_id for entry in entries})
        if entries:
            games = len({entry.game_id for entry in entries})
            log.info(
                "delivering %d publication(s) of %d game(s) left by the last run",
                len(entries),
                games,
            )
        return len(entries)

    def start_sweeping(self) -> None:
        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def _sweep_forever(self) -> None:
        period = self.sweep_seconds
        if self.shared:
            period = min(period, SHARED_SWEEP_SECONDS)
        while True:
            await asyncio.sleep(period)
            try:
                await self.sweep()
            except Exception:
                log.exception("could not look for undelivered publications")

    async def sweep(self) -> int:
        """Deliver stored entries older than ``SWEEP_AGE`` that no courier holds (one whose
        hand-over was lost, or another process's that died), and with other processes those
        of any age whose courier's process died; how many."""
        entries = await self.bot.store.pending_publications(
            older_than=SWEEP_AGE, unclaimed=self.shared
        )
        orphans = [
            entry
            for entry in entries
            if entry.id not in self._in_deletion
            and (
                entry.game_id not in self.couriers
                or entry.id not in self.couriers[entry.game_id].pending
            )
        ]
        if orphans:
            log.info(
                "found %d undelivered publication(s): %s",
                len(orphans),
                ", ".join(f"game {e.game_id} v{e.version} {e.kind} #{e.id}" for e in orphans[:20]),
            )
            self.deliver(orphans)
            self.resync_later({entry.game_id for entry in orphans})
        return len(orphans)

    def resync_later(self, game_ids: Collection[int]) -> None:
        """Show ``game_ids`` once more when the requests of a process that died delivering
        them can no longer be carried out (``IN_FLIGHT_SECONDS``): one of those, served late,
        would show a table or a hand as it was when that process died, and a hand from then
        carries controls that only answer "stale". The resync is an outbox entry like any
        other, so a crash in the meantime leaves it to the next start."""
        if game_ids and not self.closed:
            task = asyncio.get_running_loop().create_task(self._resync_after(sorted(game_ids)))
            self._resyncs.add(task)
            task.add_done_callback(self._resyncs.discard)

    async def _resync_after(self, game_ids: list[int]) -> None:
        await asyncio.sleep(self.in_flight_seconds)
        store = self.bot.store
        for game_id in game_ids:
            try:
                entry = await store.publish(game_id, Publication(kinds.RESYNC))
            except StorageConflict:
                continue  # the game is gone
            except Exception:
                log.exception("game %s: could not show it again after a restart", game_id)
                continue
            self.deliver([entry])

    # ---------------------------------------------------------------- completion

    def delivered(self, entry_ids: list[int]) -> None:
        """Entries every lane has shown: delete them (batched)."""
        if not entry_ids:
            return
        self._delivered.extend(entry_ids)
        self._in_deletion.update(entry_ids)
        if self._delete_timer is None:  # gather the deliveries of the moment
            loop = asyncio.get_running_loop()
            self._delete_timer = loop.call_later(self.delete_after, self._forget_delivered)

    def _forget_delivered(self) -> None:
        """Delete the delivered entries now (``idle`` and ``close`` do not wait for the timer)."""
        if self._delete_timer is not None:
            self._delete_timer.cancel()
            self._delete_timer = None
        if self._delivered and (self._deleting is None or self._deleting.done()):
            self._deleting = asyncio.get_running_loop().create_task(self._delete())

    async def _delete(self) -> None:
        while self._delivered:
            batch, self._delivered = self._delivered, []
            try:
                await self.bot.store.published(batch)
            except Exception:
                log.exception("could not forget %d delivered publication(s)", len(batch))
                # They stay stored and are delivered once more later, harmlessly.
            self._in_deletion.difference_update(batch)
        self._check_idle()

    def retire(self, courier: Courier) -> None:
        if self.couriers.get(courier.game_id) is courier:
            del self.couriers[courier.game_id]
        self._let_go(courier)
        self._check_idle()

    def _check_idle(self) -> None:
        if (
            not self.couriers
            and not self._letting_go
            and not self._delivered
            and (
                self._deleting is None
                or self._deleting.done()
                or self._deleting is asyncio.current_task()
            )
        ):
            self._idle.set()

    async def idle(self, timeout: float = 30.0) -> None:
        """Wait until everything handed over so far is delivered and forgotten (for tests)."""
        deadline = asyncio.get_running_loop().time() + timeout
        while not self._idle.is_set():
            self._forget_delivered()
            remaining = deadline - asyncio.get_running_loop().time()
            await asyncio.wait_for(self._wait_a_moment(), max(remaining, 0))

    async def _wait_a_moment(self) -> None:
        """Until the outbox is idle, or a little while (deliveries may end in the meantime)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), 0.05)

    @property
    def pending_count(self) -> int:
        return sum(len(courier.pending) for courier in self.couriers.values())

    # ---------------------------------------------------------------- shutdown

    async def close(self) -> None:
        """Stop delivering; what is not delivered stays stored for the next start."""
        self.closed = True
        for task in list(self._resyncs):
            task.cancel()
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        if self._renewer is not None:
            self._renewer.cancel()
        for courier in list(self.couriers.values()):
            await courier.stop()
            # What it delivered is deleted and its claim released: another process may go on.
            self._let_go(courier)
        self.couriers.clear()
        if self._letting_go:
            await asyncio.gather(*self._letting_go, return_exceptions=True)
        self._forget_delivered()
        if self._deleting is not None:
            with contextlib.suppress(Exception):
                await self._deleting
