"""``continual-arc view``: a local viewer of runs, protocols and results, or (``--export``) its files."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..view.catalog import Catalog, build_catalog
from ..view.export import export_site
from ..view.leaderboard import leaderboard_paths, read_leaderboard
from .common import CliError, counter

# The server needs the ``view`` extra; the export does not, so a missing extra is reported only
# when serving is asked for.
_MISSING: str | None
try:
    from ..view.app import HOST, serve
    from ..view.site import Site

    _MISSING = None
except ImportError as _err:
    _MISSING = _err.name or "starlette"

__all__ = ["COMMANDS", "DEFAULT_PORT", "add_commands"]

COMMANDS = ("view",)
"""The top-level commands this module adds."""

DEFAULT_PORT = 8642


def _describe(catalog: Catalog) -> None:
    print(f"{len(catalog.runs)} run(s), {len(catalog.protocols)} protocol(s)")
    for problem in catalog.problems:
        print(f"  {problem}")


def _view(args: argparse.Namespace) -> int:
    board = read_leaderboard(args.leaderboard) if args.leaderboard else None
    paths = list(args.paths or ([] if board else ["."]))
    if board is not None:
        paths += [p for p in leaderboard_paths(board) if p not in paths]  # its numbers open these runs
    catalog = build_catalog([Path(p) for p in paths])
    _describe(catalog)
    if not catalog.runs:
        raise CliError("nothing to view: give a run, protocol or results directory")
    if args.export:
        counts = export_site(catalog, Path(args.export), counter("documents"), leaderboard=board)
        page = Path(args.export) / "index.html"
        print(f"exported {counts['documents']} documents to {args.export}: open {page}")
        return 0
    if _MISSING is not None:
        raise CliError(
            f"continual-arc view needs the view extra ({_MISSING} is not installed): "
            "pip install -e '.[view]' in the repository's clone (or use --export, which needs nothing more)"
        )
    print(f"viewing at http://{HOST}:{args.port}/ (Ctrl-C to stop)", flush=True)
    serve(Site(catalog, live=True, leaderboard=board), args.port)
    return 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``view`` to the root parser."""
    view = sub.add_parser(
        "view",
        help="a local replay viewer of runs, protocols and results",
        description=(
            "Serve a local web page (127.0.0.1 only) showing the runs given: their stream strip, every "
            "instance's replay, the diagnostics beside the reset, a protocol's plane, and fresh instances "
            "to play yourself. Reads the directories, never writes to them."
        ),
    )
    view.add_argument(
        "paths",
        nargs="*",
        metavar="DIR",
        help="run, protocol or results directories (default: ., or the results a --leaderboard names)",
    )
    view.add_argument(
        "--leaderboard",
        metavar="FILE",
        help="show this leaderboard (continual-arc leaderboard --json FILE) on a page of its own, each "
        "number opening its run; the results it names are viewed too",
    )
    view.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"the port (default {DEFAULT_PORT})")
    view.add_argument(
        "--export", metavar="OUT", help="write the pages as static files into OUT instead of serving them"
    )
    view.set_defaults(func=_view)
