"""``continual-arc data fetch`` and ``data screen``: the data commands that work, loaded only when run.

See [`common.deferred`][continual_arc.cli.common.deferred]: ``data status`` needs neither the network and
archive modules nor the screening machinery these import.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from ..data import fetch as data_fetch
from ..data.arc2_sources import ARCGEN_ENV
from ..data.arc3_public import PUBLIC_GAMES, PUBLIC_TRACK, fetch_public_games
from ..data.screen import build_screen, screen_path, write_screen
from .common import CliError, counter, print_json

__all__ = ["fetch", "screen"]


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
