"""Discord's rate limits: per-route buckets keyed by the route's major parameter, and a global
per-second limit for bot routes.

Off by default (``Emulator(rate_limits=None)``): every answer then says 9,999 remaining, as
before. ``RateLimits.discord_like()`` is the preset documented in docs/loopback.md; its figures
come from ``../shared/notes/discord_real_world_contract.md`` §1–2 (Discord publishes none, so
they are the community's measurements).

How Discord does it, and so how this does it:

- A bucket is a route (method + path template) *and* its major parameter: the channel id for
  ``/channels/{id}/...`` (a DM channel is a channel, so every DM has its own bucket), the guild
  id for ``/guilds/{id}/...``, webhook id + token for ``/webhooks/{id}/{token}/...`` and
  interaction id + token for callbacks. A route without one (``POST /users/@me/channels``,
  opening a DM) is a single bucket shared by every call.
- A bucket allows ``limit`` requests per window; the window starts with the first request and
  resets ``per`` seconds later. Every answer on a limited route carries ``X-RateLimit-Limit``,
  ``-Remaining``, ``-Reset`` (epoch seconds), ``-Reset-After`` (seconds) and ``-Bucket``;
  discord.py sleeps ``Reset-After`` before releasing the bucket when ``Remaining`` is 0.
- An exhausted bucket answers 429 with JSON ``{message, retry_after, global, code}`` and
  ``Via`` (without it discord.py assumes a Cloudflare ban and raises), ``Retry-After`` (whole
  seconds), ``X-RateLimit-Scope`` and, for the global limit, ``X-RateLimit-Global: true``.
  A refused request does not use up the bucket.
- The global limit counts bot routes only: interaction callbacks and ``/webhooks/...`` are
  outside it.
"""

from __future__ import annotations

import math
import re
import time
import zlib
from collections import Counter, deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .faults import (
    CHANNEL_MESSAGE,
    CHANNEL_MESSAGES,
    FOLLOWUP,
    OPEN_DM,
    WEBHOOK_MESSAGE,
)

UNLIMITED_LIMIT = 10_000
UNLIMITED_RESET_AFTER = 1.0
"""The "unlimited" answer's window: plenty remaining, and a reset as near as a real bucket's.
discord.py raises ``RateLimited`` *before sending* on any bucket whose reset is further away
than ``max_ratelimit_timeout`` (30 s at least), even with requests remaining
(``Ratelimit.acquire``), so the 60 s this used to say broke every bot that sets it."""

SCOPE_USER = "user"
SCOPE_GLOBAL = "global"

DISCORD_GLOBAL_PER_SECOND = 50
"""Requests per second per bot on bot routes (official, docs ``topics/rate-limits``)."""

_MAJOR_PARAMETER = re.compile(
    r"^/(?:(?P<kind>channels|guilds)/(?P<id>\d+)"
    r"|(?P<hook>webhooks|interactions)/(?P<hook_id>\d+)/(?P<token>[^/]+))"
)
_GLOBAL_EXEMPT = re.compile(r"^/(?:interactions|webhooks)/")
_BUCKET_GC_THRESHOLD = 10_000


def major_parameter(path: str) -> str:
    """The part of ``path`` (after ``/api/v10``) that splits a route into buckets, "" if none.

    >>> major_parameter("/channels/42/messages/7")
    'channels:42'
    >>> major_parameter("/users/@me/channels")
    ''
    """
    found = _MAJOR_PARAMETER.match(path)
    if found is None:
        return ""
    if found["kind"]:
        return f"{found['kind']}:{found['id']}"
    return f"{found['hook']}:{found['hook_id']}:{found['token']}"


def counts_against_global(path: str) -> bool:
    """Interaction callbacks and webhook routes are outside the global limit (as on Discord)."""
    return _GLOBAL_EXEMPT.match(path) is None


