"""The ``continual-arc`` command line: thin commands over the package's public functions.

Every command imports what it needs when it runs, so ``continual-arc --help`` loads neither the
generators nor NumPy.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

__all__ = ["main"]

Command = Callable[[argparse.Namespace], int]


class CliError(Exception):
    """A user error: printed as one line, exit status 2."""


def _print_json(value: Any) -> None:
    print(json.dumps(value, indent=1, sort_keys=True))


def _progress(label: str) -> Callable[[int, int], None]:
    def show(done: int, total: int) -> None:
        tty = sys.stderr.isatty()
        if tty or done == total or done % max(1, total // 10) == 0:
            end = "\r" if tty and done < total else "\n"
            print(f"{label}: {done}/{total}", end=end, file=sys.stderr, flush=True)

    return show


# -- data -------------------------------------------------------------------------------------------


def _data_status(args: argparse.Namespace) -> int:
    from .data import status

    info = status()
    if args.json:
        _print_json(info)
        return 1 if info["problems"] else 0
    print(f"data directory: {info['data_dir']}")
    for problem in info["problems"]:
        print(f"problem: {problem}")
    sources = info["sources"]
    if sources:
        rearc, arc1 = sources["rearc"], sources["arc1"]
        counts = f"{rearc['generators']} generators, {rearc['verifiers']} verifiers"
        print(f"Re-ARC       {rearc['package']:24} {counts}")
        print(f"             sha256 {rearc['sha256']}  {rearc['path']}")
        print(
            f"ARC-AGI-1    {arc1['package']:24} {arc1['training_tasks']} training tasks, "
            f"{arc1['evaluation_tasks']} evaluation tasks"
        )
        print(f"             sha256 {arc1['sha256']}  {arc1['path']}")
        from .screen import load_screen

        screen = load_screen("arc1")
        same = screen["source"]["rearc_sha256"] == rearc["sha256"]
        print(
            f"screen       {screen['passed']} of {screen['passed'] + screen['failed']} generators pass"
            + ("" if same else "  (WARNING: screened on other Re-ARC files)")
        )
    return 1 if info["problems"] else 0


def _data_fetch(args: argparse.Namespace) -> int:
    from .data import fetch

    result = fetch(progress=_progress("checking instances"))
    if args.json:
        _print_json(result)
    else:
        for line in result["lines"]:
            print(line)
    return 0


def _data_screen(args: argparse.Namespace) -> int:
    from .screen import build_screen, screen_path, write_screen

    out = Path(args.out) if args.out else screen_path(args.track)
    document = build_screen(
        args.tasks or None, draws=args.draws, jobs=args.jobs, progress=_progress("screening")
    )
    write_screen(document, out)
    print(f"{document['passed']} passed, {document['failed']} failed; written to {out}")
    return 0


# -- schedule ---------------------------------------------------------------------------------------


def _schedule_make(args: argparse.Namespace) -> int:
    from .configs import build_schedule, get_config, test_schedule, with_users

    config = with_users(get_config(args.config), args.users)
    if args.test:
        if args.rounds or args.no_epilogue or args.reset_each or args.order != "workstreams":
            raise CliError("--test takes only --config, --seed, --users and --width")
        schedule = test_schedule(config, args.seed, args.test, width=args.width)
    else:
        if args.width is not None:
            raise CliError("--width applies to a test (--test held-out|seen)")
        schedule = build_schedule(
            config,
            args.seed,
            order=args.order,
            epilogue=not args.no_epilogue and args.order != "fresh",
            reset_each=args.reset_each,
            rounds=args.rounds,
        )
    schedule.save(args.out)
    print(f"{args.out}: {summarize(schedule)}")
    return 0


def summarize(schedule: Any) -> str:
    """One line about a schedule: slots, rounds, users, and the protocol verdict."""
    meta = schedule.meta
    protocol = meta["protocol"]
    verdict = "canonical" if protocol["canonical"] else "ablation: " + "; ".join(protocol["deviations"])
    what = f"test {meta['test']}" if meta["test"] else f"order {meta['order']}"
    return (
        f"{len(schedule.slots)} slots in {schedule.rounds} rounds, {meta['config']} seed {meta['seed']}, "
        f"{meta['users']} user(s), {what} ({verdict})"
    )


def _schedule_show(args: argparse.Namespace) -> int:
    from .schedule import Schedule, ScheduleError

    try:
        schedule = Schedule.load(args.file, verify=not args.no_verify)
    except ScheduleError as err:
        raise CliError(str(err)) from None
    print(summarize(schedule))
    row = "{:>5} {:>5} {:>4}  {:9} {:10} {:>16} {:5} {:>3} {:>4}"
    print(row.format("step", "round", "user", "phase", "task", "seed", "reset", "exp", "gap"))
    for s in schedule.slots[: args.head]:
        gap = "-" if s.gap is None else s.gap
        reset = "yes" if s.reset_before else ""
        print(row.format(s.step, s.round, s.user, s.phase, s.task_id, s.seed, reset, s.exposure_index, gap))
    if len(schedule.slots) > args.head:
        print(f"... {len(schedule.slots) - args.head} more slots")
    for phase, line in phase_lines(schedule):
        print(f"{phase:9} {line}")
    return 0


def phase_lines(schedule: Any) -> list[tuple[str, str]]:
    """One summary line per phase: slots, rounds, tasks, users, resets."""
    out = []
    for phase in ("stream", "epilogue", "held-out", "seen"):
        slots = [s for s in schedule.slots if s.phase == phase]
        if not slots:
            continue
        rounds = len({s.round for s in slots})
        tasks = len({s.task_id for s in slots})
        users = len({s.user for s in slots})
        resets = sum(s.reset_before for s in slots)
        out.append(
            (phase, f"{len(slots)} slots, {rounds} rounds, {tasks} tasks, {users} users, {resets} resets")
        )
    return out


# -- run ------------------------------------------------------------------------------------------------


def _json_arg(text: str | None, flag: str) -> dict[str, Any]:
    if text is None:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as err:
        raise CliError(f"{flag} is not valid JSON: {err.msg} at column {err.colno}") from None
    if not isinstance(value, dict):
        raise CliError(f"{flag} must be a JSON object, got {type(value).__name__}")
    return value


class ProgressBar:
    """A one-line progress display on stderr: rounds, instances, running budget used, faults."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.tty = sys.stderr.isatty()
        self.last = 0.0

    def __call__(self, p: Any) -> None:
        """Show a :class:`~continual_arc.runner.RunProgress`."""
        import time

        now = time.monotonic()
        final = p.rounds_done == p.rounds_total
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


