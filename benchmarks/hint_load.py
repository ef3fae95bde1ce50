"""Hints under load: one player's hints must not slow anyone's clicks or anyone's AI (issue 31).

    flock /work/wt/measure.lock .venv/bin/python benchmarks/hint_load.py   # the standard run
    .venv/bin/python benchmarks/hint_load.py --quick    # a smoke run (about 30 s)
    .venv/bin/python benchmarks/hint_load.py --ai-workers 2   # the bot with two AI workers

The standard run takes about 2 minutes, at normal priority (the team's measurements share one
slot: ``flock``). The real bot (``python -m bot`` with its AI timing log on, through
``benchmarks/traced_bot.py``; its defaults: one AI worker process unless ``--ai-workers``, the
readable pause before each AI move) plays ``--games`` tables at once through the loopback
Discord emulator, each with ``--humans`` simulated people and ``--ai`` strong AI players,
cycling through the three games.
The people act at random at ``--rate`` clicks per second (at most one click in flight per
table); whenever the person acting holds the Hint button (the player on turn), they press it
with probability ``--hint-share`` instead of a menu control, so about that share of the clicks
are hints (the run reports the share it reached). A person who asked for a hint reads it before
their table's next click (the click stays in flight until the answer is shown, at most
``HINT_READ_TIMEOUT`` seconds), as a player would.

What is measured:

* **the people's clicks**: latency from the emulator writing INTERACTION_CREATE to the bot's
  callback (the deferral, for a hint), p50 / p99 / max, all clicks and hints and menu clicks
  apart (target: p99 <= 50 ms);
* **how long a hint took**: from the click to the answer shown (the follow-up), p50 / p99;
* **how the hints were answered**: the hint itself, "still being worked out" (a second click
  while the first searches), "many hints, ask again" (the queue was full), "the game moved
  on" (dropped, most of them before any search ran), "ask again in a little while" (no worker
  took it within the player's patience), from the follow-up messages;
* **the AI seats' delay**: for every move an AI seat stored, the time from the move before it in
  the same game (the turn passing to the AI seat; both from the database) to the AI's move
  being stored, and to its being shown on the table (the emulator's first revision of the table
  message counting that move), p50 / p99 / max. Target: p99 of the stored delay <= the AI's
  usual pause plus one search (``AI_PAUSE_SECONDS`` + ``AI_MAX_MS``, 1,950 ms by default): a
  seat's own search runs during its pause, so its usual delay is the pause, and hints may
  hold it up by at most one more search (docs/ai.md, "Hints under load");
* **where that delay went**: the bot runs with its AI timing log on (``bot/ai/timing.py``
  through ``benchmarks/traced_bot.py``), and each AI move's steps are summed up: the turn
  passed to the seat's task, the search queued, handed to a worker (the wait behind other
  searches), answered, the pause over, the move stored, shown.

The output ends with each target, its figure and ``met`` / ``NOT MET``, and the load average
before and after the run (``os.getloadavg``).

Run it on a quiet machine for figures; on a busy one it says little (the bot, its AI worker and
this driver share the cores with everything else).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import sqlite3
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "benchmarks"))

from bot_load import GAMES, create_tables, offer_load, table_picker  # noqa: E402

from bot.i18n import t  # noqa: E402
from bot.loopback import Emulator, InteractionRecord, WaitTimeout  # noqa: E402
from bot.loopback.bot_process import bot_process  # noqa: E402
from bot.loopback.ui_players import Table, act_randomly, footer_in, live_hand  # noqa: E402
from bot.process.config import (  # noqa: E402
    DEFAULT_AI_MAX_MS,
    DEFAULT_AI_PAUSE_SECONDS,
    DEFAULT_AI_WORKERS,
)

HINT_PREFIX = "glory:hint:"
CLICK_P99_TARGET_MS = 50.0
HINT_READ_TIMEOUT = 10.0
TRACED_BOT = (sys.executable, str(REPO_ROOT / "benchmarks" / "traced_bot.py"))
FOOTER = re.compile(r"#(?P<game>\d+) · \D*(?P<move>\d+)")
"""A table's footer, "Game #12 · move 7" in every language: the game and its moves so far."""
ANSWERS = {
    "hint": t("hint.move", "en", move=""),
    "wait": t("hint.wait", "en"),
    "busy": t("hint.busy", "en"),
    "moved_on": t("hint.moved_on", "en"),
    "later": t("hint.later", "en"),
}


