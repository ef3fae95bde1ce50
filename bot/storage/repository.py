"""The only code that reads or writes game data.

Why a repository: the move pipeline must commit *before* any Discord call, with a
compare-and-swap on ``games.version``; keeping every statement here makes that rule visible and
lets the storage tests exercise it without Discord.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections import deque
from collections.abc import AsyncIterator, Callable, Collection, Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Boolean, Integer, and_, bindparam, cast, func, or_, text, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.outbox.entries import REDRAW, Entry, Publication
from bot.ratings.ledger import rate_in_session
from bot.storage import changes, claims, liveness
from bot.storage.cache import KEPT_MOVES, KeptGame, KnownUser, LoggedMove, LruCache
from bot.storage.changes import ChangeFeed
from bot.storage.engine import create_engine, create_inline_engine
from bot.storage.group_commit import GroupCommit, Outcome
from bot.storage.migrate import upgrade
from bot.storage.models import (
    OPEN_STATUSES,
    ClaimRow,
    GameRow,
    GameStatus,
    GuildSettingsRow,
    MoveRow,
    OutboxRow,
    ResultRow,
    SeatRow,
    UserRow,
    utcnow,
)

OPENING_SEAT = -1
"""The move-log "seat" of the setup events, which no player caused."""
DMS_CLOSED_MEMORY = timedelta(hours=12)
"""How long a closed-DM answer (403, code 50007) is trusted before a DM is tried again."""
KEPT_GAMES = 1_000
"""Running games kept in memory (least recently played ones are read again when needed)."""
KEPT_USERS = 50_000
CHECKPOINT_SECONDS = 1.0
"""Least time between two checkpoints of SQLite's log (see ``Store._committed``)."""
INLINE_PAUSE_SECONDS = 5.0
"""After the inline connection found SQLite locked, how long writes skip it (``_wrote_inline``)."""

log = logging.getLogger(__name__)

_GAMES = GameRow.__table__  # type: ignore[attr-defined]
_SEATS = SeatRow.__table__  # type: ignore[attr-defined]
_MOVES = MoveRow.__table__  # type: ignore[attr-defined]
_OUTBOX = OutboxRow.__table__  # type: ignore[attr-defined]
_CLAIMS = ClaimRow.__table__  # type: ignore[attr-defined]
_ENTRY_COLUMNS = {
    "id": _OUTBOX.c.id.type,
    "version": _OUTBOX.c.version.type,
    "kind": _OUTBOX.c.kind.type,
    "body": _OUTBOX.c.body.type,
}
_RELEASE_OUTBOX = text(claims.RELEASE_OUTBOX).columns(**_ENTRY_COLUMNS)

# The statements of a move, built once: building them per click cost more than running them.
_STORE_STATE = (
    _GAMES.update()
    .where(
        _GAMES.c.id == bindparam("game"),
        _GAMES.c.version == bindparam("expected"),
        _GAMES.c.status == GameStatus.ACTIVE.value,
    )
    .values(
        state=bindparam("new_state", type_=_GAMES.c.state.type),
        version=bindparam("new_version"),
        status=bindparam("new_status"),
        updated_at=bindparam("now", type_=_GAMES.c.updated_at.type),
        turn_deadline=bindparam("deadline", type_=_GAMES.c.turn_deadline.type),
    )
)
_LOG_MOVE = _MOVES.insert().values(
    game_id=bindparam("game"),
    version=bindparam("new_version"),
    seat=bindparam("seat"),
    action=bindparam("action", type_=_MOVES.c.action.type),
    events=bindparam("events", type_=_MOVES.c.events.type),
    created_at=bindparam("now", type_=_MOVES.c.created_at.type),
)
_STORE_HAND = (
    _SEATS.update()
    .where(_SEATS.c.game_id == bindparam("game"), _SEATS.c.seat == bindparam("seat_number"))
    .values(
        hand_channel_id=bindparam("channel"),
        hand_message_id=bindparam("message"),
        hand_version=bindparam("shown_version"),
        stale_hand_message_id=bindparam("stale"),
    )
)
_CLEAR_STALE_HAND = (
    _SEATS.update()
    .where(
        _SEATS.c.game_id == bindparam("game"),
        _SEATS.c.seat == bindparam("seat_number"),
        _SEATS.c.stale_hand_message_id == bindparam("deleted"),
    )
    .values(stale_hand_message_id=None)
)
"""A replaced hand DM is deleted: forget it (unless a newer one took its place meanwhile)."""
_STORE_SEAT_TURNS = (
    _SEATS.update()
    .where(_SEATS.c.game_id == bindparam("game"), _SEATS.c.seat == bindparam("seat_number"))
    .values(
        missed_turns=bindparam("missed"),
        takeover=bindparam("takeover", type_=Boolean),
        departed=and_(_SEATS.c.departed, bindparam("takeover", type_=Boolean)),
    )
)
"""A move that changes its seat's clock record: a missed turn counted, or the count reset
(a player who left and is back on their seat is no longer departed)."""
_QUEUE = _OUTBOX.insert().returning(_OUTBOX.c.id, sort_by_parameter_order=True)
"""Outbox entries of a batch of moves, their ids returned in the order of the moves."""
_DELIVERED = _OUTBOX.delete().where(_OUTBOX.c.id == bindparam("entry"))


class StorageConflict(Exception):
    """A write lost a race: the game changed (version or status) since it was read."""


class ChannelBusy(StorageConflict):
    """The channel already has a lobby or a running game."""


class LobbyFull(StorageConflict):
    """Every seat of the lobby is taken."""


def _aware(when: datetime | None) -> datetime | None:
    """SQLite returns naive datetimes (stored as UTC); PostgreSQL aware ones."""
    if when is not None and when.tzinfo is None:
        return when.replace(tzinfo=UTC)
    return when


class _Unchanged(Exception):
    """Inside a write transaction: nothing needs writing (the transaction rolls back)."""

    def __init__(self, seat: SeatRow | None) -> None:
        super().__init__()
        self.seat = seat


class _LostRace(Exception):
    """Inside a batch: a compare-and-swap failed (the batch is then retried write by write)."""


def _write_rows(
    connection: Connection,
    moves: Sequence[_MoveWrite],
    hands: Sequence[dict[str, Any]],
    delivered: Sequence[int] = (),
    notices: Sequence[str] = (),
) -> list[int]:
    """The statements of a batch, for the inline engine and (via ``run_sync``) the async one.

    Returns the ids of the moves' outbox entries, in the order of ``moves``. ``notices``: the
    change notices to send with the batch (several processes, see ``changes``).
    """
    entry_ids: list[int] = []
    if moves:
        _store_states(connection, moves)
        connection.execute(_LOG_MOVE, [m.log_values for m in moves])
        seat_turns = [m.seat_turns for m in moves if m.seat_turns is not None]
        if seat_turns:
            connection.execute(_STORE_SEAT_TURNS, seat_turns)
        rows = connection.execute(_QUEUE, [m.outbox_values for m in moves]).all()
        entry_ids = [row[0] for row in rows]
    stored = [hand for hand in hands if "deleted" not in hand]
    if stored:
        connection.execute(_STORE_HAND, stored)
    if len(stored) < len(hands):
        connection.execute(_CLEAR_STALE_HAND, [hand for hand in hands if "deleted" in hand])
    if delivered:
        connection.execute(_DELIVERED, [{"entry": entry} for entry in delivered])
    if notices:
        connection.execute(changes.NOTIFY, {"payloads": list(notices)})
    return entry_ids