def _load_plugins(paths: Sequence[str], kwargs_texts: Sequence[str]) -> list[Any]:
    """Build each ``--plugin`` with the ``--plugin-kwargs`` at its position (none past the last)."""
    from .addons import PluginSpecError, load_plugin

    if len(kwargs_texts) > len(paths):
        raise CliError(
            f"{len(kwargs_texts)} --plugin-kwargs for {len(paths)} --plugin: the k-th --plugin-kwargs "
            f"belongs to the k-th --plugin"
        )
    plugins = []
    for index, path in enumerate(paths):
        text = kwargs_texts[index] if index < len(kwargs_texts) else None
        kwargs = _json_arg(text, f"--plugin-kwargs of {path}")
        try:
            plugins.append(load_plugin(path, kwargs))
        except PluginSpecError as err:
            raise CliError(str(err)) from None
    return plugins


def _run(args: argparse.Namespace) -> int:
    from .learner import LearnerSpecError, load_learner
    from .runner import LearnerError, PluginError, RunDirError, run
    from .schedule import Schedule

    kwargs = _json_arg(args.learner_kwargs, "--learner-kwargs")
    try:
        learner = load_learner(args.learner, kwargs)
    except LearnerSpecError as err:
        raise CliError(str(err)) from None
    plugins = _load_plugins(args.plugin or [], args.plugin_kwargs or [])
    schedule = Schedule.load(args.schedule)
    try:
        result = run(
            learner,
            schedule,
            args.out,
            resume=args.resume,
            alias_style=args.alias_style,
            max_concurrent=args.max_concurrent,
            fail_fast=args.fail_fast,
            instance_time_limit=args.instance_time_limit,
            learner_spec={"class": args.learner, "kwargs": kwargs},
            plugins=plugins,
            progress=ProgressBar(Path(args.out).name),
        )
    except (RunDirError, LearnerError, PluginError) as err:
        raise CliError(str(err)) from None
    summary = result.summary
    for phase, row in summary["phases"].items():
        used, solved = row["budget_used"], row["share_solved"]
        errored = f"  errored {row['errored']}" if row["errored"] else ""
        print(f"{phase:9} {row['instances']:>5} instances  U {used:6.2f}  P {solved:6.2f}{errored}")
    if summary["addons"]:
        print(f"addons    {summary['addons']['episodes']:>5} auxiliary episodes (not in the measures)")
    if result.stopped_by:
        print(f"stopped early by the plug-in {result.stopped_by}; --resume continues")
    print(f"written to {args.out}")
    return 0


# -- the parser -------------------------------------------------------------------------------------


