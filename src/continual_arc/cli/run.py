"""``continual-arc run``: a learner played over a schedule into a run directory."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from ..core.learner_ref import LearnerRef
from ..play.faults import SPEND_CAP_STATUS, LearnerFaults
from ..play.learner import load_learner
from ..play.plugins import Addon, Plugin, load_plugin
from ..play.runner import run, stop_sentence
from ..stream.schedule import Schedule
from .common import (
    CliError,
    ProgressBar,
    add_declared_options,
    add_run_options,
    apply_declared_options,
    json_arg,
    report_faults,
    run_options,
)

__all__ = ["COMMANDS", "add_commands"]

COMMANDS = ("run",)
"""The top-level commands this module adds."""


def _load_plugins(paths: Sequence[str], kwargs_texts: Sequence[str]) -> list[Plugin | Addon]:
    """Build each ``--plugin`` with the ``--plugin-kwargs`` at its position (none past the last)."""
    if len(kwargs_texts) > len(paths):
        raise CliError(
            f"{len(kwargs_texts)} --plugin-kwargs for {len(paths)} --plugin: the k-th --plugin-kwargs "
            f"belongs to the k-th --plugin"
        )
    plugins: list[Plugin | Addon] = []
    for index, path in enumerate(paths):
        text = kwargs_texts[index] if index < len(kwargs_texts) else None
        kwargs = json_arg(text, f"--plugin-kwargs of {path}")
        plugins.append(load_plugin(path, kwargs))
    return plugins


def _run(args: argparse.Namespace) -> int:
    apply_declared_options(args)
    kwargs = json_arg(args.learner_kwargs, "--learner-kwargs")
    learner = load_learner(args.learner, kwargs)
    plugins = _load_plugins(args.plugin or [], args.plugin_kwargs or [])
    schedule = Schedule.load(args.schedule)
    options = replace(
        run_options(args),
        resume=args.resume,
        learner=LearnerRef(args.learner, kwargs),
        plugins=plugins,
        progress=ProgressBar(Path(args.out).name),
    )
    result = run(learner, schedule, args.out, options)
    summary = result.summary
    for phase, row in summary["phases"].items():
        used, solved = row["budget_used"], row["share_solved"]
        errored = f"  errored {row['errored']}" if row["errored"] else ""
        print(f"{phase:9} {row['instances']:>5} instances  U {used:6.2f}  P {solved:6.2f}{errored}")
    if summary["addons"]:
        print(f"addons    {summary['addons']['episodes']:>5} auxiliary episodes (not in the measures)")
    if result.stopped_by:
        print(f"stopped early by the plug-in {result.stopped_by}; --resume continues")
    print(f"written to {args.out}")
    status = report_faults(LearnerFaults.of(result.records), args.out)
    if result.stopped is not None:
        print(f"continual-arc: {stop_sentence(result.stopped)}", file=sys.stderr)
        return SPEND_CAP_STATUS
    return status


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``run`` to the root parser."""
    run = sub.add_parser("run", help="play a learner over a schedule into a run directory")
    run.add_argument("--learner", required=True, help="the learner, as module:Class")
    run.add_argument("--learner-kwargs", help="keyword arguments of the learner, as a JSON object")
    add_declared_options(run)
    run.add_argument("--schedule", required=True, help="the schedule file (schedule make)")
    run.add_argument("--out", required=True, help="the run directory (empty, or a run to --resume)")
    run.add_argument(
        "--resume", action="store_true", help="continue the run in --out, replaying an unfinished round"
    )
    add_run_options(run)
    run.add_argument("--plugin", action="append", help="a plug-in, as module:Class (repeatable, in order)")
    run.add_argument(
        "--plugin-kwargs",
        action="append",
        help="JSON keyword arguments of the --plugin at the same position (repeatable)",
    )
    run.set_defaults(
        func=_run, on_interrupt="rerun the same command with --resume to continue where it stopped"
    )
