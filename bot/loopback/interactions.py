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
    """``time.perf_counter()`` when the INTERACTION_CREATE was first dispatched (the user's
    click: a frame buffered for a disconnected bot or replayed later keeps this time, as
    Discord's 3 s clock does)."""
    callback_at: float | None = None
    """``time.perf_counter()`` when the first callback POST reached the emulator, accepted or
    refused (a late one answered 10062 included), before any injected delay."""
    callback_type: int | None = None
    callback_data: dict[str, Any] = field(default_factory=dict)
    response_message_id: int | None = None
    followup_message_ids: list[int] = field(default_factory=list)
    original_edits: int = 0
    rejected_callbacks: list[int] = field(default_factory=list)
    """Error codes returned to the bot's callbacks (40060 for a double acknowledgement, 10062
    for one after the deadline, 50035/50006 for a refused payload)."""
    rejected_followups: list[int] = field(default_factory=list)
    """Error codes returned to follow-ups and ``@original`` calls (10015 before the callback
    or after the token expired, 50035/50006 for a refused payload)."""

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
        """Seconds from dispatch to the bot's first callback reaching the emulator (accepted
        or not), or None if no callback came (yet)."""
        if self.dispatched_at is None or self.callback_at is None:
            return None
        return self.callback_at - self.dispatched_at

    def age(self, at: float) -> float:
        """Seconds from the first dispatch to the ``time.perf_counter()`` value ``at``."""
        return 0.0 if self.dispatched_at is None else at - self.dispatched_at

    def note_callback(self, arrived_at: float) -> None:
        """Called by the REST layer for every callback POST, with its arrival time."""
        if self.callback_at is None:
            self.callback_at = arrived_at

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
        """Called by the REST layer once the (first) callback is accepted."""
        if self.callback_at is None:
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


@dataclass(frozen=True)
class LateInteraction:
    """An interaction the bot did not answer within the deadline.

    ``waited``: seconds from dispatch to its first callback (refused with 10062), or None if
    no callback ever came.
    """

    record: InteractionRecord
    waited: float | None

    @property
    def answered(self) -> bool:
        """Whether a (late) callback came at all."""
        return self.waited is not None
