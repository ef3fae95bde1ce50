"""Forced moves: "pass for me when I have no other choice".

In four-player Kami a player's turn DM offered only **Pass** in about a quarter of their turns.
A seat whose only legal move is one move (a pass, mostly) gets that move as one button
(``bot/messages/menu_layout.py``); a player may also let the bot make it for them (``/autopass``, or
the button on such a hand; ``users.auto_pass``). Such a turn does not ping them: they have nothing
to decide (``Delivery.show_hand``).

**The timing tells nobody.** A pass made at once would tell the table that the player had no
choice — in Kami, that they hold no card that could counter. So the move is made after a delay
drawn from how long this player took for their own decisions in this game: a *smoothed
bootstrap* of their decision times (one of them, at random, spread by a small random factor, in
logarithms, scaled so that the mean and the spread stay those of the times themselves). Until a
player has made ``MIN_SAMPLES`` decisions the pool is every human's decisions in the game, and
before that a prior (a log-normal distribution with a median of ``PRIOR_MEDIAN`` seconds).
tests/bot/test_forced_moves.py checks with a two-sample Kolmogorov–Smirnov test that such
delays cannot be told from the decisions they imitate. With a turn clock the delay ends before
the turn's reminder would be due (three quarters of the turn time): a chosen move that takes
longer than that is the one timing a forced move never has.

The delay is counted from the start of the turn (the commit of the move before) and kept in
memory only: after a restart it is drawn again (``Autoplay.resume`` looks at every game). The
move is made like any other (``MoveFlow.commit_action``: compare-and-swap on the version, the
outbox entry in the same transaction), without any mark in the log, after claiming the turn
(one process makes it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import statistics
from collections.abc import Sequence
from datetime import timedelta
from typing import TYPE_CHECKING

import discord

from bot.flows.clock import REMINDER_LEAD, ai_controlled, aware
from bot.flows.session import LoadedGame, load_game
from bot.i18n import t
from bot.interactions.answers import Answer
from bot.interactions.replies import guarded, reply
from bot.messages.languages import user_locale
from bot.messages.menu_layout import menu_tree
from bot.storage.models import GameStatus, utcnow
from bot.storage.repository import StorageConflict
from games import Action, IllegalAction

if TYPE_CHECKING:
    from collections.abc import Mapping

    from bot.flows.clock import TurnClock
    from bot.flows.game_locks import GameLocks
    from bot.flows.moves import MoveFlow
    from bot.flows.turn_hooks import TurnPlayer
    from bot.messages.publisher import Publisher
    from bot.outbox.dispatch import Outbox
    from bot.storage.repository import Store
    from games import Game

log = logging.getLogger(__name__)

MIN_SAMPLES = 5
"""Decisions of a player before their own times are the pool."""
PRIOR_MEDIAN = 6.0
"""Seconds: the median of the prior (no decision seen yet in this game)."""
PRIOR_SPREAD = 0.8
"""The prior's standard deviation, in natural logarithms of seconds."""
BANDWIDTH = 0.3
"""How far a drawn decision time is spread, in natural logarithms (about ±30 %)."""
SHORTEST = 1.0
"""Seconds: no forced move comes sooner (nobody reads and clicks faster)."""
LONGEST = 86_400.0
"""Seconds: a game without a turn clock waits at most a day for a forced move."""
REDRAWS = 50
"""Draws outside the bounds before one is taken from between them at random."""
FORCED = "forced"
"""``commit_action``'s ``autoplay`` for a forced move (no mark in the log, no clock record)."""


def forced_delay(
    own: Sequence[float],
    everyone: Sequence[float],
    rng: random.Random,
    limit: float | None = None,
) -> float:
    """Seconds to wait before a forced move: like one of ``own`` decision times (the seat's
    player's, in this game), else like ``everyone``'s, else the prior; between ``SHORTEST``
    and ``limit`` (a draw outside is drawn again, so no delay piles up at a bound)."""
    pool = own if len(own) >= MIN_SAMPLES else everyone
    longest = LONGEST if limit is None else min(LONGEST, limit)
    if longest <= SHORTEST:
        return max(longest, 0.0)
    for _ in range(REDRAWS):
        seconds = _draw(pool, rng)
        if SHORTEST <= seconds <= longest:
            return seconds
    return rng.uniform(SHORTEST, longest)


def _draw(pool: Sequence[float], rng: random.Random) -> float:
    if len(pool) < MIN_SAMPLES:
        return rng.lognormvariate(math.log(PRIOR_MEDIAN), PRIOR_SPREAD)
    logs = [math.log(max(value, 0.01)) for value in pool]
    mean = statistics.fmean(logs)
    variance = statistics.pvariance(logs, mean)
    drawn = rng.choice(logs) - mean + BANDWIDTH * rng.gauss(0.0, 1.0)
    # Silverman's shrunk smoothed bootstrap: the spread the kernel adds is taken out again,
    # so the delays have the mean and variance of the times they imitate.
    scale = 1.0 / math.sqrt(1.0 + BANDWIDTH**2 / variance) if variance > 0 else 1.0
    return math.exp(mean + drawn * scale)


def only_move(loaded: LoadedGame) -> Action | None:
    """The one legal move of the seat on turn, if it has no other (the menu's tree, kept per
    state, knows it without listing the actions again)."""
    state = loaded.state
    if state is None or state.is_over or state.to_move is None:
        return None
    leaves = menu_tree(loaded).leaves
    return next(iter(leaves.values())) if len(leaves) == 1 else None


def forced_seat(loaded: LoadedGame) -> int | None:
    """The seat on turn if a human plays it for themself and has one legal move."""
    if loaded.status is not GameStatus.ACTIVE or only_move(loaded) is None:
        return None
    assert loaded.state is not None
    seat = loaded.state.to_move
    assert seat is not None
    return None if ai_controlled(loaded.seats[seat]) else seat


