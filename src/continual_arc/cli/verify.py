"""``continual-arc verify``: a learner rerun from its code, whole, at a seed of its own."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..stream.users import with_users
from ..submit.check import check_submission
from ..submit.verify import VerifyOptions, verify
from ..tracks.registry import get_config
from .check import format_numbers
from .protocol import format_protocol

__all__ = ["COMMANDS", "add_commands"]

COMMANDS = ("verify",)
"""The top-level commands this module adds."""


def _verify(args: argparse.Namespace) -> int:
    config = with_users(get_config(args.config), 1)
    options = VerifyOptions(
        learner=args.learner,
        config=config,
        out=Path(args.out),
        seed=args.seed,
        mode="reproduced",
        about={"track": config.track, "config": config.name},
        student=args.student,
        resamples=args.resamples,
    )
    document = verify(options)
    print(format_protocol(document, options.out))
    result = check_submission(options.out, resamples=args.resamples)
    verdict = "every check holds" if result.ok else f"{len(result.problems)} problem(s)"
    print(f"\nthe rerun checked: {verdict}")
    for problem in result.problems:
        print(f"  {problem}")
    if args.claim:
        claim = check_submission(args.claim, resamples=args.resamples, allow_ablation=True)
        print(f"\nthe claim ({args.claim}):")
        print(format_numbers(claim.numbers) if claim.numbers else "  its numbers could not be read")
        print("\nthe rerun:")
        print(format_numbers(result.numbers) if result.numbers else "  its numbers could not be read")
    return 0 if result.ok else 1


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``verify`` to the root parser."""
    p = sub.add_parser("verify", help="rerun a learner from its code at a seed of its own")
    p.add_argument("--learner", required=True, help="module:Class, built with no arguments")
    p.add_argument("--config", default="arc1", help="the track's configuration whose public tasks it plays")
    p.add_argument("--seed", type=int, help="the seed (default: drawn, never 0, 1 or 2)")
    p.add_argument("--out", required=True, help="the protocol directory to write (resumed if it exists)")
    p.add_argument("--student", default="none", help="the model the learner plays with (default none)")
    p.add_argument("--claim", help="a submitted result of the same learner, printed beside the rerun")
    p.add_argument("--resamples", type=int, default=10_000, help="bootstrap resamples of the numbers")
    p.set_defaults(func=_verify)
