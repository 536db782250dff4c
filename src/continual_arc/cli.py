"""The ``continual-arc`` command line: thin commands over the package's public functions.

Every command imports what it needs when it runs, so ``continual-arc --help`` loads neither the
generators nor NumPy.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

__all__ = ["main"]

Command = Callable[[argparse.Namespace], int]


class CliError(Exception):
    """A user error: printed as one line, exit status 2."""


def _print_json(value: Any) -> None:
    print(json.dumps(value, indent=1, sort_keys=True))


def _progress(label: str) -> Callable[[int, int], None]:
    def show(done: int, total: int) -> None:
        tty = sys.stderr.isatty()
        if tty or done == total or done % max(1, total // 10) == 0:
            end = "\r" if tty and done < total else "\n"
            print(f"{label}: {done}/{total}", end=end, file=sys.stderr, flush=True)

    return show


# -- data -------------------------------------------------------------------------------------------


def _data_status(args: argparse.Namespace) -> int:
    from .data import status

    info = status()
    if args.json:
        _print_json(info)
        return 1 if info["problems"] else 0
    print(f"data directory: {info['data_dir']}")
    for problem in info["problems"]:
        print(f"problem: {problem}")
    sources = info["sources"]
    if sources:
        rearc, arc1 = sources["rearc"], sources["arc1"]
        counts = f"{rearc['generators']} generators, {rearc['verifiers']} verifiers"
        print(f"Re-ARC       {rearc['package']:24} {counts}")
        print(f"             sha256 {rearc['sha256']}  {rearc['path']}")
        print(
            f"ARC-AGI-1    {arc1['package']:24} {arc1['training_tasks']} training tasks, "
            f"{arc1['evaluation_tasks']} evaluation tasks"
        )
        print(f"             sha256 {arc1['sha256']}  {arc1['path']}")
        from .screen import load_screen

        screen = load_screen("arc1")
        same = screen["source"]["rearc_sha256"] == rearc["sha256"]
        print(
            f"screen       {screen['passed']} of {screen['passed'] + screen['failed']} generators pass"
            + ("" if same else "  (WARNING: screened on other Re-ARC files)")
        )
    return 1 if info["problems"] else 0


def _data_fetch(args: argparse.Namespace) -> int:
    from .data import fetch

    result = fetch(progress=_progress("checking instances"))
    if args.json:
        _print_json(result)
    else:
        for line in result["lines"]:
            print(line)
    return 0


def _data_screen(args: argparse.Namespace) -> int:
    from .screen import build_screen, screen_path, write_screen

    out = Path(args.out) if args.out else screen_path(args.track)
    document = build_screen(
        args.tasks or None, draws=args.draws, jobs=args.jobs, progress=_progress("screening")
    )
    write_screen(document, out)
    print(f"{document['passed']} passed, {document['failed']} failed; written to {out}")
    return 0


# -- the parser -------------------------------------------------------------------------------------


def _add_data(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    data = sub.add_parser("data", help="the pinned data sources: check, warm caches, screen")
    data_sub = data.add_subparsers(dest="data_command", required=True, metavar="COMMAND")
    status = data_sub.add_parser("status", help="sources, versions, file hashes and task counts")
    status.add_argument("--json", action="store_true", help="print JSON")
    status.set_defaults(func=_data_status)
    fetch = data_sub.add_parser("fetch", help="check the pinned sources and warm the caches (offline)")
    fetch.add_argument("--json", action="store_true", help="print JSON")
    fetch.set_defaults(func=_data_fetch)
    screen = data_sub.add_parser("screen", help="screen every Re-ARC generator and write the screen file")
    screen.add_argument("--track", default="arc1", choices=["arc1"])
    screen.add_argument("--draws", type=int, default=30, help="draws per task (default 30)")
    screen.add_argument("--jobs", type=int, default=1, help="worker processes")
    screen.add_argument("--tasks", nargs="*", help="screen only these task ids")
    screen.add_argument("--out", help="where to write (default: the committed screen file)")
    screen.set_defaults(func=_data_screen)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``continual-arc``."""
    parser = argparse.ArgumentParser(
        prog="continual-arc",
        description="Continual-ARC: a continual-learning benchmark on ARC-AGI puzzles.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_data(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    from .data import SourceError

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args)
    except (CliError, SourceError) as err:
        print(f"continual-arc: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("continual-arc: interrupted", file=sys.stderr)
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
