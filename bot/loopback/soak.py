"""A soak of the real bot: many games at once through a faulty, Discord-like emulator.

Used by ``tests/loopback/test_soak.py`` (bounded, in CI) and ``benchmarks/soak.py`` (longer).
Players act only on what Discord shows them and only in their DMs, so a turn DM that never
came stalls the game and fails the soak. Discord misbehaves throughout: a share of REST calls
answered 429 or 500 or served seconds late, double clicks, players joining a lobby at the same
moment, and the bot killed with SIGKILL and restarted. At the end the bot is stopped and its
SQLite file is read directly, and the soak checks what players saw against what was stored:

- every game finished, and its table shows the final version;
- every player got a new DM for every turn that came to them (from the move log);
- no game stalled: in every game someone could act at least every 45 s (not counting a player's
  wait for their first DM under Discord's rate limits, ``first_dm_wait``);
- no interaction was answered later than 3 s (the emulator refuses those, as Discord does),
  and the only ones never answered were sent while the bot was down;
- nothing was shown twice: one table per game, one live hand DM per player and game, no
  second DM for the same turn, no notice posted twice.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import random
import re
import signal
import sqlite3
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.outbox.dispatch import IN_FLIGHT_SECONDS

from . import Actor, Emulator, Message
from .bot_process import BotProcess
from .interactions import InteractionRecord
from .ratelimits import RateLimits, counts_against_global
from .ui_players import (
    MENU_ID,
    Table,
    footer_in,
    has_hand_button,
    menu_components,
    state_version,
    version_in,
)

GAME_MIX = (
    ("kami", 2, "target=5"),
    ("kami", 3, "target=5"),
    ("kami", 4, "target=5"),
    ("clans_and_glory", 2, None),
    ("clans_and_glory", 3, None),
    ("clans_and_glory", 4, None),
    ("call_to_glory", 2, "rounds=1"),
)
"""What the games are: a mix of every game and player count, short options."""

BOT_ROUTES = r"^/(?!interactions/)"
"""Random faults hit every route but interaction callbacks. Discord does not rate-limit an
interaction's one callback, and discord.py retries a callback that got a 500 after 1 s and
then 3 s, so a second 500 in a row would make the answer late whatever the bot does."""
RETRY_SECONDS = 4.0
"""A player whose click got no answer in this time clicks again (as after "This interaction
failed")."""
STALL_SECONDS = 45.0
"""A game in which nobody can act for this long has stalled: the soak fails (but see
``first_dm_wait``)."""
RECENT_DMS = 12
"""How many of a player's newest DM-channel messages they look through for their hand."""


@dataclass
class SoakSettings:
    games: int = 50
    seed: str = "soak"
    rate_limited: float = 0.05
    server_error: float = 0.01
    slow: float = 0.02
    slow_seconds: float = 4.0
    double_click: float = 0.05
    kills: int = 2
    discord_rate_limits: bool = False
    """Discord's per-route and global rate limits (``RateLimits.discord_like``) on top."""
    global_limit: int | None = None
    """With ``discord_rate_limits``: the global limit's requests a second (``None``: Discord's
    50). A lower one saturates the budget with a few games (the bot must be told the same
    figure: ``GLOBAL_REQUESTS_PER_SECOND``, ``bot_settings``)."""

    play_until: float | None = None
    """Stop playing at this ``time.perf_counter()`` (the games not over by then are reported
    as problems), so that a run fits a measuring slot and still reports its figures; ``None``:
    play until every game is over."""

    def bot_settings(self) -> dict[str, str]:
        """The bot's environment for this soak: its global budget as the emulator's."""
        if self.discord_rate_limits and self.global_limit is not None:
            return {"GLOBAL_REQUESTS_PER_SECOND": str(self.global_limit)}
        return {}


@dataclass
class SoakGame:
    table: Table
    game_id: int
    steps: int = 0


@dataclass
class SoakReport:
    games: int
    moves: int
    clicks: int
    seconds: float
    interactions: int
    unanswered: int
    slowest_answer: float
    faults: Counter[str] = field(default_factory=Counter)
    restarts: int = 0
    turn_dms: int = 0
    first_dm_wait: float = 0.0
    """What a game's stall limit grew by while a player waited for their first DM."""
    harness_lag: float = 0.0
    """The longest the soak's own event loop (emulator and players) was late, in seconds:
    while it is late, Discord answers nothing and nobody clicks."""
    global_429s: int = 0
    """Discord's global limit refused the bot this often (with ``discord_rate_limits``: must
    be none; the bot paces itself, ``bot/outbox/budget.py``)."""
    arrivals: ArrivalFigures | None = None
    """How the bot's token requests arrived, against how the soak's loop got to them."""
    problems: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ArrivalFigures:
    """The bot's token requests per second as they reached the emulator (the kernel's receive
    time at its REST door, ``rest_front.py``: when the bot's kernel sent them, on the
    loopback), as the door's thread read them and as the soak's event loop got to them; and
    the global 429s the emulator would have served had it counted them at those later times
    (its window of ``RateLimits``, replayed on them: what it did before the door stamped with
    the kernel's time, and before the door had a thread of its own)."""

    busiest_second_arrived: int
    busiest_second_read: int
    busiest_second_handled: int
    global_429s_if_counted_when_read: int
    global_429s_if_counted_when_handled: int
    read_late_by_worst: float
    """The longest a request waited in the door's socket before its thread read it (the
    machine did not run that thread meanwhile)."""
    handled_late_by_worst: float
    """The longest a request waited between its arrival and the soak's loop handling it."""


def busiest_second(times: list[float]) -> int:
    """The most of ``times`` (seconds) within any second."""
    times = sorted(times)
    return max((bisect.bisect_left(times, at + 1.0) - i for i, at in enumerate(times)), default=0)


def window_refusals(times: list[float], limit: int, window: float) -> int:
    """How many of ``times`` a global limit counted as ``RateLimits`` does (a window starts
    with the first request after the last one ended) refuses, in the order given."""
    refused, reset_at, used = 0, float("-inf"), 0
    for at in times:
        if at >= reset_at:
            reset_at, used = at + window, 0
        if used >= limit:
            refused += 1
        else:
            used += 1
    return refused


def arrival_figures(emulator: Emulator) -> ArrivalFigures:
    calls = [c for c in emulator.rest_calls if counts_against_global(c.path) and c.handled]
    read = [c for c in calls if c.read]
    limits = emulator.rate_limits

    def refused(times: list[float]) -> int:
        if limits.global_limit is None:
            return 0
        return window_refusals(sorted(times), limits.global_limit, limits.global_window)

    return ArrivalFigures(
        busiest_second_arrived=busiest_second([c.started for c in calls]),
        busiest_second_read=busiest_second([c.read for c in read]),
        busiest_second_handled=busiest_second([c.handled for c in calls]),
        global_429s_if_counted_when_read=refused([c.read for c in read]),
        global_429s_if_counted_when_handled=refused([c.handled for c in calls]),
        read_late_by_worst=max((c.read - c.started for c in read), default=0.0),
        handled_late_by_worst=max((c.handled - c.started for c in calls), default=0.0),
    )


class Soak:
    """One run: set up the games, play them to their ends, kill the bot now and then."""

    def __init__(
        self, emulator: Emulator, bot: BotProcess, database: Path, settings: SoakSettings
    ) -> None:
        self.emulator = emulator
        self.bot = bot
        self.database = database
        self.settings = settings
        self.rng = random.Random(settings.seed)
        self.games: list[SoakGame] = []
        self.clicks = 0
        self.down: list[tuple[float, float]] = []
        """When the bot was down (killed … ready again), on ``time.perf_counter``."""
        self.killed_at: float | None = None
        """While the bot is down: when it was killed."""
        self.restarts = 0
        self.first_dm_wait = 0.0
        self.lag = LoopLag()
        self.out_of_time = False
        """The play stopped at ``SoakSettings.play_seconds`` with games not over."""
        """Set once the games are open: see ``first_dm_wait``."""

    # ---------------------------------------------------------------- setting up

    async def open_games(self) -> None:
        """Open every lobby; guests join at the same moment (some twice); hosts start."""
        emu = self.emulator
        for number in range(self.settings.games):
            key, players, options = GAME_MIX[number % len(GAME_MIX)]
            channel = emu.channel if number == 0 else await emu.add_channel(f"soak-{number}")
            actors = [emu.add_actor(f"g{number}p{seat}") for seat in range(players)]
            host, *guests = actors
            typed = {"options": options} if options else {}
            lobby = await (await host.slash("play", game=key, channel=channel, **typed)).settled(
                timeout=15
            )
            doubled = guests[:1] if self.rng.random() < 0.5 else []
            joins = [guest.click(lobby, label="Join") for guest in [*guests, *doubled]]
            records = await asyncio.gather(*joins)
            await asyncio.gather(*(record.response(timeout=15) for record in records))
            start = await host.click(lobby, label="Start")
            await start.response(timeout=15)
            table_message = await emu.wait_for(
                lambda channel=channel: next(
                    (m for m in emu.messages_in(channel) if has_hand_button(m)), None
                ),
                timeout=20,
                what=f"the table of game {number}",
            )
            table = Table(emu, actors, table_message)
            game_id = int(table.hand_custom_id.split(":")[-1])
            self.games.append(SoakGame(table, game_id))
        players = sum(len(game.table.players) for game in self.games)
        self.first_dm_wait = first_dm_wait(self.emulator, players)

    # ---------------------------------------------------------------- playing

    def hands(self, game: SoakGame) -> list[tuple[Actor, Message]]:
        """Each player's hand DM of this game with usable controls (their newest).

        Only DMs: an ephemeral answer (a fresh hand shown after an out-of-date click) would
        let a player move without the DM that tells them it is their turn, which is what the
        soak checks. Only the newest few messages are looked at (the bot deletes old hands),
        so that hundreds of players can look many times a second.
        """
        found = []
        world = self.emulator.world
        for actor in game.table.players:
            channel = world.existing_dm_channel(actor.user)
            if channel is None:
                continue
            for message_id in reversed(channel.message_ids[-RECENT_DMS:]):
                message = world.messages[message_id]
                if (
                    not message.deleted
                    and not message.ephemeral
                    and menu_components(message)
                    and _game_of(message) == game.game_id
                ):
                    found.append((actor, message))
                    break
        return found

    def newest_shown(self, game: SoakGame) -> int:
        """The newest move that any player's newest DM of this game shows (its footer)."""
        newest = 0
        world = self.emulator.world
        for actor in game.table.players:
            channel = world.existing_dm_channel(actor.user)
            if channel is None:
                continue
            for message_id in reversed(channel.message_ids[-RECENT_DMS:]):
                message = world.messages[message_id]
                if not message.deleted and _game_of(message) == game.game_id:
                    newest = max(newest, version_in(message.embeds, message.components) or 0)
                    break
        return newest

    def awaits_first_dm(self, game: SoakGame) -> bool:
        """Whether a player of this game has no DM from the bot yet (every soak player is new
        to the bot and plays one game, so any DM is this game's)."""
        world = self.emulator.world
        for actor in game.table.players:
            channel = world.existing_dm_channel(actor.user)
            if channel is None or not channel.message_ids:
                return True
        return False

    def stalled(self, game: SoakGame, began: float, stalled_since: float) -> str | None:
        """Why ``game`` counts as stalled, if it does; nobody in it could act since
        ``stalled_since``, and its play began at ``began`` (both ``time.perf_counter``).

        Nobody may be unable to act for ``STALL_SECONDS``, except while one of its players
        waits for their first DM under Discord's rate limits: that wait does not count, but
        may last ``first_dm_wait`` more (``STALL_SECONDS + first_dm_wait`` from the start of
        play); once the first DM is there, the game has ``STALL_SECONDS`` again. The time the
        bot is down (killed, until it is ready again) does not count either.
        """
        now = time.perf_counter()
        if self.killed_at is not None:
            return None  # nothing is delivered while the bot is down
        # A game the bot was killed in the middle of has STALL_SECONDS from its return: the
        # dead process delivered nothing (a restart's backlog: every game's undelivered
        # publications at once, under Discord's limits).
        stalled_since = max([stalled_since] + [up for _, up in self.down if up > stalled_since])
        if self.first_dm_wait and self.awaits_first_dm(game):
            waited = now - began
            if waited > STALL_SECONDS + self.first_dm_wait:
                return f"a player has had no first DM for {waited:.0f} s of play"
            return None
        waited = now - stalled_since
        if waited > STALL_SECONDS:
            return f"nobody has had a live DM for {waited:.0f} s"
        return None

    def dm_trail(self, game: SoakGame) -> str:
        """What each player of a stalled game has in their DMs, newest first, and how each of
        those messages changed: enough to tell a lost edit from a wrong deletion."""
        lines = []
        world = self.emulator.world
        for actor in game.table.players:
            channel = world.existing_dm_channel(actor.user)
            messages = [world.messages[i] for i in (channel.message_ids if channel else [])]
            ephemeral = [m for m in messages if m.ephemeral]
            newest = max((state_version(m) for m in ephemeral), default=None)
            lines.append(
                f"{actor.user.name}: {len(ephemeral)} ephemeral answer(s), the newest hand "
                f"among them for version {newest}"
            )
            for message in reversed([m for m in messages if not m.ephemeral][-RECENT_DMS:]):
                revisions = [
                    state_version(Message(0, 0, 0, components=revision.components))
                    for revision in message.history
                ]
                lines.append(
                    f"  {message.id} deleted={message.deleted} ephemeral={message.ephemeral} "
                    f"game={_game_of(message)} version={state_version(message)} "
                    f"menu={bool(menu_components(message))} nonce={message.nonce} "
                    f"revisions={revisions}"
                )
        return "\n".join(lines)

    async def ask_bot_where_it_waits(self) -> None:
        """SIGUSR1: the bot logs every game's pending deliveries, where each lane's task
        waits and the pacer's state (``bot/outbox/inspect.py``); read by ``diagnosis``."""
        process = self.bot.process
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGUSR1)
            await asyncio.sleep(1.0)

    def diagnosis(self, game: SoakGame, seconds: float = 120.0) -> str:
        """What the bot stored for a stalled game (its outbox, seats and last moves, read from
        its SQLite file while it runs), the requests to the game's channels and the players'
        clicks of the last ``seconds``, and the bot's log lines about it: enough to tell a
        lost publication from one that is stuck, and where."""
        now = time.perf_counter()
        lines = [f"--- what the bot stored for game {game.game_id}:"]
        try:
            with contextlib.closing(
                sqlite3.connect(f"file:{self.database}?mode=ro", uri=True)
            ) as db:
                for query in (
                    "SELECT id, version, kind, body, created_at FROM outbox WHERE game_id = ?",
                    "SELECT seat, user_id, hand_message_id, hand_version, stale_hand_message_id "
                    "FROM seats WHERE game_id = ?",
                    "SELECT version, seat, action, created_at FROM moves WHERE game_id = ? "
                    "ORDER BY version DESC LIMIT 6",
                    "SELECT status, version, updated_at FROM games WHERE id = ?",
                ):
                    lines.append(query.split(" FROM ")[1].split()[0] + ":")
                    lines += [f"  {row}" for row in db.execute(query, (game.game_id,))]
        except sqlite3.Error as error:
            lines.append(f"  (could not read the database: {error})")
        world = self.emulator.world
        channels = {game.table.message.channel_id}
        users = {actor.user.id: actor.user.name for actor in game.table.players}
        for actor in game.table.players:
            channel = world.existing_dm_channel(actor.user)
            if channel is not None:
                channels.add(channel.id)
        lines.append(f"--- requests to its channels in the last {seconds:.0f} s (age, status):")
        for call in self.emulator.rest_calls:
            if now - call.started > seconds or not any(str(c) in call.path for c in channels):
                continue
            lines.append(
                f"  -{now - call.started:6.1f}s {call.method} {call.path} {call.status}"
                f"{' ' + call.fault if call.fault else ''} ({call.finished - call.started:.2f} s)"
            )
        lines.append("--- its players' clicks (age, answered after, callback type):")
        for record in self.emulator.interactions.values():
            sent = record.dispatched_at or 0.0
            if record.user_id in users and now - sent <= seconds:
                latency = "never" if record.latency is None else f"{record.latency:.2f} s"
                lines.append(
                    f"  -{now - sent:6.1f}s {users[record.user_id]} "
                    f"{record.data.get('custom_id')} {latency} {record.callback_type}"
                )
        recent = [c for c in self.emulator.rest_calls if now - c.started <= 10.0]
        newest = max((c.started for c in self.emulator.rest_calls), default=None)
        lines.append(
            f"--- the bot's requests to Discord in the last 10 s, all games: {len(recent)}; "
            f"the newest {'none' if newest is None else f'{now - newest:.1f} s ago'}"
        )
        lines.append(f"--- {self.lag.describe()}")
        lines.append(f"--- the bot's restarts (down, up): {self.down}; its log on the game:")
        if self.bot.log_path.exists():
            mark = re.compile(rf"\bgame {game.game_id}\b|^--- start| (outbox|pacer): ")
            log_lines = self.bot.log_path.read_text(errors="replace").splitlines()
            lines += [line for line in log_lines if mark.search(line)][-30:]
        return "\n".join(lines)

    async def play(self, game: SoakGame) -> None:
        """Random menu actions in the players' DMs until the game's table shows its end."""
        table = game.table
        began = stalled_since = time.perf_counter()
        while table.running:
            hands = self.hands(game)
            newest = max((state_version(m) for _, m in hands), default=0)
            # A DM whose controls are behind the table is out of date: a player waits for the
            # DM that tells them it is their turn rather than click it. Under rate limits the
            # table lags behind the hands, so the newest move any player's DM of this game
            # shows counts too (a click on an out-of-date DM shows the hand anew, and the
            # player could move before the DM that notifies them of their turn came).
            public = max(_table_version(table.current_message()) or 0, self.newest_shown(game))
            movers = [(a, m) for a, m in hands if state_version(m) == newest >= public]
            if not movers:
                why = self.stalled(game, began, stalled_since)
                if why is not None:
                    await self.ask_bot_where_it_waits()
                    raise AssertionError(
                        f"game {game.game_id} stalled: {why}\n{self.dm_trail(game)}\n"
                        f"{self.diagnosis(game)}"
                    )
                if self.first_dm_wait and self.awaits_first_dm(game):
                    stalled_since = time.perf_counter()  # waiting for a first DM: not stalled
                await asyncio.sleep(0.05)
                continue
            stalled_since = time.perf_counter()
            actor, hand = self.rng.choice(movers)
            await self.act(actor, hand)
            game.steps += 1

    async def act(self, actor: Actor, hand: Message) -> None:
        component = self.rng.choice(menu_components(hand))
        times = 2 if self.rng.random() < self.settings.double_click else 1
        records: list[InteractionRecord] = []
        for _ in range(times):
            try:
                if component["type"] == 2:
                    records.append(await actor.click(hand, custom_id=component["custom_id"]))
                else:
                    value = self.rng.choice(component["options"])["value"]
                    records.append(
                        await actor.select(hand, [value], custom_id=component["custom_id"])
                    )
            except AssertionError:
                return  # the message changed meanwhile (deleted, edited): look again
            self.clicks += 1
        for record in records:
            # A person waits to see the answer (a deferral only says one is coming) and,
            # when none comes (lost with a killed bot), clicks again.
            with contextlib.suppress(AssertionError):
                await record.settled(timeout=RETRY_SECONDS + self.settings.slow_seconds)

    async def kill_now_and_then(self, total: int) -> None:
        """SIGKILL and restart the bot ``settings.kills`` times, spread over the run."""
        for kill in range(1, self.settings.kills + 1):
            threshold = total * kill // (self.settings.kills + 1)
            while sum(g.steps for g in self.games) < threshold:
                if all(not g.table.running for g in self.games):
                    return
                await asyncio.sleep(0.1)
            killed_at = self.killed_at = time.perf_counter()
            await self.bot.kill()
            await asyncio.sleep(0.5)
            await self.bot.start()
            await self.bot.wait_ready(self.emulator, timeout=30)
            self.down.append((killed_at, time.perf_counter()))
            self.killed_at = None
            self.restarts += 1

    async def run(self, expected_steps: int) -> float:
        started = time.perf_counter()
        killer = asyncio.create_task(self.kill_now_and_then(expected_steps))
        watcher = asyncio.create_task(self.lag.watch())
        try:
            playing = asyncio.gather(*(self.play(game) for game in self.games))
            try:
                until = self.settings.play_until
                await asyncio.wait_for(playing, None if until is None else until - started)
            except TimeoutError:
                self.out_of_time = True
        finally:
            killer.cancel()
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await killer
        return time.perf_counter() - started

    # ---------------------------------------------------------------- checking

    def report(self, seconds: float) -> SoakReport:
        """What was stored against what players saw (the bot must be stopped)."""
        stored = read_database(self.database)
        records = list(self.emulator.interactions.values())
        answered = [r.latency for r in records if r.latency is not None]
        unanswered = [r for r in records if r.latency is None]
        report = SoakReport(
            games=len(self.games),
            moves=sum(len(game.moves) for game in stored.values()),
            clicks=self.clicks,
            seconds=seconds,
            interactions=len(records),
            unanswered=len(unanswered),
            slowest_answer=max(answered, default=0.0),
            restarts=self.restarts,
            first_dm_wait=self.first_dm_wait,
            harness_lag=self.lag.worst,
            global_429s=self.emulator.rate_limits.served_by_route.get("global", 0),
            arrivals=arrival_figures(self.emulator),
        )
        problems = report.problems
        if report.global_429s:
            problems.append(f"Discord's global limit answered 429 {report.global_429s} time(s)")
        late = [r for r in records if r.latency is not None and r.latency > 3.0]
        if late:
            problems.append(f"{len(late)} interaction(s) answered after 3 s")
        for record in unanswered:
            if not self._sent_while_down(record):
                problems.append(f"interaction {record.id} never answered while the bot was up")
        for game in self.games:
            problems.extend(self._check_game(game, stored, report))
        return report

    def _sent_while_down(self, record: InteractionRecord) -> bool:
        sent = record.dispatched_at or 0.0
        return any(start - RETRY_SECONDS <= sent <= end for start, end in self.down)

    def _check_game(
        self, game: SoakGame, stored: dict[int, StoredGame], report: SoakReport
    ) -> list[str]:
        problems = []
        found = stored[game.game_id]
        name = f"game {game.game_id}"
        if found.status != "finished":
            problems.append(f"{name} is {found.status}, not finished")
        shown = _table_version(game.table.current_message())
        if shown != found.version:
            problems.append(f"{name}: the table shows move {shown}, the game is at {found.version}")
        if sorted(found.users.values()) != sorted(a.user.id for a in game.table.players):
            problems.append(f"{name}: seated {sorted(found.users.values())}, not its players")
        channel = self.emulator.world.channels[game.table.message.channel_id]
        channel_messages = [m for m in self.emulator.messages_in(channel) if not m.ephemeral]
        tables = [m for m in channel_messages if _table_version(m) is not None]
        if len(tables) != 1:
            problems.append(f"{name}: {len(tables)} table messages with a table on them")
        texts = Counter(m.content for m in channel_messages if m.content)
        problems += [f"{name}: posted twice: {text!r}" for text, n in texts.items() if n > 1]
        actors = {actor.user.id: actor for actor in game.table.players}
        for seat, user_id in sorted(found.users.items()):
            if user_id in actors:
                problems += self._check_dms(game, seat, actors[user_id], found, report)
        return problems

    def _check_dms(
        self, game: SoakGame, seat: int, actor: Actor, found: StoredGame, report: Any
    ) -> list[str]:
        """One hand DM left, one new DM (a notification) per turn of the seat, never two.

        A DM created with move controls notifies of a turn: it counts for the state the game
        was in when Discord created it, by the clocks of the bot and the emulator (one
        machine), which is when the player is notified. Its content may be a move older
        (rendered just before a move, created just after, then edited); what the player then
        sees is checked by the game going on to its end.
        """
        name = f"game {game.game_id} seat {seat}"
        world = self.emulator.world
        # The hand DMs the bot sent (ephemeral answers to clicks, such as "out of date, here
        # is your hand", live in the DM channel too, but they are answers, not publications).
        dms = [
            m
            for m in world.messages_in(actor.dm_channel, include_deleted=True)
            if not m.ephemeral and _game_of(m, first=True) == game.game_id
        ]
        problems = []
        live = [m for m in dms if not m.deleted]
        if len(live) != 1:
            left = [f"{m.id} (nonce {m.nonce}, at {m.created_at:.3f})" for m in live]
            problems.append(f"{name}: {len(live)} hand DMs left, not one: {left}")
        # Twins: two DMs created with move controls in one state. (A DM without, such as the
        # first DM of a seat not on turn, is no twin, but notifies of a turn all the same if
        # it arrives during one.)
        arrived = {m.id: _version_at(found.committed, m.created_at) for m in dms}
        created_at = {m.id: arrived[m.id] for m in dms if _created_with_controls(m)}
        created = Counter(created_at.values())
        for version, count in created.items():
            if count > 1:
                twins = [
                    f"{m.id} (nonce {m.nonce}, at {m.created_at:.3f}, deleted={m.deleted}, "
                    f"showing {_created_version(m)})"
                    for m in dms
                    if created_at.get(m.id) == version
                ]
                problems.append(f"{name}: {count} DMs created at version {version}: {twins}")
        versions = sorted(set(arrived.values()))
        for began, ended in turns_of(seat, found.moves):
            report.turn_dms += 1
            if not any(began <= v <= ended for v in versions):
                problems.append(f"{name}: no new DM for the turn of versions {began}-{ended}")
        return problems


