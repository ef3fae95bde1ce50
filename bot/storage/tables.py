"""The Core tables behind the SQLModel rows, for statements built once.

Why: the hot paths (a move's batch, the claims) build their statements from SQLAlchemy Core
tables once at import, not per call; every part of the store shares these handles.
"""

from __future__ import annotations

from bot.storage.models import ClaimRow, GameRow, MoveRow, OutboxRow, SeatRow

GAMES = GameRow.__table__  # type: ignore[attr-defined]
SEATS = SeatRow.__table__  # type: ignore[attr-defined]
MOVES = MoveRow.__table__  # type: ignore[attr-defined]
OUTBOX = OutboxRow.__table__  # type: ignore[attr-defined]
CLAIMS = ClaimRow.__table__  # type: ignore[attr-defined]
