"""Players who act only through what Discord shows them: hands in DMs and ephemerals.

Used by the process-level tests and the load benchmark of the real bot. A player looks at
the messages they can see that carry game-menu components (``glory:m:...`` buttons,
``glory:s:...`` selects; see ``bot/interactions/components.py``) and uses one at random, like a
person clicking around the menus. When nobody at a table can act (a crash can interrupt the bot
between answering a click and sending the next player's hand), the players do what a person
would: press "My hand" on the public table, which sends a fresh ephemeral hand.
Every loop here is bounded by a step count and each wait by a timeout.
"""

from __future__ import annotations

import random
import re
import weakref
from dataclasses import dataclass, field
from typing import Any

from bot.ai.autoplay import AI_LEVELS

from . import Actor, Channel, Emulator, InteractionRecord, Message, WaitTimeout

MENU_ID = re.compile(r"^glory:[ms]:(?P<game>\d+):(?P<version>\d+):(?P<seat>\d+):")
HAND_BUTTON = re.compile(r"^glory:hand:\d+$")
STALL_SECONDS = 3.0
"""How long players wait for a hand before pressing "My hand" on the table."""


@dataclass
class Table:
    """One game as its players see it: who sits there and the public table message."""

    emulator: Emulator
    players: list[Actor]
    message: Message
    hand_custom_id: str = field(init=False)
    """This game's "My hand" button, by which its table is recognised."""

    def __post_init__(self) -> None:
        hand_buttons = [c for c in _custom_ids(self.message.components) if HAND_BUTTON.match(c)]
        if len(hand_buttons) != 1:
            raise ValueError(f"message {self.message.id} is not a running game's table")
        self.hand_custom_id = hand_buttons[0]

    def current_message(self) -> Message:
        """The table as the channel shows it now, kept in ``message``.

        The bot may post its table anew (when the old one was deleted, or could not be edited
        because its thread was archived) and retire the old one, so this is the newest
        message in the channel carrying this game's "My hand" button; once none does (the
        game is over), the last one known.
        """
        channel = self.emulator.world.channels[self.message.channel_id]
        for message in reversed(self.emulator.messages_in(channel)):
            if self.hand_custom_id in _custom_ids(message.components):
                self.message = message
                break
        return self.message

    @property
    def running(self) -> bool:
        """A running game's table carries "My hand"; a finished one has no controls."""
        return has_hand_button(self.current_message())

    def movers(self) -> list[Actor]:
        return [actor for actor in self.players if live_hand(actor) is not None]

    def version(self) -> int:
        return highest_version(self.players)


def _custom_ids(components: list[dict[str, Any]]) -> list[str]:
    return [c["custom_id"] for c in _walk(components) if "custom_id" in c]


FOOTER_MOVE = re.compile(r"#\d+ · \D*(?P<move>\d+)")
"""The move count in a table's or hand's footer ("Game #12 · move 7", in every language)."""


def footer_in(embeds: list[dict[str, Any]], components: list[dict[str, Any]]) -> str:
    """A table's or hand's footer from its parts: the embed's, or the V2 text display in small
    print (a message's or one of its revisions')."""
    if embeds:
        return str((embeds[0].get("footer") or {}).get("text", ""))
    small = [
        str(c["content"])[3:]
        for c in _walk(components)
        if c.get("type") == 10 and str(c.get("content", "")).startswith("-# ")
    ]
    return small[-1] if small else ""


def footer_text(message: Message) -> str:
    return footer_in(message.embeds, message.components)


def version_in(embeds: list[dict[str, Any]], components: list[dict[str, Any]]) -> int | None:
    """The game version a table or hand shows: its footer counts the moves made and the deal
    is version 1; ``None`` if it names no move."""
    found = FOOTER_MOVE.search(footer_in(embeds, components))
    return int(found["move"]) + 1 if found else None


def shown_version(message: Message) -> int:
    """``version_in`` of a message, 0 if it names none."""
    return version_in(message.embeds, message.components) or 0