class LoopLag:
    """How late the soak's own event loop runs: the emulator (Discord) and every player live
    on it, so while it is late nothing the bot sends is answered and nobody acts, whatever the
    bot does. Each tick sleeps ``TICK`` seconds; anything past that is lost time."""

    TICK = 0.1

    def __init__(self) -> None:
        self.lost = 0.0
        """Seconds lost so far (the sum of each tick's lateness)."""
        self.worst = 0.0
        self.last_late: tuple[float, float] = (0.0, 0.0)
        """(when, how late): the latest tick late by more than a second (perf_counter)."""

    async def watch(self) -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(self.TICK)
            now = time.perf_counter()
            late = max(0.0, now - before - self.TICK)
            self.lost += late
            self.worst = max(self.worst, late)
            if late > 1.0:
                self.last_late = (now, late)

    def describe(self) -> str:
        when, late = self.last_late
        latest = (
            f"; the latest by {late:.1f} s, {time.perf_counter() - when:.0f} s ago" if late else ""
        )
        return (
            f"the soak's own loop was late by {self.lost:.1f} s in all, "
            f"{self.worst:.1f} s at worst{latest}"
        )


def first_dm_wait(emulator: Emulator, players: int) -> float:
    """How long a brand-new player's first DM may legitimately wait under the emulator's rate
    limits: every soak player is new, so the bot opens a DM channel for each of them
    (``POST /users/@me/channels``), and those opens share one bucket for the whole bot
    (``limit`` per ``per`` seconds; 5 per 5 s in ``RateLimits.discord_like``). The last of
    ``players`` first DMs can wait ``players * per / limit`` seconds for it (429 s for the 429
    players of 150 games). 0 when the route is not limited (the default soak)."""
    route = emulator.rate_limits.route_for("POST", "/users/@me/channels")
    return 0.0 if route is None else players * route.per / route.limit


