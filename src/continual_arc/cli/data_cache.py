"""``continual-arc data cache``: the instance cache shown, filled ahead of a protocol, limited or cleared.

Only the parser lives here, so that ``data status`` stays quick; the work is in
[`data_cache_work`][continual_arc.cli.data_cache_work], imported when the command runs.
"""

from __future__ import annotations

import argparse
import os

from ..core.config import CANONICAL_SEEDS
from .common import deferred

__all__ = ["add_cache_command"]


def add_cache_command(data_sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``data cache`` to the ``data`` group's subcommands."""
    cache = data_sub.add_parser(
        "cache", help="the instance cache: show it, prewarm it for a configuration, limit or clear it"
    )
    cache.add_argument("--prewarm", metavar="CONFIG", help="draw every instance of CONFIG's protocol")
    cache.add_argument(
        "--seeds", type=int, nargs="+", default=list(CANONICAL_SEEDS), help="run seeds to prewarm (0 1 2)"
    )
    cache.add_argument("--users", type=int, default=1, help="users of the protocol to prewarm (default 1)")
    cache.add_argument(
        "--demos", type=int, help="demonstrations per instance (default: all an instance offers, 8)"
    )
    cache.add_argument(
        "--jobs", type=int, default=min(4, os.cpu_count() or 1), help="worker processes for --prewarm"
    )
    cache.add_argument("--max-mb", type=int, help="set the size limit (least recently used evicted)")
    cache.add_argument("--clear", action="store_true", help="remove every entry")
    cache.add_argument("--json", action="store_true", help="print JSON")
    cache.set_defaults(func=deferred("data_cache_work"))
