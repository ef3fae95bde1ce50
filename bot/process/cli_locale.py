"""The operator's language for what the command line prints (``glory``, the health check)."""

from __future__ import annotations

import os
from collections.abc import Mapping

from bot.i18n import LOCALES


def cli_locale(env: Mapping[str, str] | None = None) -> str:
    """The catalog language from ``LC_ALL``/``LC_MESSAGES``/``LANG`` (English otherwise)."""
    env = os.environ if env is None else env
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            code = value.split("_")[0].split(".")[0].lower()
            return code if code in LOCALES else "en"
    return "en"
