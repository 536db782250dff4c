"""``continual-arc runs store`` and ``runs rebuild``: the repository's stored runs, kept and replayed."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from ..submit.rebuild import rebuild_run, rebuild_statement, store_run
from ..submit.signing import local_key, read_signing_key, sign_directory
from ..tracks.registry import use_pack
from .keys import add_trust_argument, trusted_keys

__all__ = ["COMMANDS", "add_commands"]

COMMANDS = ("runs",)
"""The top-level commands this module adds."""


def _store(args: argparse.Namespace) -> int:
    fields = {"student": args.student, "code": args.code, "contact": args.contact}
    key = read_signing_key(args.sign_with) if args.sign_with else None
    target = store_run(
        args.protocol,
        args.stored,
        fields={k: v for k, v in fields.items() if v},
        sign_with=key,
        played_here=args.played_here,
        trusted=trusted_keys(args),
    )
    signed = f", signed by {key.name}" if key is not None else ", unsigned: it stands as reported"
    print(
        f"stored {args.protocol} in {target} "
        f"(records, meta, summaries and schedules; no trajectories){signed}"
    )
    return 0


def _rebuild(args: argparse.Namespace) -> int:
    if args.pack:
        use_pack(args.pack)
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="rebuilt-"))
    print(f"rebuilding {args.stored} into {out}", file=sys.stderr, flush=True)
    rebuilt = rebuild_run(args.stored, out, jobs=args.jobs, allow_ablation=args.ablation)
    if rebuilt.difference is not None:
        print(rebuilt.difference, file=sys.stderr)
    for problem in rebuilt.check.problems:
        print(problem, file=sys.stderr)
    if rebuilt.difference is not None:
        print(f"{args.stored} is not what its code and meta rebuild", file=sys.stderr)
        return 1
    if not rebuilt.check.ok:
        # The records are the stored ones: say so, so that a refusal by check (a protocol that is
        # not canonical, rebuilt without --ablation) is not read as a run that failed to rebuild.
        print(f"{args.stored} rebuilds to its stored records, but check refuses the rebuilt "
              f"directory for the problems above", file=sys.stderr)  # fmt: skip
        return 1
    print(f"rebuilt {args.stored} in {out}: every play's records are the stored ones, clocks aside, "
          "and every check holds with every instance replayed")  # fmt: skip
    if not args.no_sign:
        key = local_key()
        sign_directory(Path(args.stored), rebuild_statement(Path(args.stored), rebuilt), key)
        print(f"signed {args.stored} as rebuilt here with the local key (id {key.public.key_id[:16]}), "
              "which this reader trusts: it stands as reproduced here")  # fmt: skip
    return 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``runs`` and its subcommands to the root parser."""
    p = sub.add_parser(
        "runs", help="stored runs (no trajectories): keep a protocol's records, or rebuild one"
    )
    group = p.add_subparsers(dest="runs_command", required=True, metavar="SUBCOMMAND")
    store = group.add_parser(
        "store",
        help="keep a protocol directory's records, meta, summaries and schedules (no trajectories)",
    )
    store.add_argument("protocol", help="the protocol directory continual-arc protocol wrote")
    store.add_argument("stored", help="where to keep it (runs/NAME)")
    store.add_argument("--student", help="fill submission.json's student where blank (none: no model)")
    store.add_argument("--code", help="fill submission.json's code where blank (a repository at a commit)")
    store.add_argument("--contact", help="fill submission.json's contact where blank")
    store.add_argument(
        "--sign-with",
        metavar="KEY",
        help="a private key that signs the stored directory: every file of the protocol, the trajectories "
        "left behind included (without one it stands as reported)",
    )
    store.add_argument(
        "--played-here",
        action="store_true",
        help="with --sign-with: you played this protocol from its code yourself, so it stands as reproduced "
        "(a verification's own signature needs no such word)",
    )
    add_trust_argument(store)
    store.set_defaults(func=_store)
    rebuild = group.add_parser(
        "rebuild",
        help="play a stored protocol again from its code and meta, then prove its records equal and check it",
        description="Play a stored protocol again (same learner, configuration, seed, users and task "
        "names) into a fresh directory with trajectories; every play's records must equal the stored "
        "ones field for field, clocks aside, and check must hold on the rebuilt directory. "
        "Exit status 1 otherwise.",
    )
    rebuild.add_argument("stored", help="a stored protocol (runs/NAME)")
    rebuild.add_argument(
        "--out", help="the directory to rebuild into, empty or absent (default: a new temporary one)"
    )
    rebuild.add_argument(
        "--jobs", type=int, default=1, help="plays at once, in processes of their own (default 1)"
    )
    rebuild.add_argument("--ablation", action="store_true", help="check a protocol that is not canonical")
    rebuild.add_argument("--pack", metavar="DIR", help="the rule pack the stored protocol was played on")
    rebuild.add_argument(
        "--no-sign",
        action="store_true",
        help="do not sign the stored directory with the local key when it rebuilds (by default it is, "
        "and then stands as reproduced for this reader)",
    )
    rebuild.set_defaults(func=_rebuild)