def _game_of(message: Message, *, first: bool = False) -> int | None:
    """The game a hand message belongs to (its footer "Game #N"); the first revision's if
    ``first`` (a DM shows its game from its creation on)."""
    shown = message.history[0] if first and message.history else message
    footer = footer_in(shown.embeds, shown.components)
    found = re.search(r"#(\d+)", footer)
    return int(found[1]) if found else None


def _version_at(committed: list[tuple[float, int]], when: float) -> int:
    """The game's version at Unix time ``when``: that of the last move stored by then."""
    index = bisect.bisect_right(committed, (when, float("inf")))
    return committed[index - 1][1] if index else 1


def _created_version(message: Message) -> int | None:
    """The state version a message showed when it was created."""
    components = message.history[0].components if message.history else message.components
    versions = [
        int(found["version"])
        for component in _walk(components)
        if (found := MENU_ID.match(component.get("custom_id", "")))
    ]
    if versions:
        return max(versions)
    shown = message.history[0] if message.history else message
    return version_in(shown.embeds, shown.components)


def _created_with_controls(message: Message) -> bool:
    components = message.history[0].components if message.history else message.components
    return any(MENU_ID.match(c.get("custom_id", "")) for c in _walk(components))


def _walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found, stack = [], list(components)
    while stack:
        component = stack.pop()
        found.append(component)
        stack.extend(component.get("components") or [])
    return found


