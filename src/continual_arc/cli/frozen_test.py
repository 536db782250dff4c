"""``continual-arc test``: a frozen test played from a stream run's saved state, as the protocol does."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..core.records import Phase
from ..measure.report import format_points
from ..protocol.test_from import play_test_from
from .common import ProgressBar

__all__ = ["COMMANDS", "add_commands"]

COMMANDS = ("test",)
"""The top-level commands this module adds."""


def _test(args: argparse.Namespace) -> int:
    stream = Path(args.source)
    out = Path(args.out) if args.out else None
    target, summary = play_test_from(
        stream, args.test, width=args.width, out=out, progress=ProgressBar(f"{stream.name} {args.test}")
    )
    print(
        f"{args.test} test from the end of {stream}: {summary['instances']} instances, "
        f"U {format_points(summary['budget_used'])}, P {format_points(summary['share_solved'])}"
    )
    print(f"written to {target}")
    return 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``test`` to the root parser."""
    p = sub.add_parser("test", help="play a frozen test from the end of a stream run, as the protocol does")
    p.add_argument("--from", dest="source", required=True, help="the stream's run directory")
    p.add_argument("--test", required=True, choices=[Phase.SEEN, Phase.HELD_OUT], help="which frozen test")
    p.add_argument("--width", type=int, help="N users a round, each instance reset to the stream's end first")
    p.add_argument("--out", help="the test's run directory (default: beside the stream, named after it)")
    p.set_defaults(func=_test)
