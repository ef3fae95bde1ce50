"""Playing the seats the AI decides: AI players, and humans the turn clock stands in for.

After every change of turn (a move, a start, a restart) ``turn_changed`` looks at the seat on
turn. If the AI decides it, a task of the game's asks the search pool (outside the event loop)
at once, waits out a readable moment meanwhile (the move is stored when both are over, so the
search hides inside the pause) and commits the move through the same path as a click
(``MoveFlow.commit_action``: compare-and-swap on the version, the outbox entry in the same
transaction), so an AI move is stored, published and recovered like any other. If a human is
on turn, the turn clock is armed instead.

Nothing is kept that a restart would need: the seat on turn and the stored version say what to
do, so a restart in the middle of a search simply decides again (``resume``).

Several processes on one database: whichever process is to play a turn (the one that made the
previous move, the turn clock's timer, a start-up) first claims that turn
(``bot/storage/claims.py``, kind ``turn``, for the game's version, only while the game is
still at it), so one process searches and moves, and the others do nothing. The
compare-and-swap would keep a second move out anyway; the claim saves the second search and
the second publication. A process that dies holding the claim frees it at once (its liveness
lock goes with its connections, ``bot/storage/liveness.py``): its restarted self looks at every
game at start-up (``resume``), and the others' ``sweep`` finds the turn; one that stalls keeps
it for the lease, and ``sweep`` also finds games that have waited longer than that.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Sequence
from datetime import timedelta
from typing import TYPE_CHECKING

from bot.ai.pool import SearchPool
from bot.ai.queue import SearchQueue
from bot.ai.timing import MoveTiming
from bot.flows.clock import ai_controlled
from bot.flows.forced_moves import forced_seat
from bot.flows.session import LoadedGame, load_game
from bot.storage.claims import TURN, TURN_LEASE_SECONDS
from bot.storage.models import GameStatus
from bot.storage.repository import StorageConflict
from games import IllegalAction
from games.ai import decision_seed

if TYPE_CHECKING:
    from collections.abc import Mapping

    from bot.flows.clock import TurnClock
    from bot.flows.forced_moves import ForcedMoves
    from bot.flows.game_locks import GameLocks
    from bot.flows.moves import MoveFlow
    from bot.flows.seat_handover import SeatHandover
    from bot.outbox.dispatch import Outbox
    from bot.process.config import Settings
    from bot.storage.repository import Store
    from games import Game

log = logging.getLogger(__name__)

AI_VERSION = "ai-v1"
"""Part of every decision's seed: a new search version gives new (still reproducible) seeds."""
STAND_IN_LEVEL = "strong"
"""The level that plays for an absent human (a missed turn, a seat taken over)."""
AI_LEVELS = ("easy", "medium", "strong", "rules")
"""The levels a host can seat (``rules``: the rules-based player, no search). The lobby's menu
values are indices into this tuple, so a new level goes at the end: old menus keep working."""
DUE_MARGIN_SECONDS = 0.2
"""Kept free before a move is due (its pause plus one search): a search overshoots its limit by
a few iterations, reading the position, handing it to the worker and storing the move take
some milliseconds more, and more on a busy machine (a standard ``hint_load.py`` run measured
up to 100 ms beyond the limit at its p99)."""
LATE_LEVEL = "rules"
"""What a seat plays when its search would start too late to be worth making (every worker
busy with other seats' moves for most of its pause): the rules-based player's move, at once,
rather than a table left waiting (``SearchQueue.move``)."""
WEAKER_THAN_LATE = ("easy", LATE_LEVEL)
"""Levels that never play ``LATE_LEVEL`` instead (it would be stronger, or it is the same; an
easy search is a few milliseconds anyway)."""
SWEEP_SECONDS = 60.0
"""With other processes: how often to look for turns that nobody plays (a process that died
holding the turn's claim, or before it armed the turn's clock)."""
AI_NAMES = (
    "Akira", "Botan", "Chiyo", "Daichi", "Emi", "Fumio", "Goro", "Hana",
    "Isamu", "Jun", "Kaede", "Kenta", "Mai", "Nobu", "Ren", "Sora",
)  # fmt: skip
"""What AI players are called at the table (each marked as an AI wherever it is shown)."""


def ai_user_id() -> int:
    """A seat's user id for an AI player: negative, so it never matches a Discord user."""
    return -1 - secrets.randbits(48)


