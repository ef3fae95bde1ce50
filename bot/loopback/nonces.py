"""Message nonces: Discord's "enforce_nonce" dedupe of ``POST /channels/{id}/messages``.

discord.py sends ``nonce`` (a random 64-bit number unless the caller picks one) and
``enforce_nonce: true`` with every message it creates. Discord then returns the message
the same author already created with that nonce in the last few minutes instead of
creating another (api-docs PR #6647: "allow for a safe retry for message sending"); if that
message was deleted since, the retry gets 404 / 10008 rather than a new message. A bot that
derives the nonce from what it is sending (a game id and version) therefore gets exactly one
message however often the send is repeated, which is what makes redelivery idempotent.

Scope: (channel, author, nonce) within ``window`` seconds of the first message. The docs
name author and nonce only; the channel is part of the key here because the route is the
channel's, and a retry always goes to the same channel.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass

DEFAULT_WINDOW_SECONDS = 300.0


@dataclass(frozen=True)
class _Seen:
    message_id: int
    at: float


class NonceRegistry:
    """Remembers (channel, author, nonce) → message for ``window`` seconds.

    ``absorbed`` counts the duplicates answered with the existing message.
    """

    def __init__(self, window: float = DEFAULT_WINDOW_SECONDS) -> None:
        self.window = window
        self.absorbed = 0
        self._seen: OrderedDict[tuple[int, int, str], _Seen] = OrderedDict()

    def find(self, channel_id: int, author_id: int, nonce: str | int) -> int | None:
        """The id of the message this author created with ``nonce`` in this channel within
        the window, or None."""
        now = time.monotonic()
        self._forget_before(now - self.window)
        seen = self._seen.get((channel_id, author_id, str(nonce)))
        return None if seen is None else seen.message_id

    def remember(self, channel_id: int, author_id: int, nonce: str | int, message_id: int) -> None:
        key = (channel_id, author_id, str(nonce))
        self._seen.pop(key, None)
        self._seen[key] = _Seen(message_id, time.monotonic())

    def _forget_before(self, cutoff: float) -> None:
        while self._seen:
            key, seen = next(iter(self._seen.items()))
            if seen.at >= cutoff:
                return
            del self._seen[key]
