"""What ``/standings`` and ``/profile`` read from the rating tables."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import col, select

from bot.ratings.model import Z
from bot.ratings.tables import HUMAN, RatedGameRow, RatingChangeRow, RatingRow
from bot.storage.repository import Store

TREND_GAMES = 20


@dataclass(frozen=True)
class BoardEntry:
    """One line of a leaderboard: a human (``ai_level`` empty) or an AI level."""

    user_id: int
    ai_level: str
    mu: float
    sigma: float
    games: int
    wins: int

    @property
    def rating(self) -> float:
        """The conservative rating, μ − 3σ: what the leaderboard ranks by."""
        return self.mu - Z * self.sigma

    @property
    def is_ai(self) -> bool:
        return self.ai_level != HUMAN


def ranked(entries: list[BoardEntry]) -> list[BoardEntry]:
    """Best conservative rating first; then more games, then the smaller id (a fixed order)."""
    return sorted(entries, key=lambda e: (-e.rating, -e.games, e.user_id, e.ai_level))


async def leaderboard(
    store: Store, guild_id: int, game_key: str, *, with_ai: bool = False
) -> list[BoardEntry]:
    """The server's rated players of ``game_key``, best first (AI levels only ``with_ai``)."""
    query = select(RatingRow).where(RatingRow.guild_id == guild_id, RatingRow.game_key == game_key)
    if not with_ai:
        query = query.where(RatingRow.ai_level == HUMAN)
    async with store.session() as session:
        rows = (await session.exec(query)).all()
    return ranked([BoardEntry(r.user_id, r.ai_level, r.mu, r.sigma, r.games, r.wins) for r in rows])


async def rated_games(store: Store, guild_id: int) -> list[str]:
    """The games of this server that have a leaderboard."""
    async with store.session() as session:
        query = select(RatingRow.game_key).where(RatingRow.guild_id == guild_id).distinct()
        return sorted(str(key) for key in (await session.exec(query)).all())


@dataclass(frozen=True)
class GameRating:
    game_key: str
    entry: BoardEntry
    rank: int
    players: int
    trend: list[float]
    """The conservative rating after each of the player's last rated games, oldest first."""


async def profile(store: Store, guild_id: int, user_id: int) -> list[GameRating]:
    """``user_id``'s rating in each game of the server, with place and recent trend."""
    found: list[GameRating] = []
    for game_key in await rated_games(store, guild_id):
        board = await leaderboard(store, guild_id, game_key)
        place = next((i for i, e in enumerate(board, 1) if e.user_id == user_id), None)
        if place is None:
            continue
        trend = await _trend(store, guild_id, game_key, user_id)
        found.append(GameRating(game_key, board[place - 1], place, len(board), trend))
    return found


async def _trend(store: Store, guild_id: int, game_key: str, user_id: int) -> list[float]:
    query = (
        select(RatingChangeRow.mu_after, RatingChangeRow.sigma_after)
        .join(RatedGameRow, col(RatedGameRow.game_id) == col(RatingChangeRow.game_id))
        .where(
            RatingChangeRow.guild_id == guild_id,
            RatingChangeRow.game_key == game_key,
            RatingChangeRow.user_id == user_id,
            RatingChangeRow.ai_level == HUMAN,
            col(RatingChangeRow.counted).is_(True),
        )
        .order_by(col(RatedGameRow.seq).desc())
        .limit(TREND_GAMES)
    )
    async with store.session() as session:
        rows = (await session.exec(query)).all()
    return [mu - Z * sigma for mu, sigma in reversed(rows)]


@dataclass(frozen=True)
class SeatRatingChange:
    """How a seat's player's rating moved with one game (conservative ratings, μ − 3σ)."""

    seat: int
    before: float
    after: float
    counted: bool
    """False where the seat's result was nobody's (the AI played it at the end)."""

    @property
    def delta(self) -> float:
        return self.after - self.before


async def rating_changes(store: Store, game_id: int) -> dict[int, SeatRatingChange]:
    """Per seat, the change a finished game made to its player's rating (empty for a game that
    was not rated: abandoned, cancelled, or from before ratings)."""
    async with store.session() as session:
        rows = (
            await session.exec(select(RatingChangeRow).where(RatingChangeRow.game_id == game_id))
        ).all()
    return {
        row.seat: SeatRatingChange(
            row.seat,
            row.mu_before - Z * row.sigma_before,
            row.mu_after - Z * row.sigma_after,
            bool(row.counted),
        )
        for row in rows
    }
