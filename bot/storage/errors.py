"""What a write of the store raises when it lost a race (callers catch these by name)."""

from __future__ import annotations


class StorageConflict(Exception):
    """A write lost a race: the game changed (version or status) since it was read."""


class ChannelBusy(StorageConflict):
    """The channel already has a lobby or a running game."""


class LobbyFull(StorageConflict):
    """Every seat of the lobby is taken."""
