"""The store: the only code that reads or writes game data, composed of one part per aggregate.

Why a repository: the move pipeline must commit *before* any Discord call, with a
compare-and-swap on ``games.version``; keeping every statement in ``bot/storage`` makes that
rule visible and lets the storage tests exercise it without Discord.

Why one ``Store`` of parts: callers hold one store (``bot.store``) and call it by method
(``store.commit_move(…)``), while each part is a module small enough to read alone, beside
the shared machinery it uses (``base``):

========================  =====================================================================
``base.StoreBase``        connections, writers, memory, group-commit batches, other processes
``games.Games``           games and seats as clicks read them; message ids
``lobbies.Lobbies``       lobbies: created, joined, left, options, turn clock
``playing.Playing``       start, moves, endings with results; the move log
``turns.Turns``           a running game's seats between moves: clock record, reminder, hints
``outbox.Outbox``         outbox entries written, read, claimed, forgotten
``claiming.Claims``       claims of one-at-a-time work (several processes)
``users.Users``           what is known of users
``guild_settings``        servers' language and yes/no settings
``standings.Standings``   ``/standings``
``rematch.Rematches``     rematch lobbies opened and their seats taken (``/play``'s Rematch)
``forced_moves``          ``ForcedMoveSettings``: auto-pass and the seats' decision times
``seat_handover``         ``SeatHandover``: a seat handed to the AI (``/leave``)
``hand_adoption``         ``HandAdoption``: a clicked hand DM the store did not know
========================  =====================================================================

The parts are mixins of ``StoreBase`` (state lives there, once); a new aggregate gets a module
of its own and joins the bases below. So does what one flow alone stores when it writes through
the store's own transaction helpers (a function outside the class would reach into them); a
module that needs only the store's public face stays a module of functions taking the store
(``budget_shares``).
The names that callers import from here (``from bot.storage.repository import Store,
MoveRecord, …``) stay importable from here.
"""

from __future__ import annotations

from bot.storage.base import CHECKPOINT_SECONDS, INLINE_PAUSE_SECONDS
from bot.storage.cache import KEPT_GAMES, KEPT_USERS
from bot.storage.errors import ChannelBusy, LobbyFull, StorageConflict
from bot.storage.forced_moves import ForcedMoveSettings
from bot.storage.games import Games
from bot.storage.guild_settings import GuildSettings
from bot.storage.hand_adoption import HandAdoption
from bot.storage.lobbies import Lobbies
from bot.storage.outbox import Outbox
from bot.storage.playing import OPENING_SEAT, FinalScore, MoveRecord, Playing
from bot.storage.rematch import Rematches
from bot.storage.seat_handover import SeatHandover
from bot.storage.standings import Standing, Standings
from bot.storage.turns import SeatTurns, Turns
from bot.storage.users import DMS_CLOSED_MEMORY, Users

__all__ = [
    "CHECKPOINT_SECONDS",
    "DMS_CLOSED_MEMORY",
    "INLINE_PAUSE_SECONDS",
    "KEPT_GAMES",
    "KEPT_USERS",
    "OPENING_SEAT",
    "ChannelBusy",
    "FinalScore",
    "LobbyFull",
    "MoveRecord",
    "SeatTurns",
    "Standing",
    "StorageConflict",
    "Store",
]


class Store(
    Games,
    Rematches,
    Lobbies,
    Playing,
    Turns,
    Outbox,
    ForcedMoveSettings,
    Users,
    GuildSettings,
    Standings,
    SeatHandover,
    HandAdoption,
):
    """Async access to the database behind ``engine``, every part in one object.

    ``shared``: other processes write the same (PostgreSQL) database. Then every write of a
    game or user announces itself to them (``changes``), what this store keeps in memory is
    dropped when another process announces a change (and is not used at all while it cannot
    hear them), and work that one process at a time does is claimed (``claims``). Without it
    (SQLite, the embedded default) none of that runs.
    """
