"""Run the Alembic migrations programmatically at start-up (``upgrade head``).

Why at start-up: ``make run`` is the only step a self-hoster runs, so the schema must create
and upgrade itself; Alembic keeps that safe for existing databases.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

MIGRATIONS = Path(__file__).with_name("migrations")
MIGRATION_LOCK = 0x476C6F7279
"""The PostgreSQL advisory lock that lets one process at a time migrate ("Glory")."""


def alembic_config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


async def upgrade(engine: AsyncEngine) -> None:
    """Bring the database behind ``engine`` to the newest schema.

    Several processes starting at once on one PostgreSQL would each create the same tables;
    the first takes a lock for its transaction, the others wait and then find nothing to do.
    """

    def run(connection: Connection) -> None:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        command.upgrade(alembic_config(connection), "head")

    async with engine.begin() as connection:
        await connection.run_sync(run)
