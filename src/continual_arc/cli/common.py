"""What every command shares: the one-line user error, JSON output and arguments, and progress displays."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from ..core.errors import ContinualArcError
from ..core.jsonable import as_json
from ..core.records import JSONObject
from ..play import declared
from ..play.faults import LearnerFaults
from ..play.options import RunOptions, RunProgress

__all__ = [
    "CliError",
    "ProgressBar",
    "add_declared_options",
    "add_run_options",
    "apply_declared_options",
    "count",
    "counter",
    "json_arg",
    "print_json",
    "report_faults",
    "run_options",
]


class CliError(ContinualArcError):
    """A user error found by the command line itself: printed as one line, exit status 2."""


def add_declared_options(parser: argparse.ArgumentParser) -> None:
    """Add the switches installed packages declare for ``run`` and ``protocol`` (``--no-search-cache``)."""
    for option in declared.run_options():
        option.add_to(parser)


def apply_declared_options(args: argparse.Namespace) -> None:
    """Act on the declared switches before a run starts (each sets what its processes inherit)."""
    for option in declared.run_options():
        option.apply(args)


def add_run_options(parser: argparse.ArgumentParser, *, only: Sequence[str] | None = None) -> None:
    """Add the options of how a learner plays ([`RunOptions`][continual_arc.play.options.RunOptions]).

    Args:
        parser: the command's parser.
        only: the flags to add, by destination (``alias_style``, ``max_concurrent``,
            ``fail_fast``, ``instance_time_limit``); default all.
    """
    flags: dict[str, Callable[[], object]] = {
        "alias_style": lambda: parser.add_argument(
            "--alias-style", default="hash", choices=["hash", "names"], help="task names the learner sees"
        ),
        "max_concurrent": lambda: parser.add_argument(
            "--max-concurrent", type=int, help="a concurrent learner's users served at once"
        ),
        "fail_fast": lambda: parser.add_argument(
            "--fail-fast", action="store_true", help="stop at the first learner fault"
        ),
        "instance_time_limit": lambda: parser.add_argument(
            "--instance-time-limit", type=float, help="seconds an instance may take"
        ),
    }
    for name in only if only is not None else flags:
        flags[name]()


def run_options(args: argparse.Namespace) -> RunOptions:
    """The `RunOptions` the flags of `add_run_options` name."""
    return RunOptions(
        alias_style=getattr(args, "alias_style", "hash"),
        max_concurrent=getattr(args, "max_concurrent", None),
        fail_fast=getattr(args, "fail_fast", False),
        instance_time_limit=getattr(args, "instance_time_limit", None),
    )


def print_json(value: object) -> None:
    """Print ``value`` as indented JSON with sorted keys (a result in it as its JSON form)."""
    print(json.dumps(value, indent=1, sort_keys=True, default=as_json))


def json_arg(text: str | None, flag: str) -> JSONObject:
    """A command-line argument that must be a JSON object (``{}`` when absent).

    Raises:
        CliError: it is not JSON, or not an object.
    """
    if text is None:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as err:
        raise CliError(f"{flag} is not valid JSON: {err.msg} at column {err.colno}") from None
    if not isinstance(value, dict):
        raise CliError(f"{flag} must be a JSON object, got {type(value).__name__}")
    given: JSONObject = value
    return given


def count(n: int, noun: str) -> str:
    """``n`` and the noun, plural unless ``n`` is 1 (``1 round``, ``3 rounds``)."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def counter(label: str) -> Callable[[int, int], None]:
    """A ``done/total`` counter on stderr: redrawn in place on a terminal, every tenth otherwise."""

    def show(done: int, total: int) -> None:
        tty = sys.stderr.isatty()
        if tty or done == total or done % max(1, total // 10) == 0:
            end = "\r" if tty and done < total else "\n"
            print(f"{label}: {done}/{total}", end=end, file=sys.stderr, flush=True)

    return show


class ProgressBar:
    """A one-line progress display on stderr: rounds, instances, running budget used, faults."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.tty = sys.stderr.isatty()
        self.last = 0.0

    def __call__(self, p: RunProgress) -> None:
        """Show a [`RunProgress`][continual_arc.play.options.RunProgress]."""
        now = time.monotonic()
        final = p.rounds_done == p.rounds_total
        if p.resumed:
            print(
                f"resuming {self.label} after round {p.rounds_done} of {p.rounds_total} "
                f"({p.instances_done} of {p.instances_total} instances committed)",
                file=sys.stderr,
                flush=True,
            )
            return
        if not final and now - self.last < (0.2 if self.tty else 10.0):
            return
        self.last = now
        width = 24
        filled = int(width * p.instances_done / max(p.instances_total, 1))
        used = "-" if p.budget_used is None else f"{p.budget_used:5.1f}"
        line = (
            f"{self.label} [{'#' * filled}{'.' * (width - filled)}] round {p.rounds_done}/{p.rounds_total} "
            f"instances {p.instances_done}/{p.instances_total} U {used}"
            + (f" errored {p.errored}" if p.errored else "")
        )
        print(line, end="\r" if self.tty and not final else "\n", file=sys.stderr, flush=True)


def report_faults(faults: LearnerFaults, run_dir: Path | str | None) -> int:
    """End a run or a protocol: its learner errors in one line, and the exit status.

    Printed to standard error, last, so that a run whose learner erred never ends as if it measured
    something (the rule is [`LearnerFaults`][continual_arc.play.faults.LearnerFaults]'s); ``run_dir`` is the
    run whose report lists the errors.
    """
    sentence = faults.sentence()
    if sentence is not None:
        print(f"continual-arc: {sentence}; continual-arc report {run_dir} lists them", file=sys.stderr)
    return faults.status()