def _table_version(message: Message) -> int | None:
    """The version a table message shows (``None``: no table, e.g. a retired one's notice)."""
    return version_in(message.embeds, message.components)


def turns_of(seat: int, moves: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The turns of ``seat``: (version when it got the turn, version of its last decision in
    it), from the move log ``(version, seat)`` (move ``v`` was decided at version ``v - 1``)."""
    turns: list[tuple[int, int]] = []
    previous = None
    for version, mover in moves:
        if mover < 0:
            continue
        on_turn_at = version - 1
        if mover == seat:
            if previous != seat:
                turns.append((on_turn_at, on_turn_at))
            else:
                turns[-1] = (turns[-1][0], on_turn_at)
        previous = mover
    return turns


@dataclass
class StoredGame:
    status: str
    version: int
    moves: list[tuple[int, int]] = field(default_factory=list)
    """The move log: (version, seat)."""
    committed: list[tuple[float, int]] = field(default_factory=list)
    """When each move was stored (Unix time, by the bot's clock) and the version it made."""
    users: dict[int, int] = field(default_factory=dict)
    """Seat → user id (simultaneous joins seat players in the order the joins landed)."""


def read_database(path: Path) -> dict[int, StoredGame]:
    """Per game: status, version, move log and seats, read with plain sqlite3."""
    with contextlib.closing(sqlite3.connect(path)) as database:
        games = {
            game_id: StoredGame(status, version)
            for game_id, status, version in database.execute(
                "SELECT id, status, version FROM games"
            )
        }
        for game_id, version, seat, created_at in database.execute(
            "SELECT game_id, version, seat, created_at FROM moves ORDER BY game_id, version"
        ):
            games[game_id].moves.append((version, seat))
            when = datetime.fromisoformat(created_at).replace(tzinfo=UTC).timestamp()
            games[game_id].committed.append((when, version))
        for game_id, seat, user_id in database.execute("SELECT game_id, seat, user_id FROM seats"):
            games[game_id].users[seat] = user_id
    return games


def faulty_emulator(settings: SoakSettings) -> Emulator:
    """An emulator with the soak's faults (and Discord's rate limits if asked)."""
    rate_limits = RateLimits.discord_like() if settings.discord_rate_limits else None
    if rate_limits is not None and settings.global_limit is not None:
        rate_limits.global_limit = settings.global_limit
    # The REST door on a thread of its own: the players' CPU makes the soak's loop late, and
    # requests must count against Discord's limits when they arrive (``rest_front.py``).
    return Emulator(rate_limits=rate_limits, record_limit=1_000_000, rest_thread=True)


def add_faults(emulator: Emulator, settings: SoakSettings) -> None:
    emulator.faults.randomly(
        seed=settings.seed,
        rate_limited=settings.rate_limited,
        server_error=settings.server_error,
        slow=settings.slow,
        slow_seconds=settings.slow_seconds,
        path_pattern=BOT_ROUTES,
    )


async def soak(
    emulator: Emulator,
    bot: BotProcess,
    database: Path,
    settings: SoakSettings,
    *,
    expected_steps: int,
    progress: Callable[[str], None] | None = None,
) -> SoakReport:
    """Open the games (faults on from the first lobby), play them all to the end while the
    bot is killed ``settings.kills`` times, stop the bot, and check everything."""
    run = Soak(emulator, bot, database, settings)
    add_faults(emulator, settings)
    await run.open_games()
    if progress:
        progress(f"{len(run.games)} games started")
    seconds = await run.run(expected_steps)
    if progress:
        over = "out of time" if run.out_of_time else "all games over"
        progress(f"{over} after {seconds:.0f} s")
    await asyncio.sleep(1.0)  # the last publications
    faults: Counter[str] = Counter()
    for plan in emulator.faults.random_plans:
        faults.update(plan.counts)
    emulator.faults.clear()
    await _settle_outbox(run)
    await bot.stop()
    report = run.report(seconds)
    report.faults = faults
    return report


async def _settle_outbox(run: Soak, timeout: float = 60.0) -> None:
    """Wait until every table shows its game's end and the outbox is empty (it retries what
    failed), and until the games the last restart took over were shown once more."""
    deadline = time.perf_counter() + timeout
    resynced = max((end for _, end in run.down), default=0.0) + IN_FLIGHT_SECONDS + 1.0
    while time.perf_counter() < deadline:
        stored = read_database(run.database)
        if (
            time.perf_counter() > resynced
            and undelivered(run.database) == 0
            and all(
                _table_version(g.table.current_message()) == stored[g.game_id].version
                for g in run.games
            )
        ):
            return
        await asyncio.sleep(0.2)


def undelivered(path: Path) -> int:
    with contextlib.closing(sqlite3.connect(path)) as database:
        return database.execute("SELECT count(*) FROM outbox").fetchone()[0]


def log_excerpt(log_path: Path, lines: int = 60) -> str:
    """The bot's restarts and its warnings and errors (not discord.py's rate-limit notes), to
    read next to a failed soak's problems."""
    if not log_path.exists():
        return ""
    kept = [
        line
        for line in log_path.read_text(errors="replace").splitlines()
        if line.startswith("--- start")
        or (
            (" WARNING " in line or " ERROR " in line or "Traceback" in line)
            and "rate limited" not in line
            and "voice will NOT" not in line
        )
    ]
    return "\n--- bot log: restarts, warnings, errors ---\n" + "\n".join(kept[-lines:])
