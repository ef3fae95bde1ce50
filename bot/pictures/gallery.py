"""Sample pictures of every game, drawn by the bot's own code from fixed positions.

``python -m bot.pictures.gallery docs/pictures`` writes each sample's table and a hand, and
the score charts of two finished games (the pictures in ``docs/pictures.md``); the
golden-image tests draw the same positions. Each game is shown in another language, and Kami
and Call to Glory once more in a second one.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from pathlib import Path

from bot.i18n import t
from bot.pictures import draw
from bot.pictures.scene import ChartScene, HandScene, TableScene, plain
from bot.pictures.scenes import chart_title
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

    @property
    def name(self) -> str:
        return f"{self.key}_{self.players}p_{self.locale}"


SAMPLES = (
    Sample("call_to_glory", 3, 11, 45, "en"),
    Sample("kami", 4, 5, 18, "de"),
    Sample("clans_and_glory", 3, 3, 16, "ru"),
    Sample("kami", 2, 8, 14, "ru"),
    Sample("call_to_glory", 4, 2, 70, "de"),
)
CHARTS = (
    Sample("call_to_glory", 3, 11, 10_000, "en"),
    Sample("kami", 4, 3, 10_000, "ru"),
)
"""Games played to their end (``moves`` is only a bound) for the score chart."""


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
    presenter = presenter_for(sample.key)
    decision = presenter.decision(state.decision, sample.locale)
    status = plain(t("table.turn", sample.locale, name=names[seat], decision=decision))
    view = state.view(None)
    table = TableScene(
        sample.key,
        view,
        names,
        sample.locale,
        status,
        events_for(events, None),
        presenter.score_sides(view, names),
    )
    return table, HandScene(sample.key, state.view(seat), names, sample.locale, playable)


def chart_scene(sample: Sample) -> ChartScene:
    """The score chart of the sample's game played to its end."""
    state, _ = position(sample)
    view = state.view(None)
    names = NAMES[: sample.players]
    locale = sample.locale
    winners = [names[seat] for seat in view["winners"]]
    result = plain(t("table.winners", locale, names=", ".join(winners), count=len(winners)))
    return ChartScene(
        sample.key,
        view["round_scores"],
        presenter_for(sample.key).score_sides(view, names),
        locale,
        f"{t(f'{sample.key}.name', locale)} · {t(chart_title(view), locale)}",
        result,
        rounds="round" in view,
    )


def pictures(sample: Sample) -> dict[str, bytes]:
    table, hand = scenes(sample)
    return {
        f"{sample.name}_table.png": draw.table_png(table),
        f"{sample.name}_hand.png": draw.hand_png(hand),
    }


def chart(sample: Sample) -> dict[str, bytes]:
    return {f"{sample.name}_chart.png": draw.chart_png(chart_scene(sample))}


def main(folder: str) -> None:
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    drawn = [pictures(sample) for sample in SAMPLES] + [chart(sample) for sample in CHARTS]
    for found in drawn:
        for name, png in found.items():
            (target / name).write_bytes(png)
            print(target / name, len(png))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "docs/pictures")
