"""``continual-arc learned``, ``transfer`` and ``plane``: runs and their resets compared, with intervals."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..core.records import Phase
from ..measure.budget import primary
from ..measure.compare import share_learned, share_saved
from ..measure.plots import plane_plot
from ..measure.report import format_estimate, format_learned, format_transfer
from ..play.rundir import Run, read_run
from ..protocol.plane import plane_point
from ..protocol.plays import reset_problem
from .common import CliError, print_json

__all__ = ["COMMANDS", "add_commands"]

COMMANDS = ("learned", "transfer", "plane")
"""The top-level commands this module adds."""


def _refuse_unpaired(runs: list[Run], resets: list[Run], test: str | None) -> None:
    """Refuse a "reset" that is not the reset reference of the runs (a run read against itself, say)."""
    for reset in resets:
        for played in runs:
            problem = reset_problem(played.meta["schedule"], reset.meta["schedule"], test)
            if problem:
                raise CliError(f"{reset.path} cannot be read as the reset of {played.path}: {problem}")


def _learned(args: argparse.Namespace) -> int:
    runs = [read_run(p) for p in [args.run, *(args.also_run or [])]]
    resets = [read_run(p) for p in [args.reset, *(args.also_reset or [])]]
    _refuse_unpaired(runs, resets, None)
    learner, reset = [r.records for r in runs], [r.records for r in resets]
    result = share_learned(learner, reset, seed=args.bootstrap_seed, resamples=args.resamples)
    if args.json:
        print_json(result.to_json())
    else:
        print(format_learned(result))
    return 0


def _transfer(args: argparse.Namespace) -> int:
    runs = [read_run(p) for p in [args.run, *(args.also_run or [])]]
    resets = [read_run(p) for p in [args.reset, *(args.also_reset or [])]]
    bares = [read_run(p) for p in args.bare or []]
    for run in runs + resets + bares:
        phases = {r["phase"] for r in primary(run.records)}
        if args.test not in phases:
            found = ", ".join(sorted(phases)) or "no instances"
            raise CliError(
                f"{run.path} holds no {args.test} instances ({found}); pass --test to choose the test"
            )
    _refuse_unpaired(runs, resets, args.test)
    comparison = share_saved(
        [r.records for r in runs],
        [r.records for r in resets],
        seed=args.bootstrap_seed,
        test=args.test,
        bare_plays=[r.records for r in bares],
        resamples=args.resamples,
    )
    if args.json:
        print_json(comparison.to_json())
    else:
        print(format_transfer(comparison))
    return 0


def _plane(args: argparse.Namespace) -> int:
    points = [plane_point(d, seed=args.bootstrap_seed, resamples=args.resamples) for d in args.protocols]
    settings = sorted({point.setting for point in points})
    if len(settings) > 1:
        raise CliError(
            f"the plane compares learners in one setting, and these protocols were played in "
            f"{len(settings)}: {'; '.join(settings)}"
        )
    paths = plane_plot(points, Path(args.out))
    if args.json:
        print_json({"points": [point.to_json() for point in points], "plots": [str(p) for p in paths]})
        return 0
    for point in points:
        seen, held = point.seen.share_saved, point.held_out.share_saved
        print(f"{point.label}: seen {format_estimate(seen)}, held-out {format_estimate(held)}")
    for path in paths:
        print(f"plot: {path}")
    return 0


def _bootstrap_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--resamples", type=int, default=10_000, help="bootstrap resamples (default 10000)")
    parser.add_argument("--bootstrap-seed", type=int, default=0, help="seed of the bootstrap (default 0)")
    parser.add_argument("--json", action="store_true", help="print JSON")


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add learned, transfer and plane to the root parser."""
    learned = sub.add_parser("learned", help="the share learned over the stream, against the reset's stream")
    learned.add_argument("run", help="the learner's stream")
    learned.add_argument("reset", help="the reset's stream (schedule make --reset-each)")
    learned.add_argument("--also-run", action="append", help="another play of the learner (averaged)")
    learned.add_argument("--also-reset", action="append", help="another play of the reset (averaged)")
    _bootstrap_flags(learned)
    learned.set_defaults(func=_learned)

    transfer = sub.add_parser("transfer", help="the share saved and T on a frozen test, against the reset")
    transfer.add_argument("run", help="the learner's test run")
    transfer.add_argument("reset", help="the reset's run of the same test (--width 1)")
    transfer.add_argument("--test", default=Phase.HELD_OUT, choices=[Phase.HELD_OUT, Phase.SEEN])
    transfer.add_argument("--also-run", action="append", help="another play of the learner (averaged)")
    transfer.add_argument("--also-reset", action="append", help="another play of the reset (averaged)")
    transfer.add_argument("--bare", action="append", help="a bare-model run on the same instances")
    _bootstrap_flags(transfer)
    transfer.set_defaults(func=_transfer)

    plane = sub.add_parser("plane", help="the plane of the two tests for one or more protocol directories")
    plane.add_argument("protocols", nargs="+", help="protocol directories (continual-arc protocol --out)")
    plane.add_argument("--out", default=".", help="where to write plane.png and plane.svg")
    _bootstrap_flags(plane)
    plane.set_defaults(func=_plane)
