"""One playground: the loopback emulator, the real bot process on it, and the people at the page.

The bot runs exactly as in production (``python -m bot``, a process of its own, its
database an SQLite file in a temporary directory); only Discord is the emulator, which keeps
holding the bot to Discord's rules (payload validation and limits, the 3-second deadline, and
Discord's rate limits unless turned off). The page acts through ``Actor``s, so it can do only
what a Discord client lets a person do.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import tempfile
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.ai.autoplay import AI_LEVELS
from bot.loopback import ActionRefused, Actor, Emulator, InteractionRecord, User, WaitTimeout
from bot.loopback.bot_process import BotProcess
from bot.loopback.interactions import APPLICATION_COMMAND
from bot.loopback.model import Channel, Message
from bot.loopback.ratelimits import RateLimits
from bot.process.config import SETTINGS

SEATS_SELECT = "glory:seats:"
"""The lobby's seats menu (``bot/interactions/components.py``): its ``a<level>`` values add an AI
player. Custom ids are a stored format that old messages keep, so this prefix stays."""
BOT_READY_SECONDS = 60.0
FAILED_GRACE_SECONDS = 0.5
"""After the deadline, how long the page waits before saying an interaction failed."""
STRING, INTEGER, BOOLEAN, USER, NUMBER = 3, 4, 5, 6, 10
SUBCOMMANDS = (1, 2)


class PageRefusal(ValueError):
    """Something the page asked that a Discord client could not do; ``key`` is its catalog text."""

    def __init__(self, key: str, **values: Any) -> None:
        super().__init__(key, values)
        self.key = key
        self.values = values


@dataclass
class PlaygroundOptions:
    """How ``glory playground`` runs (the command line's flags)."""

    players: tuple[str, ...] = ("alice", "bob")
    locale: str = "en-US"
    pictures: bool = True
    rate_limits: bool = True
    rate_limit_scale: float = 1.0
    """Discord's windows times this (the browser test plays at 0.1: the same limits, sooner
    over)."""
    workdir: Path | None = None
    """Where the database and the bot's log go (None: a temporary directory, removed after)."""
    bot_settings: Mapping[str, str] = field(default_factory=dict)
    """More settings for the bot process (``AI_PAUSE_SECONDS`` …)."""


@dataclass
class Failure:
    """An interaction the bot did not answer in time, as the client reports it to its user."""

    user_id: int
    channel_id: int
    command: bool


class Playground:
    """The emulator, the bot and the players; ``async with Playground(options)`` runs them."""

    def __init__(self, options: PlaygroundOptions | None = None) -> None:
        self.options = options or PlaygroundOptions()
        rate_limits = None
        if self.options.rate_limits:
            rate_limits = RateLimits.discord_like(time_scale=self.options.rate_limit_scale)
        self.emulator = Emulator(rate_limits=rate_limits)
        self.actors: dict[int, Actor] = {}
        self.failures: list[Failure] = []
        self.failure_listeners: list[Any] = []
        self.bot: BotProcess | None = None
        self.workdir: Path | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        for name in self.options.players:
            self.add_player(name, self.options.locale)

    # -- lifecycle ------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[Playground]:
        """The emulator listening, the bot connected and its commands registered."""
        with contextlib.ExitStack() as stack:
            if self.options.workdir is None:
                temporary = stack.enter_context(tempfile.TemporaryDirectory(prefix="glory-"))
                self.workdir = Path(temporary)
            else:
                self.workdir = self.options.workdir
                self.workdir.mkdir(parents=True, exist_ok=True)
            async with self.emulator:
                self.bot = BotProcess(self.bot_argv(), self.bot_environment(), self.log_path)
                await self.bot.start()
                try:
                    await self.bot.wait_ready(self.emulator, timeout=BOT_READY_SECONDS)
                    await self.emulator.wait_for(
                        lambda: self.emulator.commands.get(None),
                        timeout=BOT_READY_SECONDS,
                        what="the bot's commands",
                    )
                    yield self
                finally:
                    for task in list(self._tasks):
                        task.cancel()
                    await self.bot.stop()

    @property
    def bot_stopped(self) -> bool:
        """The bot process was started and has exited (a crash: its log says why)."""
        return self.bot is not None and self.bot.process is not None and not self.bot.running

    @property
    def log_path(self) -> Path:
        assert self.workdir is not None
        return self.workdir / "bot.log"

    @property
    def database_path(self) -> Path:
        assert self.workdir is not None
        return self.workdir / "glory.db"

    def bot_argv(self) -> list[str]:
        """``python -m bot`` with an empty settings file of its own: the developer's ``.env``
        (a real token, a ``DEV_GUILD_ID``) must not leak into the playground."""
        assert self.workdir is not None
        empty = self.workdir / "playground.env"
        empty.touch()
        return [sys.executable, "-m", "bot", "--env-file", str(empty)]

    def bot_environment(self) -> dict[str, str]:
        """The caller's environment without any of the bot's settings, then the playground's."""
        names = {name for name, _default in SETTINGS}
        return {
            **{key: value for key, value in os.environ.items() if key not in names},
            "DISCORD_API_BASE": self.emulator.api_base,
            "DISCORD_GATEWAY_URL": self.emulator.gateway_url,
            "DISCORD_TOKEN": "playground",
            "DATABASE_URL": f"sqlite+aiosqlite:///{self.database_path}",
            "PICTURES": "on" if self.options.pictures else "off",
            **self.options.bot_settings,
        }

    # -- players ---------------------------------------------------------------------------

    def add_player(self, name: str, locale: str = "en-US") -> Actor:
        """A new member of the server whom the page can act as (their Discord client speaks
        ``locale``, which the bot reads from every interaction)."""
        name = name.strip()
        if not name or len(name) > 32:
            raise PageRefusal("playground.refused.name")
        if any(actor.user.name == name for actor in self.actors.values()):
            raise PageRefusal("playground.refused.name_taken", name=name)
        actor = self.emulator.add_actor(name, locale=locale)
        self.actors[actor.user.id] = actor
        self.emulator.notifier.changed()
        return actor

    def actor(self, user_id: object) -> Actor:
        try:
            return self.actors[int(str(user_id))]
        except (KeyError, ValueError):
            raise PageRefusal("playground.refused.player") from None

    async def add_channel(self, name: str) -> Channel:
        name = "-".join(name.lower().split())
        if not name or len(name) > 100:
            raise PageRefusal("playground.refused.channel")
        channel = await self.emulator.add_channel(name)
        self.emulator.notifier.changed()
        return channel

    def channel(self, channel_id: object) -> Channel:
        try:
            return self.emulator.world.channels[int(str(channel_id))]
        except (KeyError, ValueError):
            raise PageRefusal("playground.refused.channel") from None

    def message(self, message_id: object) -> Message:
        try:
            return self.emulator.world.messages[int(str(message_id))]
        except (KeyError, ValueError):
            raise PageRefusal("playground.refused.message") from None

    # -- acting --------------------------------------------------------------------------

    async def slash(
        self,
        user_id: object,
        command: str,
        options: Mapping[str, Any],
        channel_id: object,
    ) -> InteractionRecord:
        """Run ``/command`` (``"settings language"`` for a subcommand) with the options as the
        page's form sent them (text), typed by the command's synced definition."""
        actor = self.actor(user_id)
        channel = self.channel(channel_id)
        declared = self._declared_options(command, channel)
        typed: dict[str, Any] = {}
        for name, value in options.items():
            if value in (None, ""):
                continue
            option = next((o for o in declared if o["name"] == name), None)
            if option is None:
                raise PageRefusal("playground.refused.option", name=name)
            typed[name] = self._typed(option, value)
        try:
            record = await actor.slash(command, channel=channel, **typed)
        except ActionRefused as refusal:
            raise PageRefusal("playground.refused.action", reason=str(refusal)) from refusal
        self._watch(record)
        return record

    def _declared_options(self, command: str, channel: Channel) -> list[dict[str, Any]]:
        names = command.split()
        scopes = [channel.guild_id, None] if channel.guild_id is not None else [None]
        definition = next(
            (
                d
                for scope in scopes
                for d in self.emulator.commands.get(scope, [])
                if names and d["name"] == names[0]
            ),
            None,
        )
        if definition is None:
            raise PageRefusal("playground.refused.command")
        declared = definition.get("options") or []
        for name in names[1:]:
            sub = next((o for o in declared if o["name"] == name), None)
            if sub is None or sub.get("type") not in SUBCOMMANDS:
                raise PageRefusal("playground.refused.command")
            declared = sub.get("options") or []
        return declared

    def _typed(self, option: dict[str, Any], value: Any) -> Any:
        """A form value as Discord's client would send it for this option type."""
        kind = option.get("type")
        try:
            if kind == INTEGER:
                return int(value)
            if kind == NUMBER:
                return float(value)
            if kind == BOOLEAN:
                return value if isinstance(value, bool) else str(value).lower() == "true"
            if kind == USER:
                user: User = self.emulator.world.users[int(str(value))]
                return user
        except (ValueError, KeyError):
            raise PageRefusal("playground.refused.option", name=option["name"]) from None
        return str(value)

    async def click(self, user_id: object, message_id: object, custom_id: str) -> InteractionRecord:
        actor = self.actor(user_id)
        try:
            record = await actor.click(self.message(message_id), custom_id=custom_id)
        except ActionRefused as refusal:
            raise PageRefusal("playground.refused.action", reason=str(refusal)) from refusal
        self._watch(record)
        return record

    async def select(
        self, user_id: object, message_id: object, custom_id: str, values: list[str]
    ) -> InteractionRecord:
        actor = self.actor(user_id)
        try:
            record = await actor.select(
                self.message(message_id), [str(v) for v in values], custom_id=custom_id
            )
        except ActionRefused as refusal:
            raise PageRefusal("playground.refused.action", reason=str(refusal)) from refusal
        self._watch(record)
        return record

    async def fill_with_ai(
        self, user_id: object, channel_id: object, count: int, level: str
    ) -> tuple[int, Message]:
        """As the lobby's host, seat ``count`` AI players of ``level`` from the lobby's seats
        menu, one choice at a time as a person would; returns how many were seated (fewer
        once the lobby is full) and the lobby. The bot refuses anyone but the host."""
        if level not in AI_LEVELS or not 1 <= count <= 3:
            raise PageRefusal("playground.refused.fill")
        value = f"a{AI_LEVELS.index(level)}"
        seated = 0
        lobby = self._newest_lobby(self.channel(channel_id))
        for _ in range(count):
            if lobby is None:
                break
            seats = next(c for c in lobby.iter_components() if _is_seats(c))
            if value not in [option.get("value") for option in seats.get("options", [])]:
                break  # no free seat left
            record = await self.select(user_id, lobby.id, seats["custom_id"], [value])
            with contextlib.suppress(WaitTimeout):
                await record.response(timeout=self.answer_timeout)
            if record.response_message_id != lobby.id:
                break  # the bot answered with a notice (not the host, the lobby changed …)
            seated += 1
        if not seated or lobby is None:
            raise PageRefusal("playground.refused.fill")
        return seated, lobby

    def _newest_lobby(self, channel: Channel) -> Message | None:
        for message in reversed(self.emulator.messages_in(channel)):
            if not message.ephemeral and any(_is_seats(c) for c in message.iter_components()):
                return message
        return None

    # -- interactions that fail ------------------------------------------------------------

    @property
    def answer_timeout(self) -> float:
        """How long a client waits for the bot's answer before saying the interaction failed:
        Discord's deadline and a little more."""
        return (self.emulator.interaction_deadline or 3.0) + FAILED_GRACE_SECONDS

    def _watch(self, record: InteractionRecord) -> None:
        """Tell the page when the bot lets this interaction fail (no callback in time, or a
        callback Discord refused), as the client does: "This interaction failed"."""
        task = asyncio.get_running_loop().create_task(self._await_answer(record))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _await_answer(self, record: InteractionRecord) -> None:
        with contextlib.suppress(WaitTimeout):
            await record.response(timeout=self.answer_timeout)
        if record.acknowledged:
            return
        failure = Failure(record.user_id, record.channel_id, record.type == APPLICATION_COMMAND)
        self.failures.append(failure)
        for listener in self.failure_listeners:
            listener(failure)
        self.emulator.notifier.changed()


def _is_seats(component: dict[str, Any]) -> bool:
    return str(component.get("custom_id", "")).startswith(SEATS_SELECT)