def text_of(message: Message) -> str:
    """Everything a player reads in a message: content, embeds and V2 text displays."""
    parts = [str(message.content or "")]
    for embed in message.embeds:
        parts += [str(embed.get(key) or "") for key in ("title", "description")]
        parts += [f"{f.get('name')}\n{f.get('value')}" for f in embed.get("fields") or []]
    parts += [str(c["content"]) for c in _walk(message.components) if c.get("type") == 10]
    return "\n".join(part for part in parts if part)


def gallery_urls(message: Message) -> list[str]:
    """The media a V2 message's galleries show (``attachment://…`` as the bot wrote them)."""
    return [
        str((item.get("media") or {}).get("url", ""))
        for component in _walk(message.components)
        if component.get("type") == 12
        for item in component.get("items") or []
    ]


def _walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    stack = list(components)
    while stack:  # bounded by the (finite) component tree
        component = stack.pop()
        found.append(component)
        stack.extend(component.get("components") or [])
    return found


def has_hand_button(message: Message) -> bool:
    return any(HAND_BUTTON.match(custom_id) for custom_id in _custom_ids(message.components))


def menu_components(message: Message) -> list[dict[str, Any]]:
    return [
        c
        for c in message.iter_components()
        if MENU_ID.match(c.get("custom_id", "")) and not c.get("disabled")
    ]


def state_version(message: Message) -> int:
    """The game-state version the message's menu was rendered for (0 if it has none)."""
    versions = [
        int(match["version"])
        for custom_id in _custom_ids(message.components)
        if (match := MENU_ID.match(custom_id))
    ]
    return max(versions, default=0)


def visible_hands(actor: Actor) -> list[Message]:
    """The actor's DMs and the ephemeral messages the bot showed them."""
    return [*actor.dms, *actor.emulator.ephemerals_for(actor.user)]


_abandoned_hands: weakref.WeakKeyDictionary[Actor, set[int]] = weakref.WeakKeyDictionary()
"""Per player, hand messages they stopped using because the bot answered a click on them
with a new message (an out-of-date notice, a fresh hand, "not your turn") instead of
updating them, as a person would after reading that answer."""


def live_hand(actor: Actor) -> Message | None:
    """Where this player can act now: the usable menu rendered for the newest state."""
    abandoned = _abandoned_hands.get(actor, set())
    candidates = [m for m in visible_hands(actor) if m.id not in abandoned and menu_components(m)]
    return max(candidates, key=lambda m: (state_version(m), m.id), default=None)


def highest_version(actors: list[Actor]) -> int:
    return max((state_version(m) for a in actors for m in visible_hands(a)), default=0)


def versions_rendered(actors: list[Actor]) -> dict[int, set[int]]:
    """Per game id, every state version any menu was ever rendered for (edits included).

    A version shown to a player is a state the bot acknowledged; durability means the bot
    never renders an older or equal version again after a crash.
    """
    seen: dict[int, set[int]] = {}
    for actor in actors:
        dms = actor.emulator.world.messages_in(actor.dm_channel, include_deleted=True)
        for message in [*dms, *actor.emulator.ephemerals_for(actor.user)]:
            for components in [message.components, *(r.components for r in message.history)]:
                for custom_id in _custom_ids(components):
                    if match := MENU_ID.match(custom_id):
                        seen.setdefault(int(match["game"]), set()).add(int(match["version"]))
    return seen


async def use_random_control(actor: Actor, hand: Any, rng: random.Random) -> InteractionRecord:
    """Click one random menu button of ``hand``, or choose random values of its select."""
    component = rng.choice(menu_components(hand))
    if component["type"] == 2:
        return await actor.click(hand, custom_id=component["custom_id"])
    options = [option["value"] for option in component.get("options", [])]
    low = component.get("min_values", 1)
    high = min(component.get("max_values", 1), len(options))
    values = rng.sample(options, rng.randint(low, high))
    return await actor.select(hand, values, custom_id=component["custom_id"])


