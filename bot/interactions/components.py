"""Every interactive control, as a ``DynamicItem`` so it keeps working after a restart.

Why dynamic items: the custom_id carries everything needed to find the game again (game id,
state version, seat, menu position), so discord.py can route a click on a months-old DM without
any view registered in memory. The callbacks only parse and delegate to the flows on the bot.

custom_id formats (≤ 100 characters):

- ``glory:lobby:<action>:<game>`` — Join, Leave, Start, Cancel
- ``glory:opt:<game>:<option index>`` — a lobby option select (value: choice index)
- ``glory:optpick:<game>`` — which option the value select shows, for games with more
  options than a message has rows
- ``glory:hand:<game>`` — the table's My hand button
- ``glory:m:<game>:<version>:<seat>:<path>`` — a menu button; ``path`` is dot-separated
  choice indices (empty for the top level)
- ``glory:s:<game>:<version>:<seat>:<path>`` — a menu select; the value adds one index, or
  several dot-separated ones for a select of complete moves ("2.0.1";
  ``bot/messages/menu_layout.py``)
- ``glory:back:<game>:<seat>`` — take the seat back from the AI (the turn clock)
- ``glory:hint:<game>:<version>:<seat>`` — a private hint for the seat on turn
- ``glory:autopass:<game>:<1|0>`` — let the bot make the player's forced moves, or not
  (``bot/flows/forced_moves.py``)
- ``glory:over:<rematch|replay|scores>:<game>`` — the game-over message's buttons
  (``bot/messages/game_over.py``)

Why parsing never raises: a modified client can send any custom_id and any select value, and
an exception while discord.py builds the item would leave the user with "This interaction
failed". Each template therefore accepts anything after its prefix; what does not parse
becomes a ``DamagedControl``, which answers that the control is not one of ours, and a
custom_id that no template matches at all is answered the same way (the bot's ``on_interaction``).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord import ui

from bot.interactions.answers import KEY as ANSWER_KEY
from bot.interactions.answers import Answer
from bot.interactions.replies import reply

if TYPE_CHECKING:
    from bot.flows.clock import TurnClock
    from bot.flows.forced_moves import ForcedMoves
    from bot.flows.hints import HintFlow
    from bot.flows.lobby import LobbyFlow
    from bot.flows.moves import MoveFlow
    from bot.flows.rematch import RematchFlow
    from bot.messages.languages import Languages

MAX_ID = 2**63 - 1
"""Discord snowflakes and database ids are 64-bit."""
MAX_INDEX = 999
"""More choices than any menu level or option offers (an engine offers at most 25)."""
MAX_DEPTH = 20
ASCII_NUMBER = re.compile(r"[0-9]{1,19}")


def number(text: str, limit: int = MAX_ID) -> int | None:
    """``text`` as a non-negative integer no larger than ``limit``; ``None`` if it is not one.

    Only ASCII digits: ``"²".isdigit()`` is true, but ``int("²")`` fails.
    """
    if not ASCII_NUMBER.fullmatch(text):
        return None
    value = int(text)
    return value if value <= limit else None


def select_path(values: Sequence[str], below: int) -> tuple[int, ...] | None:
    """The one path a menu select sent (one index, or dot-separated indices), or ``None`` for
    anything else (none, several, empty, malformed, deeper than ``MAX_DEPTH`` below a level
    ``below`` deep)."""
    if len(values) != 1:
        return None
    path = parse_path(values[0])
    if not path or below + len(path) > MAX_DEPTH:
        return None
    return path


def select_index(values: Sequence[str]) -> int | None:
    """The one index a select sent, or ``None`` for anything else (none, several, not a number)."""
    if len(values) != 1:
        return None
    return number(values[0], MAX_INDEX)


@dataclass(frozen=True)
class MenuTarget:
    """A position in a seat's move menu at one state version."""

    game_id: int
    version: int
    seat: int
    path: tuple[int, ...]

    @property
    def path_text(self) -> str:
        return ".".join(map(str, self.path))

    @property
    def button_id(self) -> str:
        """The custom_id of a menu button that goes here."""
        return f"glory:m:{self.game_id}:{self.version}:{self.seat}:{self.path_text}"

    @property
    def select_id(self) -> str:
        """The custom_id of the menu select that shows this level."""
        return f"glory:s:{self.game_id}:{self.version}:{self.seat}:{self.path_text}"

    def at(self, path: tuple[int, ...]) -> MenuTarget:
        """The same menu at another position."""
        return MenuTarget(self.game_id, self.version, self.seat, path)

    def child(self, index: int) -> MenuTarget:
        return MenuTarget(self.game_id, self.version, self.seat, (*self.path, index))

    def parent(self) -> MenuTarget:
        return MenuTarget(self.game_id, self.version, self.seat, self.path[:-1])


