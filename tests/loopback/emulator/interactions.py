"""What the emulator remembers about each interaction it dispatched, and how the bot answered.

A test gets an ``InteractionRecord`` back from every user action and can ``await`` the
bot's answer: the callback (type, ephemeral flag, message), follow-ups and edits of the
original response, exactly as the bot sent them over HTTP.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from .model import Message, World
from .notify import ChangeNotifier, WaitTimeout

PING = 1
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3

CALLBACK_PONG = 1
CALLBACK_MESSAGE = 4
CALLBACK_DEFERRED_MESSAGE = 5
CALLBACK_DEFERRED_UPDATE = 6
CALLBACK_UPDATE_MESSAGE = 7
CALLBACK_AUTOCOMPLETE = 8
CALLBACK_MODAL = 9


@dataclass
class InteractionRecord:
    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    guild_id: int | None
    data: dict[str, Any]
    world: World = field(repr=False)
    notifier: ChangeNotifier = field(repr=False)
    source_message_id: int | None = None
    payload: dict[str, Any] = field(default_factory=dict, repr=False)
    """The INTERACTION_CREATE data as dispatched (kept for ``Emulator.redeliver``)."""
    deliveries: int = 0
    dispatched_at: float | None = None
    """``time.perf_counter()`` just before the INTERACTION_CREATE frame was written."""
    callback_at: float | None = None
    """``time.perf_counter()`` when the callback POST reached the emulator."""
    callback_type: int | None = None
    callback_data: dict[str, Any] = field(default_factory=dict)
    response_message_id: int | None = None
    followup_message_ids: list[int] = field(default_factory=list)
    original_edits: int = 0
    rejected_callbacks: list[int] = field(default_factory=list)
    """Error codes returned to the bot for this interaction (e.g. 40060 for a double ack)."""

    @property
    def acknowledged(self) -> bool:
        return self.callback_type is not None

    @property
    def deferred(self) -> bool:
        return self.callback_type in (CALLBACK_DEFERRED_MESSAGE, CALLBACK_DEFERRED_UPDATE)

    @property
    def ephemeral(self) -> bool:
        message = self.response_message
        return bool(message and message.ephemeral)

    @property
    def latency(self) -> float | None:
        """Seconds from dispatch to the bot's callback, or None if not (yet) answered."""
        if self.dispatched_at is None or self.callback_at is None:
            return None
        return self.callback_at - self.dispatched_at

    @property
    def response_message(self) -> Message | None:
        """The message the callback created (4/5) or updated (7), in its current state."""
        if self.response_message_id is None:
            return None
        return self.world.messages.get(self.response_message_id)

    @property
    def followups(self) -> list[Message]:
        return [self.world.messages[mid] for mid in self.followup_message_ids]

    _answered: asyncio.Future[None] | None = field(default=None, repr=False)
    _answer_complete: bool = field(default=False, repr=False)

    def _answered_future(self) -> asyncio.Future[None]:
        if self._answered is None:
            self._answered = asyncio.get_running_loop().create_future()
            if self._answer_complete:
                self._answered.set_result(None)
        return self._answered

    def mark_acknowledged(self, callback_type: int, data: dict[str, Any]) -> None:
        """Called by the REST layer as soon as the (first) callback arrives."""
        self.callback_at = time.perf_counter()
        self.callback_type = callback_type
        self.callback_data = data

    def wake_waiters(self) -> None:
        """Called once the callback's message exists, so waiters see the complete answer."""
        self._answer_complete = True
        if self._answered is not None and not self._answered.done():
            self._answered.set_result(None)

    async def response(self, *, timeout: float = 5.0) -> InteractionRecord:
        """Wait until the bot has acknowledged this interaction.

        A per-record future rather than the shared notifier: benchmarks keep hundreds of
        these waits open, and waking all of them on every change would dominate the CPU.
        """
        try:
            await asyncio.wait_for(asyncio.shield(self._answered_future()), timeout)
        except TimeoutError:
            raise WaitTimeout(
                f"timed out after {timeout:.1f}s waiting for a callback to interaction {self.id}"
            ) from None
        return self

    async def settled(self, *, timeout: float = 5.0) -> Message:
        """Wait for a visible answer: a non-loading response message or a follow-up.

        A deferred response only counts once the bot has edited the placeholder or sent a
        follow-up, so a test can assert on the final text after ``defer()``.
        """

        def visible() -> Message | None:
            if self.followup_message_ids:
                return self.world.messages[self.followup_message_ids[-1]]
            message = self.response_message
            if message is None or message.loading:
                return None
            if self.callback_type == CALLBACK_DEFERRED_UPDATE and not self.original_edits:
                return None
            return message

        return await self.notifier.wait_for(
            visible, timeout=timeout, what=f"a visible answer to interaction {self.id}"
        )