async def act_randomly(actor: Actor, rng: random.Random) -> InteractionRecord | None:
    """Use one random menu component of the player's live hand; None if they cannot act."""
    hand = live_hand(actor)
    if hand is None:
        return None
    record = await use_random_control(actor, hand, rng)
    await record.response(timeout=10)
    if record.response_message_id != hand.id:
        _abandoned_hands.setdefault(actor, set()).add(hand.id)
    return record


async def ask_for_hands(table: Table) -> None:
    """Every player presses "My hand" on the table (the bot answers with an ephemeral hand)."""
    for actor in table.players:
        if not table.running:  # the game ended meanwhile
            return
        record = await actor.click(table.message, custom_id=table.hand_custom_id)
        await record.response(timeout=10)


async def wait_for_movers(table: Table) -> list[Actor]:
    """The players who can act, asking for hands once if the table seems stuck.

    Returns [] if the game ended meanwhile.
    """
    emulator = table.emulator
    what = f"a player able to act (state {table.version()})"
    try:
        await emulator.wait_for(
            lambda: table.movers() or not table.running, timeout=STALL_SECONDS, what=what
        )
    except WaitTimeout:
        await ask_for_hands(table)
        await emulator.wait_for(lambda: table.movers() or not table.running, timeout=10, what=what)
    return table.movers()


async def play_until_version(
    table: Table, target: int, rng: random.Random, *, max_steps: int = 300
) -> int:
    """Random menu actions until some hand shows state ``target``; returns the steps used."""
    for step in range(max_steps):
        if table.version() >= target:
            return step
        movers = await wait_for_movers(table)
        if not movers:
            raise AssertionError(f"the game ended before state {target}")
        await act_randomly(rng.choice(movers), rng)
    raise AssertionError(f"state version {target} not reached in {max_steps} menu actions")


async def play_to_end(table: Table, rng: random.Random, *, max_steps: int = 5000) -> int:
    """Random menu actions until the table shows the game is over; returns the steps used."""
    for step in range(max_steps):
        movers = await wait_for_movers(table) if table.running else []
        if not movers:
            return step
        await act_randomly(rng.choice(movers), rng)
    raise AssertionError(f"the game did not end within {max_steps} menu actions")


async def open_and_start(
    emulator: Emulator,
    players: list[Actor],
    game: str,
    *,
    channel: Channel | None = None,
    options: str | None = None,
    ai: tuple[str, ...] = (),
) -> Table:
    """The first player opens a lobby with ``/play`` (in ``channel``, default #general), the
    others join, the host starts it. Returns the table once the first hand reached a DM.

    ``options`` is ``/play``'s optional text argument, e.g. ``"rounds=1"`` (see
    ``bot/flows/options.py``); without it the lobby starts with the game's defaults. ``ai``: levels
    of AI players the host seats from the lobby's seats menu before starting.
    """
    channel = channel or emulator.channel
    host, *guests = players
    typed = {"options": options} if options is not None else {}
    play = await host.slash("play", game=game, channel=channel, **typed)
    lobby = await play.settled(timeout=10)
    if lobby.ephemeral:
        raise AssertionError(f"/play was refused: {lobby.content!r} {lobby.embeds!r}")
    for guest in guests:
        await (await guest.click(lobby, label="Join")).response(timeout=10)
    for level in ai:
        seats = next(c for c in _custom_ids(lobby.components) if c.startswith("glory:seats:"))
        value = f"a{AI_LEVELS.index(level)}"
        await (await host.select(lobby, [value], custom_id=seats)).response(timeout=10)
    await (await host.click(lobby, label="Start")).response(timeout=10)
    # With AI players on turn first, a human's first hand may show no controls for a while.
    await emulator.wait_for(
        lambda: (
            all(emulator.dms_of(player.user) for player in players)
            and (ai or highest_version(players) >= 1)
        ),
        timeout=10,
        what="the first hands in DMs",
    )
    message = await emulator.wait_for(
        lambda: next((m for m in emulator.messages_in(channel) if has_hand_button(m)), None),
        timeout=10,
        what="the public table message",
    )
    return Table(emulator, players, message)
