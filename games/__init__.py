"""Pure, deterministic rules engines for Glory's games. No Discord, no I/O, no asyncio.

``REGISTRY`` maps each game's key to its ``Game``; see ``docs/engine.md`` for the protocol.
"""

from games import call_to_glory, clans_and_glory, kami
from games.core import (
    JSON,
    Action,
    ActionCodec,
    Event,
    Game,
    GameError,
    IllegalAction,
    InvalidOptions,
    MalformedAction,
    MalformedState,
    Option,
    State,
    events_for,
)

REGISTRY: dict[str, Game] = {
    game.key: game for game in (call_to_glory.GAME, kami.GAME, clans_and_glory.GAME)
}

__all__ = [
    "JSON",
    "REGISTRY",
    "Action",
    "ActionCodec",
    "Event",
    "Game",
    "GameError",
    "IllegalAction",
    "InvalidOptions",
    "MalformedAction",
    "MalformedState",
    "Option",
    "State",
    "events_for",
]
