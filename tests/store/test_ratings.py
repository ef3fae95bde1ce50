"""Ratings follow the stored results: as openskill rates them, teams and ties included, AI
levels as anchors, never a human's result the AI played, and a rebuild that reproduces them
to the last bit (on a SQLite file, and on PostgreSQL when configured)."""

from __future__ import annotations

import asyncio
import json
import random
from datetime import timedelta
from statistics import fmean

import pytest
from alembic import command
from openskill.models import PlackettLuce
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine
from sqlmodel import select

from bot.ratings.__main__ import main as ratings_cli
from bot.ratings.__main__ import recompute
from bot.ratings.ledger import rate_finished_game, rebuild, snapshot
from bot.ratings.tables import RatingChangeRow, RatingRow
from bot.storage.engine import normalise_url
from bot.storage.migrate import alembic_config
from bot.storage.models import GameStatus, utcnow
from bot.storage.repository import FinalScore, MoveRecord, Store
from games import REGISTRY
from tests.store.conftest import PUBLISH_MOVE, start
from tests.store.test_repository import _database

GUILD = 99
_channels = iter(range(1000, 100_000))


async def play(
    store: Store,
    results: list[FinalScore],
    *,
    game_key: str = "call_to_glory",
    guild_id: int = GUILD,
    abandoned: bool = False,
) -> int:
    """A game in which ``results[i]`` is seat i, ended with those results; its id."""
    lobby = await store.create_lobby(
        guild_id=guild_id,
        channel_id=next(_channels),
        host_id=results[0].user_id,
        host_name="host",
        host_locale="en",
        game_key=game_key,
        options={},
        locale="en",
        expires_at=utcnow() + timedelta(minutes=30),
    )
    assert lobby.id is not None
    for result in results[1:]:
        await store.join(lobby.id, result.user_id, "p", "en", capacity=4, ai_level=result.ai_level)
    await start(store, lobby.id)
    if abandoned:
        await store.end(lobby.id, GameStatus.ABANDONED, final=results)
    else:
        await store.commit_move(
            lobby.id,
            expected_version=1,
            state={},
            move=MoveRecord(0, {}, []),
            final=results,
            publication=PUBLISH_MOVE,
        )
    return lobby.id


async def ratings(store: Store, guild_id: int = GUILD) -> dict[tuple[int, str], RatingRow]:
    async with store.session() as session:
        rows = (await session.exec(select(RatingRow).where(RatingRow.guild_id == guild_id))).all()
    return {(row.user_id, row.ai_level): row for row in rows}


def seat(seat: int, user: int, score: int, won: bool = False, **more) -> FinalScore:
    return FinalScore(seat, user, score, won, side=more.pop("side", seat), **more)


MODEL = PlackettLuce()


async def test_a_free_for_all_with_a_tie_is_rated_as_openskill_rates_it(store: Store) -> None:
    await play(store, [seat(0, 1, 10, True), seat(1, 2, 7), seat(2, 3, 7), seat(3, 4, 3)])
    a, b, c, d = (MODEL.rating() for _ in range(4))
    expected = MODEL.rate([[a], [b], [c], [d]], ranks=[1, 2, 2, 4])
    stored = await ratings(store)
    for user, [rating] in zip((1, 2, 3, 4), expected, strict=True):
        assert (stored[(user, "")].mu, stored[(user, "")].sigma) == (rating.mu, rating.sigma)
    assert stored[(2, "")].mu == stored[(3, "")].mu  # a shared place, a shared change
    assert [stored[(u, "")].games for u in (1, 2, 3, 4)] == [1, 1, 1, 1]
    assert [stored[(u, "")].wins for u in (1, 2, 3, 4)] == [1, 0, 0, 0]
    # The next game starts from the stored ratings; a shared win ranks both first.
    await play(store, [seat(0, 3, 5, True), seat(1, 1, 5, True), seat(2, 2, 1)])
    before = {u: MODEL.rating(stored[(u, "")].mu, stored[(u, "")].sigma) for u in (1, 2, 3)}
    expected = MODEL.rate([[before[3]], [before[1]], [before[2]]], ranks=[1, 1, 3])
    stored = await ratings(store)
    for user, [rating] in zip((3, 1, 2), expected, strict=True):
        assert (stored[(user, "")].mu, stored[(user, "")].sigma) == (rating.mu, rating.sigma)
    assert stored[(4, "")].games == 1  # not in the second game


