"""The data directory: where the benchmark keeps caches, and the arc2 sources once fetched.

It is ``~/.cache/continual-arc``, or ``$CONTINUAL_ARC_DATA`` when that is set. Deleting it never
changes a result: arc2's sources, checked by hash whenever they are read, are then fetched again
(``continual-arc data fetch --track arc2``).
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
