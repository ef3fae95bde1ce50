"""``/scores`` in pages, and SimCord refusing what Discord would refuse.

The pager is tested on a long Kami game (played to its end through the engine with a high
target, so it has dozens of rounds) stored in a SimCord channel with 32-character names, read
through the real bot: the slash command, its buttons and forged custom_ids.
"""

from __future__ import annotations

import logging
import random
import re
from typing import Any

import discord
import pytest
import simcord

from bot.i18n import t
from bot.loopback.discord_limits import INVALID_FORM_BODY, message_problems
from bot.messages.scores import ROUNDS_PER_PAGE
from bot.storage.models import GameRow, GameStatus, SeatRow
from games import REGISTRY, State
from tests.bot.conftest import payload_problems
from tests.bot.forge import forged_click

LONG_NAMES = [
    "Aleksandra Konstantinopolskaya_1",  # 32 characters, one of them Markdown
    "Щекочихин-Крестовоздвиженский Ян",  # Cyrillic
    "**__~~`Bold|Under|Strike!`~~__**",  # Markdown everywhere: escaping doubles it
    "龍" * 32,  # wide characters
]
ROUND = re.compile(r"^Round (\d+): ", re.MULTILINE)
PAGE = re.compile(r"^Page (\d+) of (\d+)$")


# ---------------------------------------------------------------- SimCord refuses like Discord


@pytest.mark.breaks_contract  # oversized on purpose
async def test_an_oversized_embed_is_refused_with_400_and_50035_through_discord_py(
    simcord_env,
) -> None:
    """The bot's own discord.py sees the refusal Discord would give, for a send and an edit."""
    channel = simcord_env.create_guild().create_text_channel("limits")
    messageable = simcord_env.bot.get_partial_messageable(channel.id)
    with pytest.raises(discord.HTTPException) as refused:
        await messageable.send(embed=discord.Embed(description="x" * 4097))
    assert (refused.value.status, refused.value.code) == (400, INVALID_FORM_BODY)
    assert "description: 4097 characters" in str(refused.value)
    sent = await messageable.send(embed=discord.Embed(description="x" * 4096))
    with pytest.raises(discord.HTTPException) as refused:
        await sent.edit(embed=discord.Embed(title="t" * 257))
    assert refused.value.code == INVALID_FORM_BODY
    assert simcord_env.backend.get_message(channel.id, sent.id).embeds[0]["description"] == (
        "x" * 4096
    ), "a refused edit leaves the message as it was"


@pytest.mark.logs_errors
@pytest.mark.breaks_contract  # oversized on purpose
async def test_an_oversized_interaction_answer_is_refused_too(
    simcord_env, monkeypatch, caplog
) -> None:
    """Interaction callbacks go through the same check (here ``/scores``'s answer)."""
    channel, member, _ = await stored_game(simcord_env, long_kami_game(2))

    def oversized(*args: Any, **kwargs: Any) -> dict[str, Any]:
        return {"embed": discord.Embed(description="x" * 5000), "view": None}

    monkeypatch.setattr("bot.messages.scores.scores_message", oversized)
    with caplog.at_level(logging.ERROR):
        result = await member.slash(channel, "scores")
    assert not result.acknowledged
    assert "50035" in caplog.text


CHANNEL_POST = ("POST", "/channels/1/messages")
OVERSIZED = {"content": "x" * 2001}


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        (*CHANNEL_POST, OVERSIZED),
        ("PATCH", "/channels/1/messages/2", OVERSIZED),
        ("POST", "/interactions/1/token/callback", {"type": 4, "data": OVERSIZED}),
        ("POST", "/interactions/1/token/callback", {"type": 7, "data": OVERSIZED}),
        ("POST", "/webhooks/1/token", OVERSIZED),
        ("PATCH", "/webhooks/1/token/messages/@original", OVERSIZED),
        ("PATCH", "/webhooks/1/token/messages/5", OVERSIZED),
    ],
)
def test_every_message_create_and_edit_route_is_checked(method, path, body) -> None:
    assert payload_problems(method, path, body) == ["content: 2001 characters, at most 2000"]


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("PATCH", "/webhooks/1/token", {"name": "x" * 3000}),  # the webhook itself
        ("POST", "/interactions/1/token/callback", {"type": 5}),  # a deferral
        ("PUT", "/applications/1/commands", [{"name": "play", "description": "Play"}]),
        (*CHANNEL_POST, {"content": "x" * 2000}),
    ],
)
def test_requests_that_carry_no_oversized_message_pass(method, path, body) -> None:
    assert payload_problems(method, path, body) == []


# ---------------------------------------------------------------- a long game in a channel


