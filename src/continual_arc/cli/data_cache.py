"""``continual-arc data cache``: the instance cache shown, filled ahead of a protocol, limited or cleared.

Its parser and its work together; prewarming loads the protocol, which ``data status``
([`data`][continual_arc.cli.data]) never imports.
"""

from __future__ import annotations

import argparse
import os

from ..core.config import CANONICAL_SEEDS
from ..core.records import JSONObject
from ..data.cache import NO_CACHE_ENV, cache_enabled, cache_stats, clear, set_limit
from ..protocol.prewarm import prewarm
from ..tracks.sources import DEMO_CAP
from .common import CliError, counter, print_json
from .configs import config_name

__all__ = ["COMMANDS", "add_commands", "run"]

COMMANDS = ("data cache",)
"""The command this module adds, under ``data``."""


def add_commands(data_sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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
    cache.set_defaults(func=run)


def _megabytes(size: int) -> str:
    return f"{size / (1 << 20):.1f} MB"


def run(args: argparse.Namespace) -> int:
    """Show, prewarm, limit or clear the instance cache as ``args`` ask; the exit status."""
    lines: list[str] = []
    result: JSONObject = {}
    if args.clear:
        removed, freed = clear()
        lines.append(f"cleared {removed} entries ({_megabytes(freed)})")
        result["cleared"] = {"entries": removed, "bytes": freed}
    if args.max_mb is not None:
        if args.max_mb < 0:
            raise CliError("--max-mb cannot be negative")
        set_limit(args.max_mb)
        lines.append(f"limit set to {args.max_mb} MB (least recently used entries evicted past it)")
    if args.prewarm:
        if not cache_enabled():
            raise CliError(f"the instance cache is off ({NO_CACHE_ENV} is set): nothing to prewarm")
        config = config_name(args.prewarm)
        warmed = prewarm(
            config,
            args.seeds,
            args.users,
            demos=DEMO_CAP if args.demos is None else args.demos,
            jobs=args.jobs,
            progress=counter(f"prewarming {config}"),
        )
        seeds = ", ".join(str(s) for s in args.seeds)
        lines.append(
            f"{config} (seeds {seeds}, {args.users} user(s)): {warmed.instances} instances, "
            f"{warmed.pairs} pairs in the cache"
        )
        result["prewarm"] = {"config": config, "instances": warmed.instances, "pairs": warmed.pairs}
    stats = cache_stats()
    state = "on" if cache_enabled() else f"off ({NO_CACHE_ENV} is set)"
    lines.append(
        f"instance cache {state}: {stats.entries} pairs, {_megabytes(stats.bytes)} of {stats.max_mb} MB, "
        f"{stats.sources} source version(s), in {stats.root}"
    )
    if args.json:
        result["cache"] = {
            "enabled": cache_enabled(),
            "root": str(stats.root),
            "entries": stats.entries,
            "bytes": stats.bytes,
            "sources": stats.sources,
            "max_mb": stats.max_mb,
        }
        print_json(result)
    else:
        print("\n".join(lines))
    return 0
