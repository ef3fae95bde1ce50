"""Lanes: one target of one game (its channel, or a seat's hand DM) and the task working it.

Each lane takes everything pending for its target and shows the game as it is now, in entry
order, so a slow target never holds up another; what a retry can cure is retried with backoff,
what it cannot is dropped (the delivery model: ``courier``'s docstring). Also the names of the
work a lane does (``SHOW``, ``PING`` …) and which of it the tables' budget lets through at once.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from sqlalchemy.exc import DBAPIError

from bot.outbox import budget, turn_hold
from bot.outbox.delivery import Outdated

if TYPE_CHECKING:
    from bot.outbox.courier import Courier

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


UNEXPECTED_TRIES = 5
"""How often an unexpected exception is retried before its work is dropped."""
OUTDATED_TRIES = 10
"""How often in a row a delivery may find the game changed under it before it gives up."""


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


async def ran_out(wait: asyncio.Future[None]) -> bool:
    """Await ``wait``, which ``Lane.push`` may cancel to cut it short: True if it ran its
    course, False if it was cut short (the lane's own task being stopped raises)."""
    try:
        await wait
        return True
    except asyncio.CancelledError:
        task = asyncio.current_task()
        if task is not None and task.cancelling():
            raise  # the lane itself is stopped
        return False


class Lane:
    """One target of one game: the work pending for it and the task doing it."""

    def __init__(self, courier: Courier, key: str) -> None:
        self.courier = courier
        self.key = key
        self.items: list[tuple[int, tuple[Any, ...]]] = []
        self.task: asyncio.Task[None] | None = None
        self._budget_wait: asyncio.Task[None] | None = None
        """The table's wait for the budget of all games, while it waits (``_table_turn``)."""
        self._hold_wait: asyncio.Task[None] | None = None
        """The table's wait while its player goes on with their turn (``_turn_hold``)."""

    @property
    def busy(self) -> bool:
        return self.task is not None and not self.task.done()

    def push(self, entry_id: int, op: tuple[Any, ...]) -> None:
        self.items.append((entry_id, op))
        if outside_budget(op) and self._budget_wait is not None:
            self._budget_wait.cancel()  # the lane goes on at once (``_table_turn``)
        if not turn_hold.held(op) and self._hold_wait is not None:
            self._hold_wait.cancel()  # the turn passed (or more came): shown now (``_turn_hold``)
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
                await self._turn_hold()
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

    async def _turn_hold(self) -> None:
        """Wait while everything pending for the table is moves of a turn that goes on, at
        most until the hold after the first of them (``turn_hold``); anything else pushed
        for the table ends the wait at once."""
        until = turn_hold.held_until(
            (op for _, op in self.items), self.courier.outbox.turn_hold_seconds
        )
        if until is None or until <= time.time():
            return
        self._hold_wait = asyncio.ensure_future(asyncio.sleep(until - time.time()))
        try:
            await ran_out(self._hold_wait)
        finally:
            self._hold_wait = None

    async def _table_turn(self) -> None:
        """Wait until the table may be shown (``pace.TablePace``): a game's start, its end or
        a /table that arrives while a move's showing waits for the budget cuts the wait short
        (the one edit then shows everything)."""
        pace, game = self.courier.outbox.pace, self.courier.game_id
        if not any(outside_budget(op) for _, op in self.items):
            self._budget_wait = asyncio.ensure_future(pace.wait(game))
            try:
                if await ran_out(self._budget_wait):
                    return
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
