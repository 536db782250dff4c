"""``continual-arc protocol``: the whole canonical protocol, and the plane it lands on."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from ..core.jsonable import as_json
from ..core.learner_ref import LearnerRef
from ..play.faults import SPEND_CAP_STATUS, LearnerFaults
from ..play.learner import LearnerSpecError, learner_slug
from ..play.rundir import read_run
from ..play.runner import stop_sentence
from ..protocol.conclude import SUBMISSION_FIELDS, ProtocolDocument, fill_submission
from ..protocol.play import ProtocolOptions, ProtocolSpec, default_learner, play_protocol
from ..protocol.plays import PROTOCOL_PLAYS, ProtocolStopped
from ..protocol.progress import ProtocolProgress
from ..protocol.report import protocol_summary
from ..tracks.registry import get_config
from .common import (
    CliError,
    add_declared_options,
    add_run_options,
    apply_declared_options,
    json_arg,
    report_faults,
    run_options,
)
from .configs import config_name

__all__ = ["COMMANDS", "add_commands", "format_protocol"]

COMMANDS = ("protocol",)
"""The top-level commands this module adds."""


def format_protocol(document: ProtocolDocument, out: Path, *, plots: bool = True) -> str:
    """The plane, the flags on the reset and the share learned, as printed (``plots``: whether drawn)."""
    files = "protocol.json, submission.json, plots/" if plots else "protocol.json, submission.json"
    return "\n".join([*protocol_summary(document), "", f"written to {out} ({files})"])


class ProtocolBar:
    """The protocol's one progress display on stderr: a line rewritten in place on a terminal.

    Elsewhere (a log file, CI) a line is printed at most every ``every`` seconds, and the last one.
    """

    def __init__(self, label: str, every: float = 30.0) -> None:
        self.label, self.every = label, every
        self.tty = sys.stderr.isatty()
        self.last: float | None = None

    def __call__(self, progress: ProtocolProgress) -> None:
        """Show ``progress``."""
        now = time.monotonic()
        final = progress.plays_done == progress.plays_total
        if not (final or self.tty or self.last is None or now - self.last >= self.every):
            return
        self.last = now
        end = "\r" if self.tty and not final else "\n"
        clear = "\033[K" if self.tty else ""  # a shorter line leaves nothing of the last one
        print(f"{self.label}: {progress.line()}{clear}", end=end, file=sys.stderr, flush=True)


def _note(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _protocol(args: argparse.Namespace) -> int:
    apply_declared_options(args)
    kwargs = json_arg(args.learner_kwargs, "--learner-kwargs")
    args.config = config_name(args.config)
    config = get_config(args.config)  # resolved once, here, and handed down
    learner = args.learner or default_learner(config)
    name = learner_slug(learner, kwargs)  # a variant of a class gets a folder of its own
    out = Path(args.out or f"out/protocol-{name}-{args.config}-seed{args.seed}-users{args.users}")
    spec = ProtocolSpec(LearnerRef(learner, kwargs), config, args.seed, args.users)
    options = ProtocolOptions(
        out=out,
        jobs=args.jobs,
        run=run_options(args),
        resamples=args.resamples,
        plots=not args.no_plots,
        progress=ProtocolBar(out.name),
        notes=_note,
        play_lines=args.verbose,
        floor=not args.no_floor,
    )
    try:
        document = play_protocol(spec, options)
    except ProtocolStopped as stop:
        return _stopped_at_cap(out, stop)
    except LearnerSpecError as err:
        if not args.learner and "cannot import" in str(err):
            raise CliError(
                "the default learner lives in continual-arc-baselines: pip install -e ./baselines"
            ) from None
        raise
    fill_submission(out, {name: getattr(args, name) for name in SUBMISSION_FIELDS if getattr(args, name)})
    if args.json:
        print(json.dumps(document, indent=1, sort_keys=True, default=as_json))
    else:
        print(format_protocol(document, out, plots=not args.no_plots))
    return _report_faults(out)


def _stopped_at_cap(out: Path, stop: ProtocolStopped) -> int:
    """Say where the spend cap stopped the protocol, play by play; the cap's exit status."""
    for name, stopped in stop.stopped.items():
        print(f"continual-arc: {out / PROTOCOL_PLAYS[name]}: {stop_sentence(stopped)}", file=sys.stderr)
    print(f"continual-arc: rerun the same command with a raised cap to continue {out}", file=sys.stderr)
    return SPEND_CAP_STATUS


def _report_faults(out: Path) -> int:
    """The learner errors of the six plays together, in one line; the exit status they give."""
    faults, first = LearnerFaults(0, 0, None), None
    for name in PROTOCOL_PLAYS.values():
        found = LearnerFaults.of(read_run(out / name).records)
        first = first or (out / name if found.errored else None)
        faults = faults + found
    return report_faults(faults, first)


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``protocol`` to the root parser."""
    p = sub.add_parser(
        "protocol",
        help="play the whole protocol: stream, both frozen tests, the reset on each, then the plane",
    )
    p.add_argument(
        "--learner",
        help="module:Class (default: the track's: the model-free program library; on arc3 TransferExplorer)",
    )
    add_declared_options(p)
    p.add_argument("--learner-kwargs", help="keyword arguments of the learner, as a JSON object")
    p.add_argument(
        "--config", default="arc1", help="configuration (default arc1; arc1-smoke for a quick try)"
    )
    p.add_argument("--seed", type=int, default=0, help="run seed (canonical: 0, 1, 2)")
    p.add_argument("--users", type=int, default=1, help="users (canonical: 1, 2, 4, 8, 16)")
    p.add_argument(
        "--out",
        help="the protocol directory (default out/protocol-LEARNER-CONFIG-seedS-usersU, LEARNER the "
        "class and any --learner-kwargs, e.g. ProgramLibraryLearner-keep=demos)",
    )
    p.add_argument(
        "--jobs",
        type=int,
        default=min(4, os.cpu_count() or 1),
        help="plays at once, in processes of their own",
    )
    add_run_options(p)
    p.add_argument("--resamples", type=int, default=10_000, help="bootstrap resamples of the final numbers")
    p.add_argument("--json", action="store_true", help="print protocol.json instead of the summary")
    p.add_argument("-v", "--verbose", action="store_true", help="also print each play's own progress lines")
    p.add_argument(
        "--student",
        help="fill submission.json's student where blank (none: a model-free learner)",
    )
    p.add_argument("--code", help="fill submission.json's code where blank (a repository at a commit)")
    p.add_argument("--contact", help="fill submission.json's contact where blank")
    p.add_argument(
        "--no-plots",
        action="store_true",
        help="draw no plots (as a sweep with plots = false; `report --plots` draws a play's later)",
    )
    p.add_argument(
        "--no-floor",
        action="store_true",
        help="play no floor beside the result (its floor flag then says the floor was not played)",
    )
    p.set_defaults(func=_protocol, on_interrupt="rerun the same command to resume")
