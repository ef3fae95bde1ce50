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
- ``glory:s:<game>:<version>:<seat>:<path>`` — a menu select; the value adds one index
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import ui

if TYPE_CHECKING:
    from bot.app import GloryBot

NO_SUCH_CHOICE = -1


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

    def child(self, index: int) -> MenuTarget:
        return MenuTarget(self.game_id, self.version, self.seat, (*self.path, index))

    def parent(self) -> MenuTarget:
        return MenuTarget(self.game_id, self.version, self.seat, self.path[:-1])


def parse_path(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(".")) if text else ()


def _bot(interaction: discord.Interaction) -> GloryBot:
    return interaction.client  # type: ignore[return-value]


class Control:
    """Mixed into every control: what a click does before and after its own work.

    Before: it remembers its user's language. discord.py awaits ``interaction_check`` before
    the callback, so the language is stored before any DM of this click is written (the slash
    commands do the same in ``GloryTree``).

    After: it unties the objects discord.py made for the click (``release_interaction``), so
    they are freed the moment the click is answered. Subclasses put their work in ``act``.
    """

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        await _bot(interaction).languages.remember(interaction)
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
    clicked message and its items. Objects in a cycle wait for Python's cycle collector: about
    60 objects a click, and at a few hundred clicks a second its collections paused the bot for
    20-75 ms (``benchmarks/bot_load.py``). Untied, reference counting frees an interaction's
    message, components and users as soon as its task ends. Call it only once the interaction
    is answered: ``_cs_response`` is where discord.py caches ``Interaction.response``, and
    tests/bot/test_click_garbage.py fails if that changes.
    """
    if view is not None:
        view.clear_items()
    with contextlib.suppress(AttributeError):
        del interaction._cs_response  # type: ignore[attr-defined]


class LobbyButton(
    Control,
    ui.DynamicItem[ui.Button],
    template=r"glory:lobby:(?P<action>[a-z]+):(?P<game>\d+)",
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
    ) -> LobbyButton:
        return cls(match["action"], int(match["game"]))

    async def act(self, interaction: discord.Interaction) -> None:
        await _bot(interaction).lobby.on_button(interaction, self.action, self.game_id)


class LobbyOptionSelect(
    Control,
    ui.DynamicItem[ui.Select],
    template=r"glory:opt:(?P<game>\d+):(?P<option>\d+)",
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
    ) -> LobbyOptionSelect:
        return cls(int(match["game"]), int(match["option"]))

    async def act(self, interaction: discord.Interaction) -> None:
        choice = int(self.item.values[0]) if self.item.values else -1
        await _bot(interaction).lobby.on_option(interaction, self.game_id, self.option, choice)


class LobbyOptionPicker(
    Control, ui.DynamicItem[ui.Select], template=r"glory:optpick:(?P<game>\d+)"
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
    ) -> LobbyOptionPicker:
        return cls(int(match["game"]))

    async def act(self, interaction: discord.Interaction) -> None:
        focus = int(self.item.values[0]) if self.item.values else -1
        await _bot(interaction).lobby.on_option_focus(interaction, self.game_id, focus)


class HandButton(Control, ui.DynamicItem[ui.Button], template=r"glory:hand:(?P<game>\d+)"):
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
    ) -> HandButton:
        return cls(int(match["game"]))

    async def act(self, interaction: discord.Interaction) -> None:
        await _bot(interaction).moves.show_hand(interaction, self.game_id)


_MENU = r"(?P<game>\d+):(?P<version>\d+):(?P<seat>\d+):(?P<path>[0-9.]*)"


def _target(match: re.Match[str]) -> MenuTarget:
    return MenuTarget(
        int(match["game"]), int(match["version"]), int(match["seat"]), parse_path(match["path"])
    )


class MenuButton(Control, ui.DynamicItem[ui.Button], template=rf"glory:m:{_MENU}"):
    """Go to ``target.path``: open a sub-menu, or play the move it names."""

    def __init__(
        self, target: MenuTarget, label: str = "", style: Any = None, row: int | None = None
    ) -> None:
        self.target = target
        custom_id = f"glory:m:{target.game_id}:{target.version}:{target.seat}:{target.path_text}"
        super().__init__(
            ui.Button(
                label=label or "-",
                style=style or discord.ButtonStyle.secondary,
                custom_id=custom_id,
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Button, match: re.Match[str], /
    ) -> MenuButton:
        return cls(_target(match))

    async def act(self, interaction: discord.Interaction) -> None:
        await _bot(interaction).moves.on_menu(interaction, self.target)


class MenuSelect(Control, ui.DynamicItem[ui.Select], template=rf"glory:s:{_MENU}"):
    """Choose one entry of the menu level at ``target.path``."""

    def __init__(
        self,
        target: MenuTarget,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        row: int | None = None,
    ) -> None:
        self.target = target
        custom_id = f"glory:s:{target.game_id}:{target.version}:{target.seat}:{target.path_text}"
        super().__init__(
            ui.Select(
                custom_id=custom_id,
                options=options or [discord.SelectOption(label="-", value="0")],
                placeholder=placeholder,
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Select, match: re.Match[str], /
    ) -> MenuSelect:
        return cls(_target(match))

    async def act(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        # A value that is no index (only a tampered client sends one) becomes an index no menu
        # has, which the move flow refuses as an illegal move.
        index = int(values[0]) if values and values[0].isdigit() else NO_SUCH_CHOICE
        await _bot(interaction).moves.on_menu(interaction, self.target.child(index))


DYNAMIC_ITEMS = (
    LobbyButton,
    LobbyOptionSelect,
    LobbyOptionPicker,
    HandButton,
    MenuButton,
    MenuSelect,
)