async def test_kami_partners_are_rated_as_one_team(store: Store) -> None:
    results = [
        seat(0, 1, 15, True, side=0),
        seat(1, 2, 9, side=1),
        seat(2, 3, 15, True, side=0),
        seat(3, 4, 9, side=1),
    ]
    await play(store, results, game_key="kami")
    new = [MODEL.rating() for _ in range(4)]
    [[one, three], [two, four]] = MODEL.rate([[new[0], new[2]], [new[1], new[3]]], ranks=[1, 2])
    stored = await ratings(store)
    for user, rating in ((1, one), (3, three), (2, two), (4, four)):
        assert (stored[(user, "")].mu, stored[(user, "")].sigma) == (rating.mu, rating.sigma)
    assert stored[(1, "")].wins == stored[(3, "")].wins == 1


async def test_ai_levels_are_anchors_and_never_a_humans_result(store: Store) -> None:
    results = [
        seat(0, 1, 10, True, with_ai=True),
        seat(1, -1, 8, ai_level="easy", with_ai=True),
        seat(2, -2, 4, ai_level="easy", with_ai=True),
        seat(3, 2, 12, with_ai=True, autoplayed=True),  # the AI played for user 2 at the end
    ]
    await play(store, results)
    new = [MODEL.rating() for _ in range(4)]
    rated = MODEL.rate([[r] for r in new], ranks=[1, 3, 4, 2])
    stored = await ratings(store)
    assert set(stored) == {(1, ""), (0, "easy")}, "no rating for the absent human, none per AI seat"
    assert stored[(1, "")].mu == rated[0][0].mu
    easy = stored[(0, "easy")]
    assert easy.mu == fmean([rated[1][0].mu, rated[2][0].mu]) and easy.games == 1
    async with store.session() as session:
        changes = (await session.exec(select(RatingChangeRow))).all()
    absent = next(change for change in changes if change.seat == 3)
    assert not absent.counted and absent.mu_after == absent.mu_before
    # The anchor keeps its rating across games: the next game starts from it.
    await play(store, [seat(0, 3, 1, with_ai=True), seat(1, -5, 9, True, ai_level="easy")])
    expected = MODEL.rate([[MODEL.rating()], [MODEL.rating(easy.mu, easy.sigma)]], ranks=[2, 1])
    assert (await ratings(store))[(0, "easy")].mu == expected[1][0].mu


async def test_abandoned_games_change_no_rating(store: Store) -> None:
    await play(store, [seat(0, 1, 10), seat(1, 2, 3)], abandoned=True)
    assert await ratings(store) == {}
    async with store.engine.begin() as connection:
        assert await connection.run_sync(snapshot) == []


async def test_rebuild_reproduces_the_stored_ratings_exactly(store: Store) -> None:
    rng = random.Random(17)
    humans = list(range(1, 8))
    for number in range(30):
        key = rng.choice(("call_to_glory", "kami", "clans_and_glory"))
        guild = rng.choice((GUILD, GUILD + 1))
        count = rng.choice((2, 3, 4))
        team_game = key == "kami" and count == 4
        users = rng.sample(humans, count)
        if rng.random() < 0.3:
            users[-1] = -100 - number  # an AI seat
        scores = [rng.randint(0, 6) for _ in range(count)]
        sides = [s % 2 if team_game else s for s in range(count)]
        if team_game:
            scores = [scores[side] for side in sides]
        best = max(scores)
        results = [
            FinalScore(
                s,
                users[s],
                scores[s],
                scores[s] == best,
                ai_level=rng.choice(("easy", "strong")) if users[s] < 0 else None,
                with_ai=any(u < 0 for u in users),
                autoplayed=users[s] > 0 and rng.random() < 0.1,
                side=sides[s],
            )
            for s in range(count)
        ]
        game_id = await play(store, results, game_key=key, guild_id=guild)
        if number % 7 == 0:
            await play(store, results, game_key=key, guild_id=guild, abandoned=True)
        async with store.engine.begin() as connection:  # rating a game twice changes nothing
            assert not await connection.run_sync(rate_finished_game, game_id)
    async with store.engine.begin() as connection:
        stored = await connection.run_sync(snapshot)
        rated = await connection.run_sync(rebuild)
        again = await connection.run_sync(snapshot)
    assert rated == 30
    assert len(stored) > 60 and again == stored