def parse_path(text: str) -> tuple[int, ...] | None:
    """``"0.3.1"`` → ``(0, 3, 1)``; ``""`` → ``()``; ``None`` for anything malformed."""
    if not text:
        return ()
    parts = text.split(".")
    if len(parts) > MAX_DEPTH:
        return None
    indices = [number(part, MAX_INDEX) for part in parts]
    if any(index is None for index in indices):
        return None
    return tuple(indices)  # type: ignore[arg-type]


def parse_target(text: str) -> MenuTarget | None:
    """``<game>:<version>:<seat>:<path>`` → a ``MenuTarget``, or ``None`` if malformed."""
    fields = text.split(":")
    if len(fields) != 4:
        return None
    game, version, seat = number(fields[0]), number(fields[1]), number(fields[2], MAX_INDEX)
    path = parse_path(fields[3])
    if game is None or version is None or seat is None or path is None:
        return None
    return MenuTarget(game, version, seat, path)


class Flows(Protocol):
    """What a click on a control finds on the client it arrives on: the flows that handle it."""

    languages: Languages
    lobby: LobbyFlow
    moves: MoveFlow
    clock: TurnClock
    hints: HintFlow
    forced: ForcedMoves
    rematch: RematchFlow

    async def begin_handling(self, interaction: discord.Interaction) -> bool:
        """Count the interaction as in progress; False when the bot is stopping."""


def _bot(interaction: discord.Interaction) -> Flows:
    return interaction.client  # type: ignore[return-value]


