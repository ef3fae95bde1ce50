"""Sample pictures of every game, drawn by the bot's own code from fixed positions.

``python -m bot.pictures.gallery docs/pictures`` writes each game's table and a hand (the
pictures in ``docs/pictures.md``); the golden-image tests draw the same positions.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from pathlib import Path

from bot.i18n import t
from bot.pictures import draw
from bot.pictures.scene import HandScene, TableScene, plain
from bot.render import presenter_for
from games import REGISTRY, State, events_for

NAMES = ("Anna", "Bernd", "Chloé", "Дмитрий")


@dataclass(frozen=True)
class Sample:
    key: str
    players: int
    seed: int
    moves: int
    locale: str


SAMPLES = (
    Sample("call_to_glory", 3, 11, 45, "en"),
    Sample("kami", 4, 5, 18, "de"),
    Sample("clans_and_glory", 3, 3, 16, "ru"),
)


def position(sample: Sample) -> tuple[State, list]:
    """The sample's position: its seed's game after ``moves`` random (seeded) moves."""
    state = REGISTRY[sample.key].new_state(sample.players, sample.seed)
    rng = random.Random(sample.seed)
    events: list = []
    for _ in range(sample.moves):
        if state.is_over:
            break
        events = state.apply(rng.choice(state.legal_actions()))
    return state, events


def scenes(sample: Sample) -> tuple[TableScene, HandScene]:
    state, events = position(sample)
    names = NAMES[: sample.players]
    seat = state.to_move if state.to_move is not None else 0
    playable = frozenset(
        token.partition(":")[2]
        for action in (state.legal_actions() if state.to_move == seat else [])
        for token in action.menu_path
        if token.startswith("card:")
    )
    decision = presenter_for(sample.key).decision(state.decision, sample.locale)
    status = plain(t("table.turn", sample.locale, name=names[seat], decision=decision))
    table = TableScene(
        sample.key, state.view(None), names, sample.locale, status, events_for(events, None)
    )
    return table, HandScene(sample.key, state.view(seat), names, sample.locale, playable)


def pictures(sample: Sample) -> dict[str, bytes]:
    table, hand = scenes(sample)
    return {
        f"{sample.key}_table.png": draw.table_png(table),
        f"{sample.key}_hand.png": draw.hand_png(hand),
    }


def main(folder: str) -> None:
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    for sample in SAMPLES:
        for name, png in pictures(sample).items():
            (target / name).write_bytes(png)
            print(target / name, len(png))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "docs/pictures")
