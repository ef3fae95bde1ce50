"""A throwaway PostgreSQL database per test, when a server is configured.

``GLORY_TEST_POSTGRES_URL`` names a server and a user allowed to create databases (CI sets it,
see ``.ci/run``); each test gets a fresh database that is dropped afterwards. Without the
variable the PostgreSQL cases are skipped with that reason, unless ``GLORY_REQUIRE_POSTGRES=1``
(set in CI), which turns the missing server into a failure.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.storage.engine import normalise_url

URL_VARIABLE = "GLORY_TEST_POSTGRES_URL"


def server_url() -> str:
    url = os.environ.get(URL_VARIABLE, "").strip()
    if url:
        return url
    if os.environ.get("GLORY_REQUIRE_POSTGRES") == "1":
        pytest.fail(f"{URL_VARIABLE} is not set but GLORY_REQUIRE_POSTGRES=1 (CI must test it)")
    pytest.skip(f"no PostgreSQL server configured: set {URL_VARIABLE} to run this case")


@asynccontextmanager
async def fresh_database() -> AsyncIterator[str]:
    """The URL of a new, empty database on the configured server (dropped on exit)."""
    base = normalise_url(server_url())
    name = f"glory_test_{uuid.uuid4().hex[:12]}"
    admin = create_async_engine(base, isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as connection:
            await connection.execute(text(f'CREATE DATABASE "{name}"'))
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        async with admin.connect() as connection:
            await connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        await admin.dispose()
