"""``/replay``: the replay message, its buttons and the JSON export.

The message is the public table at one position, drawn by the same builder as the live table
(``render.common.table_embed``) from ``view(None)`` of the rebuilt state, with the log lines of
the move that led there; when the server shows hands in replays (``/settings replays``,
default on) every seat's hand follows, from ``view(seat)``. Only ended games are replayed, so
nothing hidden is hidden any more; a running game is refused.

Buttons (``DynamicItem``s, parsed strictly, a malformed id is answered as a damaged control):

- ``glory:rp:<game>:<position>:<button>``: show ``position`` (moves made, 0 is the deal);
  ``button`` is ``first``, ``back``, ``next``, ``last``, ``pround`` or ``nround`` (the round
  jumps) and keeps the ids of one message distinct;
- ``glory:rpx:<game>``: the game as a JSON file (``bot/replays/export.py``), where the server
  shows hands (the export's seed would deal them again).

Every answer is ephemeral and a step edits the message in place; a built replay is kept in
memory (``source.Replays``), so a step costs a state copy and a few engine steps.

What this flow uses is ``source.Replays`` (the records, the built replays and the server's
setting), passed in by whoever shows a replay; a button finds it on the client that received
the click (``HasReplays``), so this module needs nothing else of the bot.
"""

from __future__ import annotations

import io
import re
from typing import Any, Protocol

import discord
from discord import ui

from bot.flows.session import LoadedGame
from bot.i18n import t
from bot.interactions.answers import Answer
from bot.interactions.components import Control, DamagedControl, number
from bot.interactions.replies import guarded, reply
from bot.messages.controls import SentControls
from bot.messages.languages import user_locale
from bot.messages.paging import step_buttons
from bot.render import presenter_for
from bot.render.common import safe_names, table_embed
from bot.render.limits import EMBED_TITLE, FIELD_NAME, FIELD_VALUE, clip, first_lines, room_left
from bot.replays.export import game_json
from bot.replays.rebuild import Replay
from bot.replays.source import GameRecord, Replays
from bot.storage.models import GameRow, GameStatus


class HasReplays(Protocol):
    """The client a replay button's click arrives on (``bot.app.GloryBot``): its replays."""

    replays: Replays


MAX_POSITION = 999_999
STEPS: tuple[tuple[str, str], ...] = (
    ("first", "⏮"),
    ("back", "◀"),
    ("next", "▶"),
    ("last", "⏭"),
)
SMALLEST_HAND = 40
"""Below this many characters per hand the hands are left out rather than cut to nothing."""


def position_game(record: GameRecord, replay: Replay, position: int) -> LoadedGame:
    """The game as it stood at ``position``, for the table's builder."""
    row = GameRow(**{name: getattr(record.row, name) for name in GameRow.model_fields})
    row.version = position
    if position < replay.last:
        row.status = GameStatus.ACTIVE
    return LoadedGame(
        row=row, seats=record.seats, game=replay.game, state=replay.position(position)
    )


def replay_message(
    record: GameRecord, replay: Replay, position: int, locale: str, *, reveal: bool
) -> dict[str, Any]:
    """The replay at ``position`` (clamped to the game), with its buttons."""
    position = min(max(position, 0), replay.last)
    loaded = position_game(record, replay, position)
    presenter = presenter_for(record.row.game_key)
    embed = table_embed(loaded, presenter, [replay.events_at(position)], locale)
    embed.title = clip(
        t("replay.title", locale, game=presenter.game_name(locale), id=loaded.id), EMBED_TITLE
    )
    footer = "replay.footer" if presenter.has_rounds else "replay.footer_no_rounds"
    embed.set_footer(
        text=t(footer, locale, move=position, moves=replay.last, round=replay.round_of(position))
    )
    if reveal:
        add_hands(embed, loaded, presenter, locale)
    return {"embed": embed, "view": replay_buttons(loaded.id, replay, position, locale, reveal)}


