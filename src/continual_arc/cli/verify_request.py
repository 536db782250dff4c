"""``continual-arc verify-request FORM``: serve a *Verify my learner* issue, as the workflow does."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..submit.verify_request import ServeOptions, VerifyRequestError, serve_request

__all__ = ["COMMANDS", "add_commands"]

COMMANDS = ("verify-request",)
"""The top-level commands this module adds."""


def _serve(args: argparse.Namespace) -> int:
    try:
        body = sys.stdin.read() if args.form == "-" else Path(args.form).read_text()
    except OSError as err:
        raise VerifyRequestError(f"{args.form}: cannot read the issue's body ({err.strerror})") from None
    options = ServeOptions(
        pack=Path(args.pack),
        key=Path(args.key),
        out=Path(args.out),
        comment=Path(args.comment),
        python=Path(args.python) if args.python else Path(sys.executable),
        target=Path(args.target) if args.target else None,
        pip_args=tuple(args.pip_arg),
        seed=args.seed,
        resamples=args.resamples,
    )
    print(serve_request(body, options), end="")
    return 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``verify-request`` to the root parser."""
    p = sub.add_parser(
        "verify-request",
        help="verify a learner as a 'Verify my learner' issue asks, sign it, and write the comment",
        description="Read an issue's body (GitHub's rendering of .github/ISSUE_TEMPLATE/verify.yml), "
        "install the learner's repository at its commit with pip, run verify on the pack given, sign the "
        "result with the key given, and write the comment to post: the numbers and the standing.",
    )
    p.add_argument("form", help="the issue's body, a file (- for standard input)")
    p.add_argument("--pack", required=True, help="the rule pack's folder (kept secret: never posted)")
    p.add_argument("--key", required=True, help="the private key that signs the verification")
    p.add_argument("--out", required=True, help="the verification's directory")
    p.add_argument("--comment", required=True, help="where to write the comment to post (Markdown)")
    p.add_argument(
        "--python", help="the Python to install the learner into and verify with (default this one)"
    )
    p.add_argument("--target", help="install the learner into this folder (pip --target), put on its path")
    p.add_argument(
        "--pip-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="one more argument to pip install (repeatable; e.g. --pip-arg=--no-deps)",
    )
    p.add_argument("--seed", type=int, help="the verification's seed (default: drawn)")
    p.add_argument("--resamples", type=int, default=10_000, help="bootstrap resamples (default 10000)")
    p.set_defaults(func=_serve)