class Control:
    """Mixed into every control: what a click does before and after its own work.

    Before: it starts the answer's deadline (``bot/interactions/answers.py``) and remembers its
    user's language. discord.py awaits ``interaction_check`` before the callback, so the language is
    stored before any DM of this click is written (the slash commands do the same in
    ``GloryTree``).

    After: it unties the objects discord.py made for the click (``release_interaction``), so
    they are freed the moment the click is answered. Subclasses put their work in ``act``.
    """

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        Answer.of(interaction).arm()
        bot = _bot(interaction)
        if not await bot.begin_handling(interaction):
            return False
        await bot.languages.remember(interaction)
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.act(interaction)
        finally:
            release_interaction(interaction, self.view)  # type: ignore[attr-defined]

    async def act(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError


def release_interaction(interaction: discord.Interaction, view: ui.View | None = None) -> None:
    """Break the reference cycles discord.py leaves behind for every click and command.

    The interaction and its response point at each other, and so do the view rebuilt from a
    clicked message and its items (and the interaction and its ``Answer``). Objects in a
    cycle wait for Python's cycle collector: about 60 objects a click, and at a few hundred
    clicks a second its collections paused the bot for 20-75 ms (``benchmarks/bot_load.py``).
    Untied, reference counting frees an interaction's message, components and users as soon as
    its task ends. Call it only once the interaction is answered: ``_cs_response`` is where
    discord.py caches ``Interaction.response``, and tests/bot/test_click_garbage.py fails if
    that changes.
    """
    if view is not None:
        view.clear_items()
    answer = interaction.extras.pop(ANSWER_KEY, None)
    if answer is not None:
        answer.release()
    with contextlib.suppress(AttributeError):
        del interaction._cs_response  # type: ignore[attr-defined]


async def answer_damaged(interaction: discord.Interaction) -> None:
    """The answer to a control no message of ours could have carried (nothing changes)."""
    await reply(interaction, "error.damaged_control")


class DamagedControl(Control, ui.DynamicItem[ui.Item], template=r"(?s).*"):
    """Stands in for a control whose custom_id does not parse (never registered itself)."""

    def __init__(self, item: ui.Item[Any]) -> None:
        super().__init__(item)

    async def act(self, interaction: discord.Interaction) -> None:
        await answer_damaged(interaction)


class LobbyButton(
    Control,
    ui.DynamicItem[ui.Button],
    template=r"glory:lobby:(?P<fields>.*)",
):
    def __init__(self, action: str, game_id: int, label: str = "", style: Any = None) -> None:
        self.action = action
        self.game_id = game_id
        super().__init__(
            ui.Button(
                label=label or action,
                style=style or discord.ButtonStyle.secondary,
                custom_id=f"glory:lobby:{action}:{game_id}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Button, match: re.Match[str], /
    ) -> LobbyButton | DamagedControl:
        action, _, game = match["fields"].partition(":")
        game_id = number(game)
        if game_id is None or not action.isascii() or not action.isalpha():
            return DamagedControl(item)
        return cls(action, game_id)

    async def act(self, interaction: discord.Interaction) -> None:
        await _bot(interaction).lobby.on_button(interaction, self.action, self.game_id)


class LobbyOptionSelect(
    Control,
    ui.DynamicItem[ui.Select],
    template=r"glory:opt:(?P<fields>.*)",
):
    def __init__(
        self, game_id: int, option: int, options: list[discord.SelectOption] | None = None
    ) -> None:
        self.game_id = game_id
        self.option = option
        super().__init__(
            ui.Select(
                custom_id=f"glory:opt:{game_id}:{option}",
                options=options or [discord.SelectOption(label="-", value="0")],
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Select, match: re.Match[str], /
    ) -> LobbyOptionSelect | DamagedControl:
        game, _, option = match["fields"].partition(":")
        game_id, index = number(game), number(option, MAX_INDEX)
        if game_id is None or index is None:
            return DamagedControl(item)
        return cls(game_id, index)

    async def act(self, interaction: discord.Interaction) -> None:
        choice = select_index(self.item.values)
        if choice is None:
            await answer_damaged(interaction)
            return
        await _bot(interaction).lobby.on_option(interaction, self.game_id, self.option, choice)


class LobbyOptionPicker(
    Control, ui.DynamicItem[ui.Select], template=r"glory:optpick:(?P<fields>.*)"
):
    """With more options than rows, the host first picks which option to change."""

    def __init__(self, game_id: int, options: list[discord.SelectOption] | None = None) -> None:
        self.game_id = game_id
        super().__init__(
            ui.Select(
                custom_id=f"glory:optpick:{game_id}",
                options=options or [discord.SelectOption(label="-", value="0")],
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Select, match: re.Match[str], /
    ) -> LobbyOptionPicker | DamagedControl:
        game_id = number(match["fields"])
        return DamagedControl(item) if game_id is None else cls(game_id)

    async def act(self, interaction: discord.Interaction) -> None:
        focus = select_index(self.item.values)
        if focus is None:
            await answer_damaged(interaction)
            return
        await _bot(interaction).lobby.on_option_focus(interaction, self.game_id, focus)


SEAT_CHOICE = re.compile(r"(?P<kind>[arc])(?P<index>[0-9]{1,3})")
"""A lobby seats-menu value: ``a<level>`` adds an AI player, ``r<seat>`` removes one,
``c<choice>`` sets the turn time (indices into ``AI_LEVELS``, the seats, ``TURN_TIMES``)."""


class LobbySeatsSelect(Control, ui.DynamicItem[ui.Select], template=r"glory:seats:(?P<fields>.*)"):
    """The host's menu for AI players and the turn clock."""

    def __init__(self, game_id: int, options: list[discord.SelectOption] | None = None) -> None:
        self.game_id = game_id
        super().__init__(
            ui.Select(
                custom_id=f"glory:seats:{game_id}",
                options=options or [discord.SelectOption(label="-", value="c0")],
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Select, match: re.Match[str], /
    ) -> LobbySeatsSelect | DamagedControl:
        game_id = number(match["fields"])
        return DamagedControl(item) if game_id is None else cls(game_id)

    async def act(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        choice = SEAT_CHOICE.fullmatch(values[0]) if len(values) == 1 else None
        if choice is None:
            await answer_damaged(interaction)
            return
        await _bot(interaction).lobby.on_seats(
            interaction, self.game_id, choice["kind"], int(choice["index"])
        )


class HandButton(Control, ui.DynamicItem[ui.Button], template=r"glory:hand:(?P<fields>.*)"):
    def __init__(self, game_id: int, label: str = "") -> None:
        self.game_id = game_id
        super().__init__(
            ui.Button(
                label=label or "-",
                style=discord.ButtonStyle.primary,
                custom_id=f"glory:hand:{game_id}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Button, match: re.Match[str], /
    ) -> HandButton | DamagedControl:
        game_id = number(match["fields"])
        return DamagedControl(item) if game_id is None else cls(game_id)

    async def act(self, interaction: discord.Interaction) -> None:
        await _bot(interaction).moves.show_hand(interaction, self.game_id)


class MenuButton(Control, ui.DynamicItem[ui.Button], template=r"glory:m:(?P<fields>.*)"):
    """Go to ``target.path``: open a sub-menu, or play the move it names.

    A click wraps the item it came with (``clicked``) instead of building a button again: the
    menu's controls are the ones clicked most, and only the custom_id matters then."""

    def __init__(
        self,
        target: MenuTarget,
        label: str = "",
        style: Any = None,
        row: int | None = None,
        *,
        clicked: ui.Button | None = None,
    ) -> None:
        self.target = target
        super().__init__(
            clicked
            or ui.Button(
                label=label or "-",
                style=style or discord.ButtonStyle.secondary,
                custom_id=target.button_id,
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Button, match: re.Match[str], /
    ) -> MenuButton | DamagedControl:
        target = parse_target(match["fields"])
        return DamagedControl(item) if target is None else cls(target, clicked=item)

    async def act(self, interaction: discord.Interaction) -> None:
        await _bot(interaction).moves.on_menu(interaction, self.target)


class MenuSelect(Control, ui.DynamicItem[ui.Select], template=r"glory:s:(?P<fields>.*)"):
    """Choose one entry of the menu level at ``target.path``: a choice of that level, or a
    complete move below it (a click wraps its item, as ``MenuButton`` does; the chosen value
    comes with the interaction)."""

    def __init__(
        self,
        target: MenuTarget,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        row: int | None = None,
        *,
        clicked: ui.Select | None = None,
    ) -> None:
        self.target = target
        super().__init__(
            clicked
            or ui.Select(
                custom_id=target.select_id,
                options=options or [discord.SelectOption(label="-", value="0")],
                placeholder=placeholder,
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Select, match: re.Match[str], /
    ) -> MenuSelect | DamagedControl:
        target = parse_target(match["fields"])
        return DamagedControl(item) if target is None else cls(target, clicked=item)

    async def act(self, interaction: discord.Interaction) -> None:
        below = select_path(self.item.values, len(self.target.path))
        if below is None:
            await answer_damaged(interaction)
            return
        target = self.target.at((*self.target.path, *below))
        await _bot(interaction).moves.on_menu(interaction, target)


class TakeBackButton(Control, ui.DynamicItem[ui.Button], template=r"glory:back:(?P<fields>.*)"):
    """``glory:back:<game>:<seat>``: the player takes their seat back from the AI (turn clock)."""

    def __init__(self, game_id: int, seat: int, label: str = "", row: int | None = None) -> None:
        self.game_id = game_id
        self.seat = seat
        super().__init__(
            ui.Button(
                label=label or "-",
                style=discord.ButtonStyle.success,
                custom_id=f"glory:back:{game_id}:{seat}",
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Button, match: re.Match[str], /
    ) -> TakeBackButton | DamagedControl:
        fields = match["fields"].split(":")
        if len(fields) != 2:
            return DamagedControl(item)
        game_id, seat = number(fields[0]), number(fields[1], MAX_INDEX)
        if game_id is None or seat is None:
            return DamagedControl(item)
        return cls(game_id, seat)

    async def act(self, interaction: discord.Interaction) -> None:
        await _bot(interaction).clock.take_back(interaction, self.game_id, self.seat)


class HintButton(Control, ui.DynamicItem[ui.Button], template=r"glory:hint:(?P<fields>.*)"):
    """``glory:hint:<game>:<version>:<seat>``: the move the strong AI would make now, privately
    (``bot/flows/hints.py``)."""

    def __init__(
        self, game_id: int, version: int, seat: int, label: str = "", row: int | None = None
    ) -> None:
        self.game_id = game_id
        self.version = version
        self.seat = seat
        super().__init__(
            ui.Button(
                label=label or "-",
                emoji="💡",
                style=discord.ButtonStyle.secondary,
                custom_id=f"glory:hint:{game_id}:{version}:{seat}",
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Button, match: re.Match[str], /
    ) -> HintButton | DamagedControl:
        fields = match["fields"].split(":")
        if len(fields) != 3:
            return DamagedControl(item)
        game_id, version = number(fields[0]), number(fields[1])
        seat = number(fields[2], MAX_INDEX)
        if game_id is None or version is None or seat is None:
            return DamagedControl(item)
        return cls(game_id, version, seat)

    async def act(self, interaction: discord.Interaction) -> None:
        await _bot(interaction).hints.on_button(interaction, self.game_id, self.version, self.seat)


class AutoPassButton(Control, ui.DynamicItem[ui.Button], template=r"glory:autopass:(?P<fields>.*)"):
    """``glory:autopass:<game>:<1|0>``: on a hand whose only move is a pass, let the bot make
    such moves from now on (``1``), or stop it (``0``)."""

    def __init__(self, game_id: int, on: bool, label: str = "", row: int | None = None) -> None:
        self.game_id = game_id
        self.on = on
        super().__init__(
            ui.Button(
                label=label or "-",
                emoji="⏩",
                style=discord.ButtonStyle.secondary,
                custom_id=f"glory:autopass:{game_id}:{int(on)}",
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Button, match: re.Match[str], /
    ) -> AutoPassButton | DamagedControl:
        game, _, on = match["fields"].partition(":")
        game_id = number(game)
        if game_id is None or on not in ("0", "1"):
            return DamagedControl(item)
        return cls(game_id, on == "1")

    async def act(self, interaction: discord.Interaction) -> None:
        await _bot(interaction).forced.on_button(interaction, self.game_id, self.on)


class GameOverButton(Control, ui.DynamicItem[ui.Button], template=r"glory:over:(?P<fields>.*)"):
    """``glory:over:<button>:<game>``: Rematch, Replay or Scores on a game-over message."""

    def __init__(self, button: str, game_id: int, label: str = "") -> None:
        self.button = button
        self.game_id = game_id
        super().__init__(
            ui.Button(
                label=label or "-",
                style=discord.ButtonStyle.secondary,
                custom_id=f"glory:over:{button}:{game_id}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Button, match: re.Match[str], /
    ) -> GameOverButton | DamagedControl:
        from bot.messages.game_over import BUTTONS

        button, _, game = match["fields"].partition(":")
        game_id = number(game)
        if game_id is None or button not in BUTTONS:
            return DamagedControl(item)
        return cls(button, game_id)

    async def act(self, interaction: discord.Interaction) -> None:
        await _bot(interaction).rematch.on_over_button(interaction, self.button, self.game_id)


DYNAMIC_ITEMS = (
    LobbyButton,
    LobbyOptionSelect,
    LobbyOptionPicker,
    LobbySeatsSelect,
    HandButton,
    MenuButton,
    MenuSelect,
    TakeBackButton,
    HintButton,
    AutoPassButton,
    GameOverButton,
)


def routed_by_discord_py(interaction: discord.Interaction, patterns: Sequence[re.Pattern]) -> bool:
    """Whether discord.py will hand this component interaction to one of our dynamic items:
    its custom_id matches a template and the clicked message carries that control (discord.py
    rebuilds the item from the message and drops the click otherwise)."""
    data: Any = interaction.data or {}
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str) or not any(p.fullmatch(custom_id) for p in patterns):
        return False
    message = interaction.message
    if message is None:
        return False
    for row in message.components:
        for child in getattr(row, "children", [row]):
            if getattr(child, "custom_id", None) == custom_id:
                return True
    return False
