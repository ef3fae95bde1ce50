"""An ended game as one JSON document: enough to replay it anywhere with the engines.

``format``/``version`` name this layout; ``seed``, ``options`` and the players' count rebuild
the deal (``Game.new_state``), and ``moves`` are the actions in order, as the engine writes
them (``Action.to_json``), with the events the bot stored for each. A document holds every
player's cards (the seed deals them again), so the bot only gives it out where the server
shows hands in replays.
"""

from __future__ import annotations

from typing import Any

import orjson

from bot.replays.source import GameRecord
from bot.storage.models import GameStatus

FORMAT = "glory-game"
VERSION = 1


def _when(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def game_document(record: GameRecord) -> dict[str, Any]:
    row = record.row
    results = None
    if row.state is not None and row.status == GameStatus.FINISHED:
        results = {"scores": row.state.get("scores"), "winners": row.state.get("winners")}
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": row.game_key,
        "id": row.id,
        "status": row.status,
        "seed": row.seed,
        "options": row.options,
        "players": [
            {
                "seat": seat.seat,
                "name": seat.display_name,
                "user_id": str(seat.user_id) if seat.ai_level is None else None,
                "ai_level": seat.ai_level,
            }
            for seat in record.seats
        ],
        "opening_events": record.opening_events,
        "moves": [
            {
                "number": number,
                "seat": step.seat,
                "action": step.action,
                "events": step.events,
                "at": _when(step.played_at),
            }
            for number, step in enumerate(record.steps, start=1)
        ],
        "final_state": row.state,
        "results": results,
    }


def game_json(record: GameRecord) -> bytes:
    return orjson.dumps(game_document(record), option=orjson.OPT_INDENT_2)
