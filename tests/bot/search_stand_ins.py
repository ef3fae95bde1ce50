"""Stand-ins for ``games.ai.decide_json`` that the AI's worker processes run in tests
(``SearchPool(function=…)``); module-level, so a worker can import them by name."""

from __future__ import annotations

import time
from typing import Any

from games.ai import decide_json


def held(request: dict[str, Any]) -> dict[str, Any]:
    """``decide_json``, after holding the worker ``request["hold"]`` seconds (if given) in
    small sleeps, between which a pre-emption can stop it."""
    until = time.monotonic() + request.get("hold", 0)
    while time.monotonic() < until:
        time.sleep(0.02)
    return decide_json(request)


def waits(request: dict[str, Any]) -> dict[str, Any]:
    """Sleeps ``request["seconds"]`` in small steps, then answers ``request["name"]``."""
    until = time.monotonic() + request["seconds"]
    while time.monotonic() < until:
        time.sleep(0.01)
    return {"answer": request["name"]}
