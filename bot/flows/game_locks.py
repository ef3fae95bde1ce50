"""One lock per game: the clicks, timers and AI moves of a game take their turns in this process.

Every flow that changes a running game or a lobby (moves, the lobby, the turn clock, the
AI, forced moves, rematches, the seat handover) holds the game's lock while it loads, checks
and commits, so two changes never interleave here; another process is caught by the store's
compare-and-swap on the version. The flows share one ``GameLocks`` (``bot/app.py`` wires it),
so none of them needs another flow only for its lock.
"""

from __future__ import annotations

import asyncio
import weakref

import discord

from bot.interactions.answers import Answer


class GameLocks:
    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        """A lock lives while someone holds or waits for it; a bot that has run for months
        does not keep one per game it ever saw."""

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def locked(self, interaction: discord.Interaction, game_id: int) -> asyncio.Lock:
        """The game's lock, after deferring the interaction if someone else holds it (waiting
        for it could take longer than Discord waits for an answer)."""
        lock = self.lock(game_id)
        if lock.locked():
            await Answer.of(interaction).defer()
        return lock
