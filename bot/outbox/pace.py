"""How often tables are shown: each game's at most once a second, all games' together within a
budget of showings per second.

Every showing of a table is an edit of its channel message with a new picture: a request to
Discord and a picture drawn (milliseconds of CPU). Moves are never waited for: a table that
has to wait shows every move made meanwhile in one edit, and a player's own hand and turn DM
never wait for a table.

- **Per game** (``TABLE_PACE_SECONDS``): a burst of moves at one table (AI players, a fast
  table) is shown once a second instead of move by move, and a channel stays within Discord's
  limit of about five edits in five seconds. A move after a quiet second is shown at once.
- **All games together** (``TABLE_UPDATES_PER_SECOND``): Discord allows a bot about 50
  requests a second in all (interaction answers aside), and the turn DMs that tell players it
  is their turn need their share of it. With hundreds of games moving at once the tables
  alone asked for 75 edits a second (``benchmarks/bot_load.py`` at 300 clicks/s): Discord
  would refuse most of them with 429s, and drawing their pictures took a quarter of a CPU
  core that the clicks' answers needed. The budget gives each waiting table the next free
  moment, in the order they asked, so under such load every table is shown every few seconds
  with all its moves, and below it nothing waits.
"""

from __future__ import annotations

import asyncio

TABLE_PACE_SECONDS = 1.0
"""The least time between two showings of one game's table."""
TABLE_UPDATES_PER_SECOND = 20.0
"""Table showings per second for all of this process's games together (``Settings``)."""
BURST_SECONDS = 1.0
"""A budget unused for a while lets this many seconds' worth of tables go at once."""
PACED_GAMES_KEPT = 4096
"""Past this many games, the times of tables shown longer than the pace ago are forgotten."""


class TablePace:
    """When each game's table may be shown next."""

    def __init__(
        self, pace_seconds: float = TABLE_PACE_SECONDS, per_second: float | None = None
    ) -> None:
        self.pace_seconds = pace_seconds
        self.per_second = per_second
        """``None``: no budget for all games together (tests)."""
        self._shown_at: dict[int, float] = {}
        self._due = 0.0
        """When the next table would be shown if every table took its share in turn (loop
        time); a table may go up to the burst's allowance before that."""

    async def wait(self, game_id: int, *, budgeted: bool = True) -> None:
        """Until the game's table may be shown: a pace after its last showing, then (unless
        not ``budgeted``) its turn in the budget of all games."""
        loop = asyncio.get_running_loop()
        shown_at = self._shown_at.get(game_id)
        if shown_at is not None:
            wait = shown_at + self.pace_seconds - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
        if not self.per_second or not budgeted:
            return
        now = loop.time()
        interval = 1.0 / self.per_second
        due = max(self._due, now)
        self._due = due + interval
        start = due - max(0.0, BURST_SECONDS - interval)
        if start > now:
            await asyncio.sleep(start - now)

    def shown(self, game_id: int) -> None:
        now = asyncio.get_running_loop().time()
        if len(self._shown_at) >= PACED_GAMES_KEPT:
            since = now - self.pace_seconds
            self._shown_at = {g: t for g, t in self._shown_at.items() if t > since}
        self._shown_at[game_id] = now
