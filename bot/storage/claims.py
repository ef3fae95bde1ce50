"""Claims: work on a game that exactly one of several processes does at a time.

Why: with several bot processes on one PostgreSQL, any process may commit a game's move (a DM
click always reaches shard 0, the channel's clicks reach the guild's shard), and each would
then start to deliver the move's outbox entry, search for the AI seat on turn, or fire the
turn clock's deadline. The compare-and-swap on the version keeps a second *move* out, but
not a second delivery or a wasted search. A claim is a row in ``claims`` per game and kind of
work, with a lease: taken with one ``INSERT … ON CONFLICT DO UPDATE … WHERE`` that succeeds
only if nobody holds it or the holder's lease ran out, renewed while the work lasts, and
deleted when it is done. Times are the database's (``now()``), so the machines' clocks need
not agree.

A claim is held while its lease lasts **and** its owner is running (``liveness``: each shared
store holds an advisory lock named after it on a connection it keeps open). A process killed
with its claims frees them at once (the server ends its sessions when the kernel closes their
sockets); a host that vanishes without closing them frees them when the lease runs out. The
liveness check reads ``pg_locks``; it is the last condition of each statement, so only a claim
that is otherwise held (another process's, within its lease) pays for it.

Only for several processes (``Store.shared``, PostgreSQL): one process has nobody to share
with, and the SQLite path does none of this.
"""

from __future__ import annotations

from sqlalchemy import text

from bot.storage import liveness

OUTBOX = "outbox"
"""Delivering a game's outbox entries (``bot/outbox/courier.py``)."""
TURN = "turn"
"""The AI's search and move for the turn at the claim's ``version`` (``bot/ai/autoplay.py``)."""

OUTBOX_LEASE_SECONDS = 30.0
"""How long a courier's claim lasts without renewal (it is renewed every third of that)."""
TURN_LEASE_SECONDS = 60.0
"""How long an AI search may take before another process may search the same turn again
(a search is capped by ``AI_MAX_MS``, a few seconds)."""

CLAIM = text(
    f"""
    INSERT INTO claims (game_id, kind, owner, token, version, lease_until)
    SELECT :game, :kind, :owner, :token, CAST(:version AS integer),
           now() + make_interval(secs => CAST(:lease AS double precision))
    WHERE CAST(:version AS integer) IS NULL
       OR EXISTS (
           SELECT 1 FROM games
           WHERE id = :game AND version = CAST(:version AS integer) AND status = 'active'
       )
    ON CONFLICT (game_id, kind) DO UPDATE
    SET owner = excluded.owner, token = excluded.token, version = excluded.version,
        lease_until = excluded.lease_until
    WHERE claims.lease_until < now()
       OR claims.owner = excluded.owner
       OR claims.version IS DISTINCT FROM excluded.version
       OR {liveness.dead("claims.owner")}
    RETURNING token
    """
)
"""Take the claim if it is free, its lease ran out, it is this process's own (a newer piece of
the same work: the new token wins), (``turn``) it was for another turn, or its owner is no
longer running. A ``turn`` claim is only taken while the game is still at that version."""

RENEW = text(
    """
    UPDATE claims
    SET lease_until = now() + make_interval(secs => CAST(:lease AS double precision))
    WHERE token = ANY(CAST(:tokens AS text[]))
    RETURNING token
    """
)
"""Extend the leases of the claims still held; a token missing from the answer was lost."""

RELEASE = text("DELETE FROM claims WHERE token = ANY(CAST(:tokens AS text[]))")

UNCLAIMED_OUTBOX = f"""
    NOT EXISTS (
        SELECT 1 FROM claims
        WHERE claims.game_id = outbox.game_id AND claims.kind = 'outbox'
          AND claims.lease_until >= now() AND {liveness.alive("claims.owner")}
    )
"""
"""An outbox entry whose game no live courier holds (SQL condition on ``outbox``)."""

ABANDONED_OUTBOX = f"""
    EXISTS (
        SELECT 1 FROM claims
        WHERE claims.game_id = outbox.game_id AND claims.kind = 'outbox'
          AND {liveness.dead("claims.owner")}
    )
"""
"""An outbox entry whose game's courier died (SQL condition on ``outbox``): nobody else
delivers it, however young it is (a courier of a live process would have taken the claim)."""

RELEASE_OUTBOX = """
    WITH forgotten AS (
        DELETE FROM outbox WHERE id = ANY(CAST(:delivered AS integer[])) RETURNING id
    ), released AS (
        DELETE FROM claims WHERE token = :token RETURNING token
    )
    SELECT outbox.id, outbox.version, outbox.kind, outbox.body
    FROM outbox
    WHERE outbox.game_id = :game AND outbox.id <> ALL(CAST(:delivered AS integer[]))
    ORDER BY outbox.id
"""
"""Delete the delivered entries and the claim, and read the game's entries left, in one
statement (PostgreSQL runs data-modifying ``WITH`` parts whether or not they are read; the
``SELECT`` sees the table as it was, hence the delivered ones are left out by id)."""
