"""``continual-arc verify``: a learner rerun from its code, whole, at a seed of its own.

On a track's public tasks (``--config``/``--track``) the result is *reproduced*; on a rule pack
(``--pack DIR``) it is *verified*, and ``verification.json`` records the pack's name, version and
manifest hash (never its folder). ``--sign-with KEY`` signs what was verified, which alone gives
the directory its standing.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..core.config import Config
from ..core.files import read_json
from ..core.sandbox import Limits, parse_size, size_text
from ..stream.users import with_users
from ..submit.check import check_submission
from ..submit.signing import read_signing_key
from ..submit.verify import VERIFICATION, VerifyOptions, verify
from ..tracks.registry import get_config, use_pack
from .check import format_numbers
from .keys import add_trust_argument, trusted_keys
from .protocol import format_protocol

__all__ = ["COMMANDS", "add_commands"]

COMMANDS = ("verify",)
"""The top-level commands this module adds."""


def _subject(args: argparse.Namespace) -> tuple[Config, str, dict[str, str]]:
    """The configuration played, the mode, and what the result is about (a pack, or a track)."""
    if args.pack:
        pack, track = use_pack(args.pack)
        return with_users(track.configs[0], 1), "verified", pack.describe()
    config = with_users(get_config(args.config), 1)
    return config, "reproduced", {"track": config.track, "config": config.name}


def _size(text: str) -> int:
    """An option's size (``4GiB``, ``512MiB``, bytes), or argparse's one-line refusal."""
    try:
        return parse_size(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _limits(args: argparse.Namespace) -> Limits:
    """The per-process limits the options set (0: none, but a file's size, which is always capped)."""
    return Limits(
        memory_bytes=args.memory_limit or None,
        processes=args.process_limit or None,
        file_bytes=args.file_limit or Limits().file_bytes,
        folder_bytes=args.folder_limit or None,
        log_bytes=args.log_limit or None,
        state_bytes=args.state_limit or None,
    )


def _add_limits(p: argparse.ArgumentParser) -> None:
    """The options of the per-process limits.

    Their defaults are [Limits][continual_arc.core.sandbox.limits.Limits]'s.
    """
    default = Limits()
    group = p.add_argument_group(
        "limits of each learner process (one over a limit fails its instance; the run goes on)"
    )
    sizes = (
        ("--memory-limit", default.memory_bytes, "its private memory (heap, anonymous maps, stacks)"),
        ("--file-limit", default.file_bytes, "the largest file it may write"),
        ("--folder-limit", default.folder_bytes, "what its working folder may hold"),
        ("--log-limit", default.log_bytes, "how long its standard error may grow"),
        ("--state-limit", default.state_bytes, "what one state it saves may hold"),
    )
    for flag, value, what in sizes:
        none = "" if flag == "--file-limit" else "; 0: none"
        shown = "none" if value is None else size_text(value)
        group.add_argument(flag, type=_size, default=value, metavar="SIZE",
                           help=f"{what} (default {shown}{none})")  # fmt: skip
    group.add_argument(
        "--process-limit",
        type=int,
        default=default.processes,
        metavar="N",
        help=f"the processes its sandbox may hold at once, its own counted "
        f"(default {default.processes}; 0: none)",
    )


def _verify(args: argparse.Namespace) -> int:
    config, mode, about = _subject(args)
    options = VerifyOptions(
        learner=args.learner,
        config=config,
        out=Path(args.out),
        seed=args.seed,
        mode=mode,
        about=about,
        student=args.student,
        teacher=args.teacher,
        resamples=args.resamples,
        withheld=[Path(args.pack)] if args.pack else [],
        proxy=args.proxy,
        process_seconds=args.process_seconds or None,
        limits=_limits(args),
        pass_env=tuple(args.pass_env),
        sign_with=read_signing_key(args.sign_with) if args.sign_with else None,
        repository=args.repository,
        commit=args.commit,
    )
    document = verify(options)
    print(format_protocol(document, options.out))
    trusted = trusted_keys(args)
    if options.sign_with is not None:  # the signer reads its own signature as a reader trusting it would
        trusted = trusted.with_keys([options.sign_with.public])
    # Unsigned, the rerun stands as reported and is checked as any self-run result that is not
    # canonical (its seed is its own); signed, its verification.json is believed through the signature.
    unsigned = options.sign_with is None
    result = check_submission(options.out, resamples=args.resamples, trusted=trusted, allow_ablation=unsigned)
    verdict = "every check holds" if result.ok else f"{len(result.problems)} problem(s)"
    print(f"\nthe rerun checked: {verdict}")
    for problem in result.problems:
        print(f"  {problem}")
    hits = read_json(options.out / VERIFICATION).get("limits", {}).get("hits") or []
    if hits:
        print(f"\n{len(hits)} instance(s) ended over a per-process limit (the first: {hits[0]['sentence']})")
    if result.standing is not None:
        print(f"standing: {result.standing.kind} ({result.standing.reason})")
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
    subject = p.add_mutually_exclusive_group()
    subject.add_argument(
        "--config",
        "--track",
        default="arc1",
        help="the configuration whose public tasks it plays (reproduced)",
    )
    subject.add_argument("--pack", help="a rule pack's folder: its rules are played (verified)")
    p.add_argument("--seed", type=int, help="the seed (default: drawn, never 0, 1 or 2)")
    p.add_argument("--out", required=True, help="the protocol directory to write (resumed if it exists)")
    p.add_argument("--student", default="none", help="the model the learner plays with (default none)")
    p.add_argument(
        "--teacher", help="the model that teaches the learner, as its submission names it (default none)"
    )
    p.add_argument("--claim", help="a submitted result of the same learner, printed beside the rerun")
    p.add_argument("--resamples", type=int, default=10_000, help="bootstrap resamples of the numbers")
    p.add_argument(
        "--proxy", help="the tracking proxy's URL: the only address the learner may reach (default: none)"
    )
    p.add_argument(
        "--process-seconds",
        type=float,
        default=24 * 3600.0,
        help="the wall-time (and CPU-time) cap of each learner process (default a day; 0: none)",
    )
    p.add_argument(
        "--pass-env",
        action="append",
        default=[],
        metavar="NAME",
        help="a variable of this environment the learner's processes are given too (repeatable); "
        "by default they get only what finds their code and sets how their libraries compute",
    )
    _add_limits(p)
    p.add_argument(
        "--sign-with",
        metavar="KEY",
        help="a private key (continual-arc keys new) that signs a statement of what was verified: "
        "without one the result stands as reported",
    )
    p.add_argument(
        "--repository", help="the repository the learner was installed from, named in the statement"
    )
    p.add_argument("--commit", help="the commit the learner was installed at, named in the statement")
    add_trust_argument(p)
    p.set_defaults(func=_verify)
