"""``continual-arc figures experiments/NAME...``: each experiment's tables recomputed from its runs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..core.files import atomic_write_text
from ..sweep.experiments import TABLES_FILE, differences, figures, load_experiment

__all__ = ["COMMANDS", "add_commands"]

COMMANDS = ("figures",)
"""The top-level commands this module adds."""


def _figures(args: argparse.Namespace) -> int:
    found: list[str] = []
    for folder in map(Path, args.experiments):
        experiment = load_experiment(folder)
        recomputed = figures(experiment)
        stored_path = folder / TABLES_FILE
        if args.write:
            atomic_write_text(stored_path, recomputed)
            print(f"wrote {stored_path}")
            continue
        stored = stored_path.read_text() if stored_path.is_file() else ""
        if not stored:
            found.append(f"{stored_path} is missing: write it with --write")
            continue
        wrong = differences(stored, recomputed, stored_path)
        found += wrong
        if not wrong:
            print(f"{stored_path}: every table is what its runs give")
    for line in found:
        print(line, file=sys.stderr)
    return 1 if found else 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``figures`` to the root parser."""
    p = sub.add_parser(
        "figures",
        help="recompute each experiment's tables from its runs and compare them with the stored ones",
        description="Recompute the tables of each experiment folder (experiment.toml) from the runs it "
        "names and compare them with its stored tables.md: one line per difference, exit status 1 "
        "on any. --write rewrites tables.md instead.",
    )
    p.add_argument("experiments", nargs="+", metavar="DIR", help="an experiment folder (experiments/NAME)")
    p.add_argument("--write", action="store_true", help="rewrite each tables.md from its runs")
    p.set_defaults(func=_figures)
