"""The process's outbox: hands each committed entry to its game's courier, resumes what a
previous run left, sweeps up entries nobody delivers (another process's that died), keeps the
claims of several processes renewed and releases them, and deletes delivered entries in batches.

The delivery model (lanes, retries, claims) is described in ``courier``'s docstring.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Collection, Iterable
from datetime import timedelta
from typing import TYPE_CHECKING

from bot.outbox import entries as kinds
from bot.outbox.courier import Courier
from bot.outbox.delivery import Delivery
from bot.outbox.entries import Entry, Publication
from bot.outbox.pace import TABLE_PACE_SECONDS, TablePace
from bot.storage.claims import OUTBOX_LEASE_SECONDS
from bot.storage.repository import StorageConflict

if TYPE_CHECKING:
    from bot.outbox.host import OutboxHost

log = logging.getLogger(__name__)

RETRY_BASE_SECONDS = 1.0
RETRY_CAP_SECONDS = 60.0
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
        turn_hold: float = 0.0,
    ) -> None:
        self.bot = bot
        self.turn_hold_seconds = turn_hold
        """How long a table waits at most while its player goes on with their turn
        (``turn_hold.py``; 0: not at all)."""
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