def _store_states(connection: Connection, moves: Sequence[_MoveWrite]) -> None:
    if connection.dialect.supports_sane_multi_rowcount:  # SQLite: one statement for all
        result = connection.execute(_STORE_STATE, [m.values for m in moves])
        if result.rowcount != len(moves):
            raise _LostRace("a game is no longer at the version a move was made on")
        return
    for move in moves:
        result = connection.execute(_STORE_STATE, move.values)
        if result.rowcount != 1:
            raise _LostRace(f"game {move.values['game']} is not at the expected version")


def _is_locked(error: OperationalError) -> bool:
    """SQLite's "database is locked": another connection holds the write lock."""
    return "locked" in str(error.orig).lower()


@dataclass(frozen=True)
class _MoveWrite:
    values: dict[str, Any]
    move: dict[str, Any]
    publication: Publication
    seat_turns: dict[str, Any] | None = None

    @property
    def log_values(self) -> dict[str, Any]:
        return {**self.values, **self.move}

    @property
    def outbox_values(self) -> dict[str, Any]:
        return _outbox_values(
            self.values["game"], self.values["new_version"], self.publication, self.values["now"]
        )

    def entry(self, entry_id: int) -> Entry:
        return Entry(
            entry_id,
            self.values["game"],
            self.values["new_version"],
            self.publication.kind,
            self.publication.body,
        )


def _outbox_values(
    game_id: int, version: int, publication: Publication, now: datetime
) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "version": version,
        "kind": publication.kind,
        "body": publication.body,
        "created_at": now,
    }


@dataclass(frozen=True)
class _HandWrite:
    values: dict[str, Any]


@dataclass(frozen=True)
class _DeliveredWrite:
    """Outbox entries whose publication is complete (deleted in the next batch)."""

    entry_ids: tuple[int, ...]


_Write = _MoveWrite | _HandWrite | _DeliveredWrite


@dataclass(frozen=True)
class MoveRecord:
    """What a committed move adds to the log."""

    seat: int
    action: dict[str, Any]
    events: list[dict[str, Any]]


@dataclass(frozen=True)
class SeatTurns:
    """A seat's record on the turn clock after a move (see ``SeatRow.missed_turns``)."""

    seat: int
    missed_turns: int
    takeover: bool


@dataclass(frozen=True)
class FinalScore:
    seat: int
    user_id: int
    score: int
    won: bool
    ai_level: str | None = None
    with_ai: bool = False
    autoplayed: bool = False
    side: int | None = None
    departed: bool = False


@dataclass(frozen=True)
class Standing:
    user_id: int
    played: int
    wins: int
    points: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.played if self.played else 0.0


