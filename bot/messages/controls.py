"""Building the component rows of lobby, table and hand messages.

The move menu is the engine's menu tree (``games.menu``) walked by index, as
``bot/messages/menu_layout.py`` collapses it: a level with one choice is taken at once, a whole
decision that fits one control is offered as complete moves (buttons when few, else one select),
other levels show their own choices; Back returns to the level the player saw before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.ai.autoplay import AI_LEVELS
from bot.flows.clock import TURN_TIMES, turn_time_text
from bot.flows.session import LoadedGame
from bot.i18n import t
from bot.interactions.components import (
    HandButton,
    LobbyButton,
    LobbyOptionPicker,
    LobbyOptionSelect,
    LobbySeatsSelect,
    MenuButton,
    MenuSelect,
    MenuTarget,
)
from bot.messages.menu_layout import Layout, join_labels, layout, menu_tree
from bot.messages.menu_layout import resolve as resolve  # where callers have always found it
from bot.messages.option_help import option_about, value_about
from bot.messages.seat_controls import seat_button_components, seat_buttons
from bot.render.base import Presenter
from bot.render.common import safe_names, shown_names
from bot.render.layout import PrebuiltControls
from bot.storage.models import GameStatus
from games import Option

MAX_OPTION_SELECTS = 3
"""Rows left for option selects below the lobby's button row and its seats menu."""
LABEL_LIMIT = 80
PLACEHOLDER_LIMIT = 150


class SentControls(discord.ui.View):
    """The components of one message: built, sent, and never looked at again.

    Every control is a ``DynamicItem``: a click is routed by its custom_id, and discord.py
    rebuilds a view from the clicked message. So a sent item never needs to know its view, and
    leaving that link out keeps the view out of a reference cycle, which reference counting
    frees the moment the message is sent (why that matters: ``components.release_interaction``).
    """

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def add_item(self, item: discord.ui.Item[Any]) -> SentControls:
        if item.is_dispatchable() and not isinstance(item, discord.ui.DynamicItem):
            # discord.py would route its clicks through this view, which it no longer knows.
            raise TypeError(f"{type(item).__name__} is not a DynamicItem; clicks would be lost")
        super().add_item(item)
        item._update_view(None)
        return self


def lobby_view(
    loaded: LoadedGame, presenter: Presenter, locale: str, focus: int = 0
) -> SentControls | None:
    """Join/Leave/Start/Cancel, the seats menu (AI players, turn time), then option selects;
    ``None`` once the lobby closed.

    A message has five rows: with up to three options each gets its own select; with more, one
    select picks the option (``focus``) and a second one sets its value.
    """
    if loaded.status is not GameStatus.LOBBY:
        return None
    view = SentControls()
    styles = {
        "join": discord.ButtonStyle.success,
        "leave": discord.ButtonStyle.secondary,
        "start": discord.ButtonStyle.primary,
        "cancel": discord.ButtonStyle.danger,
    }
    for action, style in styles.items():
        view.add_item(LobbyButton(action, loaded.id, t(f"button.{action}", locale), style))
    view.add_item(LobbySeatsSelect(loaded.id, seats_menu(loaded, locale)))
    options = loaded.game.options
    if len(options) <= MAX_OPTION_SELECTS:
        for index in range(len(options)):
            view.add_item(
                LobbyOptionSelect(loaded.id, index, _choices(loaded, presenter, index, locale))
            )
        return view
    focus = focus if 0 <= focus < len(options) else 0
    picker = [
        discord.SelectOption(
            label=_option_text(loaded, presenter, index, locale),
            value=str(index),
            description=_clip(option_about(loaded.row.game_key, options[index].name, locale), 100),
            default=index == focus,
        )
        for index in range(len(options))
    ]
    view.add_item(LobbyOptionPicker(loaded.id, picker))
    view.add_item(LobbyOptionSelect(loaded.id, focus, _choices(loaded, presenter, focus, locale)))
    return view


