"""The ``continual-arc`` command line: thin commands over the packages' public functions.

One module per command group ([`data`][continual_arc.cli.data], [`schedule`][continual_arc.cli.schedule],
[`run`][continual_arc.cli.run], [`report`][continual_arc.cli.report], [`reports`][continual_arc.cli.reports],
[`frozen_test`][continual_arc.cli.frozen_test], [`protocol`][continual_arc.cli.protocol],
[`check`][continual_arc.cli.check], [`leaderboard`][continual_arc.cli.leaderboard],
[`runs`][continual_arc.cli.runs], [`pack`][continual_arc.cli.pack], [`verify`][continual_arc.cli.verify],
[`verify_request`][continual_arc.cli.verify_request], [`keys`][continual_arc.cli.keys],
[`view`][continual_arc.cli.view], [`sweep`][continual_arc.cli.sweep], [`figures`][continual_arc.cli.figures],
[`first_sight`][continual_arc.cli.first_sight]), each adding its commands to the root parser; a group's
subcommands may have modules of their own ([`data`][continual_arc.cli.data] ``status``,
[`data_fetch`][continual_arc.cli.data_fetch] ``fetch`` and ``screen``,
[`data_cache`][continual_arc.cli.data_cache]), a command's parser and its work in one module. Only the
module of the command being run is imported, so that ``continual-arc schedule make`` does not pay for
NumPy or the plotting library, and ``--help`` for nothing at all. Every error meant for a person
([`ContinualArcError`][continual_arc.core.errors.ContinualArcError]) is printed as one line, exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from types import ModuleType

from ..core.errors import ContinualArcError

__all__ = ["build_parser", "command_of", "main"]

_GROUPS: dict[str, tuple[str, str]] = {
    "data": ("data_command", "the data sources of each track: check, fetch, screen, cache"),
}
"""The commands that only group subcommands: the destination of the subcommand's name, and help."""

_COMMANDS: dict[str, tuple[str, str]] = {
    "data status": ("data", "every track's sources, versions, file hashes and task counts"),
    "data fetch": (
        "data_fetch",
        "check (arc2: fetch) a track's sources, then draw every screened task; arc3-public: the public games",
    ),
    "data screen": ("data_fetch", "screen a track's generators and write its screen file"),
    "data cache": (
        "data_cache",
        "the instance cache: show it, prewarm it for a configuration, limit or clear it",
    ),
    "schedule": ("schedule", "make and show schedules"),
    "run": ("run", "play a learner over a schedule into a run directory"),
    "report": ("report", "a run's measures, diagnostics, errors and resources"),
    "learned": ("reports", "the share learned over the stream, against the reset's stream"),
    "transfer": ("reports", "the share saved and T on a frozen test, against the reset"),
    "plane": ("reports", "the plane of the two tests for one or more protocol directories"),
    "test": ("frozen_test", "play a frozen test from the end of a stream run, as the protocol does"),
    "protocol": ("protocol", "play the whole protocol: the stream, both frozen tests, the reset on each"),
    "check": ("check", "check a submitted result: recompute everything it claims"),
    "leaderboard": ("leaderboard", "check result directories and rank them, a table per track and users"),
    "runs": ("runs", "stored runs (no trajectories): keep a protocol's, or rebuild one and prove it"),
    "pack": ("pack", "rule packs: check a pack against the public tasks, write its manifest"),
    "verify": ("verify", "rerun a learner from its code at a seed of its own, as verification does"),
    "verify-request": ("verify_request", "verify a learner as a 'Verify my learner' issue asks, and sign it"),
    "keys": ("keys", "Ed25519 keys that sign verifications and stored runs"),
    "view": ("view", "a local replay viewer of runs, protocols and results (--export: static files)"),
    "sweep": ("sweep", "play many protocols from a spec on Ray (or locally), then the table of them all"),
    "figures": ("figures", "recompute each experiment's tables from its stored runs and compare them"),
    "pool": ("sweep", "the table of runs made by hand: each learner's seeds pooled, ranked by U"),
    "first-sight": ("first_sight", "one instance of each of a track's public tasks, wiped before each"),
}
"""Every command (a subcommand of a group by its path, ``data fetch``): its module, and its help line."""


def _module(command: str) -> ModuleType:
    # Loaded by name so that a command imports its own module alone (see the module docstring).
    return importlib.import_module(f"{__name__}.{_COMMANDS[command][0]}")


def command_of(argv: Sequence[str]) -> str | None:
    """The command ``argv`` names (``data fetch`` for a group's subcommand), or ``None`` if none.

    The root parser and the groups take no option with a value, so the command's words are the
    first words of ``argv`` that are not options.
    """
    words = [arg for arg in argv if not arg.startswith("-")][:2]
    command = " ".join(words[:2]) if words and words[0] in _GROUPS else " ".join(words[:1])
    return command if command in _COMMANDS else None


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The root parser: ``command``'s module in full, every other command by its help line only.

    Args:
        command: A key of the command table (``run``, ``data cache``), as
            [command_of][continual_arc.cli.command_of] reads it from the arguments.
    """
    parser = argparse.ArgumentParser(
        prog="continual-arc",
        description="Continual-ARC: a continual-learning benchmark on ARC-AGI puzzles.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    groups: dict[str, argparse._SubParsersAction[argparse.ArgumentParser]] = {}
    loaded = _module(command) if command in _COMMANDS else None
    for name, (_, help_line) in _COMMANDS.items():
        group, _, leaf = name.rpartition(" ")
        if group and group not in groups:
            dest, group_help = _GROUPS[group]
            group_parser = sub.add_parser(group, help=group_help)
            groups[group] = group_parser.add_subparsers(dest=dest, required=True, metavar="COMMAND")
        target = groups[group] if group else sub
        if loaded is not None and name in loaded.COMMANDS:
            if name == loaded.COMMANDS[0]:
                loaded.add_commands(target)
        else:
            target.add_parser(leaf, help=help_line, add_help=False)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(command_of(args_list)).parse_args(args_list)
    try:
        status: int = args.func(args)
    except ContinualArcError as err:
        print(f"continual-arc: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        # A command that resumes says how; what it wrote so far is kept (whole rounds).
        hint = getattr(args, "on_interrupt", None)
        print("continual-arc: interrupted" + (f"; {hint}" if hint else ""), file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (``report | head``): nothing is wrong, and nothing more can be said.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return status


if __name__ == "__main__":
    sys.exit(main())
