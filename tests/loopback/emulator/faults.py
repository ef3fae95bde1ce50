"""REST fault injection: answer chosen routes with errors or late, and close users' DMs.

Gateway faults (drop, RECONNECT, INVALID_SESSION, silent heartbeats) act on a live socket
and therefore live on ``Gateway``; this module holds the rules the REST layer consults.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

UNLIMITED = -1

# Path patterns for the routes a game bot uses most (searched after ``/api/v10``).
INTERACTION_CALLBACK = r"^/interactions/\d+/[^/]+/callback$"
FOLLOWUP_OR_ORIGINAL = r"^/webhooks/\d+/[^/]+"
CHANNEL_MESSAGES = r"^/channels/\d+/messages$"
CHANNEL_MESSAGE = r"^/channels/\d+/messages/\d+$"
OPEN_DM = r"^/users/@me/channels$"


@dataclass
class RestFault:
    """Answer requests matching ``method`` and ``path_pattern`` with ``status`` ``times`` times.

    ``path_pattern`` is a regular expression searched in the path after ``/api/v10``. A fault
    with ``status=None`` only delays the request by ``delay`` seconds and then serves it.
    """

    method: str
    path_pattern: str
    status: int | None
    body: dict[str, Any] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    times: int = 1
    delay: float = 0.0
    hits: int = 0

    def __post_init__(self) -> None:
        self._regex = re.compile(self.path_pattern)

    def matches(self, method: str, path: str) -> bool:
        if self.times != UNLIMITED and self.hits >= self.times:
            return False
        return self.method in ("*", method) and self._regex.search(path) is not None

    @property
    def exhausted(self) -> bool:
        return self.times != UNLIMITED and self.hits >= self.times

    def encoded_body(self) -> bytes:
        return json.dumps(self.body).encode()


class FaultPlan:
    """The active REST faults, consulted in insertion order for every request."""

    def __init__(self) -> None:
        self.rules: list[RestFault] = []

    def add(self, fault: RestFault) -> RestFault:
        self.rules.append(fault)
        return fault

    def fail(
        self,
        method: str,
        path_pattern: str,
        status: int = 500,
        *,
        code: int = 0,
        message: str = "Injected failure",
        times: int = 1,
    ) -> RestFault:
        """Answer with an error status. discord.py retries 500/502/504/524 after 1, 3, 5... s."""
        return self.add(
            RestFault(method, path_pattern, status, {"code": code, "message": message}, times=times)
        )

    def rate_limit(
        self,
        method: str,
        path_pattern: str,
        *,
        retry_after: float = 0.05,
        is_global: bool = False,
        times: int = 1,
    ) -> RestFault:
        """Answer 429 the way Discord does; the ``Via`` header makes discord.py retry it."""
        body = {
            "message": "You are being rate limited.",
            "retry_after": retry_after,
            "global": is_global,
            "code": 0,
        }
        headers = {
            "Via": "1.1 google",
            "Retry-After": str(max(1, round(retry_after))),
            "X-RateLimit-Scope": "global" if is_global else "user",
        }
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        return self.add(RestFault(method, path_pattern, 429, body, headers, times=times))

    def delay(
        self, method: str, path_pattern: str, seconds: float, *, times: int = UNLIMITED
    ) -> RestFault:
        """Serve matching requests normally, but only after ``seconds``."""
        return self.add(RestFault(method, path_pattern, None, times=times, delay=seconds))

    def take(self, method: str, path: str) -> RestFault | None:
        """The first live rule matching this request, counted as hit; None if none applies."""
        for rule in self.rules:
            if rule.matches(method, path):
                rule.hits += 1
                return rule
        return None

    def clear(self) -> None:
        self.rules.clear()
