"""Glory's version, wherever it runs.

Installed (``pip install``, ``make run``, the container) the distribution's metadata knows it.
A platform that starts ``python -m bot`` from the checked-out sources after installing only the
locked dependencies (a ``Procfile`` platform) has no metadata for Glory: there the version comes
from ``pyproject.toml`` beside the sources, so the ready line and ``/about`` never say
"unknown" when it can be known.
"""

from __future__ import annotations

import functools
import importlib.metadata
import tomllib
from pathlib import Path

UNKNOWN = "unknown"
PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


@functools.cache
def version() -> str:
    """The installed distribution's version, else the source tree's, else ``unknown``."""
    try:
        return importlib.metadata.version("glory")
    except importlib.metadata.PackageNotFoundError:
        pass
    try:
        project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return UNKNOWN
    return str(project.get("version") or UNKNOWN)