def seats_menu(loaded: LoadedGame, locale: str) -> list[discord.SelectOption]:
    """Add an AI player (while a seat is free), remove one, set the turn time."""
    entries: list[discord.SelectOption] = []
    if len(loaded.seats) < max(loaded.game.player_counts):
        for index, level in enumerate(AI_LEVELS):
            label = t("lobby.add_ai", locale, level=t(f"ai.level.{level}", locale))
            entries.append(discord.SelectOption(label=_clip(label, 100), value=f"a{index}"))
    names = safe_names(loaded.names)
    for row in loaded.seats:
        if row.ai_level is not None:
            label = t("lobby.remove_ai", locale, name=names[row.seat])
            entries.append(discord.SelectOption(label=_clip(label, 100), value=f"r{row.seat}"))
    for index, seconds in enumerate(TURN_TIMES):
        label = t("lobby.turn_time_choice", locale, value=turn_time_text(seconds, locale))
        entries.append(
            discord.SelectOption(
                label=_clip(label, 100),
                value=f"c{index}",
                default=seconds == loaded.row.turn_seconds,
            )
        )
    return entries


def _option_text(loaded: LoadedGame, presenter: Presenter, index: int, locale: str) -> str:
    option = loaded.game.options[index]
    return _choice_label(
        presenter, option, loaded.row.options.get(option.name, option.default), locale
    )


def _choice_label(presenter: Presenter, option: Option, value: object, locale: str) -> str:
    """ "Rounds: 4" — an option with one of its values, as a select entry."""
    text = t(
        "lobby.option_choice",
        locale,
        option=presenter.option_label(option.name, locale),
        value=presenter.option_value(option.name, value, locale),  # type: ignore[arg-type]
    )
    return _clip(text, 100)


def _choices(
    loaded: LoadedGame, presenter: Presenter, index: int, locale: str
) -> list[discord.SelectOption]:
    option = loaded.game.options[index]
    current = loaded.row.options.get(option.name, option.default)
    return [
        discord.SelectOption(
            label=_choice_label(presenter, option, choice, locale),
            value=str(number),
            # One line on what this value does (the /rules guide lists the same lines).
            description=_clip(value_about(loaded.row.game_key, option.name, choice, locale), 100),
            default=choice == current,
        )
        for number, choice in enumerate(option.choices)
    ]


def table_view(loaded: LoadedGame, locale: str) -> SentControls | None:
    """The table's My hand button while the game runs."""
    if loaded.status is not GameStatus.ACTIVE:
        return None
    view = SentControls()
    view.add_item(HandButton(loaded.id, t("button.my_hand", locale)))
    return view


def menu_layout(
    loaded: LoadedGame,
    presenter: Presenter,
    seat: int,
    locale: str,
    path: tuple[int, ...],
    names: tuple[str, ...],
) -> Layout:
    """What ``seat`` on turn is shown at ``path`` (the top level if ``path`` names no
    position), laid out once per state, position, language and names (``LoadedGame.derived``:
    the hand DM and every click in it share it)."""

    def make() -> Layout:
        tree = menu_tree(loaded)

        def label(tokens: tuple[str, ...]) -> str:
            return entry_label(loaded, presenter, seat, tokens, names, locale)

        shown = layout(tree, path, label)
        if shown is None:
            shown = layout(tree, (), label)
        assert shown is not None
        return shown

    return loaded.derived(("layout", seat, path, locale, names), make)


def entry_label(
    loaded: LoadedGame,
    presenter: Presenter,
    seat: int,
    tokens: tuple[str, ...],
    names: tuple[str, ...],
    locale: str,
) -> str:
    """A control's label: the tokens it leads down, in words ("Counter › Spear (2)")."""
    labels = [token_label(loaded, presenter, seat, token, names, locale) for token in tokens]
    return join_labels(labels, t("menu.separator", locale))


