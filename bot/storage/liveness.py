"""Liveness: whether the process that holds a claim is still running (several processes).

Why: a claim (``claims``) has a lease so that a process that dies cannot keep a game's work
forever, but a lease long enough for a live process (30 s for an outbox, 60 s for an AI turn)
is as long a stall for the games a killed process was delivering; its restarted self gets a
new name and cannot take its old claims back either. PostgreSQL knows sooner: when a process
dies, the kernel closes its sockets and the server ends its sessions within milliseconds,
releasing their locks.

So every shared store holds a session-level advisory lock named after its ``origin``, on the
connection it keeps open for its whole life (the change feed's listening connection, taken
again whenever that connection is re-opened). A claim whose owner's lock nobody holds is free
at once, whatever its lease; a claim whose owner holds it stays exclusive until its lease runs
out. The lease remains the fallback for a host that vanishes without closing its sockets (its
sessions linger on the server until the server's keepalive gives up, but the lease lapses).

The key is ``hashtextextended(origin, 0)``, computed by the server both when the lock is taken
and when a claim's ``owner`` is checked, so the two can never disagree. The check reads
``pg_locks``, which only the claims that are contended reach (see ``claims``).
"""

from __future__ import annotations

import asyncpg

KEY = "hashtextextended({owner}, 0)"
"""The advisory lock key (one bigint) of the store named ``owner`` (an SQL expression)."""

LIVE_KEYS = """(
    SELECT (pg_locks.classid::bigint << 32) | pg_locks.objid::bigint
    FROM pg_locks
    WHERE pg_locks.locktype = 'advisory' AND pg_locks.objsubid = 1 AND pg_locks.granted
      AND pg_locks.database = (SELECT oid FROM pg_database WHERE datname = current_database())
)"""
"""The keys of the one-bigint advisory locks held in this database (a bigint key is shown in
``pg_locks`` as its high half in ``classid``, its low half in ``objid``, and ``objsubid`` 1).
Uncorrelated, so PostgreSQL reads it once per statement, and only when a condition needs it."""


def alive(owner: str) -> str:
    """SQL condition: the store named by the SQL expression ``owner`` is running (holds its
    lock)."""
    return f"{KEY.format(owner=owner)} IN {LIVE_KEYS}"


def dead(owner: str) -> str:
    """SQL condition: the store named by ``owner`` is not running (nobody holds its lock)."""
    return f"{KEY.format(owner=owner)} NOT IN {LIVE_KEYS}"


TAKE = f"SELECT pg_try_advisory_lock({KEY.format(owner='$1')})"
WAIT = f"SELECT pg_advisory_lock({KEY.format(owner='$1')})"


async def take(connection: asyncpg.Connection, origin: str) -> bool:
    """Hold the lock of the store named ``origin`` on ``connection`` (for as long as the
    connection lives); False if another session holds it still (this store's previous
    connection, which the server has not yet seen closed)."""
    return bool(await connection.fetchval(TAKE, origin))


async def wait(connection: asyncpg.Connection, origin: str) -> None:
    """Hold the lock once the session that holds it now has ended."""
    await connection.execute(WAIT, origin)
