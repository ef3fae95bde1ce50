"""Messages of the hints (filled in with the hint feature)."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {}
