"""Flows freed from ``GloryBot`` stay free of it (issue 35, part 2).

A flow that names what it uses (its collaborators passed in, or found on the client through a
protocol) can be read and tested without the bot object; an import of ``bot.app``, even one
for type checking only, would tie it back into the circle through ``bot/app.py``. Each flow
freed so far is listed here, so that no later change quietly takes the bot again.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FREED = ("bot/replays",)
"""The flows (a package or a module) that take their collaborators, not ``GloryBot``."""


def modules(flow: str) -> list[Path]:
    path = ROOT / flow
    return sorted(path.rglob("*.py")) if path.is_dir() else [path.with_suffix(".py")]


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports, at run time or for type checking alike."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("flow", FREED)
def test_a_freed_flow_never_imports_the_bot_object(flow: str) -> None:
    found = modules(flow)
    assert found, f"{flow} has no modules"
    tied = [str(path.relative_to(ROOT)) for path in found if "bot.app" in imported(path)]
    assert tied == [], f"{flow} imports bot.app (GloryBot) in {tied}"


@pytest.mark.parametrize("flow", FREED)
def test_a_freed_flow_never_names_the_bot_object(flow: str) -> None:
    named = [
        str(path.relative_to(ROOT))
        for path in modules(flow)
        if any(
            isinstance(node, ast.Name) and node.id == "GloryBot"
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        )
    ]
    assert named == [], f"{flow} names GloryBot in {named}"