class Store:
    """Async access to the database behind ``engine``.

    ``shared``: other processes write the same (PostgreSQL) database. Then every write of a
    game or user announces itself to them (``changes``), what this store keeps in memory is
    dropped when another process announces a change (and is not used at all while it cannot
    hear them), and work that one process at a time does is claimed (``claims``). Without it
    (SQLite, the embedded default) none of that runs.
    """

    def __init__(
        self,
        engine: AsyncEngine,
        *,
        kept_games: int = KEPT_GAMES,
        kept_users: int = KEPT_USERS,
        shared: bool = False,
    ) -> None:
        if shared and engine.dialect.name != "postgresql":
            raise ValueError("several processes need PostgreSQL: SQLite is for one process")
        self.engine = engine
        self.shared = shared
        self.origin = uuid.uuid4().hex[:16]
        """This store's name in claims, change notices and its liveness lock (one per process
        and run)."""
        self._feed: ChangeFeed | None = None
        self._caching = not shared
        """Whether memory may be used: always for one process; with others, while their
        change notices are heard (``listen``)."""
        self.game_changed: list[Callable[[int], None]] = []
        """Called with a game's id when another process announced a change of it."""
        self._sessions = async_sessionmaker(engine, class_=AsyncSession, expire_on_commit=False)
        self._one_writer: AbstractAsyncContextManager[Any] = (
            asyncio.Lock() if engine.dialect.name == "sqlite" else nullcontext()
        )
        """SQLite has one writer at a time; a second one would wait in SQLite's busy handler,
        which sleeps in steps of up to 100 ms. Queueing writers here wakes each at once."""
        self._games: LruCache[int, KeptGame] = LruCache(kept_games)
        self._users: LruCache[int, KnownUser] = LruCache(kept_users)
        self._group: GroupCommit[_Write] = GroupCommit(self._write_batch)
        self._inline = create_inline_engine(engine)
        self._inline_paused_until = 0.0
        self._checkpoints_log = engine.dialect.name == "sqlite"
        self._checkpoint: asyncio.Task[None] | None = None
        self._next_checkpoint = 0.0
        self._writes = 0
        self._last_write: LruCache[int, int] = LruCache(4 * kept_games)
        """Per game, the number of the latest write: a read that a write overtook is not kept."""
        self._cleared_at = 0
        """``_writes`` when memory was last cleared as a whole: older reads are not kept."""
        self._user_writes = 0
        """Counts the writes (and others' notices) of users: a read they overtook is not kept."""

    @classmethod
    async def open(cls, url: str, *, shared: bool | None = None) -> Store:
        """Connect to ``url`` and run the migrations.

        ``shared``: whether other processes use the same database (see the class); by default
        whenever it is PostgreSQL, so that a second process is always safe there.
        """
        engine = create_engine(url)
        try:
            await upgrade(engine)
        except BaseException:
            await engine.dispose()  # no connection left for a closed event loop to stop
            raise
        if shared is None:
            shared = engine.dialect.name == "postgresql"
        store = cls(engine, shared=shared)
        if shared:
            await store.listen()
        return store

    async def listen(self) -> None:
        """Start hearing other processes' change notices (shared mode); memory is used from
        the moment they are heard."""
        if not self.shared or self._feed is not None:
            return
        self._feed = ChangeFeed(
            self.engine.url,
            self.origin,
            on_change=self._changed_elsewhere,
            on_gap=self._deaf,
            on_listening=self._hearing,
        )
        await self._feed.start()

    @property
    def listening(self) -> bool:
        return self._feed is not None and self._feed.listening

    @property
    def alive(self) -> bool:
        """Whether other processes see this store running (it holds its liveness lock, see
        ``liveness``): while not, its claims are protected by their leases only."""
        return self._feed is not None and self._feed.alive

    async def close(self) -> None:
        """Finish the writes in flight, then close every connection."""
        await self._group.drain()
        if self._feed is not None:
            await self._feed.close()
        if self.shared:
            # A clean stop leaves no claim to wait out: other processes take over at once.
            with contextlib.suppress(Exception):
                async with self.engine.begin() as connection:
                    await connection.execute(_CLAIMS.delete().where(_CLAIMS.c.owner == self.origin))
        if self._checkpoint is not None:
            await self._checkpoint
        await self.close_connections()

    async def close_connections(self) -> None:
        """Close the database connections, without waiting for any work (``close`` does)."""
        if self._inline is not None:
            self._inline.dispose()
        await self.engine.dispose()

    def _committed(self) -> None:
        """After a write transaction: copy SQLite's log into the database, at most once a
        second.

        Left to SQLite, the commit that finds the write-ahead log over 1,000 pages copies it
        itself, and tries again on every later commit while readers hold the copy back. At
        150 moves/s that stalled the bot for 15–20 ms every two seconds and cost a sixth of
        its CPU. Here a task of its own makes a passive checkpoint, which never blocks a
        reader or a writer. Started by commits rather than a timer, an idle bot does nothing.
        """
        if not self._checkpoints_log:
            return
        now = asyncio.get_running_loop().time()
        busy = self._checkpoint is not None and not self._checkpoint.done()
        if busy or now < self._next_checkpoint:
            return
        self._next_checkpoint = now + CHECKPOINT_SECONDS
        self._checkpoint = asyncio.create_task(self._checkpoint_wal())

    async def _checkpoint_wal(self) -> None:
        try:
            async with self.engine.connect() as connection:
                await connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
        except Exception:
            log.exception("could not checkpoint the SQLite write-ahead log")

    def session(self) -> AsyncSession:
        return self._sessions()

    @asynccontextmanager
    async def _write_session(self) -> AsyncIterator[AsyncSession]:
        """A session in a write transaction, one at a time on SQLite (see ``_one_writer``)."""
        async with self._one_writer, self.session() as session, session.begin():
            yield session
        self._committed()

    @asynccontextmanager
    async def _write_connection(self) -> AsyncIterator[AsyncConnection]:
        async with self._one_writer, self.engine.begin() as connection:
            yield connection
        self._committed()

    # ------------------------------------------------------------------ other processes

    def _changed_elsewhere(self, kind: str, identifier: int) -> None:
        """Another process committed a change of a game or a user: forget what is kept."""
        if kind == changes.GAME:
            self._forget(identifier)
            for hook in self.game_changed:
                hook(identifier)
        else:
            self._users.pop(identifier)
            self._user_writes += 1

    def _deaf(self) -> None:
        """Notices may have been missed: forget everything, keep nothing until heard again."""
        self._caching = False
        self._clear_memory()

    def _hearing(self) -> None:
        self._clear_memory()
        self._caching = True

    def _clear_memory(self) -> None:
        self._games = LruCache(self._games.size)
        self._users = LruCache(self._users.size)
        self._writes += 1
        self._cleared_at = self._writes
        self._user_writes += 1

    def _notices(self, games: Iterable[int] = (), users: Iterable[int] = ()) -> list[str]:
        """The change notices of a write (none for one process)."""
        if not self.shared:
            return []
        return changes.payloads(self.origin, changes.GAME, games) + changes.payloads(
            self.origin, changes.USER, users
        )

    async def _announce(
        self, connection: AsyncConnection, games: Iterable[int] = (), users: Iterable[int] = ()
    ) -> None:
        """Inside a write transaction: tell the other processes what it changes (delivered
        at its commit)."""
        notices = self._notices(games, users)
        if notices:
            await connection.execute(changes.NOTIFY, {"payloads": notices})

    # ------------------------------------------------------------------ memory

    @contextmanager
    def _writing(self, game_id: int) -> Iterator[None]:
        """Around a write of a game that the kept copy follows: forget the copy if the write
        fails or loses a race, and make every read that overlapped the write unfit to be kept
        (it may have seen the game before the write committed)."""
        self._mark_written(game_id)
        try:
            yield
        except BaseException:
            self._games.pop(game_id)
            raise
        finally:
            self._mark_written(game_id)

    @contextmanager
    def _replacing(self, game_id: int) -> Iterator[None]:
        """Around a write that the kept copy does not follow (start, end, the last move): the
        game leaves memory before it, and a read that overlapped it is not kept either, so
        the next read comes from the database as the write left it."""
        self._forget(game_id)
        try:
            yield
        finally:
            self._forget(game_id)

    def _mark_written(self, game_id: int) -> None:
        self._writes += 1
        self._last_write.put(game_id, self._writes)

    async def _write_batch(self, writes: Sequence[_Write]) -> list[Outcome]:
        """Moves, hand-message ids and delivered outbox entries of many games in one
        transaction (see group_commit). A move's outcome is its outbox ``Entry``.

        A move whose compare-and-swap fails makes the batch fail as a whole; its writes are
        then tried one at a time, so that only the one that lost its race is refused.
        """
        moves = [write for write in writes if isinstance(write, _MoveWrite)]
        hands = [write.values for write in writes if isinstance(write, _HandWrite)]
        delivered = [
            entry
            for write in writes
            if isinstance(write, _DeliveredWrite)
            for entry in write.entry_ids
        ]
        notices = (
            self._notices([move.values["game"] for move in moves] + [h["game"] for h in hands])
            if self.shared
            else ()
        )
        try:
            async with self._one_writer:
                entry_ids = self._wrote_inline(moves, hands, delivered)
                if entry_ids is None:
                    async with self.engine.begin() as connection:
                        entry_ids = await connection.run_sync(
                            _write_rows, moves, hands, delivered, notices
                        )
            self._committed()
        except _LostRace as lost:
            if len(writes) == 1:
                return [StorageConflict(str(lost))]
            return [(await self._write_batch([write]))[0] for write in writes]
        entries = iter(entry_ids)
        return [
            write.entry(next(entries)) if isinstance(write, _MoveWrite) else None
            for write in writes
        ]

    def _wrote_inline(
        self, moves: list[_MoveWrite], hands: list[dict[str, Any]], delivered: list[int]
    ) -> list[int] | None:
        """Write on the event loop when SQLite allows (see ``create_inline_engine``); the
        moves' outbox entry ids.

        ``None``, with nothing written, when there is no inline engine, or another process holds
        the lock for longer than a moment. Then the writes of the next ``INLINE_PAUSE_SECONDS``
        go to a worker thread straight away, so that a long outside lock does not hold up the
        loop once per batch (and the log says so once, not per batch).
        """
        if self._inline is None:
            return None
        now = asyncio.get_running_loop().time()
        if now < self._inline_paused_until:
            return None
        try:
            with self._inline.begin() as connection:
                return _write_rows(connection, moves, hands, delivered)
        except OperationalError as error:
            if not _is_locked(error):
                raise
            self._inline_paused_until = now + INLINE_PAUSE_SECONDS
            log.info(
                "SQLite is locked by another process; writes wait in a thread for %.0f s",
                INLINE_PAUSE_SECONDS,
            )
            return None

    def _forget(self, game_id: int) -> None:
        """Drop a game from memory (around a write that the kept copy does not follow)."""
        self._games.pop(game_id)
        self._mark_written(game_id)

    def _unchanged_since(self, game_id: int, mark: int) -> bool:
        return mark >= self._cleared_at and (self._last_write.get(game_id) or 0) <= mark

    # ------------------------------------------------------------------ games

    async def game(self, game_id: int) -> GameRow | None:
        async with self.session() as session:
            return await session.get(GameRow, game_id)

    async def open_game_in_channel(self, channel_id: int) -> GameRow | None:
        async with self.session() as session:
            query = select(GameRow).where(
                GameRow.channel_id == channel_id, col(GameRow.status).in_(OPEN_STATUSES)
            )
            return (await session.exec(query)).first()

    async def latest_game_in_channel(self, channel_id: int) -> GameRow | None:
        """The open game of the channel, else its most recently started one."""
        async with self.session() as session:
            query = (
                select(GameRow)
                .where(GameRow.channel_id == channel_id, col(GameRow.state).is_not(None))
                .order_by(col(GameRow.id).desc())
            )
            return (await session.exec(query)).first()

    async def open_games(self, status: GameStatus | None = None) -> list[GameRow]:
        statuses = (status,) if status else OPEN_STATUSES
        async with self.session() as session:
            query = select(GameRow).where(col(GameRow.status).in_(statuses))
            return list((await session.exec(query)).all())

    async def create_lobby(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        host_locale: str,
        game_key: str,
        options: dict[str, Any],
        locale: str,
        expires_at: datetime,
    ) -> GameRow:
        """A new lobby with the host in seat 0; ``ChannelBusy`` if the channel has a game."""
        game = GameRow(
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            game_key=game_key,
            options=options,
            locale=locale,
            expires_at=expires_at,
        )
        try:
            async with self._write_session() as session:
                session.add(game)
                await session.flush()
                assert game.id is not None
                session.add(
                    SeatRow(
                        game_id=game.id,
                        seat=0,
                        user_id=host_id,
                        display_name=host_name,
                        locale=host_locale,
                    )
                )
        except IntegrityError as error:
            raise ChannelBusy(str(error)) from error
        return game

    async def set_message(self, game_id: int, **message_ids: int | None) -> None:
        """Remember ``lobby_message_id`` / ``table_message_id`` (not a move: no version bump)."""
        with self._writing(game_id):
            async with self._write_connection() as connection:
                await connection.execute(
                    _GAMES.update().where(_GAMES.c.id == game_id).values(**message_ids)
                )
                await self._announce(connection, [game_id])
        kept = self._games.get(game_id)
        if kept is not None:
            for name, value in message_ids.items():
                setattr(kept.row, name, value)

    async def set_options(
        self, game_id: int, options: dict[str, Any], *, expected_version: int | None = None
    ) -> None:
        """Change a lobby's options; with ``expected_version``, only if nothing else changed
        it since it was read (``StorageConflict`` otherwise)."""
        async with self._write_session() as session:
            await self._lock_lobby(session, game_id, expected_version, options=options)

    # ------------------------------------------------------------------ seats

    async def game_with_seats(
        self, game_id: int, *, at_least: int | None = None
    ) -> tuple[GameRow, list[SeatRow]] | None:
        """A game and its seats: from memory while it is being played (every click asks).

        ``at_least``: a version the caller knows the game has reached (a click's control, an
        outbox entry): memory that is behind it missed another process's write and is read
        again.
        """
        kept = self._games.get(game_id)
        if kept is not None:
            if at_least is None or kept.row.version >= at_least:
                return kept.row, list(kept.seats)
            self._forget(game_id)
        mark = self._writes
        async with self.session() as session:
            game = await session.get(GameRow, game_id)
            if game is None:
                return None
            query = select(SeatRow).where(SeatRow.game_id == game_id).order_by(col(SeatRow.seat))
            seats = list((await session.exec(query)).all())
        if (
            game.status == GameStatus.ACTIVE
            and self._caching
            and self._unchanged_since(game_id, mark)
        ):
            self._games.put(game_id, KeptGame(game, list(seats)))
        return game, seats

    async def current_version(self, game_id: int) -> int | None:
        """The game's version as last written (``None``: no such game)."""
        kept = self._games.get(game_id)
        if kept is not None:
            return kept.row.version
        async with self.session() as session:
            return await session.scalar(select(GameRow.version).where(GameRow.id == game_id))

    async def current_seat(self, game_id: int, seat: int) -> SeatRow | None:
        """Seat ``seat`` as last written (a courier's snapshot may hold an older row)."""
        kept = self._games.get(game_id)
        if kept is not None:
            return kept.seats[seat] if seat < len(kept.seats) else None
        async with self.session() as session:
            query = select(SeatRow).where(SeatRow.game_id == game_id, SeatRow.seat == seat)
            return (await session.exec(query)).first()

    async def seats(self, game_id: int) -> list[SeatRow]:
        async with self.session() as session:
            query = select(SeatRow).where(SeatRow.game_id == game_id).order_by(col(SeatRow.seat))
            return list((await session.exec(query)).all())

    async def join(
        self,
        game_id: int,
        user_id: int,
        name: str,
        locale: str,
        *,
        capacity: int,
        ai_level: str | None = None,
    ) -> tuple[SeatRow, bool]:
        """Take the next free seat of a lobby: the seat, and whether it is new.

        Idempotent: a user already seated keeps their seat (a double click seats nobody twice).
        ``LobbyFull`` when all ``capacity`` seats are taken, ``StorageConflict`` if the game is
        no longer a lobby. The check and the insert happen while the lobby row is locked, so
        simultaneous joins are counted one after the other.
        """
        try:
            async with self._write_session() as session:
                await self._lock_lobby(session, game_id)
                seats = await self._lobby_seats(session, game_id)
                for seat in seats:
                    if seat.user_id == user_id:
                        raise _Unchanged(seat)  # rolls back: the version stays
                if len(seats) >= capacity:
                    raise LobbyFull(f"game {game_id} has {len(seats)} of {capacity} seats taken")
                seat = SeatRow(
                    game_id=game_id,
                    seat=len(seats),
                    user_id=user_id,
                    display_name=name,
                    locale=locale,
                    ai_level=ai_level,
                )
                session.add(seat)
        except _Unchanged as unchanged:
            return unchanged.seat, False
        return seat, True

    @staticmethod
    async def _lobby_seats(session: AsyncSession, game_id: int) -> list[SeatRow]:
        query = select(SeatRow).where(SeatRow.game_id == game_id).order_by(col(SeatRow.seat))
        return list((await session.exec(query)).all())

    async def leave_lobby(self, game_id: int, user_id: int) -> bool:
        """Give up a lobby seat; later seats move up so seat numbers stay contiguous.

        False (and nothing changes) if the user holds no seat.
        """
        try:
            await self._leave_lobby(game_id, user_id)
        except _Unchanged:
            return False
        return True

    async def _leave_lobby(self, game_id: int, user_id: int) -> None:
        async with self._write_session() as session:
            await self._lock_lobby(session, game_id)
            seats = await self._lobby_seats(session, game_id)
            remaining = [s for s in seats if s.user_id != user_id]
            if len(remaining) == len(seats):
                raise _Unchanged(None)
            for seat in seats:
                await session.delete(seat)
            await session.flush()
            for number, seat in enumerate(remaining):
                session.add(
                    SeatRow(
                        game_id=game_id,
                        seat=number,
                        user_id=seat.user_id,
                        display_name=seat.display_name,
                        locale=seat.locale,
                        ai_level=seat.ai_level,
                        confirmed=seat.confirmed,
                        joined_at=seat.joined_at,
                    )
                )

    async def _lock_lobby(
        self,
        session: AsyncSession,
        game_id: int,
        expected_version: int | None = None,
        **values: Any,
    ) -> None:
        """Start a lobby change: bump the lobby's version and check that it is still a lobby
        (at ``expected_version`` when given); ``StorageConflict`` otherwise.

        The update comes first so that the transaction holds the lobby's row (PostgreSQL) or
        the database (SQLite) from then on: a concurrent change waits, then sees this one.
        Start compares the version, so a game always starts with the seats and options it read.
        """
        self._forget(game_id)
        conditions = [GameRow.id == game_id, GameRow.status == GameStatus.LOBBY]
        if expected_version is not None:
            conditions.append(GameRow.version == expected_version)
        result = await session.exec(
            update(GameRow)
            .where(*conditions)
            .values(version=GameRow.version + 1, updated_at=utcnow(), **values)
        )
        if result.rowcount != 1:
            raise StorageConflict(f"game {game_id} is no longer this lobby")

    async def set_hand_message(
        self,
        game_id: int,
        seat: int,
        channel_id: int | None,
        message_id: int | None,
        version: int | None = None,
        *,
        stale: int | None = None,
    ) -> None:
        """Remember seat's hand DM, the game ``version`` it shows, and the DM it replaced
        (``stale``) until that one is deleted."""
        with self._writing(game_id):
            await self._group.submit(
                _HandWrite(
                    {
                        "game": game_id,
                        "seat_number": seat,
                        "channel": channel_id,
                        "message": message_id,
                        "shown_version": version,
                        "stale": stale,
                    }
                )
            )
        kept = self._games.get(game_id)
        if kept is not None:
            row = kept.seats[seat]
            row.hand_channel_id, row.hand_message_id = channel_id, message_id
            row.hand_version, row.stale_hand_message_id = version, stale

    async def stale_hand_deleted(self, game_id: int, seat: int, message_id: int) -> None:
        """The replaced hand DM ``message_id`` is deleted: it is forgotten (written with the
        next batch), so no later delivery, process or restart deletes it once more."""
        kept = self._games.get(game_id)
        if kept is not None and kept.seats[seat].stale_hand_message_id == message_id:
            kept.seats[seat].stale_hand_message_id = None
        with self._writing(game_id):
            await self._group.submit(
                _HandWrite({"game": game_id, "seat_number": seat, "deleted": message_id})
            )

    # ------------------------------------------------------------------ AI and the turn clock

    async def set_turn_clock(
        self, game_id: int, seconds: int | None, *, expected_version: int
    ) -> None:
        """A lobby's turn clock (``None``: off), if nothing else changed it since it was read."""
        async with self._write_session() as session:
            await self._lock_lobby(session, game_id, expected_version, turn_seconds=seconds)

    async def set_seat_turns(
        self,
        game_id: int,
        turns: SeatTurns,
        *,
        publication: Publication | None = None,
        deadline: datetime | None = None,
    ) -> Entry | None:
        """A seat's clock record outside a move (a player takes their seat back), in one
        transaction with what it must show (``publication``, its outbox entry is returned)
        and, when given, the deadline of the turn the game is in (a player back on turn)."""
        entry = None
        with self._writing(game_id):
            async with self._write_connection() as connection:
                await connection.execute(
                    _STORE_SEAT_TURNS,
                    {
                        "game": game_id,
                        "seat_number": turns.seat,
                        "missed": turns.missed_turns,
                        "takeover": turns.takeover,
                    },
                )
                if deadline is not None:
                    await connection.execute(
                        _GAMES.update().where(_GAMES.c.id == game_id).values(turn_deadline=deadline)
                    )
                if publication is not None:
                    version = await connection.scalar(
                        select(_GAMES.c.version).where(_GAMES.c.id == game_id)
                    )
                    entry = await self._queue(connection, game_id, version, publication)
                await self._announce(connection, [game_id])
        kept = self._games.get(game_id)
        if kept is not None:
            kept.seats[turns.seat].missed_turns = turns.missed_turns
            kept.seats[turns.seat].takeover = turns.takeover
            kept.seats[turns.seat].departed = kept.seats[turns.seat].departed and turns.takeover
            if deadline is not None:
                kept.row.turn_deadline = deadline
        return entry

    async def claim_reminder(
        self, game_id: int, version: int, publication: Publication
    ) -> Entry | None:
        """Claim the reminder of the turn at ``version`` once, whichever process or restart
        asks first, with the reminder's outbox entry in the same transaction: the entry if
        this caller claimed it, else ``None``. A crash after the claim cannot lose the
        reminder; the next start delivers it."""
        entry = None
        with self._writing(game_id):
            async with self._write_connection() as connection:
                result = await connection.execute(
                    _GAMES.update()
                    .where(
                        _GAMES.c.id == game_id,
                        _GAMES.c.version == version,
                        _GAMES.c.status == GameStatus.ACTIVE.value,
                        (_GAMES.c.reminded_version.is_(None))
                        | (_GAMES.c.reminded_version != version),
                    )
                    .values(reminded_version=version)
                )
                if result.rowcount == 1:
                    entry = await self._queue(connection, game_id, version, publication)
                    await self._announce(connection, [game_id])
        kept = self._games.get(game_id)
        if entry is not None and kept is not None:
            kept.row.reminded_version = version
        return entry

    async def count_hint(self, game_id: int, seat: int) -> int:
        """One more hint used by ``seat``; the new count."""
        with self._writing(game_id):
            async with self._write_connection() as connection:
                await connection.execute(
                    _SEATS.update()
                    .where(_SEATS.c.game_id == game_id, _SEATS.c.seat == seat)
                    .values(hints_used=_SEATS.c.hints_used + 1)
                )
                used = await connection.scalar(
                    select(_SEATS.c.hints_used).where(
                        _SEATS.c.game_id == game_id, _SEATS.c.seat == seat
                    )
                )
                await self._announce(connection, [game_id])
        kept = self._games.get(game_id)
        if kept is not None and seat < len(kept.seats):
            kept.seats[seat].hints_used = int(used or 0)
        return int(used or 0)

    async def hints_allowed(self, guild_id: int) -> bool:
        async with self.session() as session:
            row = await session.get(GuildSettingsRow, guild_id)
            return row is None or bool(row.hints)

    async def set_hints_allowed(self, guild_id: int, allowed: bool) -> None:
        await self._set_guild_setting(guild_id, hints=allowed)

    async def replay_hands(self, guild_id: int) -> bool:
        """Whether replays of the server's ended games show every hand (``/settings replays``)."""
        async with self.session() as session:
            row = await session.get(GuildSettingsRow, guild_id)
            return row is None or bool(row.replay_hands)

    async def set_replay_hands(self, guild_id: int, shown: bool) -> None:
        await self._set_guild_setting(guild_id, replay_hands=shown)

    async def images_shown(self, guild_id: int) -> bool:
        """Whether the server's games show pictures (``/settings images``; default on)."""
        async with self.session() as session:
            row = await session.get(GuildSettingsRow, guild_id)
            return row is None or bool(row.images)

    async def set_images_shown(self, guild_id: int, shown: bool) -> None:
        await self._set_guild_setting(guild_id, images=shown)

    async def _set_guild_setting(self, guild_id: int, **setting: bool) -> None:
        async with self._write_session() as session:
            await session.exec(
                self._upsert(
                    GuildSettingsRow,
                    "guild_id",
                    guild_id=guild_id,
                    **setting,
                    updated_at=utcnow(),
                )
            )

    async def hand_images(self, user_id: int) -> bool:
        """Whether the user's hands carry a picture (``/pictures``; default on)."""
        known = await self._known_users([user_id])
        return known[user_id].hand_images is not False

    def known_hand_images(self, user_id: int) -> bool | None:
        """``hand_images`` from memory alone; ``None`` if the user is not in memory (for what
        must not wait for the database, such as a move's answer before its commit)."""
        user = self._users.get(user_id) if self._caching else None
        return None if user is None else user.hand_images is not False

    async def set_hand_images(self, user_id: int, shown: bool) -> None:
        await self._known_users([user_id])
        async with self._writing_user(user_id) as session:
            await session.exec(self._upsert(UserRow, "user_id", user_id=user_id, hand_images=shown))
        self._user(user_id).hand_images = shown

    # ------------------------------------------------------------------ outbox

    async def publish(self, game_id: int, publication: Publication) -> Entry:
        """Store a publication that no game change comes with (``/table``, a resync)."""
        async with self._write_session() as session:
            connection = await session.connection()
            version = await connection.scalar(select(GameRow.version).where(GameRow.id == game_id))
            if version is None:
                raise StorageConflict(f"game {game_id} does not exist")
            return await self._queue(connection, game_id, version, publication)

    @staticmethod
    async def _queue(
        connection: AsyncConnection, game_id: int, version: int, publication: Publication
    ) -> Entry:
        """Add an outbox entry inside the caller's transaction."""
        values = _outbox_values(game_id, version, publication, utcnow())
        entry_id = (await connection.execute(_QUEUE, [values])).scalar_one()
        return Entry(entry_id, game_id, version, publication.kind, publication.body)

    async def pending_publications(
        self,
        *,
        older_than: timedelta | None = None,
        unclaimed: bool = False,
        games: Sequence[int] | None = None,
    ) -> list[Entry]:
        """Outbox entries not yet delivered, oldest first: all of them (at start-up), or those
        written more than ``older_than`` ago (a sweep for entries nobody is delivering).

        ``unclaimed``: only those of games no live courier holds (several processes, see
        ``claims``); with ``older_than``, also the younger ones of games whose courier's
        process died (nobody else would deliver them before the age is reached). ``games``:
        only those of these games.
        """
        query = select(OutboxRow).order_by(col(OutboxRow.id))
        old = col(OutboxRow.created_at) < utcnow() - older_than if older_than is not None else None
        if unclaimed:
            query = query.where(text(claims.UNCLAIMED_OUTBOX))
            if old is not None:
                query = query.where(or_(old, text(claims.ABANDONED_OUTBOX)))
        elif old is not None:
            query = query.where(old)
        if games is not None:
            query = query.where(col(OutboxRow.game_id).in_(list(games)))
        async with self.session() as session:
            rows = (await session.exec(query)).all()
        return [
            Entry(row.id, row.game_id, row.version, row.kind, row.body)
            for row in rows
            if row.id is not None
        ]

    async def published(self, entry_ids: Sequence[int]) -> None:
        """Forget delivered outbox entries (in the next group-commit batch)."""
        if entry_ids:
            await self._group.submit(_DeliveredWrite(tuple(entry_ids)))

    # ------------------------------------------------------------------ claims

    async def claim(
        self, game_id: int, kind: str, *, lease: float, version: int | None = None
    ) -> str | None:
        """Claim ``kind`` of work on the game for ``lease`` seconds (see ``claims``): the
        claim's token, or ``None`` if another process holds it (or, with ``version``, the
        game is no longer at that version)."""
        token = uuid.uuid4().hex
        async with self._autocommit() as connection:
            result = await connection.execute(
                claims.CLAIM,
                {
                    "game": game_id,
                    "kind": kind,
                    "owner": self.origin,
                    "token": token,
                    "version": version,
                    "lease": lease,
                },
            )
            return token if result.first() is not None else None

    async def claim_outbox(self, game_id: int, *, lease: float) -> tuple[str, list[Entry]] | None:
        """Claim the delivery of the game's outbox (see ``claims``): the token and every entry
        of the game still stored (some may be other processes'), or ``None`` if another
        process's courier holds it."""
        # Two statements, not one: a claim that waited for the holder's release must read
        # the entries as that release left them (a statement reads as of its start).
        token = await self.claim(game_id, claims.OUTBOX, lease=lease)
        if token is None:
            return None
        return token, await self.pending_publications(games=[game_id])

    async def release_outbox(
        self, game_id: int, token: str, delivered: Collection[int]
    ) -> list[Entry]:
        """Forget the ``delivered`` entries and give up the claim, in one transaction (so the
        next courier, maybe another process's, does not deliver them again); the game's
        entries still stored after that: written meanwhile by a process whose courier found
        the claim taken, and now this one's to deliver again."""
        async with self._autocommit() as connection:
            rows = await connection.execute(
                _RELEASE_OUTBOX, {"game": game_id, "token": token, "delivered": list(delivered)}
            )
            return [Entry(row.id, game_id, row.version, row.kind, row.body) for row in rows]

    @asynccontextmanager
    async def _autocommit(self) -> AsyncIterator[AsyncConnection]:
        """A connection whose every statement commits by itself: a claim is one statement,
        and a transaction around it would cost two more round trips (BEGIN, COMMIT)."""
        async with self.engine.connect() as connection:
            yield await connection.execution_options(isolation_level="AUTOCOMMIT")

    async def renew_claims(self, tokens: Collection[str], *, lease: float) -> set[str]:
        """Extend the leases of ``tokens``; those still held (a missing one was lost: its
        lease ran out and another process took it)."""
        if not tokens:
            return set()
        async with self._autocommit() as connection:
            result = await connection.execute(
                claims.RENEW, {"tokens": list(tokens), "lease": lease}
            )
            return {row[0] for row in result}

    async def quiet_games(self, longer_than: timedelta) -> list[int]:
        """Running games that nobody may be playing: no move for ``longer_than``, an AI seat
        (or a seat the AI took over) or a passed deadline, and no live claim on the turn (a
        process that died mid-search, or before its clock fired, leaves such a game); and, at
        once, those whose turn was claimed by a process that is no longer running. Several
        processes on PostgreSQL only (``Store.shared``: it reads the server's lock table)."""
        now = utcnow()
        ai_seat = (
            select(_SEATS.c.game_id)
            .where(
                _SEATS.c.game_id == _GAMES.c.id,
                _SEATS.c.ai_level.is_not(None) | _SEATS.c.takeover.is_(True),
            )
            .exists()
        )
        turn_claim = select(_CLAIMS.c.game_id).where(
            _CLAIMS.c.game_id == _GAMES.c.id, _CLAIMS.c.kind == claims.TURN
        )
        claimed = turn_claim.where(
            _CLAIMS.c.lease_until >= now, text(liveness.alive("claims.owner"))
        ).exists()
        abandoned = turn_claim.where(
            _CLAIMS.c.version == _GAMES.c.version, text(liveness.dead("claims.owner"))
        ).exists()
        query = select(_GAMES.c.id).where(
            _GAMES.c.status == GameStatus.ACTIVE.value,
            or_(
                and_(
                    _GAMES.c.updated_at < now - longer_than,
                    ai_seat | (_GAMES.c.turn_deadline < now),
                    ~claimed,
                ),
                abandoned,
            ),
        )
        async with self.engine.connect() as connection:
            return [int(row[0]) for row in await connection.execute(query)]

    async def forget_lapsed_claims(self, older_than: timedelta) -> int:
        """Delete claims whose lease ran out more than ``older_than`` ago (a lapsed claim is no
        claim; a turn's is left behind by every AI turn); how many."""
        async with self.engine.begin() as connection:
            result = await connection.execute(
                _CLAIMS.delete().where(_CLAIMS.c.lease_until < utcnow() - older_than)
            )
            return int(result.rowcount or 0)

    async def release_claims(self, tokens: Collection[str]) -> None:
        """Give up claims (the work is done); another process may take them at once."""
        if tokens:
            async with self.engine.begin() as connection:
                await connection.execute(claims.RELEASE, {"tokens": list(tokens)})

    # ------------------------------------------------------------------ playing

    async def start(
        self,
        game_id: int,
        *,
        expected_version: int,
        seed: int,
        state: dict[str, Any],
        publication: Publication,
        opening_events: Sequence[dict[str, Any]] = (),
        deadline: datetime | None = None,
    ) -> Entry:
        """Lobby → active with the initial engine state at version 1, if the lobby is still at
        ``expected_version`` (the seats and options the state was made for); its outbox entry.

        The engine's setup events (deal, start player …) open the move log as seat -1.
        """
        with self._replacing(game_id):
            async with self._write_session() as session:
                result = await session.exec(
                    update(GameRow)
                    .where(
                        GameRow.id == game_id,
                        GameRow.status == GameStatus.LOBBY,
                        GameRow.version == expected_version,
                    )
                    .values(
                        status=GameStatus.ACTIVE,
                        seed=seed,
                        state=state,
                        version=1,
                        expires_at=None,
                        updated_at=utcnow(),
                        turn_deadline=deadline,
                    )
                )
                if result.rowcount != 1:
                    raise StorageConflict(f"game {game_id} is no longer this lobby")
                if opening_events:
                    session.add(
                        MoveRow(
                            game_id=game_id,
                            version=1,
                            seat=OPENING_SEAT,
                            action={"kind": "opening"},
                            events=list(opening_events),
                        )
                    )
                return await self._queue(await session.connection(), game_id, 1, publication)

    async def commit_move(
        self,
        game_id: int,
        *,
        expected_version: int,
        state: dict[str, Any],
        move: MoveRecord,
        publication: Publication,
        final: Sequence[FinalScore] | None = None,
        deadline: datetime | None = None,
        seat_turns: SeatTurns | None = None,
    ) -> Entry:
        """Store the state after ``move`` if the game is still at ``expected_version``, with
        what it must publish.

        Returns the outbox entry; its ``version`` is the game's new version. ``final`` (the
        game ended) also records the results. ``deadline``: when the next turn runs out (the
        turn clock), ``seat_turns``: the mover's clock record, when it changes. Raises
        ``StorageConflict`` when another move got there first.
        """
        write = _MoveWrite(
            {
                "game": game_id,
                "expected": expected_version,
                "new_state": state,
                "new_version": expected_version + 1,
                "new_status": GameStatus.FINISHED if final else GameStatus.ACTIVE,
                "now": utcnow(),
                "deadline": deadline,
            },
            {"seat": move.seat, "action": move.action, "events": move.events},
            publication,
            None
            if seat_turns is None
            else {
                "game": game_id,
                "seat_number": seat_turns.seat,
                "missed": seat_turns.missed_turns,
                "takeover": seat_turns.takeover,
            },
        )
        if final is not None:
            return await self._commit_last_move(write, final)
        with self._writing(game_id):
            entry: Entry | None = self._commit_at_once(write)
            if entry is None:
                entry = await self._group.submit(write)
        self._follow(write)
        return entry

    def _commit_at_once(self, write: _MoveWrite) -> Entry | None:
        """Commit a move right here when nothing else is writing and SQLite takes it on the
        event loop (see ``_wrote_inline``); ``None`` leaves it to the group commit.

        Why: through the group commit a move waits two turns of the event loop (its batch's
        task starts, then the move's caller wakes), each behind whatever else is queued; a
        move's answer waits for its commit. Raises ``StorageConflict`` if it lost its race."""
        if self._inline is None or not self._group.idle:
            return None
        if self._one_writer.locked():  # type: ignore[attr-defined]  # SQLite's asyncio.Lock
            return None
        try:
            entry_ids = self._wrote_inline([write], [], [])
        except _LostRace as lost:
            raise StorageConflict(str(lost)) from lost
        if entry_ids is None:
            return None
        self._committed()
        return write.entry(entry_ids[0])

    def _follow(self, write: _MoveWrite) -> None:
        """Bring the kept copy of the game to the state ``write`` committed."""
        game_id, values = write.values["game"], write.values
        kept = self._games.get(game_id)
        if kept is None:
            return
        if kept.row.version != values["expected"]:
            self._games.pop(game_id)
            return
        kept.row.state, kept.row.version = values["new_state"], values["new_version"]
        kept.row.updated_at, kept.row.turn_deadline = values["now"], values["deadline"]
        if write.seat_turns is not None:
            seat = kept.seats[write.seat_turns["seat_number"]]
            seat.missed_turns = write.seat_turns["missed"]
            seat.takeover = write.seat_turns["takeover"]
            seat.departed = seat.departed and seat.takeover
        if kept.moves is not None:
            move = write.move
            kept.moves.append(LoggedMove(values["new_version"], move["seat"], move["events"]))

    async def _commit_last_move(self, write: _MoveWrite, final: Sequence[FinalScore]) -> Entry:
        """The move that ends the game, with the results, alone; the game leaves memory."""
        game_id = write.values["game"]
        with self._replacing(game_id):
            async with self._write_session() as session:
                connection = await session.connection()
                result = await connection.execute(_STORE_STATE, write.values)
                if result.rowcount != 1:
                    raise StorageConflict(f"game {game_id} is not at the expected version")
                await connection.execute(_LOG_MOVE, write.log_values)
                if write.seat_turns is not None:
                    await connection.execute(_STORE_SEAT_TURNS, write.seat_turns)
                entry_id = (await connection.execute(_QUEUE, [write.outbox_values])).scalar_one()
                await self._add_results(session, game_id, final, "finished")
                await self._announce(connection, [game_id])
        return write.entry(entry_id)

    async def end(
        self,
        game_id: int,
        status: GameStatus,
        *,
        final: Sequence[FinalScore] | None = None,
        publication: Publication | None = None,
        only_from: GameStatus | None = None,
    ) -> tuple[GameRow, Entry | None]:
        """Cancel, abandon or expire an open game, with what it must publish;
        ``StorageConflict`` if it already ended (or, with ``only_from``, is no longer in that
        status: a lobby's expiry must not end the game another process started meanwhile)."""
        statuses = (only_from,) if only_from is not None else OPEN_STATUSES
        with self._replacing(game_id):
            async with self._write_session() as session:
                result = await session.exec(
                    update(GameRow)
                    .where(GameRow.id == game_id, col(GameRow.status).in_(statuses))
                    .values(status=status, version=GameRow.version + 1, updated_at=utcnow())
                )
                if result.rowcount != 1:
                    raise StorageConflict(f"game {game_id} has already ended")
                await self._announce(await session.connection(), [game_id])
                if final is not None:
                    await self._add_results(session, game_id, final, status.value)
                game = await session.get(GameRow, game_id)
                assert game is not None
                entry = None
                if publication is not None:
                    connection = await session.connection()
                    entry = await self._queue(connection, game_id, game.version, publication)
                return game, entry

    async def _add_results(
        self, session: AsyncSession, game_id: int, final: Sequence[FinalScore], outcome: str
    ) -> None:
        game = await session.get(GameRow, game_id)
        assert game is not None
        for entry in final:
            session.add(
                ResultRow(
                    game_id=game_id,
                    seat=entry.seat,
                    guild_id=game.guild_id,
                    game_key=game.game_key,
                    user_id=entry.user_id,
                    score=entry.score,
                    won=entry.won,
                    outcome=outcome,
                    ai_level=entry.ai_level,
                    with_ai=entry.with_ai,
                    autoplayed=entry.autoplayed,
                    side=entry.side,
                    departed=entry.departed,
                )
            )
        if outcome == GameStatus.FINISHED.value:
            await rate_in_session(session, game_id)  # the same transaction (bot/ratings)

    async def recent_moves(self, game_id: int, limit: int) -> list[LoggedMove]:
        """The last ``limit`` moves, oldest first (from memory for a running game)."""
        kept = self._games.get(game_id)
        if kept is not None and kept.moves is not None and limit <= KEPT_MOVES:
            return list(kept.moves)[-limit:]
        version = kept.row.version if kept is not None else None
        async with self.session() as session:
            query = (
                select(MoveRow)
                .where(MoveRow.game_id == game_id)
                .order_by(col(MoveRow.version).desc())
                .limit(max(limit, KEPT_MOVES))
            )
            moves = [
                LoggedMove(row.version, row.seat, row.events)
                for row in reversed((await session.exec(query)).all())
            ]
        if kept is not None and kept.row.version == version and self._games.get(game_id) is kept:
            kept.moves = deque(moves, maxlen=KEPT_MOVES)
        return moves[-limit:]

    async def move_count(self, game_id: int) -> int:
        async with self.session() as session:
            count = await session.scalar(
                select(func.count()).select_from(MoveRow).where(MoveRow.game_id == game_id)
            )
            return int(count or 0)

    # ------------------------------------------------------------------ users

    async def _known_users(self, user_ids: Sequence[int]) -> dict[int, KnownUser]:
        """What is known of ``user_ids``; those not in memory are read in one query."""
        known: dict[int, KnownUser] = {}
        missing = []
        for user_id in user_ids:
            user = self._users.get(user_id)
            if user is None:
                missing.append(user_id)
            else:
                known[user_id] = user
        if not missing:
            return known
        mark = self._user_writes
        async with self.session() as session:
            query = select(UserRow).where(col(UserRow.user_id).in_(missing))
            rows = {row.user_id: row for row in (await session.exec(query)).all()}
        keep = self._caching and self._user_writes == mark  # no write overtook the read
        for user_id in missing:
            row = rows.get(user_id)
            user = KnownUser(
                locale=row.locale if row else None,
                dms_closed_at=_aware(row.dms_closed_at) if row else None,
                dm_channel_id=row.dm_channel_id if row else None,
                hand_images=row.hand_images if row else None,
            )
            if keep:
                self._users.put(user_id, user)
            known[user_id] = user
        return known

    async def dms_closed(self, user_id: int) -> bool:
        return user_id in await self.users_with_closed_dms([user_id])

    async def users_with_closed_dms(self, user_ids: Sequence[int]) -> set[int]:
        """Those of ``user_ids`` whose DMs were found closed recently."""
        since = utcnow() - DMS_CLOSED_MEMORY
        known = await self._known_users(user_ids)
        return {
            user_id
            for user_id, user in known.items()
            if user.dms_closed_at is not None and user.dms_closed_at > since
        }

    async def set_dms_closed(self, user_id: int, closed: bool) -> None:
        closed_at = utcnow() if closed else None
        await self._known_users([user_id])
        async with self._writing_user(user_id) as session:
            await session.exec(
                self._upsert(UserRow, "user_id", user_id=user_id, dms_closed_at=closed_at)
            )
        self._user(user_id).dms_closed_at = closed_at

    async def remember_locale(self, user_id: int, locale: str) -> None:
        """Store the language of ``user_id``'s latest interaction (for DMs sent later).

        Writes only when it differs from what is known: most clicks change nothing.
        """
        known = await self._known_users([user_id])
        if known[user_id].locale == locale:
            return
        async with self._writing_user(user_id) as session:
            await session.exec(self._upsert(UserRow, "user_id", user_id=user_id, locale=locale))
        self._user(user_id).locale = locale

    async def remembered_locales(self, user_ids: Sequence[int]) -> dict[int, str]:
        """The remembered language of those of ``user_ids`` who have one."""
        known = await self._known_users(user_ids)
        return {user_id: user.locale for user_id, user in known.items() if user.locale}

    async def dm_channel(self, user_id: int) -> int | None:
        """The id of the bot's DM channel with ``user_id``, if it is known."""
        known = await self._known_users([user_id])
        return known[user_id].dm_channel_id

    async def remember_dm_channel(self, user_id: int, channel_id: int | None) -> None:
        """Store the id of the bot's DM channel with ``user_id`` (``None`` forgets it).

        Writes only when it differs from what is known: every hand DM tells it again.
        """
        known = await self._known_users([user_id])
        if known[user_id].dm_channel_id == channel_id:
            return
        async with self._writing_user(user_id) as session:
            await session.exec(
                self._upsert(UserRow, "user_id", user_id=user_id, dm_channel_id=channel_id)
            )
        self._user(user_id).dm_channel_id = channel_id

    async def forget_dm_channel(self, user_id: int, channel_id: int) -> None:
        """Forget ``channel_id`` as ``user_id``'s DM channel (Discord does not know it), unless
        another one is stored by now."""
        known = await self._known_users([user_id])
        if known[user_id].dm_channel_id == channel_id:
            await self.remember_dm_channel(user_id, None)

    @asynccontextmanager
    async def _writing_user(self, user_id: int) -> AsyncIterator[AsyncSession]:
        """A write transaction of a user's row, announced to other processes; a read that it
        overlaps is not kept (it may have seen the row before the write)."""
        self._user_writes += 1
        try:
            async with self._write_session() as session:
                yield session
                await self._announce(await session.connection(), users=[user_id])
        except BaseException:
            self._users.pop(user_id)
            raise
        finally:
            self._user_writes += 1

    def _user(self, user_id: int) -> KnownUser:
        """The memory of a user just written (a stand-in when it is not kept: the written
        field is then read from the database next time, with the others)."""
        return self._users.get(user_id) or KnownUser()

    def _upsert(
        self, table: type[UserRow] | type[GuildSettingsRow], key: str, **values: Any
    ) -> Any:
        """INSERT … ON CONFLICT (``key``) DO UPDATE, so concurrent first writes cannot clash.

        SQLite and PostgreSQL share the syntax but SQLAlchemy builds it per dialect.
        """
        dialect = postgresql if self.engine.dialect.name == "postgresql" else sqlite
        statement = dialect.insert(table).values(**values)
        changes = {name: value for name, value in values.items() if name != key}
        return statement.on_conflict_do_update(index_elements=[key], set_=changes)

    # ------------------------------------------------------------------ guild settings

    async def guild_language(self, guild_id: int) -> str | None:
        """The language ``/settings language`` chose for ``guild_id`` (``None``: Discord's)."""
        async with self.session() as session:
            settings = await session.get(GuildSettingsRow, guild_id)
            return settings.language if settings is not None else None

    async def set_guild_language(
        self, guild_id: int, language: str | None, public_locale: str
    ) -> list[Entry]:
        """Save the server's language and move its open games' public messages to
        ``public_locale`` in the same transaction, with a redraw of each in the outbox."""
        async with self._write_session() as session:
            await session.exec(
                self._upsert(
                    GuildSettingsRow,
                    "guild_id",
                    guild_id=guild_id,
                    language=language,
                    updated_at=utcnow(),
                )
            )
            open_games = (
                await session.exec(
                    select(GameRow.id, GameRow.version).where(
                        GameRow.guild_id == guild_id, col(GameRow.status).in_(OPEN_STATUSES)
                    )
                )
            ).all()
            await session.exec(
                update(GameRow)
                .where(col(GameRow.id).in_([game_id for game_id, _ in open_games]))
                .values(locale=public_locale)
            )
            connection = await session.connection()
            entries = [
                await self._queue(connection, int(game_id), version, Publication(REDRAW))
                for game_id, version in open_games
            ]
            await self._announce(connection, [int(game_id) for game_id, _ in open_games])
        for entry in entries:
            self._forget(entry.game_id)
        return entries

    # ------------------------------------------------------------------ standings

    async def standings(
        self, guild_id: int, game_key: str | None = None, *, with_ai: bool = False
    ) -> list[Standing]:
        """Finished games per player in ``guild_id``: best win count first, then points.

        All-human games by default; ``with_ai``: the humans' results in games with AI players
        (or a seat the AI took over), where a win the AI played for an absent human counts as
        played, not won. AI seats never appear.
        """
        won = col(ResultRow.won) & ~col(ResultRow.autoplayed)
        async with self.session() as session:
            query = (
                select(
                    ResultRow.user_id,
                    func.count(),
                    func.coalesce(func.sum(cast(won, Integer)), 0),
                    func.coalesce(func.sum(ResultRow.score), 0),
                )
                .where(
                    ResultRow.guild_id == guild_id,
                    ResultRow.outcome == "finished",
                    col(ResultRow.ai_level).is_(None),
                    col(ResultRow.with_ai).is_(with_ai),
                )
                .group_by(ResultRow.user_id)
            )
            if game_key is not None:
                query = query.where(ResultRow.game_key == game_key)
            rows = (await session.exec(query)).all()
        standings = [
            Standing(user_id=int(user), played=int(n), wins=int(w), points=int(p))
            for user, n, w, p in rows
        ]
        standings.sort(key=lambda s: (-s.wins, -s.win_rate, -s.points, s.user_id))
        return standings