@dataclass
class HintPhase:
    clicks: int
    hint_clicks: int
    hint_share: float
    p50_ms: float
    p99_ms: float
    max_ms: float
    hint_p99_ms: float | None
    hint_answered_p50_ms: float | None
    hint_answered_p99_ms: float | None
    hints_unanswered: int
    menu_p99_ms: float | None
    timeouts: int
    answers: dict[str, int]
    ai_moves: int
    ai_delay_p50_ms: float | None
    ai_delay_p99_ms: float | None
    ai_delay_max_ms: float | None
    ai_delay_min_ms: float | None
    ai_shown_p50_ms: float | None
    ai_shown_p99_ms: float | None
    ai_shown_max_ms: float | None
    ai_steps_ms: dict[str, dict[str, float | None]]
    """Per step of an AI move (``bot/ai/timing.py``): p50 / p99 / max of its duration."""
    ai_workers: int
    ai_searches_shortened: int
    """AI moves whose search started so late that it was given less than ``AI_MAX_MS``."""
    ai_search_limit_p50_ms: float | None
    ai_moves_late: int
    """AI moves whose search would have started too late: the rules-based player's move."""
    ai_pause_ms: float
    ai_delay_target_ms: float
    """The AI's usual pause plus one search: the p99 target of the stored delay."""


def _ms(values: list[float], share: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))] * 1000, 1)


def hint_button(message: Any) -> str | None:
    for component in message.iter_components():
        custom_id = component.get("custom_id", "")
        if custom_id.startswith(HINT_PREFIX) and not component.get("disabled"):
            return custom_id
    return None


def answer_kind(record: InteractionRecord) -> str:
    """What the bot answered to a Hint click: the hint, or which refusal (by the catalog)."""
    messages = [record.response_message, *record.followups]
    texts = [message.content or "" for message in messages if message is not None]
    for name, text in ANSWERS.items():
        if any(text.strip() and text.strip() in content for content in texts):
            return name
    return "none"


@dataclass
class AiMove:
    """An AI seat's stored move: when the turn passed to it, when it was stored, shown."""

    game_id: int
    version: int
    turn: float
    stored: float
    shown: float | None = None


def ai_moves(database: Path, since: float, until: float) -> list[AiMove]:
    """Every AI seat's move stored in the window, with the move before it in the same game
    (the database's stamps)."""
    with sqlite3.connect(database) as connection:
        rows = connection.execute(
            "SELECT m.game_id, m.version, m.created_at, s.ai_level IS NOT NULL FROM moves m"
            " JOIN seats s ON s.game_id = m.game_id AND s.seat = m.seat"
            " ORDER BY m.game_id, m.version"
        ).fetchall()
    moves = []
    previous: tuple[int, float] | None = None
    for game_id, version, created, by_ai in rows:
        stamp = datetime.fromisoformat(created).replace(tzinfo=UTC).timestamp()
        if by_ai and previous is not None and previous[0] == game_id and since <= stamp <= until:
            moves.append(AiMove(game_id, version, previous[1], stamp))
        previous = (game_id, stamp)
    return moves


def first_shown(emulator: Emulator, tables: list[Table]) -> dict[tuple[int, int], float]:
    """(game, moves so far) -> when a table message first showed that count: every revision of
    every message in the tables' channels, by its footer."""
    shown: dict[tuple[int, int], float] = {}
    for table in tables:
        channel = emulator.world.channels[table.message.channel_id]
        for message in emulator.messages_in(channel):
            # A revision is shown from the moment the one before it was replaced.
            starts = [message.created_at, *(revision.at for revision in message.history)]
            revisions = [*message.history, message]
            for began, revision in zip(starts, revisions, strict=True):
                match = FOOTER.search(footer_in(revision.embeds, revision.components))
                if match is None:
                    continue
                key = (int(match["game"]), int(match["move"]))
                shown[key] = min(shown.get(key, began), began)
    return shown


def read_timings(path: Path) -> dict[tuple[int, int], dict[str, Any]]:
    """The bot's AI timing log (``bot/ai/timing.py``): (game, version after the move) -> the
    stamps of each move that was stored."""
    timings = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            if entry.get("outcome") == "moved" and entry.get("version") is not None:
                timings[(entry["game"], entry["version"] + 1)] = entry
    return timings


STEPS = (
    ("turn to task", "previous", "turn"),
    ("task to queued", "turn", "queued"),
    ("waiting for a worker", "queued", "started"),
    ("search", "started", "ended"),
    ("pause over to stored", "ready", "committed"),
    ("stored to shown", "stored", "shown"),
)
"""The steps of an AI move, each from one stamp to the next (``ready``: the later of the
search's answer and the pause's end)."""


