"""The page's live feed: what changed in the emulator, as server-sent events.

The feed observes the emulator without changing it: it listens to the emulator's change
notifier, and on each burst of changes (gathered for ``GATHER_SECONDS``) compares every
message's revision with the last one it sent, so a page receives each new, edited or deleted
message once, in order, without polling. A new page first gets a snapshot of everything.

Why compare instead of hooking each route: the emulator has many ways a message changes (a
callback, a follow-up, an edit of ``@original``, a channel edit, a delete), and other changes to
it must not have to remember the page. A comparison costs one dictionary lookup per message;
a playground holds a few thousand at most.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any

from .views import channel_view, message_view, user_view, visible_messages

if TYPE_CHECKING:
    from .session import Failure, Playground

GATHER_SECONDS = 0.02
QUEUE_LIMIT = 1000
"""Event batches a page may fall behind by; one that lags further is told to reload."""

Event = tuple[str, dict[str, Any]]


class PageFeed:
    """Turns emulator changes into events for every connected page."""

    def __init__(self, playground: Playground) -> None:
        self.playground = playground
        self._revisions: dict[int, tuple[int, bool]] = {}
        self._world_signature: tuple[Any, ...] = ()
        self._queues: set[asyncio.Queue[list[Event]]] = set()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    # -- lifecycle -------------------------------------------------------------------------

    def start(self) -> None:
        self.playground.emulator.notifier.listeners.append(self._wake.set)
        self.playground.failure_listeners.append(self._failed)
        self._scan()  # what exists now is in every snapshot, not sent again
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        listeners = self.playground.emulator.notifier.listeners
        if self._wake.set in listeners:
            listeners.remove(self._wake.set)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def subscribe(self) -> asyncio.Queue[list[Event]]:
        queue: asyncio.Queue[list[Event]] = asyncio.Queue(QUEUE_LIMIT)
        self._queues.add(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue[list[Event]]) -> None:
        self._queues.discard(queue)

    # -- what a page is sent ----------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """Everything a page shows: the world and every message."""
        emulator = self.playground.emulator
        return {
            **self.world(),
            "messages": [message_view(m, emulator) for m in visible_messages(emulator.world)],
        }

    def world(self) -> dict[str, Any]:
        """The server, its channels, the players and their DMs, the bot's commands, and
        what the emulator refused (so a reviewer sees a broken rule at once)."""
        playground = self.playground
        emulator = playground.emulator
        world = emulator.world
        channels = [world.channels[cid] for cid in emulator.guild.channel_ids]
        threads = [world.channels[cid] for cid in emulator.guild.thread_ids]
        dms = [world.dm_channel(actor.user) for actor in playground.actors.values()]
        return {
            "bot": user_view(emulator.bot_user),
            "guild": {"id": str(emulator.guild.id), "name": emulator.guild.name},
            "channels": [channel_view(c, world) for c in [*channels, *threads, *dms]],
            "players": [user_view(a.user, a.locale) for a in playground.actors.values()],
            "commands": [
                {**command, "scope": None if scope is None else str(scope)}
                for scope, commands in emulator.commands.items()
                for command in commands
            ],
            "problems": self.problems(),
        }

    def problems(self) -> dict[str, Any]:
        emulator = self.playground.emulator
        return {
            "refused": [
                {"method": r.method, "path": r.path, "problems": r.problems, "code": r.code}
                for r in list(emulator.refused_payloads)[-20:]
            ],
            "refused_count": len(emulator.refused_payloads),
            "rate_limited": emulator.rate_limits.served_429s,
            "unhandled": list(emulator.unhandled[-20:]),
            "failed": len(self.playground.failures),
            "bot_stopped": self.playground.bot_stopped,
        }

    # -- the loop ---------------------------------------------------------------------------

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            await asyncio.sleep(GATHER_SECONDS)
            self._wake.clear()
            events = self._scan()
            if events:
                self._publish(events)

    def _scan(self) -> list[Event]:
        emulator = self.playground.emulator
        events: list[Event] = []
        signature = self._signature()
        if signature != self._world_signature:
            self._world_signature = signature
            events.append(("world", self.world()))
        for message in emulator.world.messages.values():
            revision = (len(message.history), message.deleted)
            known = self._revisions.get(message.id)
            if known == revision:
                continue
            self._revisions[message.id] = revision
            if message.deleted:
                if known is not None and not known[1]:
                    events.append(("delete", {"id": str(message.id)}))
            else:
                events.append(("message", message_view(message, emulator)))
        return events

    def _signature(self) -> tuple[Any, ...]:
        playground = self.playground
        emulator = playground.emulator
        return (
            len(playground.actors),
            len(emulator.world.channels),
            tuple((scope, id(commands)) for scope, commands in emulator.commands.items()),
            len(emulator.refused_payloads),
            emulator.rate_limits.served_429s,
            len(emulator.unhandled),
            len(playground.failures),
            playground.bot_stopped,
        )

    def _publish(self, events: list[Event]) -> None:
        for queue in list(self._queues):
            try:
                queue.put_nowait(events)
            except asyncio.QueueFull:  # the page fell behind: it starts again from a snapshot
                while not queue.empty():
                    queue.get_nowait()
                queue.put_nowait([("snapshot", self.snapshot())])

    def _failed(self, failure: Failure) -> None:
        self._publish(
            [
                (
                    "failed",
                    {
                        "user_id": str(failure.user_id),
                        "channel_id": str(failure.channel_id),
                        "command": failure.command,
                    },
                )
            ]
        )
