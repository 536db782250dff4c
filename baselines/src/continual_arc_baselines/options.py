"""The baselines' own switches, declared to the core through its entry points (baselines/pyproject.toml).

``--no-search-cache`` on ``continual-arc run`` and ``protocol`` (`SEARCH_CACHE_OPTION`, entry
point ``continual_arc.cli_options``) forbids the program library to serve repeated searches from
the data directory, through `NO_SEARCH_CACHE_ENV`, so that a user can time or check the
search itself. The core knows the switch only as a run option a package declared.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass

__all__ = ["NO_SEARCH_CACHE_ENV", "SEARCH_CACHE_OPTION", "SearchCacheOption", "search_cache_allowed"]

NO_SEARCH_CACHE_ENV = "CONTINUAL_ARC_NO_SEARCH_CACHE"
"""Environment variable that, set to anything, forbids learners to serve searches from the data directory.

A learner whose search is a pure function of its inputs may keep the results in the data directory
and serve them to any play on this machine (the program library does); its records are the same
either way. ``--no-search-cache`` sets it for the command and every process it starts.
"""


def search_cache_allowed() -> bool:
    """Whether learners may serve repeated searches from the data directory here (see above)."""
    return not os.environ.get(NO_SEARCH_CACHE_ENV)


@dataclass(frozen=True)
class SearchCacheOption:
    """``--no-search-cache``: a run option (``continual_arc.cli_options``) of ``run`` and ``protocol``."""

    env: tuple[str, ...] = (NO_SEARCH_CACHE_ENV,)

    def add_to(self, parser: argparse.ArgumentParser) -> None:
        """Add ``--no-search-cache``."""
        parser.add_argument(
            "--no-search-cache",
            action="store_true",
            help="learners search afresh instead of serving repeated searches from the data directory "
            "(the records are the same either way)",
        )

    def apply(self, args: argparse.Namespace) -> None:
        """Forbid the search cache to this process and every process it starts, when asked."""
        if getattr(args, "no_search_cache", False):
            # An environment variable, so that the protocol's worker processes inherit it.
            os.environ[NO_SEARCH_CACHE_ENV] = "1"


SEARCH_CACHE_OPTION = SearchCacheOption()
"""The option the entry point names."""