def _placeholder(
    loaded: LoadedGame,
    presenter: Presenter,
    seat: int,
    shown: Layout,
    names: tuple[str, ...],
    locale: str,
) -> str:
    """A select's placeholder: where the player is, when levels were taken for them."""
    if not shown.tokens:
        return t("menu.placeholder", locale)
    path = entry_label(loaded, presenter, seat, shown.tokens, names, locale)
    return _clip(t("flow.menu.placeholder_at", locale, path=path), PLACEHOLDER_LIMIT)


def _path_text(path: tuple[int, ...]) -> str:
    return ".".join(map(str, path))


def label_whole_menu(
    loaded: LoadedGame,
    presenter: Presenter,
    seat: int,
    locale: str,
    names: tuple[str, ...] | None = None,
) -> None:
    """Make now the label of every token that ``seat``'s menu shows at any level.

    A click that opens a sub-menu then finds its labels made, and need not compute the seat's
    view for them: with ``menu_tree``, this took the sub-menu's controls from 0.15 to 0.08 ms
    of the click's 0.9 ms in the bot (``benchmarks/bot_load.py``). The courier calls this as
    it renders the hand of the player on turn, when that view is computed anyway; the labels
    live with the state (``LoadedGame.derived``)."""
    state = loaded.state
    if state is None or loaded.status is not GameStatus.ACTIVE or state.to_move != seat:
        return
    names = shown_names(loaded) if names is None else names
    for token in menu_tree(loaded).tokens():
        token_label(loaded, presenter, seat, token, names, locale)


def menu_view(
    loaded: LoadedGame,
    presenter: Presenter,
    seat: int,
    locale: str,
    path: tuple[int, ...] = (),
) -> SentControls | None:
    """The controls of ``seat`` at menu position ``path`` and the seat's own buttons (a hint,
    taking a seat back from the AI); ``None`` when there is nothing to press."""
    state = loaded.state
    if state is None or loaded.status is not GameStatus.ACTIVE:
        return None
    extras = seat_buttons(loaded, seat, locale)
    if state.to_move != seat:
        if not extras:
            return None
        view = SentControls()
        for item in extras:
            view.add_item(item)
        return view
    names = shown_names(loaded)
    shown = menu_layout(loaded, presenter, seat, locale, path, names)
    here = MenuTarget(loaded.id, loaded.row.version, seat, shown.path)
    view = SentControls()
    if shown.select:
        options = [
            discord.SelectOption(
                label=_clip(entry_label(loaded, presenter, seat, entry.tokens, names, locale), 100),
                value=_path_text(shown.relative(entry)),
            )
            for entry in shown.entries
        ]
        view.add_item(
            MenuSelect(
                here, options, _placeholder(loaded, presenter, seat, shown, names, locale), row=0
            )
        )
    else:
        for entry in shown.entries:
            label = entry_label(loaded, presenter, seat, entry.tokens, names, locale)
            view.add_item(
                MenuButton(
                    here.at(entry.path),
                    _clip(label, LABEL_LIMIT),
                    discord.ButtonStyle.primary,
                    row=0,
                )
            )
    if shown.back is not None:
        view.add_item(
            MenuButton(
                here.at(shown.back), t("button.back", locale), discord.ButtonStyle.secondary, row=1
            )
        )
    for item in extras:
        view.add_item(item)
    return view


