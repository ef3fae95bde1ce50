"""Run the Alembic migrations programmatically at start-up (``upgrade head``).

Why at start-up: ``make run`` is the only step a self-hoster runs, so the schema must create
and upgrade itself; Alembic keeps that safe for existing databases.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

MIGRATIONS = Path(__file__).with_name("migrations")


def alembic_config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


async def upgrade(engine: AsyncEngine) -> None:
    """Bring the database behind ``engine`` to the newest schema."""

    def run(connection: Connection) -> None:
        command.upgrade(alembic_config(connection), "head")

    async with engine.begin() as connection:
        await connection.run_sync(run)
