"""``continual-arc figures experiments/NAME...``: each experiment's tables and figures, recomputed."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..core.files import atomic_write_text
from ..sweep.experiments import (
    TABLES_FILE,
    differences,
    figures,
    load_experiment,
    remove_stray_figures,
    stored_figure_problems,
)

__all__ = ["COMMANDS", "add_commands"]

COMMANDS = ("figures",)
"""The top-level commands this module adds."""


def _figures(args: argparse.Namespace) -> int:
    found: list[str] = []
    for folder in map(Path, args.experiments):
        experiment = load_experiment(folder)
        recomputed = figures(experiment, draw=args.write)
        stored_path = folder / TABLES_FILE
        if args.write:
            atomic_write_text(stored_path, recomputed)
            print(f"wrote {stored_path}")
            for path in remove_stray_figures(experiment):
                print(f"removed {path}: no figure of {folder} draws it now")
            continue
        stored = stored_path.read_text() if stored_path.is_file() else ""
        if not stored:
            found.append(f"{stored_path} is missing: write it with --write")
            continue
        wrong = differences(stored, recomputed, stored_path) + stored_figure_problems(experiment)
        found += wrong
        if not wrong:
            print(f"{stored_path}: every table and figure is what its runs give")
    for line in found:
        print(line, file=sys.stderr)
    return 1 if found else 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``figures`` to the root parser."""
    p = sub.add_parser(
        "figures",
        help="recompute each experiment's tables and figures from its runs and compare them with the stored",
        description="Recompute the tables and figures of each experiment folder (experiment.toml) from "
        "the runs it names and compare them with its stored tables.md, where each figure's numbers "
        "are a table: one line per difference, and per figure drawing missing from figures/, exit "
        "status 1 on any. --write rewrites tables.md and draws every figure into figures/<slug>.svg "
        "instead (the drawings' bytes are not compared: they depend on matplotlib's version).",
    )
    p.add_argument("experiments", nargs="+", metavar="DIR", help="an experiment folder (experiments/NAME)")
    p.add_argument("--write", action="store_true", help="rewrite each tables.md and draw its figures")
    p.set_defaults(func=_figures)