def long_kami_game(
    players: int, *, rounds: int = 35, target: int = 30, ending: str = "kami"
) -> State:
    """A Kami game played to its end at random, with at least ``rounds`` rounds.

    The "kami" ending sends a side that overshoots the target back to 0, so games with the
    highest target run long; the first seed giving ``rounds`` rounds is taken.
    """
    game = REGISTRY["kami"]
    for seed in range(200):
        state = game.new_state(players, seed, {"target": target, "ending": ending})
        rng = random.Random(seed)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
        if len(state.round_scores) >= rounds:
            return state
    raise AssertionError(f"no {players}-player Kami game of {rounds} rounds in 200 seeds")


async def stored_game(
    env: simcord.Env, state: State, names: list[str] | None = None
) -> tuple[simcord.ChannelHandle, simcord.MemberActor, int]:
    """A finished game with ``state`` as the latest game of a new channel; a member there."""
    guild = env.create_guild()
    channel = guild.create_text_channel("scores")
    member = guild.add_member(env.create_user("reader"))
    names = names or LONG_NAMES
    async with env.bot.store.session() as session:
        row = GameRow(
            guild_id=guild.id,
            channel_id=channel.id,
            host_id=member.id,
            game_key=state.game_key,
            options=state.to_json().get("options", {}),
            status=GameStatus.FINISHED,
            version=500,
            state=state.to_json(),
        )
        session.add(row)
        await session.flush()
        assert row.id is not None
        game_id = row.id
        for seat in range(state.num_players):
            user_id = member.id if seat == 0 else 10_000 + seat
            session.add(
                SeatRow(game_id=game_id, seat=seat, user_id=user_id, display_name=names[seat])
            )
        await session.commit()
    return channel, member, game_id


def wire(response: Any) -> dict[str, Any]:
    """The message as Discord holds it (embeds and components as JSON)."""
    return {
        "content": response.content,
        "embeds": [embed.to_dict() for embed in response.embeds],
        "components": response.components,
    }


def buttons(response: Any) -> dict[str, dict[str, Any]]:
    """The page buttons by their name (``first``, ``previous``, ``next``, ``last``)."""
    found = [c for row in response.components for c in row["components"]]
    return {control["custom_id"].rsplit(":", 1)[1]: control for control in found}


def page_of(response: Any) -> tuple[int, int]:
    footer = response.embeds[0].footer.text or ""
    match = PAGE.match(footer)
    assert match, footer
    return int(match[1]), int(match[2])


def rounds_on(response: Any) -> list[int]:
    return [int(number) for number in ROUND.findall(response.embeds[0].fields[0].value)]


async def press(member: Any, response: Any, button: str) -> Any:
    """Click a page button of the ``/scores`` message; the message it leaves."""
    result = await member.click(response, custom_id=buttons(response)[button]["custom_id"])
    assert result.response is not None and result.response.id == response.id, "edited in place"
    return result.response


# ---------------------------------------------------------------- the pager


