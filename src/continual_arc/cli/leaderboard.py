"""``continual-arc leaderboard DIR...``: every result checked, then placed by standing and ranked by U."""

from __future__ import annotations

import argparse
import sys

from ..core.files import atomic_write_json, atomic_write_text
from ..submit.leaderboard import check_result, find_results, leaderboard
from ..submit.leaderboard.formats import leaderboard_csv, leaderboard_markdown
from ..tracks.registry import use_pack
from .keys import add_trust_argument, trusted_keys

__all__ = ["COMMANDS", "add_commands"]

COMMANDS = ("leaderboard",)
"""The top-level commands this module adds."""


def _leaderboard(args: argparse.Namespace) -> int:
    for pack in args.pack or ():
        use_pack(pack)
    paths = find_results(args.results)
    trusted = trusted_keys(args)
    checked = []
    for i, path in enumerate(paths, 1):
        print(f"checking {i}/{len(paths)}: {path}", file=sys.stderr, flush=True)
        checked.append(
            check_result(
                path,
                regenerate=not args.no_regenerate,
                resamples=args.resamples,
                seed=args.bootstrap_seed,
                allow_ablation=args.ablation,
                trusted=trusted,
            )
        )
    board = leaderboard(checked)
    print(leaderboard_markdown(board, by_seed=args.by_seed), end="")
    if args.csv:
        atomic_write_text(args.csv, leaderboard_csv(board))
    if args.json:
        atomic_write_json(args.json, board.to_json())
    if board.not_here:
        print(
            f"{len(board.not_here)} result(s) not checked here: their tracks cannot run on this install "
            "(each line above says what would check it)",
            file=sys.stderr,
        )
    if board.refused:
        print(f"{len(board.refused)} result(s) refused by the checker: not ranked", file=sys.stderr)
    return 1 if board.refused else 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``leaderboard`` to the root parser."""
    p = sub.add_parser(
        "leaderboard",
        help="check result directories and rank them per track and users, verified apart from reported",
        description="Check each result directory (as `check` does) and print, as Markdown, a table per "
        "track and number of users of the verified and reproduced results (a signature by a trusted key "
        "says so), then the reported ones (self-run, or stored without trajectories and signed by nobody "
        "trusted) in tables of their own, never interleaved; the seeds of one learner pooled into one row "
        "(--by-seed shows each), with what the learner spent beside its score. A result whose track cannot "
        "run here (arc2's data not fetched, arc3 without Python 3.12) is listed as not checked here with "
        "the command that would check it; one the checker refuses is listed, never ranked. "
        "The exit status is 1 when any result is refused, else 0.",
    )
    p.add_argument(
        "results",
        nargs="+",
        metavar="DIR",
        help="a result directory (holding submission.json), or a folder of them",
    )
    p.add_argument("--csv", metavar="FILE", help="also write the leaderboard as CSV, one line per result")
    p.add_argument("--json", metavar="FILE", help="also write the leaderboard as JSON")
    p.add_argument(
        "--pack",
        action="append",
        metavar="DIR",
        help="a rule pack a verified result was played on (repeatable)",
    )
    p.add_argument(
        "--by-seed", action="store_true", help="under each row pooling seeds, show each seed's own row"
    )
    p.add_argument("--ablation", action="store_true", help="rank runs that are not canonical too, flagged")
    p.add_argument("--no-regenerate", action="store_true", help="skip replaying every instance")
    p.add_argument("--resamples", type=int, default=10_000, help="bootstrap resamples (default 10000)")
    p.add_argument("--bootstrap-seed", type=int, default=0, help="seed of the bootstrap (default 0)")
    add_trust_argument(p)
    p.set_defaults(func=_leaderboard)
