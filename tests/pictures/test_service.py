"""The picture service's promises to a click: a picture drawn too late for the answer is left
out of it, still drawn once and kept for the next message that shows it."""

from __future__ import annotations

import time

import pytest

from bot.flows.session import LoadedGame
from bot.pictures import service
from bot.pictures.service import HAND_FILE, Pictures
from bot.storage.models import GameRow, GameStatus, SeatRow
from games import REGISTRY


def a_game() -> LoadedGame:
    game = REGISTRY["kami"]
    state = game.new_state(2, seed=3)
    row = GameRow(
        id=1,
        guild_id=None,
        channel_id=1,
        host_id=1,
        game_key="kami",
        options={},
        status=GameStatus.ACTIVE,
        version=1,
    )
    seats = [
        SeatRow(game_id=1, seat=seat, user_id=100 + seat, display_name=name)
        for seat, name in enumerate(["Ann", "Bob"])
    ]
    return LoadedGame(row=row, seats=seats, game=game, state=state)


@pytest.fixture
def slow_pictures(monkeypatch) -> Pictures:
    """Pictures drawn in a thread, each taking 0.3 s."""
    pictures = Pictures(None)
    submit = pictures.workers.submit

    def slowly(lane, draw, scene, **kwargs):
        def drawn_late(scene):
            time.sleep(0.3)
            return draw(scene)

        return submit(lane, drawn_late, scene, **kwargs)

    monkeypatch.setattr(pictures.workers, "submit", slowly)
    yield pictures
    pictures.close()


async def test_a_hand_picture_not_drawn_within_the_budget_is_left_out_and_kept_for_later(
    slow_pictures: Pictures,
) -> None:
    loaded = a_game()
    content, complete = await slow_pictures.with_hand_within({}, loaded, 0, "en", 0.01)
    assert not complete and content["attachments"] == []
    assert slow_pictures.late == 1
    content, complete = await slow_pictures.with_hand_within({}, loaded, 0, "en")
    assert complete and [file.filename for file in content["attachments"]] == [HAND_FILE]
    assert slow_pictures.drawn == 1  # the late drawing went on and was kept: drawn once


async def test_a_hand_picture_drawn_within_the_budget_comes_with_the_answer(
    slow_pictures: Pictures,
) -> None:
    loaded = a_game()
    content, complete = await slow_pictures.with_hand_within({}, loaded, 0, "en", 5.0)
    assert complete and [file.filename for file in content["attachments"]] == [HAND_FILE]
    assert slow_pictures.late == 0


async def test_a_hand_picture_that_cannot_be_drawn_leaves_the_answer_complete_without_it(
    slow_pictures: Pictures, monkeypatch, caplog
) -> None:
    """A drawing that fails is not late: nothing will come, so nothing is shown later."""

    def broken(*args, **kwargs):
        raise RuntimeError("no picture today")

    monkeypatch.setattr(service, "_hand_request", broken)
    content, complete = await slow_pictures.with_hand_within({}, a_game(), 0, "en", 0.01)
    assert complete and content["attachments"] == []
    assert "could not be drawn" in caplog.text
