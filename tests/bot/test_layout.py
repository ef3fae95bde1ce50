"""``bot/`` shows its architecture: a few packages whose names say what they are (issue 35).

At the top of ``bot/`` are only the entry points (``python -m bot``, ``python -m bot.health``)
and the wiring of the flows (``bot/app.py``); every other module lives in the package of what
it is: running the process, Discord plumbing, the game flows, the messages, or one of the
packages of its own (storage, outbox, pictures …). A new module goes into one of them (or a
new package with a docstring that says what it holds), so the map in ``docs/architecture.md``
stays true.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "bot"
TOP = {"__init__.py", "__main__.py", "health.py", "app.py"}
"""The entry points and the wiring: all that sits at the top of ``bot/``."""


def test_the_top_of_bot_holds_only_the_entry_points_and_the_wiring() -> None:
    assert {path.name for path in BOT.glob("*.py")} == TOP


def test_every_package_says_what_it_holds_in_its_docstring() -> None:
    packages = [
        path.parent
        for path in BOT.rglob("__init__.py")
        if "migrations" not in path.relative_to(BOT).parts
    ]
    assert len(packages) > 10
    silent = [
        str(package.relative_to(ROOT))
        for package in packages
        if not ast.get_docstring(ast.parse((package / "__init__.py").read_text(encoding="utf-8")))
    ]
    assert silent == []


def test_every_package_of_bot_is_in_the_module_map() -> None:
    architecture = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    packages = sorted(path.parent.name for path in BOT.glob("*/__init__.py"))
    unmapped = [name for name in packages if f"`bot/{name}/" not in architecture]
    assert unmapped == []