def _add_data(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    data = sub.add_parser("data", help="the pinned data sources: check, warm caches, screen")
    data_sub = data.add_subparsers(dest="data_command", required=True, metavar="COMMAND")
    status = data_sub.add_parser("status", help="sources, versions, file hashes and task counts")
    status.add_argument("--json", action="store_true", help="print JSON")
    status.set_defaults(func=_data_status)
    fetch = data_sub.add_parser("fetch", help="check the pinned sources and warm the caches (offline)")
    fetch.add_argument("--json", action="store_true", help="print JSON")
    fetch.set_defaults(func=_data_fetch)
    screen = data_sub.add_parser("screen", help="screen every Re-ARC generator and write the screen file")
    screen.add_argument("--track", default="arc1", choices=["arc1"])
    screen.add_argument("--draws", type=int, default=30, help="draws per task (default 30)")
    screen.add_argument("--jobs", type=int, default=1, help="worker processes")
    screen.add_argument("--tasks", nargs="*", help="screen only these task ids")
    screen.add_argument("--out", help="where to write (default: the committed screen file)")
    screen.set_defaults(func=_data_screen)


def _add_schedule(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    schedule = sub.add_parser("schedule", help="make and show schedules")
    schedule_sub = schedule.add_subparsers(dest="schedule_command", required=True, metavar="COMMAND")
    make = schedule_sub.add_parser("make", help="build a stream or a frozen test and write it as JSON")
    make.add_argument("--config", default="arc1", help="configuration name (default arc1)")
    make.add_argument("--seed", type=int, default=0, help="run seed (canonical: 0, 1, 2)")
    make.add_argument(
        "--order",
        default="workstreams",
        choices=["workstreams", "sequential", "random", "fresh"],
        help="stream order",
    )
    make.add_argument("--users", type=int, default=1, help="users served at once (canonical: 1, 2, 4, 8, 16)")
    make.add_argument("--rounds", type=int, help="keep only the first N rounds")
    make.add_argument(
        "--no-epilogue", action="store_true", help="leave out the held-out tasks after the stream"
    )
    make.add_argument("--reset-each", action="store_true", help="reset the learner before every slot")
    make.add_argument("--test", choices=["held-out", "seen"], help="build a frozen test instead of a stream")
    make.add_argument("--width", type=int, help="play the test N users a round, each slot reset_before")
    make.add_argument("--out", required=True, help="the schedule file to write")
    make.set_defaults(func=_schedule_make)
    show = schedule_sub.add_parser("show", help="print a schedule as a table and a summary per phase")
    show.add_argument("file")
    show.add_argument("--head", type=int, default=20, help="slots to print (default 20)")
    show.add_argument("--no-verify", action="store_true", help="do not rebuild the schedule from its meta")
    show.set_defaults(func=_schedule_show)


def _add_run(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    run = sub.add_parser("run", help="play a learner over a schedule into a run directory")
    run.add_argument("--learner", required=True, help="the learner, as module:Class")
    run.add_argument("--learner-kwargs", help="keyword arguments of the learner, as a JSON object")
    run.add_argument("--schedule", required=True, help="the schedule file (schedule make)")
    run.add_argument("--out", required=True, help="the run directory (empty, or a run to --resume)")
    run.add_argument(
        "--resume", action="store_true", help="continue the run in --out, replaying an unfinished round"
    )
    run.add_argument(
        "--alias-style", default="hash", choices=["hash", "names"], help="task names the learner sees"
    )
    run.add_argument("--max-concurrent", type=int, help="a concurrent learner's users served at once")
    run.add_argument("--fail-fast", action="store_true", help="stop at the first learner fault")
    run.add_argument("--instance-time-limit", type=float, help="seconds an instance may take")
    run.add_argument("--plugin", action="append", help="a plug-in, as module:Class (repeatable, in order)")
    run.add_argument(
        "--plugin-kwargs",
        action="append",
        help="JSON keyword arguments of the --plugin at the same position (repeatable)",
    )
    run.set_defaults(func=_run)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``continual-arc``."""
    parser = argparse.ArgumentParser(
        prog="continual-arc",
        description="Continual-ARC: a continual-learning benchmark on ARC-AGI puzzles.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_data(sub)
    _add_schedule(sub)
    _add_run(sub)
    from .cli_reports import add_report_commands

    add_report_commands(sub)
    from .cli_protocol import add_protocol_command

    add_protocol_command(sub)
    from .cli_check import add_check_command

    add_check_command(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    from .cli_protocol import ProtocolCliError
    from .cli_reports import ReportError
    from .data import SourceError
    from .schedule import ScheduleError

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args)
    except (CliError, SourceError, ScheduleError, ReportError, ProtocolCliError) as err:
        print(f"continual-arc: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("continual-arc: interrupted", file=sys.stderr)
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
