"""Nobody is pinged by accident: mentions are off unless a message names whom it pings."""

from __future__ import annotations

import random
from typing import Any

from tests.bot.driver import Player, new_table, open_lobby, play_to_end, quick_game, start

CALLBACK_MESSAGE = 4


def new_messages(env: Any) -> list[Any]:
    """Every request that creates a message (a mention can ping only in a new message): channel
    posts, interaction callbacks that answer with a message, and follow-ups."""
    found = []
    for request in env.http_requests:
        body = request.json
        if request.method != "POST" or not isinstance(body, dict):
            continue
        if request.path.endswith("/callback"):
            if body.get("type") == CALLBACK_MESSAGE:
                found.append(request)
        elif request.path.endswith("/messages") or request.path.startswith("/webhooks/"):
            found.append(request)
    return found


def allowed_mentions(request: Any) -> dict[str, Any] | None:
    body = request.json
    if request.path.endswith("/callback"):
        body = body.get("data") or {}
    return body.get("allowed_mentions")


def is_game_over(request: Any) -> bool:
    """The game-over message (``bot/messages/game_over.py``): the one message that pings players."""
    return "glory:over:" in str(request.json)


def content(request: Any) -> str:
    body = request.json
    if request.path.endswith("/callback"):
        body = body.get("data") or {}
    return body.get("content") or ""


async def test_a_name_that_is_a_mention_pings_nobody_when_echoed(simcord_env) -> None:
    table = new_table(simcord_env, 2)
    victim = table.players[1].user
    # The host calls themselves after someone else: their name is that user's mention.
    user = simcord_env.create_user("mallory", global_name=f"<@{victim.id}> @everyone")
    host = table.players[0] = Player(table.guild.add_member(user), user)
    await open_lobby(table, "kami", {"target": 5})
    await start(table)
    before = len(simcord_env.http_requests)
    result = await host.member.slash(table.channel, "cancel")
    assert result.acknowledged and not result.ephemeral
    notice = result.response.content
    assert f"<@{victim.id}>" not in notice and "@everyone" not in notice.replace("@\u200b", "")
    sent = [r for r in new_messages(simcord_env) if r in simcord_env.http_requests[before:]]
    assert any(content(r) == notice for r in sent), "the notice was sent"
    for request in sent:
        if is_game_over(request):  # it pings the players (the victim plays), nobody else
            players = {str(p.user.id) for p in table.players}
            assert {str(u) for u in allowed_mentions(request)["users"]} == players
            assert allowed_mentions(request)["parse"] == []
            continue
        assert allowed_mentions(request) == {"parse": []}, request.path


async def test_no_message_of_a_whole_game_allows_a_ping(simcord_env) -> None:
    table = await quick_game(simcord_env, players=3)
    await play_to_end(table, random.Random(6))
    await table.bot.outbox.idle()
    requests = new_messages(simcord_env)
    assert len(requests) > 10
    players = {str(p.user.id) for p in table.players}
    for request in requests:
        if is_game_over(request):  # the end pings the players alone (tests/bot/test_game_over.py)
            mentions = allowed_mentions(request)
            assert mentions["parse"] == [] and {str(u) for u in mentions["users"]} == players
            continue
        assert allowed_mentions(request) == {"parse": []}, (request.method, request.path)
    assert sum(is_game_over(r) for r in requests) == 1


async def test_the_closed_dm_notice_pings_exactly_the_players_it_names(simcord_env) -> None:
    table = new_table(simcord_env, 3, closed_dms=(1, 2))
    await open_lobby(table, "clans_and_glory")
    await start(table)
    await table.bot.outbox.idle()
    closed = {str(table.players[seat].user.id) for seat in (1, 2)}
    notices = [
        r
        for r in new_messages(simcord_env)
        if r.path == f"/channels/{table.channel.id}/messages" and "<@" in content(r)
    ]
    assert len(notices) == 1
    mentions = allowed_mentions(notices[0])
    assert mentions["parse"] == [] and {str(user) for user in mentions["users"]} == closed
