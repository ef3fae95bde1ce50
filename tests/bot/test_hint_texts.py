"""What a hint says, without Discord: every reason an engine's ``explain`` can give reads in
English, German and Russian, and a hint depends only on what the asking seat may see."""

from __future__ import annotations

import ast
import itertools
import json
import random
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

import bot.i18n.de
import bot.i18n.en
import bot.i18n.ru
from bot.flows.hints import hint_request, hint_text, move_words, reason_key, reason_text
from bot.i18n import LOCALES, t
from bot.render import presenter_for
from bot.render.common import safe_names
from games import REGISTRY, State
from games.ai import decide_json
from tests.games.ai.twins import twin
from tests.games.protocol import option_combinations

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = {"en": bot.i18n.en.MESSAGES, "de": bot.i18n.de.MESSAGES, "ru": bot.i18n.ru.MESSAGES}
NAMES = ["Ann", "Bob", "Cem", "Dora"]
MAX_STEPS = 600
"""Of each random game (a four-round Call to Glory game is longer): enough for every reason."""


def engine_tokens(game_key: str) -> set[str]:
    """Every ``"token": "<word>"`` the game's ``explain`` module can return."""
    tree = ast.parse((ROOT / "games" / game_key / "explain.py").read_text(encoding="utf-8"))
    tokens = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if (
                    isinstance(key, ast.Constant)
                    and key.value == "token"
                    and isinstance(value, ast.Constant)
                ):
                    tokens.add(value.value)
    return tokens


def documented_tokens() -> dict[str, set[str]]:
    """The tokens of docs/ai.md's hint table, per game."""
    names = {t(f"{key}.name", "en"): key for key in REGISTRY}
    text = (ROOT / "docs" / "ai.md").read_text(encoding="utf-8")
    table = text[text.index("| game | token |") :].split("\n\n")[0].splitlines()[2:]
    found: dict[str, set[str]] = {}
    game = None
    for row in table:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        game = names.get(cells[0], game)
        assert game is not None, row
        found.setdefault(game, set()).update(re.findall(r"`(\w+)`", cells[1]))
    return found


@pytest.mark.parametrize("game_key", sorted(REGISTRY))
def test_every_reason_token_has_a_text_in_every_language(game_key: str) -> None:
    tokens = engine_tokens(game_key)
    assert len(tokens) >= 6, tokens  # guards the scan
    assert tokens == documented_tokens()[game_key]
    for locale, messages in CATALOGS.items():
        missing = sorted(token for token in tokens if f"hint.{game_key}.{token}" not in messages)
        assert not missing, f"{locale} has no hint text for {missing}"


def random_states(game_key: str, games: int, seed: int):
    """Positions of random games, every player count and option combination."""
    game = REGISTRY[game_key]
    rng = random.Random(seed)
    for players in game.player_counts:
        combos = list(option_combinations(game, players))
        for options in rng.sample(combos, min(games, len(combos))):
            state = game.new_state(players, rng.randrange(2**32), options)
            for _ in range(MAX_STEPS):
                if state.is_over:
                    break
                yield state
                state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("game_key", sorted(REGISTRY))
def test_every_reason_of_random_games_reads_in_every_language(game_key: str) -> None:
    """``explain`` of every legal action of random games: a known token, phrased in each
    language with every parameter filled and no engine word left raw."""
    presenter = presenter_for(game_key)
    tokens = engine_tokens(game_key)
    seen: set[str] = set()
    for state in random_states(game_key, 3, 7):
        names = NAMES[: state.num_players]
        for action in state.legal_actions():
            reason = state.explain(action)
            if reason is None:
                continue
            assert reason["token"] in tokens
            seen.add(reason_key(game_key, reason))
            for locale in LOCALES:
                text = reason_text(presenter, reason, names, locale)
                assert text, (locale, reason)
                raw = [v for v in _strings(reason) if v in text]
                assert "{" not in text and "_" not in text and not raw, (locale, reason, text)
    assert {key.split(".")[2] for key in seen} == tokens  # every reason really occurs


