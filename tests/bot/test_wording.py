"""Words a player reads, checked where they went wrong once: scores that say what they count
(this round, total, what a task paid, a doubled Kami round), counts that agree, Russian names
that stay in the nominative, and numbers that agree between the table, the replay and
``/scores``. One test per wording fault of issue 30."""

from __future__ import annotations

import random

import pytest

from bot.i18n import LOCALES, t
from bot.messages.scores import scores_message
from bot.render import presenter_for
from bot.render.common import lobby_embed, moves_made, total_line
from bot.render.messages import hand_layout, table_layout
from bot.replays.rebuild import LoggedStep, Replay
from bot.replays.source import GameRecord
from bot.replays.view import replay_message
from bot.storage.models import GameStatus
from games import REGISTRY
from tests.bot.driver import layout_texts
from tests.bot.test_payload_limits import loaded_for

NAMES = ["Ann", "Bob", "🤖 Kenta", "Dana"]


def played(key: str, players: int, seed: int, options: dict | None = None):
    """A game played to its end at random: the final state, its steps and opening events."""
    game = REGISTRY[key]
    state = game.new_state(players, seed, options or {})
    rng = random.Random(seed)
    opening, steps = state.opening_events, []
    while not state.is_over:
        seat = state.to_move
        action = rng.choice(state.legal_actions())
        steps.append(LoggedStep(seat, action.to_json(), state.apply(action)))
    return state, steps, opening


def replay_of(key: str, players: int, seed: int, options: dict | None = None):
    state, steps, opening = played(key, players, seed, options)
    replay = Replay.build(
        REGISTRY[key],
        players=players,
        seed=seed,
        options=options or {},
        opening_events=opening,
        steps=steps,
        final_state=state.to_json(),
    )
    loaded = loaded_for(state, key, options or {}, NAMES[:players], status=GameStatus.FINISHED)
    loaded.row.seed, loaded.row.state = seed, state.to_json()
    loaded.row.version = len(steps) + 1  # the deal is version 1, each move one more
    return state, replay, loaded, GameRecord(loaded.row, loaded.seats, steps, opening)


# ---------------------------------------------------------------- numbers that agree


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_the_replays_last_step_names_the_games_last_round_and_the_footer_its_move_count(
    key: str,
) -> None:
    """ "Move 334 of 334, round 4" in a 3-round game, and a table footer at move 335."""
    state, replay, loaded, record = replay_of(key, 2, 11)
    rounds = len(state.round_scores)
    assert replay.round_of(replay.last) == max(rounds, 1)
    assert moves_made(loaded) == replay.last
    for locale in LOCALES:
        footer = replay_message(record, replay, replay.last, locale, reveal=True)["embed"].footer
        moves = t("table.footer", locale, id=loaded.id, move=replay.last)
        assert moves in layout_texts(table_layout(loaded, presenter_for(key), [], locale))[-1]
        if presenter_for(key).has_rounds:
            expected = t("replay.footer", locale, move=replay.last, moves=replay.last, round=rounds)
        else:
            expected = t("replay.footer_no_rounds", locale, move=replay.last, moves=replay.last)
        assert footer.text == expected


def test_clans_and_glory_has_no_rounds_in_scores_or_in_the_replay() -> None:
    """ "Round 1" in ``/scores`` and a "Next round" button for a game without rounds."""
    _, replay, loaded, record = replay_of("clans_and_glory", 3, 5)
    assert replay.round_starts == []
    for locale in LOCALES:
        embed = scores_message(loaded, locale)["embed"]
        assert [f.name for f in embed.fields] == [t("scores.total", locale)]
        message = replay_message(record, replay, 0, locale, reveal=True)
        labels = [
            c.get("label") for row in message["view"].to_components() for c in row["components"]
        ]
        assert t("replay.button.next_round", locale) not in labels