@dataclass(frozen=True)
class RouteLimit:
    """``limit`` requests per ``per`` seconds on each bucket of the routes matching ``method``
    (``"*"`` for any) and ``path_pattern`` (a regex searched in the path after ``/api/v10``)."""

    method: str
    path_pattern: str
    limit: int
    per: float
    name: str = ""

    def __post_init__(self) -> None:
        if self.limit < 1 or self.per <= 0:
            raise ValueError(f"a route limit needs limit >= 1 and per > 0, not {self}")
        if not self.name:
            object.__setattr__(self, "name", f"{self.method} {self.path_pattern}")
        object.__setattr__(self, "_regex", re.compile(self.path_pattern))

    def matches(self, method: str, path: str) -> bool:
        regex: re.Pattern[str] = self._regex  # type: ignore[attr-defined]
        return self.method in ("*", method) and regex.search(path) is not None

    @property
    def bucket_hash(self) -> str:
        """What ``X-RateLimit-Bucket`` says: one hash per limited route, like Discord's."""
        return format(zlib.crc32(self.name.encode()), "08x")


@dataclass
class _Window:
    reset_at: float
    used: int = 0


@dataclass(frozen=True)
class RateLimitRefusal:
    """One 429 the policy served (injected faults are recorded on ``RestCall`` instead)."""

    method: str
    path: str
    route: str
    """The ``RouteLimit.name``, or ``"global"``."""
    scope: str
    retry_after: float
    at: float


@dataclass(frozen=True)
class Admission:
    """The policy's verdict on one request: let it through (with headers) or answer 429."""

    route: RouteLimit | None
    remaining: int = 0
    reset_at: float = 0.0
    refusal: RateLimitRefusal | None = None

    def headers(self, now: float | None = None) -> dict[str, str]:
        """Rate-limit headers for the answer, with ``Reset-After`` counted from ``now``."""
        if self.route is None:
            return {
                "X-RateLimit-Limit": str(UNLIMITED_LIMIT),
                "X-RateLimit-Remaining": str(UNLIMITED_LIMIT - 1),
                "X-RateLimit-Reset": f"{time.time() + UNLIMITED_RESET_AFTER:.3f}",
                "X-RateLimit-Reset-After": f"{UNLIMITED_RESET_AFTER:.3f}",
            }
        now = time.monotonic() if now is None else now
        reset_after = max(0.0, self.reset_at - now)
        return {
            "X-RateLimit-Limit": str(self.route.limit),
            "X-RateLimit-Remaining": str(self.remaining),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": self.route.bucket_hash,
        }

    def refusal_answer(self) -> tuple[dict[str, Any], dict[str, str]]:
        """The 429's JSON body and headers, as Discord sends them."""
        assert self.refusal is not None
        is_global = self.refusal.scope == SCOPE_GLOBAL
        body = {
            "message": "You are being rate limited.",
            "retry_after": self.refusal.retry_after,
            "global": is_global,
            "code": 0,
        }
        headers = {
            "Via": "1.1 google",
            "Retry-After": str(max(1, math.ceil(self.refusal.retry_after))),
            "X-RateLimit-Scope": self.refusal.scope,
        }
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        else:
            headers.update(self.headers())
        return body, headers