def _strings(reason: dict) -> list[str]:
    """The engine's words among a reason's parameters (card names, positions)."""
    found = []
    for name, value in reason.items():
        if name == "token":
            continue  # the catalog key; ordinary words may share its spelling ("matches")
        values = value if isinstance(value, list) else [value]
        found += [v for v in values if isinstance(v, str)]
    return found


def nontrivial(state: State, rng: random.Random) -> State:
    while len(state.legal_actions()) < 2 and not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    return state


POSITIONS = [
    (key, players, steps)
    for key, game in sorted(REGISTRY.items())
    for players, steps in itertools.product(game.player_counts, (9,))
]


@pytest.mark.parametrize(("game_key", "players", "steps"), POSITIONS)
def test_a_hint_depends_only_on_what_the_seat_may_see(
    game_key: str, players: int, steps: int
) -> None:
    """The bot's own request (strong level, its seed) on a position and on a twin of it, which
    hides other cards from the seat: the same hint, word for word, in every language."""
    rng = random.Random(f"{game_key}{players}")
    state = REGISTRY[game_key].new_state(
        players, rng.randrange(2**32), {"rounds": 1} if game_key == "call_to_glory" else {}
    )
    for _ in range(steps):
        state.apply(rng.choice(state.legal_actions()))
    state = nontrivial(state, rng)
    assert not state.is_over
    seat = state.to_move
    other = twin(state, seat, rng)
    assert other.view(seat) == state.view(seat) and other.to_json() != state.to_json()
    presenter = presenter_for(game_key)
    names = safe_names(NAMES[:players])
    texts = []
    for position in (state, other):
        loaded = SimpleNamespace(id=7, row=SimpleNamespace(state=position.to_json(), version=12))
        request = hint_request(loaded, seat, None)  # type: ignore[arg-type]
        answer = decide_json(json.loads(json.dumps(request)))  # as a worker process gets it
        action = REGISTRY[game_key].action_from_json(answer["action"])
        assert action in position.legal_actions()
        texts.append(
            [
                hint_text(presenter, action, answer, position.view(seat), names, locale, 2)
                for locale in LOCALES
            ]
        )
    assert texts[0] == texts[1]


def test_a_hint_reads_the_move_like_the_menu_and_says_when_it_was_a_close_call() -> None:
    state = REGISTRY["kami"].new_state(2, 3, {})
    state = nontrivial(state, random.Random(1))
    seat = state.to_move
    action = state.legal_actions()[0]
    presenter = presenter_for("kami")
    decision = {"reason": state.explain(action), "close_call": True, "forced": False}
    text = hint_text(presenter, action, decision, state.view(seat), NAMES[:2], "en", 3)
    labels = [presenter.token_label(tok, state.view(seat), NAMES, "en") for tok in action.menu_path]
    lines = text.splitlines()
    assert lines[0] == t("hint.move", "en", move=" › ".join(labels))
    assert lines[-2:] == [t("hint.close_call", "en"), t("hint.used", "en", count=3)]
    view = state.view(seat)
    forced = hint_text(presenter, action, {"forced": True, "close_call": False}, view, NAMES, "ru")
    assert forced.splitlines()[-1] == t("hint.forced", "ru")


def test_a_close_call_names_the_runner_up_and_a_winning_move_says_it_wins() -> None:
    state = REGISTRY["kami"].new_state(2, 3, {})
    state = nontrivial(state, random.Random(1))
    seat = state.to_move
    view = state.view(seat)
    best, runner_up = state.legal_actions()[:2]
    presenter = presenter_for("kami")
    game = REGISTRY["kami"]
    decision = {
        "reason": state.explain(best),
        "close_call": True,
        "forced": False,
        "alternatives": [{"action": runner_up.to_json(), "visits": 10, "value": 0.5}],
    }
    for locale in LOCALES:
        text = hint_text(presenter, best, decision, view, NAMES[:2], locale, 1, game=game)
        words = move_words(presenter, runner_up, view, NAMES[:2], locale)
        assert t("hint.close_call_with", locale, move=words) in text.splitlines()
        winning = {**decision, "winning": True, "close_call": False}
        text = hint_text(presenter, best, winning, view, NAMES[:2], locale, 1, game=game)
        assert t("hint.wins_game", locale) in text.splitlines()