def step_figures(
    moves: list[AiMove], timings: dict[tuple[int, int], dict[str, Any]]
) -> dict[str, dict[str, float | None]]:
    durations: dict[str, list[float]] = {name: [] for name, _, _ in STEPS}
    for move in moves:
        entry = timings.get((move.game_id, move.version))
        if entry is None:
            continue
        stamps = {**entry, "previous": move.turn, "stored": move.stored, "shown": move.shown}
        if entry.get("ended") is not None and entry.get("paused") is not None:
            stamps["ready"] = max(entry["ended"], entry["paused"])
        for name, start, end in STEPS:
            if stamps.get(start) is not None and stamps.get(end) is not None:
                durations[name].append(stamps[end] - stamps[start])
    return {
        name: {
            "moves": len(values),
            "p50": _ms(values, 0.5),
            "p99": _ms(values, 0.99),
            "max": round(max(values) * 1000, 1) if values else None,
        }
        for name, values in durations.items()
    }


async def hint_phase(args: argparse.Namespace, workdir: Path) -> HintPhase:
    rng = random.Random(args.seed)
    database = workdir / "hints.db"
    timing_log = workdir / "ai-timing.jsonl"
    kinds: dict[int, str] = {}
    answered: list[float] = []
    unanswered: list[InteractionRecord] = []
    async with (
        Emulator(record_limit=50_000) as emulator,
        bot_process(
            emulator,
            workdir / "hints.log",
            argv=(*TRACED_BOT, str(timing_log)),
            database_url=f"sqlite+aiosqlite:///{database}",
            settings={"AI_WORKERS": str(args.ai_workers)},
        ) as bot,
    ):
        assert bot.process is not None
        tables: list[Table] = await create_tables(
            emulator,
            args.games,
            args.humans,
            games=args.game_keys,
            concurrency=16,
            prefix="h",
            ai=("strong",) * args.ai,
        )

        async def act(index: int) -> InteractionRecord | None:
            movers = tables[index].movers()
            if not movers:
                return None
            actor = rng.choice(movers)
            hand = live_hand(actor)
            button = hint_button(hand) if hand is not None else None
            if button is not None and rng.random() < args.hint_share:
                record = await actor.click(hand, custom_id=button)
                await record.response(timeout=10)
                kinds[id(record)] = "hint"
                try:
                    await record.settled(timeout=HINT_READ_TIMEOUT)
                    if record.dispatched_at is not None:
                        answered.append(time.perf_counter() - record.dispatched_at)
                except WaitTimeout:
                    unanswered.append(record)
                return record
            record = await act_randomly(actor, rng)
            if record is not None:
                kinds[id(record)] = "menu"
            return record

        began = time.time()
        load = await offer_load(
            args.rate, args.seconds, table_picker(tables, rng), act, lambda: None
        )
        ended = time.time()
        await asyncio.sleep(3.0)  # the last hints' answers
        answers = {name: 0 for name in (*ANSWERS, "none")}
        for record in load.records:
            if kinds.get(id(record)) == "hint":
                answers[answer_kind(record)] += 1
        shown = first_shown(emulator, tables)
    records = load.records
    latencies = [r.latency for r in records if r.latency is not None]
    hints = [r.latency for r in records if r.latency is not None and kinds.get(id(r)) == "hint"]
    menus = [r.latency for r in records if r.latency is not None and kinds.get(id(r)) == "menu"]
    moves = ai_moves(database, began, ended)
    timings = read_timings(timing_log)
    limits = [
        entry["max_ms"]
        for move in moves
        if (entry := timings.get((move.game_id, move.version))) and entry.get("max_ms")
    ]
    for move in moves:
        move.shown = shown.get((move.game_id, move.version - 1))  # the footer counts moves
    delays = [move.stored - move.turn for move in moves]
    shown_delays = [move.shown - move.turn for move in moves if move.shown is not None]
    pause_ms = args.ai_pause_seconds * 1000
    return HintPhase(
        clicks=len(records),
        hint_clicks=len(hints),
        hint_share=round(len(hints) / len(records), 3) if records else 0.0,
        p50_ms=_ms(latencies, 0.5) or 0.0,
        p99_ms=_ms(latencies, 0.99) or 0.0,
        max_ms=round(max(latencies) * 1000, 1) if latencies else 0.0,
        hint_p99_ms=_ms(hints, 0.99),
        hint_answered_p50_ms=_ms(answered, 0.5),
        hint_answered_p99_ms=_ms(answered, 0.99),
        hints_unanswered=len(unanswered),
        menu_p99_ms=_ms(menus, 0.99),
        timeouts=load.timeouts,
        answers=answers,
        ai_moves=len(delays),
        ai_delay_p50_ms=_ms(delays, 0.5),
        ai_delay_p99_ms=_ms(delays, 0.99),
        ai_delay_max_ms=round(max(delays) * 1000, 1) if delays else None,
        ai_delay_min_ms=round(min(delays) * 1000, 1) if delays else None,
        ai_shown_p50_ms=_ms(shown_delays, 0.5),
        ai_shown_p99_ms=_ms(shown_delays, 0.99),
        ai_shown_max_ms=round(max(shown_delays) * 1000, 1) if shown_delays else None,
        ai_steps_ms=step_figures(moves, timings),
        ai_workers=args.ai_workers,
        ai_searches_shortened=sum(1 for limit in limits if limit < args.ai_max_ms - 0.5),
        ai_search_limit_p50_ms=_ms([limit / 1000 for limit in limits], 0.5),
        ai_moves_late=sum(
            1
            for move in moves
            if (entry := timings.get((move.game_id, move.version))) and entry.get("late")
        ),
        ai_pause_ms=pause_ms,
        ai_delay_target_ms=pause_ms + args.ai_max_ms,
    )


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="tables at once (default 20)")
    parser.add_argument("--humans", type=int, default=2, help="people per table")
    parser.add_argument("--ai", type=int, default=1, help="strong AI players per table")
    parser.add_argument("--rate", type=float, default=20.0, help="offered clicks per second")
    parser.add_argument("--seconds", type=float, default=90.0, help="length of the phase")
    parser.add_argument("--hint-share", type=float, default=0.25, help="P(Hint) when it is shown")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument(
        "--ai-workers",
        type=int,
        default=DEFAULT_AI_WORKERS,
        help=f"the bot's AI_WORKERS (default {DEFAULT_AI_WORKERS}, the bot's own)",
    )
    parser.add_argument(
        "--game-keys", nargs="+", choices=GAMES, default=list(GAMES), help="games to cycle through"
    )
    parser.add_argument("--quick", action="store_true", help="a small, fast smoke run")
    args = parser.parse_args(argv)
    args.game_keys = tuple(args.game_keys)
    args.ai_pause_seconds = DEFAULT_AI_PAUSE_SECONDS
    args.ai_max_ms = DEFAULT_AI_MAX_MS
    if args.quick:
        args.games, args.seconds = 6, 15.0
    return args


