"""``continual-arc schedule``: streams and frozen tests made and shown."""

from __future__ import annotations

import argparse

from ..core.config import TESTS
from ..core.records import Phase
from ..stream.schedule import Schedule, build_schedule, test_schedule
from ..stream.users import with_users
from ..tracks.registry import get_config
from .common import CliError, count
from .configs import config_name

__all__ = ["COMMANDS", "add_commands", "phase_lines", "summarize"]

COMMANDS = ("schedule",)
"""The top-level commands this module adds."""


def _schedule_make(args: argparse.Namespace) -> int:
    config = with_users(get_config(config_name(args.config)), args.users)
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


def summarize(schedule: Schedule) -> str:
    """One line about a schedule: slots, rounds, users, and the protocol verdict."""
    meta = schedule.meta
    protocol = meta["protocol"]
    verdict = "canonical" if protocol["canonical"] else "ablation: " + "; ".join(protocol["deviations"])
    what = f"test {meta['test']}" if meta["test"] else f"order {meta['order']}"
    return (
        f"{count(len(schedule.slots), 'slot')} in {count(schedule.rounds, 'round')}, "
        f"{meta['config']} seed {meta['seed']}, "
        f"{meta['users']} user(s), {what} ({verdict})"
    )


def _schedule_show(args: argparse.Namespace) -> int:
    schedule = Schedule.load(args.file, verify=not args.no_verify)
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


def phase_lines(schedule: Schedule) -> list[tuple[str, str]]:
    """One summary line per phase: slots, rounds, tasks, users, resets."""
    out: list[tuple[str, str]] = []
    for phase in Phase:
        slots = [s for s in schedule.slots if s.phase == phase]
        if not slots:
            continue
        rounds = len({s.round for s in slots})
        tasks = len({s.task_id for s in slots})
        users = len({s.user for s in slots})
        resets = sum(s.reset_before for s in slots)
        counts = [count(len(slots), "slot"), count(rounds, "round"), count(tasks, "task")]
        counts += [count(users, "user"), count(resets, "reset")]
        out.append((phase, ", ".join(counts)))
    return out


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``schedule make`` and ``schedule show`` to the root parser."""
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
    make.add_argument(
        "--mode",
        dest="order",
        choices=["workstreams", "sequential", "random"],
        help="the paper's name of --order",
    )
    make.add_argument("--users", type=int, default=1, help="users served at once (canonical: 1, 2, 4, 8, 16)")
    make.add_argument("--rounds", type=int, help="keep only the first N rounds")
    make.add_argument(
        "--no-epilogue", action="store_true", help="leave out the held-out tasks after the stream"
    )
    make.add_argument("--reset-each", action="store_true", help="reset the learner before every slot")
    make.add_argument("--test", choices=list(TESTS), help="build a frozen test instead of a stream")
    make.add_argument("--width", type=int, help="play the test N users a round, each slot reset_before")
    make.add_argument("--out", required=True, help="the schedule file to write")
    make.set_defaults(func=_schedule_make)
    show = schedule_sub.add_parser("show", help="print a schedule as a table and a summary per phase")
    show.add_argument("file")
    show.add_argument("--head", type=int, default=20, help="slots to print (default 20)")
    show.add_argument("--no-verify", action="store_true", help="do not rebuild the schedule from its meta")
    show.set_defaults(func=_schedule_show)
