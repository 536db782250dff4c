"""The data directory: where the benchmark keeps caches, and the arc2 sources once fetched.

It is ``~/.cache/continual-arc``, or ``$CONTINUAL_ARC_DATA`` when that is set. Deleting it never
changes a result: arc2's sources, checked by hash whenever they are read, are then fetched again
(``continual-arc data fetch --track arc2``).
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["DATA_ENV", "NO_SEARCH_CACHE_ENV", "data_dir", "search_cache_allowed"]

DATA_ENV = "CONTINUAL_ARC_DATA"
"""Environment variable that overrides the data directory."""


def data_dir() -> Path:
    """The data directory: ``$CONTINUAL_ARC_DATA`` if set, else ``~/.cache/continual-arc``."""
    override = os.environ.get(DATA_ENV)
    return Path(override).expanduser() if override else Path.home() / ".cache" / "continual-arc"


NO_SEARCH_CACHE_ENV = "CONTINUAL_ARC_NO_SEARCH_CACHE"
"""Environment variable that, set to anything, forbids learners to serve searches from the data directory.

A learner whose search is a pure function of its inputs may keep the results in the data directory
and serve them to any play on this machine (the baselines' program library does); its records are
the same either way. ``--no-search-cache`` on ``run`` and ``protocol`` sets it for the command and
every process it starts, so a user can time or check the search itself.
"""


def search_cache_allowed() -> bool:
    """Whether learners may serve repeated searches from the data directory here (see above)."""
    return not os.environ.get(NO_SEARCH_CACHE_ENV)
