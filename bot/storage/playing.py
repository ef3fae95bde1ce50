"""Playing: a game starts, its moves are committed, it ends with its results; the move log.

Why together: these are the writes that change a game's state and version. A move is the
click's one database cost: it commits on SQLite's inline connection when nothing else is
writing (``_commit_at_once``), else in the next group-commit batch (``batch``), with a
compare-and-swap on the version, and the kept copy follows it (``_follow``). Start, the last
move and the other endings replace the game instead (it leaves memory), and the last move
writes the results and ratings (``bot/ratings``) in its own transaction.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, update
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.outbox.entries import Entry, Publication
from bot.ratings.ledger import rate_in_session
from bot.storage.base import StoreBase
from bot.storage.batch import LOG_MOVE, QUEUE, STORE_SEAT_TURNS, STORE_STATE, LostRace, MoveWrite
from bot.storage.cache import KEPT_MOVES, LoggedMove
from bot.storage.errors import StorageConflict
from bot.storage.models import OPEN_STATUSES, GameRow, GameStatus, MoveRow, ResultRow, utcnow
from bot.storage.outbox import queue_entry
from bot.storage.turns import SeatTurns

OPENING_SEAT = -1
"""The move-log "seat" of the setup events, which no player caused."""


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
    ai_level: str | None = None
    with_ai: bool = False
    autoplayed: bool = False
    side: int | None = None
    departed: bool = False


class Playing(StoreBase):
    """Starting, moving, ending; reading the move log."""

    async def start(
        self,
        game_id: int,
        *,
        expected_version: int,
        seed: int,
        state: dict[str, Any],
        publication: Publication,
        opening_events: Sequence[dict[str, Any]] = (),
        deadline: datetime | None = None,
    ) -> Entry:
        """Lobby → active with the initial engine state at version 1, if the lobby is still at
        ``expected_version`` (the seats and options the state was made for); its outbox entry.

        The engine's setup events (deal, start player …) open the move log as seat -1.
        """
        with self._replacing(game_id):
            async with self._write_session() as session:
                result = await session.exec(
                    update(GameRow)
                    .where(
                        GameRow.id == game_id,
                        GameRow.status == GameStatus.LOBBY,
                        GameRow.version == expected_version,
                    )
                    .values(
                        status=GameStatus.ACTIVE,
                        seed=seed,
                        state=state,
                        version=1,
                        expires_at=None,
                        updated_at=utcnow(),
                        turn_deadline=deadline,
                    )
                )
                if result.rowcount != 1:
                    raise StorageConflict(f"game {game_id} is no longer this lobby")
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
                return await queue_entry(await session.connection(), game_id, 1, publication)

    async def commit_move(
        self,
        game_id: int,
        *,
        expected_version: int,
        state: dict[str, Any],
        move: MoveRecord,
        publication: Publication,
        final: Sequence[FinalScore] | None = None,
        deadline: datetime | None = None,
        seat_turns: SeatTurns | None = None,
    ) -> Entry:
        """Store the state after ``move`` if the game is still at ``expected_version``, with
        what it must publish.

        Returns the outbox entry; its ``version`` is the game's new version. ``final`` (the
        game ended) also records the results. ``deadline``: when the next turn runs out (the
        turn clock), ``seat_turns``: the mover's clock record, when it changes. Raises
        ``StorageConflict`` when another move got there first.
        """
        write = MoveWrite(
            {
                "game": game_id,
                "expected": expected_version,
                "new_state": state,
                "new_version": expected_version + 1,
                "new_status": GameStatus.FINISHED if final else GameStatus.ACTIVE,
                "now": utcnow(),
                "deadline": deadline,
            },
            {"seat": move.seat, "action": move.action, "events": move.events},
            publication,
            None
            if seat_turns is None
            else {
                "game": game_id,
                "seat_number": seat_turns.seat,
                "missed": seat_turns.missed_turns,
                "takeover": seat_turns.takeover,
            },
        )
        if final is not None:
            return await self._commit_last_move(write, final)
        with self._writing(game_id):
            entry: Entry | None = self._commit_at_once(write)
            if entry is None:
                entry = await self._group.submit(write)
        self._follow(write)
        return entry

    def _commit_at_once(self, write: MoveWrite) -> Entry | None:
        """Commit a move right here when nothing else is writing and SQLite takes it on the
        event loop (see ``_wrote_inline``); ``None`` leaves it to the group commit.

        Why: through the group commit a move waits two turns of the event loop (its batch's
        task starts, then the move's caller wakes), each behind whatever else is queued; a
        move's answer waits for its commit. Raises ``StorageConflict`` if it lost its race."""
        if self._inline is None or not self._group.idle:
            return None
        if self._one_writer.locked():  # type: ignore[attr-defined]  # SQLite's asyncio.Lock
            return None
        try:
            entry_ids = self._wrote_inline([write], [], [])
        except LostRace as lost:
            raise StorageConflict(str(lost)) from lost
        if entry_ids is None:
            return None
        self._committed()
        return write.entry(entry_ids[0])

    def _follow(self, write: MoveWrite) -> None:
        """Bring the kept copy of the game to the state ``write`` committed."""
        game_id, values = write.values["game"], write.values
        kept = self._games.get(game_id)
        if kept is None:
            return
        if kept.row.version != values["expected"]:
            self._games.pop(game_id)
            return
        kept.row.state, kept.row.version = values["new_state"], values["new_version"]
        kept.row.updated_at, kept.row.turn_deadline = values["now"], values["deadline"]
        if write.seat_turns is not None:
            seat = kept.seats[write.seat_turns["seat_number"]]
            seat.missed_turns = write.seat_turns["missed"]
            seat.takeover = write.seat_turns["takeover"]
            seat.departed = seat.departed and seat.takeover
        if kept.moves is not None:
            move = write.move
            kept.moves.append(LoggedMove(values["new_version"], move["seat"], move["events"]))

    async def _commit_last_move(self, write: MoveWrite, final: Sequence[FinalScore]) -> Entry:
        """The move that ends the game, with the results, alone; the game leaves memory."""
        game_id = write.values["game"]
        with self._replacing(game_id):
            async with self._write_session() as session:
                connection = await session.connection()
                result = await connection.execute(STORE_STATE, write.values)
                if result.rowcount != 1:
                    raise StorageConflict(f"game {game_id} is not at the expected version")
                await connection.execute(LOG_MOVE, write.log_values)
                if write.seat_turns is not None:
                    await connection.execute(STORE_SEAT_TURNS, write.seat_turns)
                entry_id = (await connection.execute(QUEUE, [write.outbox_values])).scalar_one()
                await self._add_results(session, game_id, final, "finished")
                await self._announce(connection, [game_id])
        return write.entry(entry_id)

    async def end(
        self,
        game_id: int,
        status: GameStatus,
        *,
        final: Sequence[FinalScore] | None = None,
        publication: Publication | None = None,
        only_from: GameStatus | None = None,
    ) -> tuple[GameRow, Entry | None]:
        """Cancel, abandon or expire an open game, with what it must publish;
        ``StorageConflict`` if it already ended (or, with ``only_from``, is no longer in that
        status: a lobby's expiry must not end the game another process started meanwhile)."""
        statuses = (only_from,) if only_from is not None else OPEN_STATUSES
        with self._replacing(game_id):
            async with self._write_session() as session:
                result = await session.exec(
                    update(GameRow)
                    .where(GameRow.id == game_id, col(GameRow.status).in_(statuses))
                    .values(status=status, version=GameRow.version + 1, updated_at=utcnow())
                )
                if result.rowcount != 1:
                    raise StorageConflict(f"game {game_id} has already ended")
                await self._announce(await session.connection(), [game_id])
                if final is not None:
                    await self._add_results(session, game_id, final, status.value)
                game = await session.get(GameRow, game_id)
                assert game is not None
                entry = None
                if publication is not None:
                    connection = await session.connection()
                    entry = await queue_entry(connection, game_id, game.version, publication)
                return game, entry

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
                    ai_level=entry.ai_level,
                    with_ai=entry.with_ai,
                    autoplayed=entry.autoplayed,
                    side=entry.side,
                    departed=entry.departed,
                )
            )
        if outcome == GameStatus.FINISHED.value:
            await rate_in_session(session, game_id)  # the same transaction (bot/ratings)

    async def recent_moves(self, game_id: int, limit: int) -> list[LoggedMove]:
        """The last ``limit`` moves, oldest first (from memory for a running game)."""
        kept = self._games.get(game_id)
        if kept is not None and kept.moves is not None and limit <= KEPT_MOVES:
            return list(kept.moves)[-limit:]
        version = kept.row.version if kept is not None else None
        async with self.session() as session:
            query = (
                select(MoveRow)
                .where(MoveRow.game_id == game_id)
                .order_by(col(MoveRow.version).desc())
                .limit(max(limit, KEPT_MOVES))
            )
            moves = [
                LoggedMove(row.version, row.seat, row.events)
                for row in reversed((await session.exec(query)).all())
            ]
        if kept is not None and kept.row.version == version and self._games.get(game_id) is kept:
            kept.moves = deque(moves, maxlen=KEPT_MOVES)
        return moves[-limit:]

    async def move_count(self, game_id: int) -> int:
        async with self.session() as session:
            count = await session.scalar(
                select(func.count()).select_from(MoveRow).where(MoveRow.game_id == game_id)
            )
            return int(count or 0)
