"""The record of the last slash-command registration, per scope (table ``command_syncs``).

Why in the database: every process and every restart of the bot reads the same record, so a
bot whose commands did not change sends Discord nothing at start-up (Discord allows 200
command creations a day per server), and of several processes starting together on one
PostgreSQL exactly one registers: ``exclusive`` holds a transaction-level advisory lock while
the record is read, the commands are sent and the record is written; the others wait for it
and then find the record up to date.

SQLite is one process's database: there is nobody to wait for, and the registration's request
to Discord is made outside any transaction (a write transaction held across it would hold up
every move of the games in progress).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

COMMAND_SYNC_LOCK = 0x476C6F7279 + 12
"""The PostgreSQL advisory lock that lets one process at a time register commands (the
migrations' lock, ``bot/storage/migrate.py``, plus this migration's number)."""

COMMAND_SYNCS = sa.Table(
    "command_syncs",
    sa.MetaData(),
    sa.Column("scope", sa.String(40), primary_key=True),
    sa.Column("application_id", sa.BigInteger, nullable=False),
    sa.Column("fingerprint", sa.String(64), nullable=False),
    sa.Column("commands", sa.Integer, nullable=False),
    sa.Column("synced_at", sa.DateTime(timezone=True), nullable=False),
)
"""Migration 0010; Core only, as no other part of the bot reads it."""


@dataclass(frozen=True)
class CommandSync:
    """What was registered for one scope."""

    scope: str
    application_id: int
    fingerprint: str
    commands: int
    synced_at: datetime


class CommandSyncs:
    """Reads and writes the records while ``exclusive`` holds them."""

    def __init__(self, engine: AsyncEngine, connection: AsyncConnection | None) -> None:
        self._engine = engine
        self._connection = connection
        """PostgreSQL: the locked transaction every statement runs in; SQLite: none (each
        statement commits on its own)."""

    async def get(self, scope: str) -> CommandSync | None:
        query = sa.select(COMMAND_SYNCS).where(COMMAND_SYNCS.c.scope == scope)
        if self._connection is not None:
            row = (await self._connection.execute(query)).first()
        else:
            async with self._engine.connect() as connection:
                row = (await connection.execute(query)).first()
        if row is None:
            return None
        return CommandSync(
            scope=row.scope,
            application_id=row.application_id,
            fingerprint=row.fingerprint,
            commands=row.commands,
            synced_at=row.synced_at,
        )

    async def put(self, scope: str, application_id: int, fingerprint: str, commands: int) -> None:
        values = {
            "application_id": application_id,
            "fingerprint": fingerprint,
            "commands": commands,
            "synced_at": datetime.now(UTC),
        }
        delete = COMMAND_SYNCS.delete().where(COMMAND_SYNCS.c.scope == scope)
        insert = COMMAND_SYNCS.insert().values(scope=scope, **values)
        if self._connection is not None:
            await self._connection.execute(delete)
            await self._connection.execute(insert)
            return
        async with self._engine.begin() as connection:
            await connection.execute(delete)
            await connection.execute(insert)


@asynccontextmanager
async def exclusive(engine: AsyncEngine) -> AsyncIterator[CommandSyncs]:
    """The records, held by this process until the block ends (PostgreSQL: an advisory lock
    for one transaction, committed at the end; SQLite: one process, no lock needed)."""
    if engine.dialect.name != "postgresql":
        yield CommandSyncs(engine, None)
        return
    async with engine.begin() as connection:
        await connection.execute(
            sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": COMMAND_SYNC_LOCK}
        )
        yield CommandSyncs(engine, connection)