def test_a_replays_hands_are_about_their_player_not_addressed_to_the_reader() -> None:
    """ "**Your hand:**" under "Hand: Bob"."""
    _, replay, _, record = replay_of("kami", 2, 3)
    for locale in LOCALES:
        embed = replay_message(record, replay, 1, locale, reveal=True)["embed"]
        hands = [
            f.value for f in embed.fields if f.name.startswith(t("replay.hand_of", locale, name=""))
        ]
        assert hands
        own = t("kami.view.hand", locale, cards="")
        assert all(own not in value for value in hands)


# ---------------------------------------------------------------- the lobby


def test_the_lobby_names_the_full_game_instead_of_four_rounds_with_imperial_tasks() -> None:
    """ "Rounds: 4" while Imperial Tasks make it three rounds."""
    presenter = presenter_for("call_to_glory")
    options = {"rounds": 4, "imperial_tasks": True, "ninja": False}
    loaded = loaded_for(None, "call_to_glory", options, NAMES[:2], status=GameStatus.LOBBY)
    for locale in LOCALES:
        text = lobby_embed(loaded, presenter, locale).description
        assert t("call_to_glory.option.rounds.4", locale) in text
        rounds = t(
            "lobby.option", locale, option=t("call_to_glory.option.rounds", locale), value="4"
        )
        assert rounds not in text


def test_a_four_player_kami_lobby_does_not_list_the_three_player_deal() -> None:
    presenter = presenter_for("kami")
    deal = t("kami.option.three_player_deal", "en")
    full = loaded_for(None, "kami", {}, NAMES, status=GameStatus.LOBBY)
    assert deal not in lobby_embed(full, presenter, "en").description
    filling = loaded_for(None, "kami", {}, NAMES[:2], status=GameStatus.LOBBY)
    assert deal in lobby_embed(filling, presenter, "en").description  # 3 may still sit down
    demoralized = t("kami.option.demoralized", "en")
    three = loaded_for(None, "kami", {}, NAMES[:3], status=GameStatus.ACTIVE)
    assert demoralized not in lobby_embed(three, presenter, "en").description


# ---------------------------------------------------------------- scores that explain themselves


def test_kami_names_the_side_that_scores_without_a_verb_to_agree_and_names_the_masterstroke() -> (
    None
):
    """ "🤖 Kenta score 10 points"; the doubled round was never named."""
    presenter = presenter_for("kami")
    event = {
        "type": "round_end",
        "round": 3,
        "seat": 2,
        "seats": [2],
        "card": "tower",
        "points": 4,
        "doubled": False,
        "total": 9,
        "total_before": 5,
    }
    plain = presenter.event_line(event, NAMES, "en")
    assert plain == "Round 3 ends: 4 points for 🤖 Kenta with Tower (4) (total 9)."
    doubled = presenter.event_line(
        {**event, "points": 8, "doubled": True, "total": 13}, NAMES, "en"
    )
    assert "Masterstroke" in doubled and "8 points for 🤖 Kenta" in doubled
    assert "Volltreffer" in presenter.event_line({**event, "doubled": True}, NAMES, "de")
    for locale in LOCALES:
        one = presenter.event_line({**event, "points": 1, "card": "soldier"}, NAMES, locale)
        assert "🤖 Kenta" in one and "{" not in one


def test_kamis_last_round_says_when_it_was_doubled() -> None:
    state = REGISTRY["kami"].new_state(2, 1, {})
    view = dict(state.view(None))
    view["last_round"] = {"seats": [0], "points": 10, "card": "empress", "doubled": True}
    lines = presenter_for("kami").table_lines(view, NAMES[:2], "en")
    assert any("doubled by a Masterstroke" in line for line in lines)