async def test_a_long_game_opens_on_page_one_with_page_buttons(simcord_env) -> None:
    assert all(len(name) == 32 for name in LONG_NAMES)
    state = long_kami_game(2)
    channel, member, _ = await stored_game(simcord_env, state)
    result = await member.slash(channel, "scores")
    assert result.ephemeral
    first = result.response
    pages = -(-len(state.round_scores) // ROUNDS_PER_PAGE)
    assert page_of(first) == (1, pages) and pages >= 4
    assert [field.name for field in first.embeds[0].fields] == ["By round", "Total"]
    assert rounds_on(first) == list(range(1, ROUNDS_PER_PAGE + 1))
    controls = buttons(first)
    assert list(controls) == ["first", "previous", "next", "last"]
    assert [c.get("disabled", False) for c in controls.values()] == [True, True, False, False]
    assert message_problems(wire(first)) == []


async def test_next_previous_last_and_first_turn_the_pages_in_place(simcord_env) -> None:
    channel, member, _ = await stored_game(simcord_env, long_kami_game(2))
    first = (await member.slash(channel, "scores")).response
    _, pages = page_of(first)
    second = await press(member, first, "next")
    assert page_of(second) == (2, pages)
    assert rounds_on(second)[0] == ROUNDS_PER_PAGE + 1
    back = await press(member, second, "previous")
    assert page_of(back) == (1, pages)
    last = await press(member, back, "last")
    assert page_of(last) == (pages, pages)
    assert [c.get("disabled", False) for c in buttons(last).values()] == [
        False,
        False,
        True,
        True,
    ]
    assert page_of(await press(member, last, "first")) == (1, pages)


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_every_round_appears_on_exactly_one_page_within_discords_limits(
    simcord_env, players: int
) -> None:
    state = long_kami_game(players)
    channel, member, _ = await stored_game(simcord_env, state)
    page = (await member.slash(channel, "scores")).response
    seen: list[int] = []
    while True:
        assert message_problems(wire(page)) == [], page_of(page)
        seen += rounds_on(page)
        number, pages = page_of(page)
        if number == pages:
            break
        page = await press(member, page, "next")
    assert seen == list(range(1, len(state.round_scores) + 1))


async def test_kami_team_games_show_each_teams_rounds_and_total(simcord_env) -> None:
    state = long_kami_game(4)
    channel, member, _ = await stored_game(simcord_env, state)
    shown = (await member.slash(channel, "scores")).response.embeds[0]
    names = [discord.utils.escape_markdown(name) for name in LONG_NAMES]
    teams = [f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}"]
    totals = shown.fields[1].value.splitlines()
    assert totals == [
        t("table.score", "en", name=teams[side], count=state.scores[side]) for side in (0, 1)
    ]
    for line, points in zip(shown.fields[0].value.splitlines(), state.round_scores, strict=False):
        side = 0 if points[0] else 1
        assert line.endswith(f"{teams[side]} {points[side]}"), line


async def test_a_game_whose_rounds_fit_one_page_has_no_buttons(simcord_env) -> None:
    state = long_kami_game(2, rounds=1, target=5, ending="soldier")
    state_rounds = len(state.round_scores)
    assert state_rounds <= ROUNDS_PER_PAGE
    channel, member, _ = await stored_game(simcord_env, state, ["Ann", "Bob"])
    shown = (await member.slash(channel, "scores")).response
    assert not shown.components and not shown.embeds[0].footer.text
    assert rounds_on(shown) == list(range(1, state_rounds + 1))


async def test_pages_read_in_the_readers_language(simcord_env, client_locales) -> None:
    channel, member, _ = await stored_game(simcord_env, long_kami_game(2))
    client_locales[member.id] = "ru"
    shown = (await member.slash(channel, "scores")).response
    embed = shown.embeds[0]
    assert embed.fields[0].name == "По раундам" and embed.fields[0].value.startswith("Раунд 1: ")
    assert re.fullmatch(r"Страница 1 из \d+", embed.footer.text or "")


# ---------------------------------------------------------------- forged page buttons


@pytest.mark.parametrize("page", ["x", "-1", "99999999999999999999999", "²", "٣", "0", ""])
async def test_a_malformed_page_number_is_answered_and_changes_nothing(
    simcord_env, page: str
) -> None:
    channel, member, game_id = await stored_game(simcord_env, long_kami_game(2))
    shown = (await member.slash(channel, "scores")).response
    before = wire(shown)
    message = shown.message
    result = await forged_click(simcord_env, member, message, f"glory:sc:{game_id}:{page}:next")
    assert result.ephemeral and result.response.id != shown.id
    assert result.response.content == t("scores.bad_page", "en")
    after = simcord_env.backend.get_message(channel.id, shown.id)
    assert (after.embeds, after.components) == (before["embeds"], before["components"])


async def test_a_page_past_the_end_shows_the_last_page(simcord_env) -> None:
    channel, member, game_id = await stored_game(simcord_env, long_kami_game(2))
    shown = (await member.slash(channel, "scores")).response
    _, pages = page_of(shown)
    result = await forged_click(simcord_env, member, shown.message, f"glory:sc:{game_id}:999:next")
    assert result.response.id == shown.id and page_of(result.response) == (pages, pages)


@pytest.mark.parametrize(
    ("game", "answer"),
    [
        ("abc", "error.unknown_control"),
        ("-3", "error.unknown_control"),
        ("999999", "error.game_gone"),
    ],
)
async def test_a_page_button_of_an_unknown_game_is_answered(
    simcord_env, game: str, answer: str
) -> None:
    channel, member, _ = await stored_game(simcord_env, long_kami_game(2))
    shown = (await member.slash(channel, "scores")).response
    result = await forged_click(simcord_env, member, shown.message, f"glory:sc:{game}:2:next")
    assert result.ephemeral and result.response.id != shown.id
    assert result.response.content == t(answer, "en")


async def test_a_page_button_cannot_show_another_channels_game(simcord_env) -> None:
    _, _, game_id = await stored_game(simcord_env, long_kami_game(2))
    channel, member, _ = await stored_game(simcord_env, long_kami_game(3))
    shown = (await member.slash(channel, "scores")).response
    result = await forged_click(simcord_env, member, shown.message, f"glory:sc:{game_id}:1:next")
    assert result.ephemeral and result.response.content == t("error.unknown_control")
