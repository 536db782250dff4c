"""``continual-arc report``: a run's measures, diagnostics, errors and resources read back.

Its own module, apart from the comparisons ([`reports`][continual_arc.cli.reports]), because reading one run
needs no bootstrap, and so no NumPy at start-up.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..measure.ledger import OutsideJSON, format_outside, ledger_calls, outside_spend, read_ledger
from ..measure.plots import run_plots
from ..measure.report import format_run, recompute_summary, run_report
from ..play.rundir import invalid_reasons, read_run
from ..play.runner import stop_sentence
from .common import CliError, print_json

__all__ = ["COMMANDS", "add_commands"]

COMMANDS = ("report",)
"""The top-level commands this module adds."""


def _outside(path: Path, runs: list[str] | None, resources: dict[str, float]) -> OutsideJSON:
    """The ledger at ``path`` against the records' counters (``runs``: only these proxy runs)."""
    try:
        entries, skipped = read_ledger(path)
    except OSError as err:
        raise CliError(f"cannot read the proxy's ledger {path}: {err.strerror}") from err
    return outside_spend(ledger_calls(entries, runs or None, skipped), resources).to_json()


def _report(args: argparse.Namespace) -> int:
    run = read_run(args.run)
    status = 0
    if args.recompute:
        _, differs = recompute_summary(run.records, run.meta, run.summary)
        if differs:
            print("summary.json differs from what records.jsonl gives:", file=sys.stderr)
            for line in differs:
                print(f"  {line}", file=sys.stderr)
            status = 1
        elif not args.json:
            print("summary.json is exactly what records.jsonl gives\n")
    report = run_report(run.path, run.meta, run.records, invalid_reasons(run.path, run.records))
    if run.stopped is not None:
        report["stopped"] = run.stopped
    if args.ledger:
        outside = _outside(Path(args.ledger), args.ledger_run, report["resources"])
        report["outside_spend"] = outside
        status = 1 if outside["over_recorded"] else status
    if args.plots:
        reset = read_run(args.reset).records if args.reset else None
        report["plots"] = [str(p) for p in run_plots(run.records, Path(args.run) / "plots", reset)]
    if args.json:
        print_json(report)
    else:
        print(format_run(report))
        if "outside_spend" in report:
            print(format_outside(report["outside_spend"]))
        for path in report.get("plots", []):
            print(f"plot: {path}")
        if "stopped" in report:
            print(stop_sentence(report["stopped"]))
    return status


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add report to the root parser."""
    report = sub.add_parser("report", help="a run's measures, diagnostics, errors and resources")
    report.add_argument("run", help="a run directory")
    report.add_argument("--plots", action="store_true", help="write PNG and SVG plots into RUN/plots")
    report.add_argument("--reset", help="the reset's run, drawn beside the learner's on the learning curve")
    report.add_argument(
        "--recompute", action="store_true", help="check that summary.json is what the records give"
    )
    report.add_argument("--json", action="store_true", help="print JSON")
    report.add_argument(
        "--ledger",
        metavar="FILE",
        help="the tracking proxy's ledger (its --log): show the spend outside any committed instance",
    )
    report.add_argument(
        "--ledger-run",
        action="append",
        metavar="NAME",
        help="count only the ledger's calls under this proxy run name (repeatable; default: every run)",
    )
    report.set_defaults(func=_report)