def test_a_shield_that_takes_nothing_says_so() -> None:
    """ "Bob takes the -s (0 points)"."""
    presenter = presenter_for("clans_and_glory")
    claims = [{"seat": 0, "value": 3, "points": 6}, {"seat": 1, "value": None, "points": 0}]
    for locale in LOCALES:
        text = presenter.claims(claims, NAMES, locale)
        assert "-s" not in text and " -" not in text
        assert t("clans_and_glory.claim_nothing", locale, name="Bob") in text
    assert presenter.claims(claims, NAMES, "en") == (
        "Ann takes the 3s (6 points), Bob's shield takes nothing (no value left for it)"
    )


def test_a_revealed_task_names_what_it_paid_each_player() -> None:
    """ "Bob revealed task B: Samurai (12) (+4)" while Ann gained 12."""
    presenter = presenter_for("call_to_glory")
    event = {
        "type": "task_revealed",
        "round": 1,
        "seat": 1,
        "deck": "b",
        "value": 12,
        "bonus": 4,
        "awards": [{"seat": 0, "cards": 3, "points": 12}],
    }
    assert presenter.event_line(event, NAMES, "en") == (
        "Bob revealed task B: Samurai (12) (+4 per card): Ann +12 (3 cards)."
    )
    nobody = presenter.event_line({**event, "awards": []}, NAMES, "en")
    assert nobody.endswith(": nobody scores.")


def test_a_scored_round_itemises_the_task_bonuses_this_round_and_the_totals() -> None:
    presenter = presenter_for("call_to_glory")
    event = {
        "type": "round_scored",
        "round": 2,
        "base": [26, 30],
        "bonus": [4, 0],
        "scores": [30, 30],
        "totals": [58, 61],
    }
    assert presenter.event_line(event, NAMES[:2], "en") == (
        "Round 2 scored. This round: Ann 26 + 4 from tasks = 30, Bob 30. Total: Ann 58, Bob 61."
    )


def test_the_score_line_says_this_round_and_total() -> None:
    """ "Alice · 39 points" and "Scores: Alice: 0 points", neither labelled."""
    state = REGISTRY["call_to_glory"].new_state(2, 4, {})
    rng = random.Random(4)
    for _ in range(12):
        state.apply(rng.choice(state.legal_actions()))
    view = state.view(None)
    presenter = presenter_for("call_to_glory")
    line = total_line(presenter, view, NAMES[:2], "en")
    assert line.splitlines()[0].startswith("**This round:** Ann ")
    assert line.splitlines()[1].startswith("**Total:** Ann 0 points")
    player = presenter.table_lines(view, NAMES[:2], "en")
    assert any(" this round" in row for row in player if row.startswith("**Ann**"))


# ---------------------------------------------------------------- Russian cases


def test_russian_team_and_ninja_texts_keep_the_names_in_the_nominative() -> None:
    """ "против Ольга & Emma": a name after a preposition would need another case."""
    state = REGISTRY["kami"].new_state(4, 2, {})
    lines = presenter_for("kami").table_lines(
        state.view(None), ["Ольга", "Иван", "Emma", "Пётр"], "ru"
    )
    teams = next(line for line in lines if line.startswith("Играют команды"))
    assert "против" not in teams and "Ольга & Emma" in teams
    label = presenter_for("call_to_glory").token_label("seat:1", {}, ["Ольга", "Иван"], "ru")
    assert label == "Цель: Иван"
    assert t("hand.waiting", "ru", name="Ольга", decision="x").startswith("Сейчас ходит")


# ---------------------------------------------------------------- whose turn, in a DM


def test_a_waiting_dm_says_whose_turn_it_was_and_when() -> None:
    state = REGISTRY["kami"].new_state(3, 8, {})
    loaded = loaded_for(state, "kami", {}, NAMES[:3], version=5)
    waiting = next(seat for seat in range(3) if seat != state.to_move)
    text = "\n".join(
        layout_texts(hand_layout(loaded, presenter_for("kami"), waiting, "en", full=False))
    )
    decision = presenter_for("kami").decision(state.decision, "en")
    name = NAMES[state.to_move]
    assert t("hand.waiting_since", "en", name=name, decision=decision, move=4) in text
