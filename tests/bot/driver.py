"""Simulated players: they play only through slash commands, clicks and selects.

The driver reads the database solely to know *who* must act and which message is their live
hand message (what a human sees on screen); every action goes through Discord components.
Moves are random legal menu paths, chosen by clicking random buttons or select options.
"""

from __future__ import annotations

import random
import re
import string
from dataclasses import dataclass, field
from typing import Any

import discord
import simcord

from bot.app import GloryBot
from bot.flows.moves import move_publication, private_parts
from bot.flows.session import LoadedGame, load_game
from bot.i18n import DEFAULT_LOCALE, LOCALES, catalog, t
from bot.render.layout import Layout, edit_fields
from bot.storage.models import GameStatus
from bot.storage.repository import MoveRecord


@dataclass
class Player:
    member: simcord.MemberActor
    user: simcord.UserHandle
    dms_open: bool = True


@dataclass
class Table:
    env: simcord.Env
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    players: list[Player]
    game_id: int = 0
    clicks: int = 0
    locale: str = DEFAULT_LOCALE
    """The language the public messages are expected in (the driver reads the table)."""
    public_messages: list[str] = field(default_factory=list)

    @property
    def bot(self) -> GloryBot:
        return self.env.bot  # type: ignore[return-value]

    async def loaded(self) -> LoadedGame:
        loaded = await load_game(self.bot.store, self.bot.registry, self.game_id)
        assert loaded is not None
        return loaded


def new_table(env: simcord.Env, players: int, *, closed_dms: tuple[int, ...] = ()) -> Table:
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    people = []
    for number in range(players):
        user = env.create_user(f"player{number}")
        member = guild.add_member(user)
        people.append(Player(member, user, dms_open=number not in closed_dms))
        if number in closed_dms:
            env.inject_error(
                "POST",
                f"/channels/{user.dm_channel.id}/messages",
                status=403,
                code=50007,
                message="Cannot send messages to this user",
                times=None,
            )
    return Table(env, guild, channel, people)


def walk(components: Any) -> list[Any]:
    """Every component of a message, nested ones included (a V2 message holds its texts,
    galleries and action rows in a container)."""
    found: list[Any] = []
    stack = list(reversed(components))
    while stack:
        component = stack.pop()
        found.append(component)
        stack.extend(reversed(getattr(component, "children", None) or []))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            stack.append(accessory)
    return found


def texts(message: Any) -> list[str]:
    """A V2 message's text displays, in order."""
    message = getattr(message, "message", message)
    return [
        c.content for c in walk(message.components) if isinstance(c, discord.components.TextDisplay)
    ]


def layout_texts(layout: Any) -> list[str]:
    """The text displays of a V2 layout as the bot writes it (JSON), in order."""
    found: list[str] = []
    stack = list(reversed(layout.to_components()))
    while stack:
        component = stack.pop()
        if component.get("type") == 10:
            found.append(component["content"])
        stack.extend(reversed(component.get("components") or []))
    return found


def message_text(message: discord.Message) -> str:
    """Everything a reader sees in a message: content, embeds and text displays."""
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        parts += [f"{f.name}\n{f.value}" for f in embed.fields]
    parts += texts(message)
    return "\n".join(parts)


def components(message: discord.Message) -> list[Any]:
    """The message's controls (buttons and selects), wherever they sit."""
    return [
        c
        for c in walk(message.components)
        if isinstance(c, (discord.components.Button, discord.components.SelectMenu))
    ]


def footer_text(message: Any) -> str:
    """A table's or hand's footer: its embed's, or the V2 line in small print."""
    message = getattr(message, "message", message)
    if message.embeds:
        return message.embeds[0].footer.text or ""
    small = [text[3:] for text in texts(message) if text.startswith("-# ")]
    return small[-1] if small else ""


def as_embed(message: Any) -> discord.Embed:
    """A table's or hand's words in the shape of its old embed: the embed itself, or (V2) the
    heading as the title, the texts below it as the description and the small print as the
    footer, for tests that read a message's title, body and footer in any language."""
    message = getattr(message, "message", message)
    if message.embeds:
        return message.embeds[0]
    parts = texts(message)
    if not parts:
        return discord.Embed()
    head, *rest = parts[0].split("\n")
    body = ["\n".join(rest), *[part for part in parts[1:] if not part.startswith("-# ")]]
    embed = discord.Embed(
        title=head.removeprefix("### "), description="\n".join(part for part in body if part)
    )
    embed.set_footer(text=footer_text(message))
    return embed


def as_sent(message: Any) -> dict[str, Any]:
    """An edit that puts ``message``'s own components back (a late request showing an older
    table or hand, as a process that died may have sent)."""
    message = getattr(message, "message", message)
    if message.embeds:
        return {"embed": message.embeds[0], "view": discord.ui.View.from_message(message)}
    layout = Layout([component.to_dict() for component in message.components])
    return edit_fields(layout)


