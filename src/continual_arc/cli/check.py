"""``continual-arc check RESULT_DIR`` (and ``scripts/check_result.py``): check a submitted result."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from ..core.errors import ContinualArcError
from ..core.records import Phase
from ..measure.ledger import format_outside
from ..measure.report import (
    POINT_DIGITS,
    format_estimate,
    format_level_score,
    format_points,
    tiny_budget_note,
)
from ..measure.reset_flags import floor_notes
from ..submit.check import CheckNumbers, CheckResult, check_submission
from ..submit.stored import is_stored_run, stored_run_sentence
from ..submit.taught import EXPERIMENT_NOTES
from ..tracks.registry import use_pack
from .keys import add_trust_argument, trusted_keys

__all__ = ["COMMANDS", "add_commands", "format_numbers", "main"]

COMMANDS = ("check",)
"""The top-level commands this module adds."""


def _side(side: Mapping[str, float | None]) -> str:
    """A side's U and P, and on a game test ARC-AGI-3's level score and scorecard beside them."""
    used, solved = side["budget_used"], side["share_solved"]
    if used is None:
        return "-"
    games = format_level_score(side).strip()
    return f"U {format_points(used)}, P {format_points(solved)}" + (f", {games}" if games else "")


def format_numbers(numbers: CheckNumbers) -> str:
    """The numbers the leaderboard shows, in its order: the plane first, the share learned last."""
    seen, held = numbers["seen"], numbers["held-out"]
    lines = [
        f"place on the plane: memorization {format_estimate(seen.share_saved)}, "
        f"generalization {format_estimate(held.share_saved)}",
    ]
    for name, c in ((Phase.SEEN, seen), (Phase.HELD_OUT, held)):
        flag = "  FLAG: the reset plays below the bare model" if c.reset_below_bare else ""
        bare = "; bare " + ", ".join(_side(b) for b in c.bare) if c.bare else ""
        lines.append(
            f"  {name:9} share saved {format_estimate(c.share_saved)}, "
            f"T {format_estimate(c.saving, POINT_DIGITS)} points; "
            f"learner {_side(c.learner)}; reset {_side(c.reset)}{bare}{flag}"
        )
    # The reset reference's own flags, beside the bare-model one (a stored result may predate them),
    # then each test's floor: what it spent, or that it was not played beside the result.
    flags = numbers.get("flags")
    lines += [f"  {message}" for message in (flags.messages() if flags else [])]
    for entry in flags.below_floor if flags else []:
        if entry.floor is not None and entry.floor_used is not None:
            excess = entry.excess
            lines.append(
                f"  {entry.test:9} floor ({entry.floor}) U {format_points(entry.floor_used)}, "
                f"P {format_points(entry.floor_solved)}; the reset spends "
                f"{format_estimate(excess, POINT_DIGITS)} points more"
            )
    lines += [f"  {note}" for note in (floor_notes(flags) if flags else [])]
    learned = numbers.get("learned")
    if learned:
        lines.append(
            f"share learned over the stream {format_estimate(learned.share_learned)}, learnable budget "
            f"{format_points(learned.learnable_budget)} points; stream learner {_side(learned.learner)}"
        )
        note = tiny_budget_note(learned.learnable_budget)
        lines += [f"  {note}"] if note else []
    protocol = numbers.get("protocol")
    if protocol is not None and protocol.get("canonical"):
        verdict = "canonical"
    else:
        verdict = "ablation: " + "; ".join(protocol.get("deviations", []) if protocol is not None else [])
    lines.append(f"protocol: {protocol.get('track') if protocol is not None else None}, {verdict}")
    outside = numbers.get("outside_spend")
    if outside:
        lines.append(format_outside(outside))
    return "\n".join(lines)


class StoredRunError(ContinualArcError):
    """``check`` given a stored run, which holds no trajectories to replay: the sentence says what would."""


def _check(args: argparse.Namespace) -> int:
    if args.pack:
        use_pack(args.pack)
    if is_stored_run(args.result):
        raise StoredRunError(stored_run_sentence(args.result))
    result = check_submission(
        args.result,
        regenerate=not args.no_regenerate,
        resamples=args.resamples,
        seed=args.bootstrap_seed,
        allow_ablation=args.ablation,
        ledger=Path(args.ledger) if args.ledger else None,
        draft=args.draft,
        trusted=trusted_keys(args),
    )
    if args.json:
        print(json.dumps(result.to_json(), indent=1, sort_keys=True))
        return 0 if result.ok else 1
    for problem in result.problems:
        print(problem, file=sys.stderr)
    if result.numbers:
        print(format_numbers(result.numbers))
    if result.standing is not None:
        print(f"standing: {result.standing.kind} ({result.standing.reason})")
    if result.teacher is not None:
        print(f"teacher: {result.teacher} (its calls are training compute, beside the score, never in it)")
    if result.experiment is not None:
        print(f"experiment: {EXPERIMENT_NOTES.get(result.experiment, result.experiment)}")
    print(_verdict(result, args.draft), file=sys.stderr if not result.ok else sys.stdout)
    return 0 if result.ok else 1


def _verdict(result: CheckResult, draft: bool) -> str:
    if not result.ok:
        return f"{len(result.problems)} problem(s): the result is not verified as is"
    if result.experiment is not None:
        return "every check holds, as an experiment: listed apart on the leaderboard, never verified"
    if not draft:
        return "every check holds"
    names = " and ".join(", ".join(result.unfilled).rsplit(", ", 1))
    left = f"; before submitting, fill in {names} in submission.json" if result.unfilled else ""
    return f"every check holds, as a draft (runs that are not canonical are accepted){left}"


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``check`` to the root parser."""
    p = sub.add_parser("check", help="check a submitted result directory and print its leaderboard numbers")
    _arguments(p)


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("result", help="results/<track>/<name>/, holding submission.json")
    p.add_argument("--json", action="store_true", help="print the problems and numbers as JSON")
    p.add_argument("--pack", help="the rule pack a verified result was played on (its folder)")
    p.add_argument("--no-regenerate", action="store_true", help="skip replaying every instance")
    p.add_argument(
        "--ablation", action="store_true", help="accept runs that are not canonical (an ablation's result)"
    )
    p.add_argument(
        "--draft",
        action="store_true",
        help="check a protocol directory as written, before it is submitted: student, code and contact "
        "may still be empty in submission.json, and runs that are not canonical are accepted (as "
        "--ablation: a smoke configuration's)",
    )
    p.add_argument("--resamples", type=int, default=10_000, help="bootstrap resamples (default 10000)")
    p.add_argument("--bootstrap-seed", type=int, default=0, help="seed of the bootstrap (default 0)")
    p.add_argument(
        "--ledger",
        metavar="FILE",
        help="the tracking proxy's ledger the runs were played through: show the spend outside any "
        "committed instance",
    )
    add_trust_argument(p)
    p.set_defaults(func=_check)


def main(argv: Sequence[str] | None = None) -> int:
    """``scripts/check_result.py``: the same as ``continual-arc check``."""
    parser = argparse.ArgumentParser(prog="check_result.py", description="Check a submitted result.")
    _arguments(parser)
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args)
    except ContinualArcError as err:
        print(f"check_result.py: error: {err}", file=sys.stderr)
        return 2
    return status