async def test_the_recompute_command_checks_and_rebuilds_the_stored_ratings(tmp_path, capsys):
    url = f"sqlite+aiosqlite:///{tmp_path}/glory.db"
    store = await Store.open(url)
    try:
        await play(store, [seat(0, 1, 10, True), seat(1, 2, 7), seat(2, 3, 7)])
        await play(store, [seat(0, 2, 3, True, side=0), seat(1, 3, 1, side=1)], game_key="kami")
        async with store.engine.begin() as connection:
            stored = await connection.run_sync(snapshot)
            # A model change (here: a rating edited by hand) shows up as a difference.
            await connection.execute(
                RatingRow.__table__.update().where(RatingRow.user_id == 1).values(mu=99.0)
            )
    finally:
        await store.close()
    checked = await recompute(url, check=True)
    assert (checked.games, checked.unchanged) == (2, False)
    rebuilt = await recompute(url)
    assert (rebuilt.games, rebuilt.unchanged) == (2, False)
    again = await recompute(url, check=True)
    assert again.unchanged
    store = await Store.open(url)
    try:
        async with store.engine.begin() as connection:
            assert await connection.run_sync(snapshot) == stored
    finally:
        await store.close()
    await asyncio.to_thread(ratings_cli, ["recompute", "--check", "--database-url", url])
    assert "Rated 2 games again to compare" in capsys.readouterr().out


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
async def test_migration_0007_rates_the_games_already_stored_with_their_teams(
    kind, tmp_path
) -> None:
    """An upgraded database has the sides of its stored results (from each game's final
    state) and every finished game rated, oldest first, as the bot would have rated them."""

    async def migrate(engine, revision: str) -> None:  # type: ignore[no-untyped-def]
        async with engine.begin() as connection:
            await connection.run_sync(lambda c: command.upgrade(alembic_config(c), revision))

    kami = REGISTRY["kami"].new_state(4, 3, {})
    rng = random.Random(3)
    while not kami.is_over:
        kami.apply(rng.choice(kami.legal_actions()))
    winners = set(kami.winners)
    async with _database(kind, tmp_path) as url:
        engine = create_async_engine(normalise_url(url))
        try:
            await migrate(engine, "0006")
            async with engine.begin() as connection:
                await connection.execute(
                    text(
                        "INSERT INTO games (id, guild_id, channel_id, host_id, game_key, options, "
                        "status, version, seed, state, locale, created_at, updated_at) VALUES "
                        "(1, 9, 10, 1, 'kami', '{}', 'finished', 3, 3, :state, 'en', "
                        "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
                    ),
                    {"state": json.dumps(kami.to_json())},
                )
                for seat in range(4):
                    await connection.execute(
                        text(
                            "INSERT INTO results (game_id, seat, guild_id, game_key, user_id, "
                            "score, won, outcome, with_ai, autoplayed, finished_at) VALUES "
                            "(1, :seat, 9, 'kami', :user, :score, :won, 'finished', false, "
                            "false, CURRENT_TIMESTAMP)"
                        ),
                        {
                            "seat": seat,
                            "user": 100 + seat,
                            "score": kami.scores[seat],
                            "won": seat in winners,
                        },
                    )
            await migrate(engine, "0007")
            async with engine.connect() as connection:
                sides = (
                    (await connection.execute(text("SELECT side FROM results ORDER BY seat")))
                    .scalars()
                    .all()
                )
                stored = {
                    row.user_id: (row.mu, row.sigma)
                    for row in (
                        await connection.execute(text("SELECT user_id, mu, sigma FROM ratings"))
                    ).all()
                }
        finally:
            await engine.dispose()
    assert sides == [0, 1, 0, 1]
    teams = [[MODEL.rating(), MODEL.rating()], [MODEL.rating(), MODEL.rating()]]
    ranks = [1, 2] if 0 in winners else [2, 1]
    [[zero, two], [one, three]] = MODEL.rate(teams, ranks=ranks)
    expected = {100: zero, 101: one, 102: two, 103: three}
    assert stored == {user: (r.mu, r.sigma) for user, r in expected.items()}