def add_hands(embed: discord.Embed, loaded: LoadedGame, presenter: Any, locale: str) -> None:
    """Every seat's private lines, sharing whatever room the table left."""
    names = safe_names(loaded.names)
    fields = []
    for seat, name in enumerate(names):
        lines = presenter.hand_lines(loaded.view(seat), names, locale, own=False)
        if lines:
            fields.append((clip(t("replay.hand_of", locale, name=name), FIELD_NAME), lines))
    if not fields:
        return
    room = room_left(embed) - sum(len(title) for title, _ in fields)
    share = min(FIELD_VALUE, room // len(fields))
    if share < SMALLEST_HAND:
        return
    for title, lines in fields:
        embed.add_field(name=title, value=first_lines(lines, share), inline=False)


def replay_buttons(
    game_id: int, replay: Replay, position: int, locale: str, reveal: bool
) -> SentControls:
    controls = step_buttons(
        position,
        replay.last,
        lambda target, button, emoji, disabled: ReplayButton(
            game_id, target, button, emoji=emoji, disabled=disabled, row=0
        ),
        first=0,
        names=STEPS,
    )
    if replay.round_starts:
        rounds = {
            "pround": replay.previous_round(position),
            "nround": replay.next_round(position),
        }
        for button, target in rounds.items():
            label = "previous_round" if button == "pround" else "next_round"
            controls.add_item(
                ReplayButton(
                    game_id,
                    target,
                    button,
                    label=t(f"replay.button.{label}", locale),
                    disabled=target == position,
                    row=1,
                )
            )
    if reveal:
        controls.add_item(ExportButton(game_id, label=t("replay.button.export", locale)))
    return controls


async def _found(
    replays: Replays, interaction: discord.Interaction, game_id: int
) -> tuple[GameRecord, Replay] | None:
    """The game's record and replay, or ``None`` after telling the user why not."""
    found = await replays.get(game_id)
    if found is None or found[0].row.guild_id != interaction.guild_id:
        await reply(interaction, "replay.not_here")
        return None
    record, replay = found
    status = GameStatus(record.row.status)
    if status is GameStatus.ACTIVE:
        await reply(interaction, "replay.running")
        return None
    if replay is None and (record.row.state is None or status is GameStatus.LOBBY):
        await reply(interaction, "replay.never_started")
        return None
    if replay is None:
        await reply(interaction, "replay.unknown_game")
        return None
    return record, replay


async def show_replay(
    replays: Replays,
    interaction: discord.Interaction,
    game_id: int,
    position: int | None = None,
    *,
    update: bool = False,
) -> None:
    """The replay of ``game_id`` at ``position`` (``None``: the deal)."""
    async with guarded(interaction, game_id):
        found = await _found(replays, interaction, game_id)
        if found is None:
            return
        record, replay = found
        locale = user_locale(interaction)
        reveal = await replays.reveal(record.row.guild_id)
        answer = Answer.of(interaction)
        if replay.problem is not None:
            text = t("replay.rules_changed", locale, id=game_id, move=replay.problem.move)
            view = SentControls()
            if reveal:
                view.add_item(ExportButton(game_id, label=t("replay.button.export", locale)))
            content: dict[str, Any] = {"content": text, "view": view if reveal else None}
            if update:
                await answer.update(embed=None, **content)
            else:
                await answer.send(text, view=content["view"])
            return
        message = replay_message(record, replay, position or 0, locale, reveal=reveal)
        if update:
            await answer.update(**message)
        else:
            await answer.send(**message)


async def send_export(replays: Replays, interaction: discord.Interaction, game_id: int) -> None:
    async with guarded(interaction, game_id):
        found = await replays.get(game_id)
        if found is None or found[0].row.guild_id != interaction.guild_id:
            await reply(interaction, "replay.not_here")
            return
        record, _ = found
        if GameStatus(record.row.status) is GameStatus.ACTIVE:
            await reply(interaction, "replay.running")
            return
        if not await replays.reveal(record.row.guild_id):
            await reply(interaction, "replay.export_hidden")
            return
        locale = user_locale(interaction)
        file = discord.File(io.BytesIO(game_json(record)), filename=f"glory-game-{game_id}.json")
        await Answer.of(interaction).send(t("replay.export_ready", locale, id=game_id), file=file)


REPLAY_ID = re.compile(
    r"glory:rp:(?P<game>[1-9][0-9]{0,18}):(?P<position>0|[1-9][0-9]{0,5})"
    r":(?P<button>first|back|next|last|pround|nround)"
)
EXPORT_ID = re.compile(r"glory:rpx:(?P<game>[1-9][0-9]{0,18})")


class ReplayButton(Control, ui.DynamicItem[ui.Button], template=r"glory:rp:(?P<rest>.*)"):
    """Shows another position of a replay in the same message."""

    def __init__(
        self,
        game_id: int,
        position: int,
        button: str,
        *,
        emoji: str | None = None,
        label: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        self.game_id, self.position = game_id, position
        super().__init__(
            ui.Button(
                emoji=emoji,
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"glory:rp:{game_id}:{position}:{button}",
                disabled=disabled,
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Button, match: re.Match[str], /
    ) -> ReplayButton | DamagedControl:
        parsed = REPLAY_ID.fullmatch(item.custom_id or "")
        game_id = number(parsed["game"]) if parsed else None
        position = number(parsed["position"], MAX_POSITION) if parsed else None
        if parsed is None or game_id is None or position is None:
            return DamagedControl(item)
        return cls(game_id, position, parsed["button"])

    async def act(self, interaction: discord.Interaction) -> None:
        client: HasReplays = interaction.client  # type: ignore[assignment]
        await show_replay(client.replays, interaction, self.game_id, self.position, update=True)


class ExportButton(Control, ui.DynamicItem[ui.Button], template=r"glory:rpx:(?P<rest>.*)"):
    """Sends the game as a JSON file, in a message of its own."""

    def __init__(self, game_id: int, *, label: str | None = None) -> None:
        self.game_id = game_id
        super().__init__(
            ui.Button(
                emoji="📄",
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"glory:rpx:{game_id}",
                row=1,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Button, match: re.Match[str], /
    ) -> ExportButton | DamagedControl:
        parsed = EXPORT_ID.fullmatch(item.custom_id or "")
        game_id = number(parsed["game"]) if parsed else None
        if game_id is None:
            return DamagedControl(item)
        return cls(game_id)

    async def act(self, interaction: discord.Interaction) -> None:
        client: HasReplays = interaction.client  # type: ignore[assignment]
        await send_export(client.replays, interaction, self.game_id)


REPLAY_ITEMS = (ReplayButton, ExportButton)