def status_text(message: Any) -> str:
    """The status under a V2 message's heading (whose turn it is, the result)."""
    message = getattr(message, "message", message)
    if message.embeds:
        return message.embeds[0].description or ""
    first = texts(message)[0] if texts(message) else ""
    return "\n".join(line for line in first.splitlines() if not line.startswith("#"))


def lobby_message(table: Table) -> discord.Message:
    for message in reversed(table.channel.history()):
        if any(getattr(c, "custom_id", "").startswith("glory:lobby:") for c in components(message)):
            return message
    raise AssertionError("no lobby message in the channel")


async def open_lobby(table: Table, game_key: str, options: dict[str, Any] | None = None) -> None:
    """The first player runs /play, sets options in the lobby, everybody joins."""
    host = table.players[0].member
    result = await host.slash(table.channel, "play", game=game_key)
    assert result.acknowledged and not result.ephemeral, result
    table.game_id = int(result.response.message.components[0].children[0].custom_id.split(":")[-1])
    loaded = await table.loaded()
    for index, option in enumerate(loaded.game.options):
        if options and option.name in options:
            choice = option.choices.index(options[option.name])
            await set_option(table, host, index, choice)
    for player in table.players[1:]:
        await player.member.click(lobby_message(table), custom_id=lobby_id(table, "join"))


def lobby_id(table: Table, action: str) -> str:
    """A lobby button's custom_id: the driver clicks the same control in every language."""
    return f"glory:lobby:{action}:{table.game_id}"


async def set_option(table: Table, actor: Any, index: int, choice: int) -> Any:
    """Choose an option value in the lobby, via the option picker when there is one."""
    wanted = f"glory:opt:{table.game_id}:{index}"
    ids = {getattr(c, "custom_id", None) for c in components(lobby_message(table))}
    if wanted not in ids:
        picker = f"glory:optpick:{table.game_id}"
        assert picker in ids, "the lobby offers no way to set this option"
        await actor.select(lobby_message(table), [str(index)], custom_id=picker)
    return await actor.select(lobby_message(table), [str(choice)], custom_id=wanted)


async def start(table: Table) -> None:
    result = await table.players[0].member.click(
        lobby_message(table), custom_id=lobby_id(table, "start")
    )
    assert not result.ephemeral, result.response and result.response.content
    assert (await table.loaded()).status is GameStatus.ACTIVE


def catalog_pattern(key: str, locale: str, **groups: str) -> re.Pattern[str]:
    """A regex matching catalog message ``key`` in ``locale``; placeholders become named groups
    (``groups`` may give one its own pattern), so tests read messages in any language."""
    message = catalog(locale).get(key) or catalog(DEFAULT_LOCALE)[key]
    assert isinstance(message, str)
    parts = []
    for literal, name, _spec, _conversion in string.Formatter().parse(message):
        parts.append(re.escape(literal))
        if name:
            parts.append(f"(?P<{name}>{groups.get(name, '.+?')})")
    return re.compile("".join(parts))


def footer_pattern(locale: str) -> re.Pattern[str]:
    return re.compile(catalog_pattern("table.footer", locale, move=r"\d+").pattern + "$")


def turn_pattern(locale: str) -> re.Pattern[str]:
    return re.compile("^" + catalog_pattern("table.turn", locale).pattern)


BACK_LABELS = {t("button.back", locale) for locale in LOCALES}
MENU_PREFIXES = ("glory:m:", "glory:s:")


def current_table(table: Table) -> discord.Message:
    """The live table message, found the way a person finds it: the last one in the channel."""
    footer = footer_pattern(table.locale)
    for message in reversed(table.channel.history()):
        if footer.search(footer_text(message)):
            return message
    raise AssertionError("no table message in the channel")


async def table_message(table: Table) -> discord.Message:
    return current_table(table)


def table_version(table: Table) -> int:
    """The game version the table shows: its footer counts the moves made, and the deal is
    version 1, so each move's version is one more than the moves made by then."""
    match = footer_pattern(table.locale).search(footer_text(current_table(table)))
    assert match
    return int(match["move"]) + 1


def seat_on_turn(table: Table) -> int | None:
    """Whose turn the table announces (``None`` once it shows a result)."""
    match = turn_pattern(table.locale).match(status_text(current_table(table)))
    if match is None:
        return None
    names = [p.user.name for p in table.players]
    return names.index(match["name"])


def live_dm_hand(table: Table, seat: int) -> discord.Message | None:
    """The newest DM from the bot to ``seat`` that carries move controls."""
    player = table.players[seat]
    for message in reversed(player.user.dm_channel.history(viewer=player.user)):
        if any(
            c.custom_id and c.custom_id.startswith(("glory:m:", "glory:s:"))
            for c in components(message)
            if hasattr(c, "custom_id")
        ):
            return message
    return None


async def hand_message(table: Table, seat: int) -> tuple[Any, Any]:
    """The hand message of ``seat`` with controls, and the actor who can click it."""
    player = table.players[seat]
    if player.dms_open:
        message = live_dm_hand(table, seat)
        assert message is not None, f"seat {seat} is on turn but has no DM with controls"
        return message, player.user
    result = await player.member.click(
        current_table(table), custom_id=f"glory:hand:{table.game_id}"
    )
    assert result.ephemeral
    return result.response, player.member