class ForcedMoves:
    def __init__(
        self,
        *,
        store: Store,
        registry: Mapping[str, Game],
        outbox: Outbox,
        publisher: Publisher,
        locks: GameLocks,
        moves: MoveFlow,
        clock: TurnClock,
        autoplay: TurnPlayer,
        rng: random.Random | None = None,
    ) -> None:
        self.store = store
        self.registry = registry
        self.outbox = outbox
        self.publisher = publisher
        self.locks = locks
        self.moves = moves
        self.clock = clock
        self.autoplay = autoplay
        self.rng = rng if rng is not None else random.SystemRandom()
        """Where delays come from (a test's seeded generator in tests)."""
        self._timers: dict[int, tuple[int, asyncio.Task[None]]] = {}
        self._closing = False

    async def will_play(self, loaded: LoadedGame, seat: int) -> bool:
        """Whether the bot makes ``seat``'s move for it in the turn ``loaded`` is in (its only
        move, and its player asked for that): its DM then pings nobody."""
        if forced_seat(loaded) != seat:
            return False
        return await self.store.auto_pass(loaded.seats[seat].user_id)

    def watch(self, loaded: LoadedGame) -> None:
        """Time the forced move of the turn ``loaded`` is in, if it has one (one timer per
        game: a new turn replaces the last one's, the same turn keeps its own)."""
        if self._closing:
            return
        version = loaded.row.version
        running = self._timers.get(loaded.id)
        if running is not None and not running[1].done():
            if running[0] == version:
                return
            running[1].cancel()
        self._timers.pop(loaded.id, None)
        if forced_seat(loaded) is None:
            return
        task = asyncio.get_running_loop().create_task(self._run(loaded))
        self._timers[loaded.id] = (version, task)
        task.add_done_callback(lambda done: self._ended(loaded.id, done))

    def _ended(self, game_id: int, task: asyncio.Task[None]) -> None:
        running = self._timers.get(game_id)
        if running is not None and running[1] is task:
            del self._timers[game_id]

    def armed(self, game_id: int) -> int | None:
        """The version whose forced move is timed (tests and diagnostics)."""
        running = self._timers.get(game_id)
        return running[0] if running is not None and not running[1].done() else None

    async def delay_for(self, loaded: LoadedGame, seat: int) -> float:
        """How long after the turn began the forced move of ``seat`` comes (drawn anew)."""
        times = await self.store.decision_seconds(loaded.id)
        humans = [row.seat for row in loaded.seats if row.ai_level is None]
        everyone = [value for human in humans for value in times.get(human, ())]
        limit = None
        if loaded.row.turn_seconds:
            limit = loaded.row.turn_seconds * (1.0 - REMINDER_LEAD) - SHORTEST
        return forced_delay(times.get(seat, []), everyone, self.rng, limit)

    async def _run(self, loaded: LoadedGame) -> None:
        try:
            seat = forced_seat(loaded)
            if seat is None or not await self.store.auto_pass(loaded.seats[seat].user_id):
                return
            delay = await self.delay_for(loaded, seat)
            # The turn began at the commit of the move before (wall time, as stored); the
            # wait runs on the bot's clock (a test's virtual time in tests).
            elapsed = (utcnow() - aware(loaded.row.updated_at)).total_seconds()
            time = self.clock.time
            await time.sleep_until(time.now() + timedelta(seconds=max(delay - elapsed, 0.0)))
            await self._play(loaded, seat)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: the forced move failed", loaded.id)

    async def _play(self, loaded: LoadedGame, seat: int) -> None:
        """Make the forced move if the game is still in that turn and the player still wants
        it (checked again under the game's lock, like the AI's moves)."""
        if not await self.autoplay.claim_turn(loaded):
            return  # another process makes it
        entry = after = None
        async with self.locks.lock(loaded.id):
            now = await load_game(self.store, self.registry, loaded.id)
            if now is None or now.row.version != loaded.row.version or forced_seat(now) != seat:
                return  # the player moved, or the game moved on
            action = only_move(now)
            if action is None or not await self.store.auto_pass(now.seats[seat].user_id):
                return
            with contextlib.suppress(StorageConflict, IllegalAction):
                entry, after = await self.moves.commit_action(now, seat, action, autoplay=FORCED)
        if entry is not None and after is not None:
            self.outbox.deliver([entry])
            self.autoplay.turn_changed(loaded.id, after)

    async def on_button(self, interaction: discord.Interaction, game_id: int, on: bool) -> None:
        """The button on a hand whose only move is a pass: the choice is stored (for every
        game), the hand clicked shows it, and the move now due is timed."""
        from bot.flows.moves import in_private  # moves imports the AI, which imports this

        async with guarded(interaction, game_id):
            await self.store.set_auto_pass(interaction.user.id, on)
            locale = user_locale(interaction)
            notice = t("flow.autopass.on" if on else "flow.autopass.off", locale)
            loaded = await load_game(self.store, self.registry, game_id)
            seat = loaded.seat_of(interaction.user.id) if loaded is not None else None
            if loaded is None or seat is None or loaded.status is not GameStatus.ACTIVE:
                await Answer.of(interaction).send(notice)
                return
            if not in_private(interaction):
                await reply(interaction, "move.private_only")
                return
            recent = await self.publisher.recent_events(loaded)
            content, _ = await self.publisher.hand_content(
                loaded, seat, locale, recent, notice=notice, full=interaction.guild_id is not None
            )
            await Answer.of(interaction).update(**content)
        self.autoplay.turn_changed(game_id)

    def close(self) -> None:
        self._closing = True
        for _, task in self._timers.values():
            task.cancel()
        self._timers.clear()