def ai_name(taken: Sequence[str]) -> str:
    """A name no seat of the lobby has yet."""
    free = [name for name in AI_NAMES if name not in taken]
    return secrets.choice(free) if free else f"AI {len(taken) + 1}"


class Autoplay:
    def __init__(
        self,
        *,
        store: Store,
        registry: Mapping[str, Game],
        settings: Settings,
        outbox: Outbox,
        locks: GameLocks,
    ) -> None:
        self.store = store
        self.registry = registry
        self.settings = settings
        self.outbox = outbox
        self.locks = locks
        self.moves: MoveFlow
        self.clock: TurnClock
        self.forced: ForcedMoves
        self.handover: SeatHandover
        """The flows the autoplay plays through and hands a human's turn to; they tell it of
        every change of turn, so they are built after it and given to it by ``drive``."""
        self.pool = SearchPool(settings.ai_workers)
        self.searches = SearchQueue(self.pool, settings.ai_workers)
        """Every search goes through this queue: AI moves first, hints after (``queue.py``)."""
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._closing = False
        self._sweeper: asyncio.Task[None] | None = None
        self.sweep_seconds = SWEEP_SECONDS

    def drive(
        self, moves: MoveFlow, clock: TurnClock, forced: ForcedMoves, handover: SeatHandover
    ) -> None:
        """The flows the autoplay plays through (moves) and leaves a human's turn to (the
        turn clock, forced moves, the seat handover), once they are built."""
        self.moves, self.clock, self.forced, self.handover = moves, clock, forced, handover

    def turn_changed(self, game_id: int, after: LoadedGame | None = None) -> None:
        """Someone may have to play now: the AI, or a human whose clock must run.

        ``after``: the game as the change left it, when the caller has it; a human's turn
        without a clock then needs no task at all (the common click, kept cheap)."""
        if self._closing:
            return
        if after is not None and after.state is not None and not after.row.turn_seconds:
            to_move = after.state.to_move
            human = to_move is None or not ai_controlled(after.seats[to_move])
            if human and forced_seat(after) is None:  # nor a forced move to time
                return
        if game_id in self._tasks:
            self._again.add(game_id)  # the running task looks once more before it ends
            return
        self._tasks[game_id] = asyncio.create_task(self._run(game_id))

    async def resume(self) -> None:
        """After a start-up: every running game looks at its seat on turn."""
        for row in await self.store.open_games(GameStatus.ACTIVE):
            assert row.id is not None
            self.turn_changed(row.id)
        if self.store.shared and self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def _sweep_forever(self) -> None:
        while not self._closing:
            await asyncio.sleep(self.sweep_seconds)
            try:
                await self.sweep()
            except Exception:
                log.exception("could not look for turns nobody plays")

    async def sweep(self) -> int:
        """Look at the running games that may wait for a process that died: its turn claimed
        by a process that is gone, or an AI seat (or one the AI took over) or a deadline, and
        no move for longer than a turn's claim lasts. Each looks at its seat on turn as after
        a move (the turn's claim decides who plays it); how many were looked at."""
        lease = timedelta(seconds=TURN_LEASE_SECONDS)
        quiet = await self.store.quiet_games(lease)
        for game_id in quiet:
            self.turn_changed(game_id)
        await self.store.forget_lapsed_claims(lease)
        return len(quiet)

    async def claim_turn(self, loaded: LoadedGame) -> bool:
        """Whether this process is the one to play the turn ``loaded`` is in: always for one
        process; with others, if it claimed the turn (see the module)."""
        store = self.store
        if not store.shared:
            return True
        token = await store.claim(
            loaded.id, TURN, version=loaded.row.version, lease=TURN_LEASE_SECONDS
        )
        return token is not None

    async def _run(self, game_id: int) -> None:
        try:
            while True:
                self._again.discard(game_id)
                try:
                    played = await self._turn(game_id)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("game %s: the AI could not move; trying again shortly", game_id)
                    await asyncio.sleep(5.0)
                    played = True
                # No await between this check and the end of the task: a turn_changed that
                # comes later starts a new task.
                if not played and game_id not in self._again:
                    return
        finally:
            self._tasks.pop(game_id, None)

    async def _turn(self, game_id: int) -> bool:
        """Play the seat on turn if the AI decides it; False when there is nothing to do.

        The readable pause runs from now, and the seat's search with it: the move is stored
        once both are over, so a search (and the wait for a worker, behind at most the
        searches already running) hides inside the pause instead of adding to it."""
        timing = MoveTiming(game_id)
        pause_over = asyncio.get_running_loop().time() + self.settings.ai_pause_seconds
        loaded = await load_game(self.store, self.registry, game_id)
        if loaded is None or loaded.status is not GameStatus.ACTIVE or loaded.state is None:
            return False
        seat = loaded.state.to_move
        if seat is None:
            return False
        row = loaded.seats[seat]
        if not ai_controlled(row):
            self.clock.watch(loaded)
            self.forced.watch(loaded)  # a forced move the player lets the bot make
            return False
        if await self.handover.end_if_nobody_plays(loaded):
            return False  # the AI plays for nobody: the last human left or was taken over
        if not await self.claim_turn(loaded):
            return False  # another process plays this turn
        level = row.ai_level or STAND_IN_LEVEL
        await self.play(
            loaded,
            seat,
            level,
            autoplay=None if row.ai_level else "takeover",
            not_before=pause_over,
            timing=timing,
        )
        return True

    async def play(
        self,
        loaded: LoadedGame,
        seat: int,
        level: str,
        *,
        autoplay: str | None,
        not_before: float | None = None,
        timing: MoveTiming | None = None,
    ) -> bool:
        """Search for ``seat`` in the position ``loaded`` shows and commit the move, if the
        game is still there when the search is done; True if the move was stored.

        ``autoplay`` says for whom the AI plays (``MoveFlow.commit_action``); ``None`` for an
        AI player's own seat. The state is sent to the worker as JSON: the search reads only
        what ``seat`` may know of it (``games.ai``). The caller has claimed the turn
        (``claim_turn``). ``not_before``: the event loop's time before which the move is not
        stored (the readable pause's end; the search runs meanwhile); the search is due one
        search's length (``AI_MAX_MS``) after it, and one that starts late behind other seats'
        searches is shortened to that, or, with too little time left for any search, plays the
        rules-based player's move (``LATE_LEVEL``; ``SearchQueue.move``). ``timing``: the move's
        steps, logged when it is done.
        """
        assert loaded.state is not None and loaded.row.state is not None
        version = loaded.row.version
        timing = timing or MoveTiming(loaded.id)
        timing.version = version
        due_after = self.settings.ai_max_ms / 1000
        request = {
            "state": loaded.row.state,
            "seat": seat,
            "level": level,
            "seed": decision_seed(loaded.id, version, seat, AI_VERSION),
            "max_ms": self.settings.ai_max_ms,
        }
        answer = await self.searches.move(
            request,
            timing.searching(),
            deadline=None if not_before is None else not_before + due_after - DUE_MARGIN_SECONDS,
            late=None if level in WEAKER_THAN_LATE else {**request, "level": LATE_LEVEL},
        )
        timing.iterations = answer.get("iterations")
        if not_before is not None:
            left = not_before - asyncio.get_running_loop().time()
            if left > 0:
                await asyncio.sleep(left)
            timing.paused = time.time()
        action = loaded.game.action_from_json(answer["action"])
        entry = None
        async with self.locks.lock(loaded.id):
            now = await load_game(self.store, self.registry, loaded.id)
            if (
                now is None
                or now.status is not GameStatus.ACTIVE
                or now.row.version != version
                or now.state is None
                or now.state.to_move != seat
                or not self._still_for(now, seat, autoplay)
            ):
                timing.report("overtaken")
                return False  # a player moved or took the seat back meanwhile
            try:
                entry, _ = await self.moves.commit_action(now, seat, action, autoplay=autoplay)
            except (StorageConflict, IllegalAction):
                timing.report("refused")
                return False
        timing.committed = time.time()
        timing.report("moved")
        self.outbox.deliver([entry])
        self.turn_changed(loaded.id)
        return True

    @staticmethod
    def _still_for(now: LoadedGame, seat: int, autoplay: str | None) -> bool:
        row = now.seats[seat]
        if autoplay is None:
            return row.ai_level is not None
        if autoplay == "takeover":
            return row.takeover
        return row.ai_level is None and not row.takeover  # the clock: a human's own turn

    async def close(self) -> None:
        self._closing = True
        tasks = list(self._tasks.values())
        if self._sweeper is not None:
            tasks.append(self._sweeper)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        await self.searches.close()
        self.pool.close()
