"""Clicks a normal client cannot make: forged custom_ids and truly simultaneous clicks.

A modified client (or a race on a slow connection) can send any custom_id, or two clicks
before the first answer arrives. SimCord's actors refuse such impossible setups, so these helpers
emit the INTERACTION_CREATE events directly through SimCord's backend (its internal API,
pinned with simcord == 3.2.1).
"""

from __future__ import annotations

from typing import Any

import simcord
from simcord import interactions as sim_interactions
from simcord.backend import serializers
from simcord.enums import ComponentType, InteractionType
from simcord.results import InteractionResult


def _emit(
    env: simcord.Env, actor: Any, message: Any, data: dict[str, Any], *, carried: bool = True
) -> Any:
    backend = env.backend
    stored = backend.get_message(message.channel.id, message.id)
    guild = getattr(actor, "guild", None)
    record, payload = sim_interactions.base_payload(
        backend,
        type=InteractionType.MESSAGE_COMPONENT,
        channel_id=stored.channel_id,
        guild_id=guild.id if guild is not None else None,
        user_id=actor.id,
        data=data,
    )
    shown = dict(serializers.message_payload(backend, stored))
    # discord.py ignores a click on a custom_id the message does not show, so the forged
    # control is added to the message as the modified client would present it.
    if carried:
        shown["components"] = [*list(shown.get("components") or [])[:4], _row(data)]
    payload["message"] = shown
    record.source_message_id = stored.id
    backend.emit("INTERACTION_CREATE", payload)
    return record


def _row(data: dict[str, Any]) -> dict[str, Any]:
    if data["component_type"] == int(ComponentType.BUTTON):
        control = {"type": 2, "style": 1, "label": "forged", "custom_id": data["custom_id"]}
    else:
        options = [{"label": value, "value": value} for value in data["values"]]
        control = {"type": 3, "custom_id": data["custom_id"], "options": options}
    return {"type": 1, "components": [control]}


def click_data(custom_id: str, value: str | None = None) -> dict[str, Any]:
    if value is None:
        return {"custom_id": custom_id, "component_type": int(ComponentType.BUTTON)}
    return {
        "custom_id": custom_id,
        "component_type": int(ComponentType.STRING_SELECT),
        "values": [value],
    }


async def forged_click(
    env: simcord.Env,
    actor: Any,
    message: Any,
    custom_id: str,
    value: str | None = None,
    *,
    carried: bool = True,
) -> InteractionResult:
    """``actor`` sends a click with ``custom_id`` on ``message`` (any custom_id at all);
    ``carried=False``: the message as sent does not show that control."""
    return (await simultaneous(env, [(actor, message, custom_id, value)], carried=carried))[0]


async def simultaneous(
    env: simcord.Env, clicks: list[tuple[Any, Any, str, str | None]], *, carried: bool = True
) -> list[InteractionResult]:
    """Deliver several clicks to the bot before it handles any of them."""
    env._begin_operation("forged click")  # events reach the bot only inside an operation
    try:
        records = [
            _emit(env, actor, message, click_data(custom_id, value), carried=carried)
            for actor, message, custom_id, value in clicks
        ]
        await env._settle_internal(dispatch="INTERACTION_CREATE")
    finally:
        env._end_operation()
    return [InteractionResult(env, record) for record in records]
