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
from typing import TYPE_CHECKING, Any

from bot.flows.session import LoadedGame, load_game
from bot.outbox import budget, turn_hold
from bot.outbox import entries as kinds
from bot.outbox.delivery import HandOutcome, Outdated, nonce
from bot.outbox.entries import Entry
from bot.outbox.lanes import (
    EXPIRED_NOTICE,
    FINAL,
    GAME_OVER,
    OPEN_HANDS,
    OUTDATED_TRIES,
    PING,
    REDRAW,
    REMIND,
    REPOST,
    RESYNC,
    SHOW,
    TABLE,
    Lane,
    seat_lane,
)
from bot.render import presenter_for

if TYPE_CHECKING:
    from bot.outbox.dispatch import Outbox

log = logging.getLogger(__name__)


@dataclass
class _Pending:
    entry: Entry
    lanes: set[str] = field(default_factory=set)


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
            goes_on = entry.turn_goes_on  # the table may wait for the turn to pass
            yield TABLE, (SHOW,) if goes_on is None else (SHOW, turn_hold.HELD, goes_on)
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
