"""Standings: finished games per player of a server (``/standings``), from ``results``.

The results are written when a game ends (``playing``); ratings are ``bot/ratings``'s.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Integer, cast, func
from sqlmodel import col, select

from bot.storage.base import StoreBase
from bot.storage.models import ResultRow


@dataclass(frozen=True)
class Standing:
    user_id: int
    played: int
    wins: int
    points: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.played if self.played else 0.0


class Standings(StoreBase):
    """Reading the standings of a server."""

    async def standings(
        self, guild_id: int, game_key: str | None = None, *, with_ai: bool = False
    ) -> list[Standing]:
        """Finished games per player in ``guild_id``: best win count first, then points.

        All-human games by default; ``with_ai``: the humans' results in games with AI players
        (or a seat the AI took over), where a win the AI played for an absent human counts as
        played, not won. AI seats never appear.
        """
        won = col(ResultRow.won) & ~col(ResultRow.autoplayed)
        async with self.session() as session:
            query = (
                select(
                    ResultRow.user_id,
                    func.count(),
                    func.coalesce(func.sum(cast(won, Integer)), 0),
                    func.coalesce(func.sum(ResultRow.score), 0),
                )
                .where(
                    ResultRow.guild_id == guild_id,
                    ResultRow.outcome == "finished",
                    col(ResultRow.ai_level).is_(None),
                    col(ResultRow.with_ai).is_(with_ai),
                )
                .group_by(ResultRow.user_id)
            )
            if game_key is not None:
                query = query.where(ResultRow.game_key == game_key)
            rows = (await session.exec(query)).all()
        standings = [
            Standing(user_id=int(user), played=int(n), wins=int(w), points=int(p))
            for user, n, w, p in rows
        ]
        standings.sort(key=lambda s: (-s.wins, -s.win_rate, -s.points, s.user_id))
        return standings
