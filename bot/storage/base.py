"""What every part of the store shares: connections, writers, memory and other processes.

Why: the store is split by what it stores (games, lobbies, playing, outbox, claims, users,
settings, standings: one module each, composed into ``Store`` in ``repository.py``), but all
of them write through the same few paths, which stay here so that their rules hold everywhere:

- connections and writers: one writer at a time on SQLite, a checkpoint of its log after
  commits, sessions for reads;
- memory (``cache``): running games and users kept between clicks, and the bookkeeping that
  keeps a read that a write overtook out of it;
- the group commit's batch (``group_commit``, ``batch``): moves, hand-message ids and
  delivered entries of many games in one transaction;
- other processes (``changes``): the change notices a write sends, and what a heard notice
  drops from memory.

The parts are mixins of ``StoreBase`` and use only what it defines (and, where one needs
another, the part it subclasses), so each reads without the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager, nullcontext
from typing import Any, Self

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.storage import changes
from bot.storage.batch import (
    DeliveredWrite,
    HandWrite,
    LostRace,
    MoveWrite,
    Write,
    is_locked,
    write_rows,
)
from bot.storage.cache import KEPT_GAMES, KEPT_USERS, KeptGame, KnownUser, LruCache
from bot.storage.changes import ChangeFeed
from bot.storage.engine import create_engine, create_inline_engine
from bot.storage.errors import StorageConflict
from bot.storage.group_commit import GroupCommit, Outcome
from bot.storage.migrate import upgrade
from bot.storage.models import GuildSettingsRow, UserRow
from bot.storage.tables import CLAIMS

CHECKPOINT_SECONDS = 1.0
"""Least time between two checkpoints of SQLite's log (see ``Store._committed``)."""
INLINE_PAUSE_SECONDS = 5.0
"""After the inline connection found SQLite locked, how long writes skip it (``_wrote_inline``)."""

log = logging.getLogger(__name__)


class StoreBase:
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
        self._group: GroupCommit[Write] = GroupCommit(self._write_batch)
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
    async def open(cls, url: str, *, shared: bool | None = None) -> Self:
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
                    await connection.execute(CLAIMS.delete().where(CLAIMS.c.owner == self.origin))
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

    async def _write_batch(self, writes: Sequence[Write]) -> list[Outcome]:
        """Moves, hand-message ids and delivered outbox entries of many games in one
        transaction (see group_commit). A move's outcome is its outbox ``Entry``.

        A move whose compare-and-swap fails makes the batch fail as a whole; its writes are
        then tried one at a time, so that only the one that lost its race is refused.
        """
        moves = [write for write in writes if isinstance(write, MoveWrite)]
        hands = [write.values for write in writes if isinstance(write, HandWrite)]
        delivered = [
            entry
            for write in writes
            if isinstance(write, DeliveredWrite)
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
                            write_rows, moves, hands, delivered, notices
                        )
            self._committed()
        except LostRace as lost:
            if len(writes) == 1:
                return [StorageConflict(str(lost))]
            return [(await self._write_batch([write]))[0] for write in writes]
        entries = iter(entry_ids)
        return [
            write.entry(next(entries)) if isinstance(write, MoveWrite) else None for write in writes
        ]

    def _wrote_inline(
        self, moves: list[MoveWrite], hands: list[dict[str, Any]], delivered: list[int]
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
                return write_rows(connection, moves, hands, delivered)
        except OperationalError as error:
            if not is_locked(error):
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
