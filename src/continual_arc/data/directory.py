"""The data directory: where the benchmark keeps caches, never anything a result depends on.

It is ``~/.cache/continual-arc``, or ``$CONTINUAL_ARC_DATA`` when that is set. Deleting it never
changes a result.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["DATA_ENV", "data_dir"]

DATA_ENV = "CONTINUAL_ARC_DATA"
"""Environment variable that overrides the data directory."""


def data_dir() -> Path:
    """The data directory: ``$CONTINUAL_ARC_DATA`` if set, else ``~/.cache/continual-arc``."""
    override = os.environ.get(DATA_ENV)
    return Path(override).expanduser() if override else Path.home() / ".cache" / "continual-arc"
