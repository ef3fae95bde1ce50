"""Alembic environment: always runs on the connection ``bot.storage.migrate`` passes in.

For the ``alembic`` command line, it connects to ``DATABASE_URL`` itself.
"""

from __future__ import annotations

import asyncio
import os

from alembic import context
from sqlmodel import SQLModel

import bot.storage.models  # noqa: F401  (registers the tables on SQLModel.metadata)

target_metadata = SQLModel.metadata


def run_on(connection) -> None:  # type: ignore[no-untyped-def]
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


async def run_from_url() -> None:
    from bot.process.config import DEFAULT_DATABASE_URL
    from bot.storage.engine import create_engine

    engine = create_engine(os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL)
    async with engine.begin() as connection:
        await connection.run_sync(run_on)
    await engine.dispose()


connection = context.config.attributes.get("connection")
if connection is not None:
    run_on(connection)
else:
    asyncio.run(run_from_url())
