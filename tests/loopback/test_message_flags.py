"""The emulator keeps a message's flags as Discord does when it is edited: an edit may turn
SUPPRESS_EMBEDS on or off and may set IS_COMPONENTS_V2, never clear it, and cannot touch
the others (an ephemeral message stays ephemeral)."""

from __future__ import annotations

from bot.loopback.model import (
    MESSAGE_FLAG_COMPONENTS_V2,
    MESSAGE_FLAG_EPHEMERAL,
    MESSAGE_FLAG_SUPPRESS_EMBEDS,
    Message,
)

TEXT = {"type": 10, "content": "Table"}


def test_an_edit_sets_the_v2_flag_and_a_later_edit_without_flags_keeps_it() -> None:
    message = Message(id=1, channel_id=2, author_id=3, content="old", embeds=[{"title": "t"}])
    message.apply(
        {"flags": MESSAGE_FLAG_COMPONENTS_V2, "content": "", "embeds": [], "components": [TEXT]}
    )
    assert message.flags == MESSAGE_FLAG_COMPONENTS_V2
    message.apply({"components": [TEXT]})
    assert message.flags == MESSAGE_FLAG_COMPONENTS_V2
    message.apply({"flags": 0})
    assert message.flags == MESSAGE_FLAG_COMPONENTS_V2


def test_an_edit_changes_suppress_embeds_but_not_the_ephemeral_flag() -> None:
    message = Message(id=1, channel_id=2, author_id=3, content="x", flags=MESSAGE_FLAG_EPHEMERAL)
    message.apply({"flags": MESSAGE_FLAG_SUPPRESS_EMBEDS})
    assert message.flags == MESSAGE_FLAG_EPHEMERAL | MESSAGE_FLAG_SUPPRESS_EMBEDS
    message.apply({"flags": 0})
    assert message.flags == MESSAGE_FLAG_EPHEMERAL