def pick(message: Any, rng: random.Random) -> tuple[str, str | None]:
    """A random enabled control of a hand message: (custom_id, select value or None)."""
    found = message.message.components if hasattr(message, "message") else message.components
    # Only the move menu: a hand also carries the seat's own buttons (Hint, take the seat back).
    controls = [
        c for c in walk(found) if (getattr(c, "custom_id", None) or "").startswith(MENU_PREFIXES)
    ]
    selects = [c for c in controls if isinstance(c, discord.components.SelectMenu)]
    buttons = [c for c in controls if isinstance(c, discord.components.Button)]
    if selects:
        select = selects[0]
        return select.custom_id, rng.choice(select.options).value
    choices = [b for b in buttons if b.label not in BACK_LABELS]
    assert choices, "a player on turn has no control"
    return rng.choice(choices).custom_id, None


async def use_first_control(actor: Any, message: Any) -> Any:
    """Use the first control of a hand message as a player would: click a button, or choose
    the first entry of a select (the collapsed menu often opens with a select)."""
    control = components(getattr(message, "message", message))[0]
    if isinstance(control, discord.components.SelectMenu):
        return await actor.select(message, [control.options[0].value], custom_id=control.custom_id)
    return await actor.click(message, custom_id=control.custom_id)


async def play_one_move(table: Table, rng: random.Random) -> None:
    """The seat on turn opens its hand and clicks through the menu until a move is applied."""
    seat = seat_on_turn(table)
    assert seat is not None
    move = table_version(table)
    message, actor = await hand_message(table, seat)
    for _depth in range(10):
        custom_id, value = pick(message, rng)
        if value is None:
            result = await actor.click(message, custom_id=custom_id)
        else:
            result = await actor.select(message, [value], custom_id=custom_id)
        table.clicks += 1
        assert result.acknowledged
        assert not result.ephemeral or texts(result.response), "a click was refused"
        if table_version(table) != move:
            return
        message = result.response
        assert message is not None, "navigation must edit the hand message"
    raise AssertionError("a menu deeper than 10 levels")


async def play_to_end(table: Table, rng: random.Random, *, max_moves: int = 5000) -> LoadedGame:
    for _ in range(max_moves):
        if seat_on_turn(table) is None:
            return await table.loaded()
        await play_one_move(table, rng)
    raise AssertionError("the game did not end")


def menu_custom_id(loaded: LoadedGame, seat: int, action: Any) -> str:
    """The custom_id of the button that plays ``action`` (its whole menu path as indices)."""
    from games.menu import choices_at

    assert loaded.state is not None
    actions = loaded.state.legal_actions()
    indices, tokens = [], ()
    for token in action.menu_path:
        indices.append(choices_at(actions, tokens).index(token))
        tokens = (*tokens, token)
    path = ".".join(map(str, indices))
    return f"glory:m:{loaded.id}:{loaded.row.version}:{seat}:{path}"


def answer_of(result: Any) -> Any:
    """The message that answered an interaction: its newest follow-up if it was deferred (a
    click on a busy game is deferred at once and answered by a follow-up), else the response."""
    followups = result.followups
    response = followups[-1] if followups else result.response
    assert response is not None, "the interaction got no visible answer"
    return response


def answered_privately(result: Any) -> bool:
    """The answer is ephemeral: only the clicking user sees it."""
    return result.acknowledged and answer_of(result).flags.ephemeral


def reply_text(result: Any) -> str:
    """What the clicking user saw in the answer (content and embeds)."""
    return message_text(answer_of(result).message)


async def snapshot(table: Table) -> tuple[int, str, Any, int]:
    loaded = await table.loaded()
    moves = await table.bot.store.move_count(table.game_id)
    return loaded.row.version, loaded.row.status, loaded.row.state, moves


async def quick_game(env: simcord.Env, players: int = 2, **kwargs: Any) -> Table:
    """A started Kami game (short target) — the cheapest game with real decisions."""
    table = new_table(env, players, **kwargs)
    await open_lobby(table, "kami", {"target": 5})
    await start(table)
    return table


async def commit_behind_discords_back(table, rng: random.Random) -> int:
    """Play moves in the database only, as if the bot crashed after each commit (each move's
    outbox entry stored, nothing delivered), until the turn passes to another player; returns
    that player's seat."""
    store = table.bot.store
    loaded = await table.loaded()
    first = loaded.state.to_move
    while True:
        state = loaded.mutable_state()
        before = private_parts(loaded.view, len(loaded.seats))
        seat = state.to_move
        action = rng.choice(state.legal_actions())
        events = state.apply(action)
        await store.commit_move(
            loaded.id,
            expected_version=loaded.row.version,
            state=state.to_json(),
            move=MoveRecord(seat=seat, action=action.to_json(), events=events),
            publication=move_publication(state, len(loaded.seats), before, seat),
        )
        loaded = await table.loaded()
        if loaded.state.to_move not in (None, first):
            return loaded.state.to_move