def menu_controls(
    loaded: LoadedGame,
    presenter: Presenter,
    seat: int,
    locale: str,
    path: tuple[int, ...] = (),
    names: tuple[str, ...] | None = None,
) -> PrebuiltControls | None:
    """What ``menu_view`` shows, as JSON (``PrebuiltControls``): the same components, equal
    to its ``to_components()`` (tests/bot/test_menu_controls.py), without discord.py's items.
    ``names``: ``shown_names(loaded)``, if the caller has them."""
    state = loaded.state
    if state is None or loaded.status is not GameStatus.ACTIVE:
        return None
    extras = seat_button_components(loaded, seat, locale)
    if any(row is None or row < 2 for row, _ in extras):
        view = menu_view(loaded, presenter, seat, locale, path)  # rows shared with the menu
        return None if view is None else PrebuiltControls(view.to_components())
    rows: list[dict[str, Any]] = []
    if state.to_move == seat:
        names = shown_names(loaded) if names is None else names
        rows = _menu_rows(loaded, presenter, seat, locale, path, names)
    elif not extras:
        return None
    by_row: dict[int, list[dict[str, Any]]] = {}
    for row, component in extras:
        by_row.setdefault(row, []).append(component)  # type: ignore[arg-type]
    rows += [{"type": 1, "components": by_row[row]} for row in sorted(by_row)]
    return PrebuiltControls(rows)


def _menu_rows(
    loaded: LoadedGame,
    presenter: Presenter,
    seat: int,
    locale: str,
    path: tuple[int, ...],
    names: tuple[str, ...],
) -> list[dict[str, Any]]:
    """The move menu's action rows at ``path`` (collapsed, ``menu_layout``): its controls
    (row 0), Back (row 1)."""
    shown = menu_layout(loaded, presenter, seat, locale, path, names)
    here = MenuTarget(loaded.id, loaded.row.version, seat, shown.path)
    rows = []
    if shown.select:
        select = {
            "type": discord.ComponentType.select.value,
            "custom_id": here.select_id,
            "min_values": 1,
            "max_values": 1,
            "disabled": False,
            "required": True,
            "placeholder": _placeholder(loaded, presenter, seat, shown, names, locale),
            "options": [
                {
                    "label": _clip(
                        entry_label(loaded, presenter, seat, entry.tokens, names, locale), 100
                    ),
                    "value": _path_text(shown.relative(entry)),
                    "default": False,
                }
                for entry in shown.entries
            ],
        }
        rows.append({"type": 1, "components": [select]})
    elif shown.entries:
        buttons = [
            _button(
                here.at(entry.path).button_id,
                _clip(
                    entry_label(loaded, presenter, seat, entry.tokens, names, locale), LABEL_LIMIT
                ),
                primary=True,
            )
            for entry in shown.entries
        ]
        rows.append({"type": 1, "components": buttons})
    if shown.back is not None:
        back = _button(here.at(shown.back).button_id, t("button.back", locale), primary=False)
        rows.append({"type": 1, "components": [back]})
    return rows


def _button(custom_id: str, label: str, *, primary: bool) -> dict[str, Any]:
    style = discord.ButtonStyle.primary if primary else discord.ButtonStyle.secondary
    return {
        "type": discord.ComponentType.button.value,
        "style": style.value,
        "disabled": False,
        "label": label,
        "custom_id": custom_id,
    }


def token_label(
    loaded: LoadedGame,
    presenter: Presenter,
    seat: int,
    token: str,
    names: tuple[str, ...],
    locale: str,
) -> str:
    """A menu token in words, once per state (a label may name a player, hence ``names``).

    The seat's view is computed only when the label is not known yet: the hand DM of the
    player on turn leaves the labels of every level for the clicks in it
    (``label_whole_menu``)."""
    return loaded.derived(
        ("label", token, locale, names),
        lambda: presenter.token_label(token, loaded.view(seat), names, locale),
    )


def breadcrumb(
    loaded: LoadedGame,
    presenter: Presenter,
    seat: int,
    tokens: Sequence[str],
    locale: str,
    names: tuple[str, ...] | None = None,
) -> str | None:
    """The choices made so far in a nested menu, e.g. "Discard › Card 20"."""
    if not tokens:
        return None
    names = shown_names(loaded) if names is None else names
    labels = [token_label(loaded, presenter, seat, token, names, locale) for token in tokens]
    return t("menu.breadcrumb", locale, path=t("menu.separator", locale).join(labels))


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
