"""Creating the engines: URL normalisation and SQLite connection settings.

Why the PRAGMAs: WAL lets readers run while a move commits, ``busy_timeout`` makes a second
writer wait instead of failing with "database is locked", and SQLite ignores foreign keys unless
told otherwise. Hosts hand out ``postgres://`` URLs that SQLAlchemy rejects, and a bare
``postgresql://`` would pick a sync driver, so both become ``postgresql+asyncpg://``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import sqlalchemy
from sqlalchemy import event
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import StaticPool

SQLITE_BUSY_TIMEOUT_MS = 10_000
INLINE_BUSY_TIMEOUT_MS = 20
"""How long an inline write waits for a lock held by another process (see
``create_inline_engine``) before it hands the write to a worker thread, which may wait longer."""


def dumps(value: Any) -> str:
    """JSON text of a column value: orjson, several times faster than ``json`` on a state.

    Stricter too: a dict key that is not a string is an error instead of silently becoming
    one, so a state that would not load back as it was is refused before it is stored.
    """
    return orjson.dumps(value).decode()


loads = orjson.loads


def normalise_url(url: str) -> URL:
    """The async-driver URL for ``url`` (``postgres://`` → ``postgresql+asyncpg://`` …)."""
    parsed = make_url(url)
    backend = parsed.get_backend_name()
    if backend in ("postgres", "postgresql"):
        return parsed.set(drivername="postgresql+asyncpg")
    if backend == "sqlite" and parsed.drivername != "sqlite+aiosqlite":
        return parsed.set(drivername="sqlite+aiosqlite")
    return parsed


def create_engine(url: str) -> AsyncEngine:
    """An async engine for ``url``; creates the SQLite file's directory if needed."""
    parsed = normalise_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_async_engine(
            parsed, pool_pre_ping=True, json_serializer=dumps, json_deserializer=loads
        )
    database = parsed.database or ""
    if not database or database == ":memory:" or database.startswith("file:"):
        raise ValueError("use a SQLite file: several connections must see the same database")
    Path(database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_async_engine(
        parsed,
        connect_args={"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000},
        json_serializer=dumps,
        json_deserializer=loads,
    )

    _set_pragmas_on_connect(engine.sync_engine, SQLITE_BUSY_TIMEOUT_MS)
    return engine


def create_inline_engine(engine: AsyncEngine) -> Engine | None:
    """For a SQLite ``engine``: one plain connection to the same file, used on the event loop.

    Why: through aiosqlite every statement is a round trip to a worker thread and back through
    the event loop, and a move's transaction took six of them. Under load each waited behind
    everything else the loop had to do, so the commit of a batch of moves took 100-300 ms at
    300 moves/s (``benchmarks/bot_load.py``). Run on the loop, the same transaction takes well
    under a millisecond: in WAL mode with ``synchronous=NORMAL`` a commit appends to the log
    without waiting for the disk. The store writes moves this way, one writer at a time, and
    falls back to the worker threads if another process holds the lock. ``None`` for
    PostgreSQL, whose driver is asynchronous already.
    """
    if engine.dialect.name != "sqlite":
        return None
    inline = sqlalchemy.create_engine(
        engine.url.set(drivername="sqlite"),
        poolclass=StaticPool,
        json_serializer=dumps,
        json_deserializer=loads,
    )
    _set_pragmas_on_connect(inline, INLINE_BUSY_TIMEOUT_MS)
    return inline


def _set_pragmas_on_connect(engine: Engine, busy_timeout_ms: int) -> None:
    @event.listens_for(engine, "connect")
    def _sqlite_pragmas(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={busy_timeout_ms}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA wal_autocheckpoint=0")  # the Store checkpoints (see there)
        cursor.close()
