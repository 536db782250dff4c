"""``continual-arc data``: the pinned data sources checked, warmed and screened."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..data.screen import build_screen, load_screen, screen_path, write_screen
from ..data.status import fetch, status
from .common import counter, print_json

__all__ = ["COMMANDS", "add_commands"]

COMMANDS = ("data",)
"""The top-level commands this module adds."""


def _data_status(args: argparse.Namespace) -> int:
    info = status()
    if args.json:
        print_json(info)
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
        screen = load_screen("arc1")
        same = screen["source"]["rearc_sha256"] == rearc["sha256"]
        print(
            f"screen       {screen['passed']} of {screen['passed'] + screen['failed']} generators pass"
            + ("" if same else "  (WARNING: screened on other Re-ARC files)")
        )
    return 1 if info["problems"] else 0


def _data_fetch(args: argparse.Namespace) -> int:
    result = fetch(progress=counter("checking instances"))
    if args.json:
        print_json(result)
    else:
        for line in result["lines"]:
            print(line)
    return 0


def _data_screen(args: argparse.Namespace) -> int:
    out = Path(args.out) if args.out else screen_path(args.track)
    document = build_screen(
        args.tasks or None, draws=args.draws, jobs=args.jobs, progress=counter("screening")
    )
    write_screen(document, out)
    print(f"{document['passed']} passed, {document['failed']} failed; written to {out}")
    return 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``data status``, ``data fetch`` and ``data screen`` to the root parser."""
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
