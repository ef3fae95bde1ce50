"""The only code that reads or writes game data.

Why a repository: the move pipeline must commit *before* any Discord call, with a
compare-and-swap on ``games.version``; keeping every statement here makes that rule visible and
lets the storage tests exercise it without Discord.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Integer, cast, func, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.storage.engine import create_engine
from bot.storage.migrate import upgrade
from bot.storage.models import (
    OPEN_STATUSES,
    GameRow,
    GameStatus,
    GuildSettingsRow,
    MoveRow,
    ResultRow,
    SeatRow,
    UserRow,
    utcnow,
)

OPENING_SEAT = -1
"""The move-log "seat" of the setup events, which no player caused."""
DMS_CLOSED_MEMORY = timedelta(hours=12)
"""How long a closed-DM answer (403, code 50007) is trusted before a DM is tried again."""


class StorageConflict(Exception):
    """A write lost a race: the game changed (version or status) since it was read."""


class ChannelBusy(StorageConflict):
    """The channel already has a lobby or a running game."""


@dataclass(frozen=True)
class MoveRecord:
    """What a committed move adds to the log."""

    seat: int
    action: dict[str, Any]
    events: list[dict[str, Any]]


@dataclass(frozen=True)
class FinalScore:
    seat: int
    user_id: int
    score: int
    won: bool


@dataclass(frozen=True)
class Standing:
    user_id: int
    played: int
    wins: int
    points: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.played if self.played else 0.0


class Store:
    """Async access to the database behind ``engine``."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._sessions = async_sessionmaker(engine, class_=AsyncSession, expire_on_commit=False)

    @classmethod
    async def open(cls, url: str) -> Store:
        """Connect to ``url`` and run the migrations."""
        engine = create_engine(url)
        await upgrade(engine)
        return cls(engine)

    async def close(self) -> None:
        await self.engine.dispose()

    def session(self) -> AsyncSession:
        return self._sessions()

    # ------------------------------------------------------------------ games

    async def game(self, game_id: int) -> GameRow | None:
        async with self.session() as session:
            return await session.get(GameRow, game_id)

    async def open_game_in_channel(self, channel_id: int) -> GameRow | None:
        async with self.session() as session:
            query = select(GameRow).where(
                GameRow.channel_id == channel_id, col(GameRow.status).in_(OPEN_STATUSES)
            )
            return (await session.exec(query)).first()

    async def latest_game_in_channel(self, channel_id: int) -> GameRow | None:
        """The open game of the channel, else its most recently started one."""
        async with self.session() as session:
            query = (
                select(GameRow)
                .where(GameRow.channel_id == channel_id, col(GameRow.state).is_not(None))
                .order_by(col(GameRow.id).desc())
            )
            return (await session.exec(query)).first()

    async def open_games(self, status: GameStatus | None = None) -> list[GameRow]:
        statuses = (status,) if status else OPEN_STATUSES
        async with self.session() as session:
            query = select(GameRow).where(col(GameRow.status).in_(statuses))
            return list((await session.exec(query)).all())

    async def create_lobby(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        host_locale: str,
        game_key: str,
        options: dict[str, Any],
        locale: str,
        expires_at: datetime,
    ) -> GameRow:
        """A new lobby with the host in seat 0; ``ChannelBusy`` if the channel has a game."""
        game = GameRow(
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            game_key=game_key,
            options=options,
            locale=locale,
            expires_at=expires_at,
        )
        try:
            async with self.session() as session, session.begin():
                session.add(game)
                await session.flush()
                assert game.id is not None
                session.add(
                    SeatRow(
                        game_id=game.id,
                        seat=0,
                        user_id=host_id,
                        display_name=host_name,
                        locale=host_locale,
                    )
                )
        except IntegrityError as error:
            raise ChannelBusy(str(error)) from error
        return game

    async def set_message(self, game_id: int, **message_ids: int | None) -> None:
        """Remember ``lobby_message_id`` / ``table_message_id`` (not a move: no version bump)."""
        async with self.session() as session, session.begin():
            await session.exec(update(GameRow).where(GameRow.id == game_id).values(**message_ids))

    async def set_options(self, game_id: int, options: dict[str, Any]) -> None:
        await self._lobby_update(game_id, options=options)

    async def _lobby_update(self, game_id: int, **values: Any) -> None:
        async with self.session() as session, session.begin():
            result = await session.exec(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.status == GameStatus.LOBBY)
                .values(updated_at=utcnow(), **values)
            )
            if result.rowcount != 1:
                raise StorageConflict(f"game {game_id} is no longer a lobby")

    # ------------------------------------------------------------------ seats

    async def game_with_seats(self, game_id: int) -> tuple[GameRow, list[SeatRow]] | None:
        """A game and its seats in one round trip (the hot path of every click)."""
        async with self.session() as session:
            game = await session.get(GameRow, game_id)
            if game is None:
                return None
            query = select(SeatRow).where(SeatRow.game_id == game_id).order_by(col(SeatRow.seat))
            return game, list((await session.exec(query)).all())

    async def seats(self, game_id: int) -> list[SeatRow]:
        async with self.session() as session:
            query = select(SeatRow).where(SeatRow.game_id == game_id).order_by(col(SeatRow.seat))
            return list((await session.exec(query)).all())

    async def join(self, game_id: int, user_id: int, name: str, locale: str) -> SeatRow:
        """Take the next free seat of a lobby (``StorageConflict`` if it is not a lobby)."""
        async with self.session() as session, session.begin():
            await self._lock_lobby(session, game_id)
            count = await session.scalar(
                select(func.count()).select_from(SeatRow).where(SeatRow.game_id == game_id)
            )
            seat = SeatRow(
                game_id=game_id, seat=count or 0, user_id=user_id, display_name=name, locale=locale
            )
            session.add(seat)
        return seat

    async def leave_lobby(self, game_id: int, user_id: int) -> None:
        """Give up a lobby seat; later seats move up so seat numbers stay contiguous."""
        async with self.session() as session, session.begin():
            await self._lock_lobby(session, game_id)
            seats = (
                await session.exec(
                    select(SeatRow).where(SeatRow.game_id == game_id).order_by(col(SeatRow.seat))
                )
            ).all()
            remaining = [s for s in seats if s.user_id != user_id]
            for seat in seats:
                await session.delete(seat)
            await session.flush()
            for number, seat in enumerate(remaining):
                session.add(
                    SeatRow(
                        game_id=game_id,
                        seat=number,
                        user_id=seat.user_id,
                        display_name=seat.display_name,
                        locale=seat.locale,
                        joined_at=seat.joined_at,
                    )
                )

    async def _lock_lobby(self, session: AsyncSession, game_id: int) -> None:
        """Start the transaction as a writer (bumps ``updated_at``) and check the status."""
        result = await session.exec(
            update(GameRow)
            .where(GameRow.id == game_id, GameRow.status == GameStatus.LOBBY)
            .values(updated_at=utcnow())
        )
        if result.rowcount != 1:
            raise StorageConflict(f"game {game_id} is no longer a lobby")

    async def set_hand_message(
        self, game_id: int, seat: int, channel_id: int | None, message_id: int | None
    ) -> None:
        async with self.session() as session, session.begin():
            await session.exec(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat)
                .values(hand_channel_id=channel_id, hand_message_id=message_id)
            )

    # ------------------------------------------------------------------ playing

    async def start(
        self,
        game_id: int,
        *,
        seed: int,
        state: dict[str, Any],
        opening_events: Sequence[dict[str, Any]] = (),
    ) -> None:
        """Lobby → active with the initial engine state at version 1.

        The engine's setup events (deal, start player …) open the move log as seat -1.
        """
        async with self.session() as session, session.begin():
            result = await session.exec(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.status == GameStatus.LOBBY)
                .values(
                    status=GameStatus.ACTIVE,
                    seed=seed,
                    state=state,
                    version=1,
                    expires_at=None,
                    updated_at=utcnow(),
                )
            )
            if result.rowcount != 1:
                raise StorageConflict(f"game {game_id} is no longer a lobby")
            if opening_events:
                session.add(
                    MoveRow(
                        game_id=game_id,
                        version=1,
                        seat=OPENING_SEAT,
                        action={"kind": "opening"},
                        events=list(opening_events),
                    )
                )

    async def commit_move(
        self,
        game_id: int,
        *,
        expected_version: int,
        state: dict[str, Any],
        move: MoveRecord,
        final: Sequence[FinalScore] | None = None,
    ) -> int:
        """Store the state after ``move`` if the game is still at ``expected_version``.

        Returns the new version. ``final`` (the game ended) also records the results.
        Raises ``StorageConflict`` when another move got there first.
        """
        new_version = expected_version + 1
        status = GameStatus.FINISHED if final is not None else GameStatus.ACTIVE
        async with self.session() as session, session.begin():
            result = await session.exec(
                update(GameRow)
                .where(
                    GameRow.id == game_id,
                    GameRow.version == expected_version,
                    GameRow.status == GameStatus.ACTIVE,
                )
                .values(state=state, version=new_version, status=status, updated_at=utcnow())
            )
            if result.rowcount != 1:
                raise StorageConflict(f"game {game_id} is not at version {expected_version}")
            session.add(
                MoveRow(
                    game_id=game_id,
                    version=new_version,
                    seat=move.seat,
                    action=move.action,
                    events=move.events,
                )
            )
            if final is not None:
                await self._add_results(session, game_id, final, "finished")
        return new_version

    async def end(
        self,
        game_id: int,
        status: GameStatus,
        *,
        final: Sequence[FinalScore] | None = None,
    ) -> GameRow:
        """Cancel, abandon or expire an open game; ``StorageConflict`` if it already ended."""
        async with self.session() as session, session.begin():
            result = await session.exec(
                update(GameRow)
                .where(GameRow.id == game_id, col(GameRow.status).in_(OPEN_STATUSES))
                .values(status=status, version=GameRow.version + 1, updated_at=utcnow())
            )
            if result.rowcount != 1:
                raise StorageConflict(f"game {game_id} has already ended")
            if final is not None:
                await self._add_results(session, game_id, final, status.value)
            game = await session.get(GameRow, game_id)
            assert game is not None
            return game

    async def _add_results(
        self, session: AsyncSession, game_id: int, final: Sequence[FinalScore], outcome: str
    ) -> None:
        game = await session.get(GameRow, game_id)
        assert game is not None
        for entry in final:
            session.add(
                ResultRow(
                    game_id=game_id,
                    seat=entry.seat,
                    guild_id=game.guild_id,
                    game_key=game.game_key,
                    user_id=entry.user_id,
                    score=entry.score,
                    won=entry.won,
                    outcome=outcome,
                )
            )

    async def recent_moves(self, game_id: int, limit: int) -> list[MoveRow]:
        """The last ``limit`` moves, oldest first."""
        async with self.session() as session:
            query = (
                select(MoveRow)
                .where(MoveRow.game_id == game_id)
                .order_by(col(MoveRow.version).desc())
                .limit(limit)
            )
            return list(reversed((await session.exec(query)).all()))

    async def move_count(self, game_id: int) -> int:
        async with self.session() as session:
            count = await session.scalar(
                select(func.count()).select_from(MoveRow).where(MoveRow.game_id == game_id)
            )
            return int(count or 0)

    # ------------------------------------------------------------------ users

    async def dms_closed(self, user_id: int) -> bool:
        return user_id in await self.users_with_closed_dms([user_id])

    async def users_with_closed_dms(self, user_ids: Sequence[int]) -> set[int]:
        """Those of ``user_ids`` whose DMs were found closed recently (one query)."""
        since = utcnow() - DMS_CLOSED_MEMORY
        async with self.session() as session:
            query = select(UserRow).where(
                col(UserRow.user_id).in_(list(user_ids)), col(UserRow.dms_closed_at).is_not(None)
            )
            users = (await session.exec(query)).all()
        closed = set()
        for user in users:
            closed_at = user.dms_closed_at
            assert closed_at is not None
            if closed_at.tzinfo is None:  # SQLite returns naive datetimes (stored as UTC)
                closed_at = closed_at.replace(tzinfo=since.tzinfo)
            if closed_at > since:
                closed.add(user.user_id)
        return closed

    async def set_dms_closed(self, user_id: int, closed: bool) -> None:
        async with self.session() as session, session.begin():
            user = await session.get(UserRow, user_id)
            if user is None:
                user = UserRow(user_id=user_id)
            user.dms_closed_at = utcnow() if closed else None
            session.add(user)

    async def remember_locale(self, user_id: int, locale: str) -> None:
        """Store the language of ``user_id``'s latest interaction (for DMs sent later)."""
        async with self.session() as session, session.begin():
            await session.exec(self._upsert(UserRow, "user_id", user_id=user_id, locale=locale))

    async def remembered_locales(self, user_ids: Sequence[int]) -> dict[int, str]:
        """The remembered language of those of ``user_ids`` who have one (one query)."""
        async with self.session() as session:
            query = select(UserRow.user_id, UserRow.locale).where(
                col(UserRow.user_id).in_(list(user_ids)), col(UserRow.locale).is_not(None)
            )
            return {int(user): str(locale) for user, locale in (await session.exec(query)).all()}

    def _upsert(
        self, table: type[UserRow] | type[GuildSettingsRow], key: str, **values: Any
    ) -> Any:
        """INSERT … ON CONFLICT (``key``) DO UPDATE, so concurrent first writes cannot clash.

        SQLite and PostgreSQL share the syntax but SQLAlchemy builds it per dialect.
        """
        dialect = postgresql if self.engine.dialect.name == "postgresql" else sqlite
        statement = dialect.insert(table).values(**values)
        changes = {name: value for name, value in values.items() if name != key}
        return statement.on_conflict_do_update(index_elements=[key], set_=changes)

    # ------------------------------------------------------------------ guild settings

    async def guild_language(self, guild_id: int) -> str | None:
        """The language ``/settings language`` chose for ``guild_id`` (``None``: Discord's)."""
        async with self.session() as session:
            settings = await session.get(GuildSettingsRow, guild_id)
            return settings.language if settings is not None else None

    async def set_guild_language(
        self, guild_id: int, language: str | None, public_locale: str
    ) -> list[int]:
        """Save the server's language and move its open games' public messages to
        ``public_locale`` in the same transaction; the ids of those games, to redraw them."""
        async with self.session() as session, session.begin():
            await session.exec(
                self._upsert(
                    GuildSettingsRow,
                    "guild_id",
                    guild_id=guild_id,
                    language=language,
                    updated_at=utcnow(),
                )
            )
            open_games = (
                await session.exec(
                    select(GameRow.id).where(
                        GameRow.guild_id == guild_id, col(GameRow.status).in_(OPEN_STATUSES)
                    )
                )
            ).all()
            await session.exec(
                update(GameRow)
                .where(col(GameRow.id).in_(list(open_games)))
                .values(locale=public_locale)
            )
        return [int(game_id) for game_id in open_games if game_id is not None]

    # ------------------------------------------------------------------ standings

    async def standings(self, guild_id: int, game_key: str | None = None) -> list[Standing]:
        """Finished games per player in ``guild_id``: best win count first, then points."""
        async with self.session() as session:
            query = (
                select(
                    ResultRow.user_id,
                    func.count(),
                    func.coalesce(func.sum(cast(col(ResultRow.won), Integer)), 0),
                    func.coalesce(func.sum(ResultRow.score), 0),
                )
                .where(ResultRow.guild_id == guild_id, ResultRow.outcome == "finished")
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
