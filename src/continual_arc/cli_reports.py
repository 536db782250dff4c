"""The report commands of ``continual-arc``: report, learned, transfer and plane."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

__all__ = ["add_report_commands"]


class ReportError(Exception):
    """A user error in a report command: printed as one line, exit status 2."""


def _print_json(value: Any) -> None:
    print(json.dumps(value, indent=1, sort_keys=True))


def _load(path: str) -> Any:
    from .records import RecordsError
    from .report import load_run
    from .rundir import RunDirError

    try:
        return load_run(path)
    except (RunDirError, RecordsError) as err:
        raise ReportError(str(err)) from None


def _report(args: argparse.Namespace) -> int:
    from .report import format_run, recompute_summary, run_report

    run = _load(args.run)
    status = 0
    if args.recompute:
        _, differs = recompute_summary(run)
        if differs:
            print("summary.json differs from what records.jsonl gives:", file=sys.stderr)
            for line in differs:
                print(f"  {line}", file=sys.stderr)
            status = 1
        elif not args.json:
            print("summary.json is exactly what records.jsonl gives\n")
    report = run_report(run)
    if args.plots:
        from .plots import run_plots

        reset = _load(args.reset).records if args.reset else None
        report["plots"] = [str(p) for p in run_plots(run.records, Path(args.run) / "plots", reset)]
    if args.json:
        _print_json(report)
    else:
        print(format_run(report))
        for path in report.get("plots", []):
            print(f"plot: {path}")
    return status


def _rng(args: argparse.Namespace) -> Any:
    import numpy as np

    return np.random.default_rng(args.bootstrap_seed)


def _learned(args: argparse.Namespace) -> int:
    from .metrics import MismatchError, share_learned
    from .report import format_learned

    runs = [_load(p).records for p in [args.run, *(args.also_run or [])]]
    resets = [_load(p).records for p in [args.reset, *(args.also_reset or [])]]
    try:
        result = share_learned(runs, resets, _rng(args), resamples=args.resamples)
    except MismatchError as err:
        raise ReportError(str(err)) from None
    if args.json:
        _print_json(result.to_json())
    else:
        print(format_learned(result))
    return 0


def _transfer(args: argparse.Namespace) -> int:
    from .metrics import MismatchError, primary, share_saved
    from .report import format_transfer

    runs = [_load(p) for p in [args.run, *(args.also_run or [])]]
    resets = [_load(p) for p in [args.reset, *(args.also_reset or [])]]
    bares = [_load(p) for p in args.bare or []]
    for run in runs + resets + bares:
        phases = {r["phase"] for r in primary(run.records)}
        if args.test not in phases:
            found = ", ".join(sorted(phases)) or "no instances"
            raise ReportError(
                f"{run.path} holds no {args.test} instances ({found}); pass --test to choose the test"
            )
    try:
        comparison = share_saved(
            [r.records for r in runs],
            [r.records for r in resets],
            _rng(args),
            test=args.test,
            bare_plays=[r.records for r in bares],
            resamples=args.resamples,
        )
    except MismatchError as err:
        raise ReportError(str(err)) from None
    if args.json:
        _print_json(comparison.to_json())
    else:
        print(format_transfer(comparison))
    return 0


def _plane(args: argparse.Namespace) -> int:
    from .metrics import MismatchError
    from .plots import plane_plot
    from .report import format_estimate, plane_point

    try:
        points = [
            plane_point(d, seed=args.bootstrap_seed, resamples=args.resamples).to_json()
            for d in args.protocols
        ]
    except MismatchError as err:
        raise ReportError(str(err)) from None
    paths = plane_plot(points, Path(args.out))
    if args.json:
        _print_json({"points": points, "plots": [str(p) for p in paths]})
        return 0
    for point in points:
        seen, held = point["seen"]["share_saved"], point["held_out"]["share_saved"]
        print(f"{point['label']}: seen {format_estimate(seen)}, held-out {format_estimate(held)}")
    for path in paths:
        print(f"plot: {path}")
    return 0


def _bootstrap_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--resamples", type=int, default=10_000, help="bootstrap resamples (default 10000)")
    parser.add_argument("--bootstrap-seed", type=int, default=0, help="seed of the bootstrap (default 0)")
    parser.add_argument("--json", action="store_true", help="print JSON")


def add_report_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add report, learned, transfer and plane to the root parser."""
    report = sub.add_parser("report", help="a run's measures, diagnostics, errors and resources")
    report.add_argument("run", help="a run directory")
    report.add_argument("--plots", action="store_true", help="write PNG and SVG plots into RUN/plots")
    report.add_argument("--reset", help="the reset's run, drawn beside the learner's on the learning curve")
    report.add_argument(
        "--recompute", action="store_true", help="check that summary.json is what the records give"
    )
    report.add_argument("--json", action="store_true", help="print JSON")
    report.set_defaults(func=_report)

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
    transfer.add_argument("--test", default="held-out", choices=["held-out", "seen"])
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