def verdicts(phase: HintPhase) -> list[dict[str, Any]]:
    """Each target with its figure and whether it was met."""
    ai = phase.ai_delay_p99_ms
    return [
        {
            "target": "the people's click p99 <= 50 ms",
            "figure_ms": phase.p99_ms,
            "limit_ms": CLICK_P99_TARGET_MS,
            "met": phase.clicks > 0 and phase.p99_ms <= CLICK_P99_TARGET_MS,
        },
        {
            "target": "AI seats' delay p99 (turn passed to stored) <= pause + one search",
            "figure_ms": ai,
            "limit_ms": phase.ai_delay_target_ms,
            "met": ai is not None and ai <= phase.ai_delay_target_ms,
        },
        {
            "target": "no AI seat moves faster than its pause (stored delay min >= pause)",
            "figure_ms": phase.ai_delay_min_ms,
            "limit_ms": phase.ai_pause_ms,
            "met": phase.ai_delay_min_ms is not None and phase.ai_delay_min_ms >= phase.ai_pause_ms,
        },
    ]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="glory-hints-") as workdir:
        phase = asyncio.run(hint_phase(args, Path(workdir)))
    result: dict[str, Any] = asdict(phase)
    result["load_average_before"] = [round(x, 2) for x in load_before]
    result["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    result["targets"] = verdicts(phase)
    print(json.dumps(result, indent=2))
    for verdict in result["targets"]:
        state = "met" if verdict["met"] else "NOT MET"
        print(
            f"{state:>7}: {verdict['target']}: {verdict['figure_ms']} ms"
            f" (limit {verdict['limit_ms']} ms)"
        )
    return 0 if all(v["met"] for v in result["targets"]) else 1


if __name__ == "__main__":
    sys.exit(main())
