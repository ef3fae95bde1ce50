"""Act as a Discord user: run slash commands, click buttons, choose in selects.

An actor only does what a Discord client lets a person do: commands must have been synced
by the bot, components must exist on a message the user can see, and disabled components
cannot be used. Each action returns the ``InteractionRecord`` to await the bot's answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .discord_limits import message_problems
from .interactions import APPLICATION_COMMAND, MESSAGE_COMPONENT, InteractionRecord
from .model import Channel, Message, User
from .payloads import interaction_payload, member_payload, user_payload

if TYPE_CHECKING:
    from .server import Emulator

OPTION_SUB_COMMAND = 1
OPTION_SUB_COMMAND_GROUP = 2

COMPONENT_BUTTON = 2
COMPONENT_STRING_SELECT = 3


class ActionRefused(AssertionError):
    """The user could not do this in a real Discord client (a test bug or a bot bug)."""


class Actor:
    """One emulated user acting in the guild's channels and in DMs with the bot."""

    def __init__(self, emulator: Emulator, user: User, *, locale: str = "en-US") -> None:
        self.emulator = emulator
        self.user = user
        self.locale = locale

    def __repr__(self) -> str:
        return f"<Actor {self.user.name} {self.user.id}>"

    @property
    def dm_channel(self) -> Channel:
        return self.emulator.world.dm_channel(self.user)

    @property
    def dms(self) -> list[Message]:
        return self.emulator.dms_of(self.user)

    # -- messages -------------------------------------------------------------------------------

    async def send(
        self,
        content: str,
        *,
        channel: Channel | None = None,
        nonce: str | int | None = None,
        enforce_nonce: bool = True,
    ) -> Message:
        """Post a plain text message as this user, as the Discord client does when someone
        types (in #general by default, or their own DM with the bot).

        A client sends a nonce as well; with ``enforce_nonce`` the same nonce from this user
        in this channel within the emulator's ``nonce_window`` returns the existing message.
        A connected bot with the message intents gets MESSAGE_CREATE. The emulator parses no
        commands from the text.
        """
        emulator = self.emulator
        channel = channel or emulator.channel
        if channel.is_dm and channel.recipient_id != self.user.id:
            raise ActionRefused(f"{self.user.name} cannot post in another user's DM")
        if channel.archived and channel.locked:
            raise ActionRefused(f"{self.user.name} cannot post in a locked thread")
        body: dict[str, Any] = {"content": content}
        if nonce is not None:
            body.update({"nonce": str(nonce), "enforce_nonce": enforce_nonce})
        problems = message_problems(body)
        if problems:
            raise ActionRefused(f"a Discord client would not send this: {problems}")
        if channel.archived:
            await emulator.unarchive_thread(channel)
        message, _duplicate = await emulator.create_channel_message(self.user, channel, body)
        return message

    # -- slash commands -------------------------------------------------------------------------

    async def slash(
        self, command: str, *, channel: Channel | None = None, **options: Any
    ) -> InteractionRecord:
        """Run ``/command`` (``"game start"`` for subcommands) with keyword options."""
        channel = channel or self.emulator.channel
        names = command.split()
        definition = self._find_command(names[0], channel)
        data: dict[str, Any] = {"id": definition["id"], "name": names[0], "type": 1}
        if "guild_id" in definition:
            data["guild_id"] = definition["guild_id"]
        resolved: dict[str, dict[str, Any]] = {}
        container, declared = data, definition.get("options") or []
        for name in names[1:]:
            sub = _declared_option(declared, name, command)
            if sub["type"] not in (OPTION_SUB_COMMAND, OPTION_SUB_COMMAND_GROUP):
                raise ActionRefused(f"/{command}: {name!r} is not a subcommand")
            nested: dict[str, Any] = {"name": name, "type": sub["type"], "options": []}
            container.setdefault("options", []).append(nested)
            container, declared = nested, sub.get("options") or []
        container["options"] = [
            self._option(declared, name, value, command, resolved)
            for name, value in options.items()
        ]
        missing = [
            o["name"]
            for o in declared
            if o.get("required")
            and o["name"] not in options
            and o["type"] not in (OPTION_SUB_COMMAND, OPTION_SUB_COMMAND_GROUP)
        ]
        if missing:
            raise ActionRefused(f"/{command}: required options missing: {missing}")
        if resolved:
            data["resolved"] = resolved
        return await self._interact(APPLICATION_COMMAND, data, channel)

    def _find_command(self, name: str, channel: Channel) -> dict[str, Any]:
        scopes = [channel.guild_id, None] if channel.guild_id is not None else [None]
        for scope in scopes:
            for definition in self.emulator.commands.get(scope, []):
                if definition["name"] == name and definition.get("type", 1) == 1:
                    return definition
        raise ActionRefused(f"/{name} is not a synced command here (did the bot call tree.sync?)")

    def _option(
        self,
        declared: list[dict[str, Any]],
        name: str,
        value: Any,
        command: str,
        resolved: dict[str, dict[str, Any]],
    ) -> dict[str, Any]:
        option = _declared_option(declared, name, command)
        kind = option["type"]
        if isinstance(value, User):
            resolved.setdefault("users", {})[str(value.id)] = user_payload(value)
            member = member_payload(value)
            member.pop("user")
            resolved.setdefault("members", {})[str(value.id)] = member
            value = str(value.id)
        choices = option.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise ActionRefused(f"/{command}: {value!r} is not a choice of {name!r}")
        return {"name": name, "type": kind, "value": value}

    # -- components -----------------------------------------------------------------------------

    async def click(
        self, message: Message, *, label: str | None = None, custom_id: str | None = None
    ) -> InteractionRecord:
        """Click the button with this label or custom_id on ``message``."""
        component = self._component(message, COMPONENT_BUTTON, label=label, custom_id=custom_id)
        data = {"custom_id": component["custom_id"], "component_type": COMPONENT_BUTTON}
        return await self._interact(MESSAGE_COMPONENT, data, self._channel_of(message), message)

    async def select(
        self,
        message: Message,
        values: list[str],
        *,
        custom_id: str | None = None,
        placeholder: str | None = None,
    ) -> InteractionRecord:
        """Choose ``values`` in a string select (the only select if no custom_id is given)."""
        component = self._component(
            message, COMPONENT_STRING_SELECT, custom_id=custom_id, placeholder=placeholder
        )
        allowed = {option["value"] for option in component.get("options", [])}
        unknown = [v for v in values if v not in allowed]
        if unknown:
            raise ActionRefused(f"{unknown} are not options of select {component['custom_id']}")
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise ActionRefused(f"select needs {low}..{high} values, got {len(values)}")
        data = {
            "custom_id": component["custom_id"],
            "component_type": COMPONENT_STRING_SELECT,
            "values": values,
        }
        return await self._interact(MESSAGE_COMPONENT, data, self._channel_of(message), message)

    def _component(
        self,
        message: Message,
        component_type: int,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        placeholder: str | None = None,
    ) -> dict[str, Any]:
        self._check_visible(message)
        candidates = [
            c
            for c in message.iter_components()
            if c.get("type") == component_type
            and (label is None or c.get("label") == label)
            and (custom_id is None or c.get("custom_id") == custom_id)
            and (placeholder is None or c.get("placeholder") == placeholder)
        ]
        if len(candidates) != 1:
            wanted = f"type={component_type} label={label!r} custom_id={custom_id!r}"
            present = [
                (c.get("type"), c.get("label"), c.get("custom_id"))
                for c in message.iter_components()
            ]
            raise ActionRefused(
                f"expected exactly one component ({wanted}) on message {message.id}, "
                f"found {len(candidates)}; present: {present}"
            )
        component = candidates[0]
        if component.get("disabled"):
            raise ActionRefused(f"component {component['custom_id']} is disabled")
        return component

    def _check_visible(self, message: Message) -> None:
        world = self.emulator.world
        if message.deleted:
            raise ActionRefused(f"message {message.id} was deleted")
        channel = world.channels[message.channel_id]
        if channel.is_dm and channel.recipient_id != self.user.id:
            raise ActionRefused(f"{self.user.name} cannot see another user's DM")
        if message.ephemeral and message.viewer_id != self.user.id:
            raise ActionRefused(f"{self.user.name} cannot see someone else's ephemeral message")

    def _channel_of(self, message: Message) -> Channel:
        return self.emulator.world.channels[message.channel_id]

    # -- dispatch -------------------------------------------------------------------------------

    async def _interact(
        self,
        interaction_type: int,
        data: dict[str, Any],
        channel: Channel,
        message: Message | None = None,
    ) -> InteractionRecord:
        emulator = self.emulator
        record = InteractionRecord(
            id=emulator.snowflakes.next(),
            token=emulator.new_interaction_token(),
            type=interaction_type,
            user_id=self.user.id,
            channel_id=channel.id,
            guild_id=channel.guild_id,
            data=data,
            world=emulator.world,
            notifier=emulator.notifier,
            source_message_id=message.id if message is not None else None,
        )
        payload = interaction_payload(
            interaction_id=record.id,
            token=record.token,
            interaction_type=interaction_type,
            data=data,
            user=self.user,
            channel=channel,
            world=emulator.world,
            application=emulator.bot_user,
            locale=self.locale,
            message=message,
        )
        await emulator.dispatch_interaction(record, payload)
        return record


def _declared_option(declared: list[dict[str, Any]], name: str, command: str) -> dict[str, Any]:
    for option in declared:
        if option["name"] == name:
            return option
    known = [o["name"] for o in declared]
    raise ActionRefused(f"/{command} has no option {name!r} (it has {known})")
