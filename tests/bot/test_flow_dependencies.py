"""Flows name what they need, and nothing below ``bot/app.py`` imports it (issue 35, part 2).

Each flow takes the few collaborators it uses (the store, the outbox, the clock, a peer flow
or a protocol for a callback) from ``bot/app.py``, which wires them; none of them takes or
imports ``GloryBot``. An import of ``bot.app``, even one for type checking only or inside a
function, by a module that ``bot/app.py`` itself reaches would close a circle through it, and
a newcomer could again read no flow without all of the others. The extensions
(``bot/exts/``), loaded by name, and the entry points (``bot/__main__.py``) may import it:
``bot/app.py`` reaches none of them.
"""

from __future__ import annotations

import ast
from collections import deque
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APP = "bot.app"
FLOWS = (
    "bot/replays",
    "bot/messages/languages.py",
    "bot/messages/publisher.py",
    "bot/pictures/service.py",
    "bot/flows/lobby.py",
    "bot/flows/moves.py",
    "bot/flows/clock.py",
    "bot/ai/autoplay.py",
    "bot/flows/forced_moves.py",
    "bot/flows/seat_handover.py",
    "bot/flows/rematch.py",
    "bot/flows/hints.py",
    "bot/messages/history.py",
    "bot/messages/scores.py",
    "bot/ratings",
    "bot/interactions/command_sync.py",
    "bot/interactions/components.py",
    "bot/outbox",
)
"""The flows (a package or a module) that take their collaborators, not ``GloryBot``."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def bot_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted((ROOT / "bot").rglob("*.py"))}


def imported(path: Path, known: dict[str, Path]) -> set[str]:
    """Every module of ``bot`` that ``path`` imports (``imports_in``)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    return imports_in(path.read_text(encoding="utf-8"), name, package, known)


def imports_in(source: str, name: str, package: str, known: dict[str, Path]) -> set[str]:
    """The modules of ``known`` that the module ``name`` (in ``package``) imports: at run time,
    for type checking only or inside a function alike (``from bot import x`` counts as
    importing ``bot.x``; a name inside a module counts as that module)."""
    named: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            named.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = parts[: len(parts) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            named.add(module)
            named.update(f"{module}.{alias.name}" for alias in node.names)
    found = set()
    for each in named:
        while each and each not in known:
            each = each.rpartition(".")[0]
        if each and each != name:
            found.add(each)
    return found


def import_graph() -> dict[str, set[str]]:
    known = bot_modules()
    return {name: imported(path, known) for name, path in known.items()}


def modules(flow: str) -> list[Path]:
    path = ROOT / flow
    return sorted(path.rglob("*.py")) if path.is_dir() else [path]


def test_nothing_that_bot_app_imports_imports_it_back() -> None:
    graph = import_graph()
    assert APP in graph
    reached, parent, queue = {APP}, {}, deque([APP])
    while queue:
        module = queue.popleft()
        for each in sorted(graph[module]):
            if each not in reached:
                reached.add(each)
                parent[each] = module
                queue.append(each)
    circles = []
    for module in sorted(reached - {APP}):
        if APP in graph[module]:
            path = [module]
            while path[-1] != APP:
                path.append(parent[path[-1]])
            circles.append(" <- ".join(path))
    assert circles == [], f"circles through {APP}: {circles}"


def test_the_check_sees_imports_for_type_checking_inside_functions_and_relative() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from bot.app import GloryBot\n"
        "def later():\n    from bot import alpha\n"
        "from .beta import Beta\n"
        "import bot.gamma.delta\n"
    )
    names = ("bot", "bot.app", "bot.alpha", "bot.beta", "bot.gamma", "bot.flow")
    known = dict.fromkeys(names, ROOT)
    assert imports_in(source, "bot.flow", "bot", known) == {
        "bot",
        "bot.app",
        "bot.alpha",
        "bot.beta",
        "bot.gamma",
    }


@pytest.mark.parametrize("flow", FLOWS)
def test_a_flow_never_imports_the_bot_object(flow: str) -> None:
    known = bot_modules()
    found = modules(flow)
    assert found, f"{flow} has no modules"
    tied = [str(path.relative_to(ROOT)) for path in found if APP in imported(path, known)]
    assert tied == [], f"{flow} imports bot.app (GloryBot) in {tied}"


@pytest.mark.parametrize("flow", FLOWS)
def test_a_flow_never_names_the_bot_object(flow: str) -> None:
    named = [
        str(path.relative_to(ROOT))
        for path in modules(flow)
        if any(
            isinstance(node, ast.Name) and node.id == "GloryBot"
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        )
    ]
    assert named == [], f"{flow} names GloryBot in {named}"