@dataclass
class RateLimits:
    """A rate-limit policy and its live buckets. Empty (the default) means unlimited.

    ``routes``: the limited routes, first match wins. ``global_limit``: requests per
    ``global_window`` seconds on bot routes, None for no global limit.
    Counters: ``served_429s``, ``served_by_route`` (route name or "global" → 429s) and the
    last ``refusals``.
    """

    routes: list[RouteLimit] = field(default_factory=list)
    global_limit: int | None = None
    global_window: float = 1.0
    record_limit: int = 10_000
    served_by_route: Counter[str] = field(default_factory=Counter)
    refusals: deque[RateLimitRefusal] = field(init=False)
    _windows: dict[tuple[str, str], _Window] = field(default_factory=dict, repr=False)
    _global: _Window | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.routes = list(self.routes)
        self.refusals = deque(maxlen=self.record_limit)

    @classmethod
    def discord_like(cls, *, time_scale: float = 1.0, global_limit: bool = True) -> RateLimits:
        """Discord's limits as measured in the wild (docs/loopback.md has the table).

        ``time_scale`` multiplies every window (0.1 makes "5 per 5 s" into "5 per 0.5 s", so a
        test can cross a window without sleeping for long).
        """
        figures: Iterable[tuple[str, str, int, float, str]] = (
            ("POST", CHANNEL_MESSAGES, 5, 5.0, "post in a channel"),
            ("PATCH", CHANNEL_MESSAGE, 5, 5.0, "edit in a channel"),
            ("DELETE", CHANNEL_MESSAGE, 5, 5.0, "delete in a channel"),
            ("POST", OPEN_DM, 5, 5.0, "open a DM"),
            ("POST", FOLLOWUP, 5, 2.0, "interaction follow-up"),
            ("PATCH", WEBHOOK_MESSAGE, 5, 2.0, "interaction message edit"),
            ("DELETE", WEBHOOK_MESSAGE, 5, 2.0, "interaction message delete"),
        )
        return cls(
            routes=[
                RouteLimit(method, pattern, limit, per * time_scale, name)
                for method, pattern, limit, per, name in figures
            ],
            global_limit=DISCORD_GLOBAL_PER_SECOND if global_limit else None,
            global_window=1.0 * time_scale,
        )

    @property
    def enabled(self) -> bool:
        return bool(self.routes) or self.global_limit is not None

    @property
    def served_429s(self) -> int:
        """How many 429s this policy has answered (not counting injected faults)."""
        return sum(self.served_by_route.values())

    def limit(
        self, method: str, path_pattern: str, limit: int, per: float, *, name: str = ""
    ) -> RouteLimit:
        """Add a limited route, replacing one with the same method and pattern."""
        route = RouteLimit(method, path_pattern, limit, per, name)
        self.routes = [
            r for r in self.routes if (r.method, r.path_pattern) != (method, path_pattern)
        ]
        self.routes.insert(0, route)
        return route

    def reset(self) -> None:
        """Forget every bucket's usage (the counters stay)."""
        self._windows.clear()
        self._global = None

    def route_for(self, method: str, path: str) -> RouteLimit | None:
        return next((r for r in self.routes if r.matches(method, path)), None)

    def admit(self, method: str, path: str, *, now: float | None = None) -> Admission:
        """Count this request against its bucket (and the global limit), or refuse it."""
        now = time.monotonic() if now is None else now
        route = self.route_for(method, path)
        window = None if route is None else self._window(route, path, now)
        global_window = None
        if self.global_limit is not None and counts_against_global(path):
            global_window = self._global_window(now)
            if global_window.used >= self.global_limit:
                return self._refuse(method, path, None, global_window, now)
        if route is not None and window is not None and window.used >= route.limit:
            return self._refuse(method, path, route, window, now)
        if global_window is not None:
            global_window.used += 1
        if route is None or window is None:
            return Admission(None)
        window.used += 1
        return Admission(route, remaining=route.limit - window.used, reset_at=window.reset_at)

    def _window(self, route: RouteLimit, path: str, now: float) -> _Window:
        key = (route.name, major_parameter(path))
        window = self._windows.get(key)
        if window is None or now >= window.reset_at:
            if window is None and len(self._windows) >= _BUCKET_GC_THRESHOLD:
                self._windows = {k: w for k, w in self._windows.items() if now < w.reset_at}
            window = self._windows[key] = _Window(reset_at=now + route.per)
        return window

    def _global_window(self, now: float) -> _Window:
        if self._global is None or now >= self._global.reset_at:
            self._global = _Window(reset_at=now + self.global_window)
        return self._global

    def _refuse(
        self, method: str, path: str, route: RouteLimit | None, window: _Window, now: float
    ) -> Admission:
        retry_after = round(max(0.001, window.reset_at - now), 3)
        name = SCOPE_GLOBAL if route is None else route.name
        scope = SCOPE_GLOBAL if route is None else SCOPE_USER
        refusal = RateLimitRefusal(method, path, name, scope, retry_after, time.time())
        self.refusals.append(refusal)
        self.served_by_route[name] += 1
        return Admission(route, remaining=0, reset_at=window.reset_at, refusal=refusal)

    def describe(self) -> dict[str, Any]:
        """The policy and its counters as JSON (for the control API)."""
        return {
            "enabled": self.enabled,
            "routes": [
                {
                    "method": r.method,
                    "path_pattern": r.path_pattern,
                    "limit": r.limit,
                    "per": r.per,
                    "name": r.name,
                    "bucket": r.bucket_hash,
                }
                for r in self.routes
            ],
            "global_limit": self.global_limit,
            "global_window": self.global_window,
            "served_429s": self.served_429s,
            "served_by_route": dict(self.served_by_route),
        }
