"""``continual-arc sweep`` and ``continual-arc pool``: many protocols on an engine, and their table."""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

from ..sweep.collect import collect, rows
from ..sweep.driver import SweepOptions, SweepProgress, dry_run, run_sweep
from ..sweep.spec import load_spec
from ..sweep.table import markdown, table_csv, write_table
from .common import CliError

__all__ = ["COMMANDS", "SweepBar", "add_commands"]

COMMANDS = ("sweep", "pool")
"""The top-level commands this module adds."""


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    return f"{hours}h{rest // 60:02d}m" if hours else f"{rest // 60}m{rest % 60:02d}s"


class SweepBar:
    """The sweep's progress as one line on stderr: units done, running, failed, instances, ETA."""

    def __init__(self) -> None:
        self.tty = sys.stderr.isatty()
        self.last = 0.0

    def __call__(self, p: SweepProgress) -> None:
        """Show where the sweep stands (redrawn in place on a terminal, every 10 s otherwise)."""
        now = time.monotonic()
        if not p.final and not self.tty and now - self.last < 10.0:
            return
        self.last = now
        width = 24
        filled = int(width * p.instances_done / max(p.instances_total, 1))
        line = (
            f"sweep [{'#' * filled}{'.' * (width - filled)}] {p.done}/{p.units} units done, "
            f"{p.running} running, {p.failed} failed, instances {p.instances_done}/{p.instances_total}, "
            f"ETA {_duration(p.eta)}"
        )
        end = "\n" if p.final or not self.tty else "\r"
        print(line.ljust(100) if self.tty else line, end=end, file=sys.stderr, flush=True)


def _sweep(args: argparse.Namespace) -> int:
    spec = load_spec(args.spec)
    if args.dry_run:  # the plays listed, nothing built, written or played
        print("\n".join(dry_run(spec)))
        return 0
    out = Path(args.out or f"out/sweep-{Path(args.spec).stem}")
    if args.max_parallel is not None and args.max_parallel < 1:
        raise CliError("--max-parallel must be at least 1")
    out.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(args.spec, out / "spec.toml")
    options = SweepOptions(spec, out, args.engine, args.address, args.max_parallel, SweepBar())
    result = run_sweep(options)
    table = rows(collect([out]), seed=spec.run.bootstrap_seed, resamples=spec.run.resamples)
    write_table(table, out, plot=not args.no_plots)
    print(markdown(table), end="")
    for unit, message in sorted(result.failures.items()):
        print(f"failed: {unit}: {message}", file=sys.stderr)
    print(
        f"written to {out} (table.md, table.csv, plane.png; a protocol directory per learner, "
        f"setting and seed under protocols/)"
    )
    return 0 if result.complete else 1


def _pool(args: argparse.Namespace) -> int:
    table = rows(collect(args.paths), seed=args.bootstrap_seed, resamples=args.resamples)
    if not any(row.seeds for row in table):
        raise CliError("nothing to pool: no finished run among the paths given")
    if args.out:
        write_table(table, Path(args.out), plot=not args.no_plots)
    text = table_csv(table) if args.csv else markdown(table)
    print(text, end="")
    return 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``sweep`` and ``pool`` to the root parser."""
    p = sub.add_parser(
        "sweep", help="play many protocols from a TOML spec on Ray (or locally), then their table"
    )
    p.add_argument("spec", help="the sweep's spec (TOML): learners, configurations, seeds, users")
    p.add_argument("--out", help="the sweep's directory (default out/sweep-SPEC)")
    p.add_argument(
        "--engine",
        default="ray",
        choices=["ray", "local"],
        help="ray (default; the optional extra continual-arc[ray]) or a local process pool",
    )
    p.add_argument("--address", help="a Ray cluster's address (default: start a local instance)")
    p.add_argument("--max-parallel", type=int, help="plays at once (default: the engine's CPUs)")
    p.add_argument("--no-plots", action="store_true", help="write the table without the plane")
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="list the protocols and plays the spec makes, without building a learner or playing",
    )
    p.set_defaults(func=_sweep)
    q = sub.add_parser("pool", help="the table of runs made by hand: seeds pooled per learner and setting")
    q.add_argument("paths", nargs="+", help="sweeps, protocol directories or run directories")
    q.add_argument("--out", help="also write table.md, table.csv and the plane there")
    q.add_argument("--csv", action="store_true", help="print CSV instead of Markdown")
    q.add_argument("--resamples", type=int, default=10_000, help="bootstrap resamples (default 10000)")
    q.add_argument("--bootstrap-seed", type=int, default=0, help="the bootstrap's seed (default 0)")
    q.add_argument("--no-plots", action="store_true", help="with --out, write no plane")
    q.set_defaults(func=_pool)
