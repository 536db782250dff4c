"""Play a learner over a schedule into a run directory that survives a crash.

The runner plays round by round. For each round: ``reset()`` if the round's slots are marked
``reset_before``, ``begin_round()``, every slot of the round served, ``end_round()``, then the
round committed ([`RunSession.play_round`][continual_arc.play.session.RunSession.play_round]; the files are
[`continual_arc.play.rundir`][continual_arc.play.rundir]'s). A learner with ``concurrent_users = True``
plays each user's instance on a thread of its own (at most ``max_concurrent`` at once). Any other
learner is asked for actions in turn: each instance still open gets its next action before any of
them gets a further one.

The learner sees only [`LearnerObservation`][continual_arc.core.actions.LearnerObservation]: the task under an
alias, the input, its own counts, step, round and user. The records keep the real ids.

Faults: a learner that raises in ``act`` or ``observe`` (or returns something that is not an
action) fails that instance, charged the whole budget, with the error and traceback in its record
and trajectory, and the run goes on (``fail_fast`` stops it instead, committing nothing of the
round). An instance that runs past ``instance_time_limit`` seconds ends unsolved (``time limit``).
A fault in ``reset``, ``begin_round``, ``end_round`` or ``save_state`` stops the run with
[`LearnerError`][continual_arc.play.episode.LearnerError]: it cannot be pinned on one instance. Nothing of an
unfinished round is ever committed, and ``resume=True`` replays it from its start.

The spend cap: a learner that raises [SpendCapReached][continual_arc.core.errors.SpendCapReached] (its
model call refused under the run's cap) stops the run cleanly. Every committed round stays as it
is; the round in progress is not committed but named in ``stopped.json`` (and in the summary's
``stopped``: "stopped at the spend cap after N of M slots"), and ``resume=True`` with a raised cap
plays it again from its start.

Plug-ins ([`continual_arc.play.plugins`][continual_arc.play.plugins]) are called around every episode and
action. The auxiliary episodes they ask for are played after the round's slots and before ``end_round``, one
at a time, each on a fresh instance, and committed with the round. A plug-in that raises or breaks the rules
stops the run with [`PluginError`][continual_arc.play.plugins.PluginError]; one that asks to stop ends the run
cleanly once the round is committed.
"""

from __future__ import annotations

import copy
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ..core.errors import SpendCapReached
from ..core.files import atomic_write_json, read_json
from ..measure.summary import Stopped, summarize
from ..stream.schedule import Schedule
from .aliases import read_or_create_run_id
from .episode import LearnerError, guarded
from .learner import AnyLearner, JoinsRun, ShowsMemory, missing_members
from .meta import write_meta
from .options import RunOptions, RunProgress, RunResult
from .plugin_manager import PluginManager, plugin_totals
from .plugins import PluginError, RunInfo
from .resume import resume
from .rundir import META, PLUGINS, STOPPED, SUMMARY, RunDirError, is_empty_run_dir, setup_complete
from .session import RunSession

__all__ = [
    "LearnerError",
    "PluginError",
    "RunDirError",
    "RunOptions",
    "RunProgress",
    "RunResult",
    "SpendCapReached",
    "run",
    "stop_sentence",
]


def stop_sentence(stopped: Stopped) -> str:
    """The line a run the spend cap stopped ends with."""
    return (
        f"stopped at the spend cap after {stopped['slots_done']} of {stopped['slots_total']} slots "
        f"(round {stopped['round']} not committed: {stopped['message']}); raise the cap and --resume"
    )


def run(
    learner: AnyLearner,
    schedule: Schedule,
    out_dir: Path | str,
    options: RunOptions | None = None,
) -> RunResult:
    """Play ``learner`` over ``schedule`` into ``out_dir``.

    Args:
        learner: the learner (see `continual_arc.learner`).
        schedule: the schedule to play.
        out_dir: the run directory: empty (or holding only an ``alias-salt``), or, with
            ``resume=True``, a run to continue.
        options: how to run ([`RunOptions`][continual_arc.play.options.RunOptions]: ``resume``, the alias
            style, plug-ins, ...); ``None``: the defaults.

    Returns:
        The run's records and summary (with ``stopped`` set when the spend cap ended it early).

    Raises:
        RunDirError: the directory is not empty without ``resume``, or the run there cannot be
            resumed under this schedule, learner and plug-ins (the message says why).
        LearnerError: the learner failed in a round hook, or ``fail_fast`` was set.
        PluginSpecError: an object in ``plugins`` implements neither plug-in protocol.
        PluginError: a plug-in raised or broke the rules (see `continual_arc.addons`).
    """
    options = options or RunOptions()
    runner, start = _open(learner, schedule, Path(out_dir), options)
    groups = schedule.round_slots()
    width = max((len(g) for g in groups), default=1)
    workers = options.max_concurrent or width
    concurrent = learner.concurrent_users and width > 1
    pool = ThreadPoolExecutor(workers, thread_name_prefix="continual-arc-user") if concurrent else None
    if start:
        _report(runner, options, len(groups), start, resumed=True)  # says what it resumes
    stopped: Stopped | None = None
    try:
        if runner.hooks:  # the records are copied for plug-ins only
            runner.hooks.run_start(_run_info(runner, start), runner.run_trace)
        for group in groups[start:]:
            try:
                runner.play_round(group, pool)
            except SpendCapReached as cap:
                stopped = _stop_at_cap(runner, group[0].round, cap)
                break
            _report(runner, options, len(groups), group[0].round + 1)
            if runner.hooks.stop_by is not None:
                break
    finally:
        runner.committer.close()  # even when stopping: the rounds already played reach the disk whole
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
    return _close(runner, start, stopped)


def _stop_at_cap(runner: RunSession, round_: int, cap: SpendCapReached) -> Stopped:
    """The spend cap's stop at ``round_``, the round in progress (written by ``_close``)."""
    slots = runner.schedule.slots
    return {
        "by": "spend_cap",
        "round": round_,
        "slots_done": sum(1 for slot in slots if slot.round < round_),
        "slots_total": len(slots),
        "message": str(cap),
    }


def _open(learner: AnyLearner, schedule: Schedule, out: Path, options: RunOptions) -> tuple[RunSession, int]:
    """Check the learner and the directory, set the run up or resume it; the session and its first round."""
    missing = missing_members(learner)
    if missing:
        raise TypeError(
            f"{type(learner).__name__} is not a learner: it lacks {', '.join(missing)} "
            f"(subclass continual_arc.learner.BaseLearner for defaults)"
        )
    hooks = PluginManager(options.plugins)  # checked before anything is written
    if out.exists() and not out.is_dir():
        raise RunDirError(f"{out} is a file, not a directory: give the run a directory of its own")
    resuming = options.resume and setup_complete(out)
    if not resuming and not is_empty_run_dir(out, interrupted_setup=options.resume):
        if (out / META).exists():
            raise RunDirError(
                f"{out} is not empty: it holds a run; to continue it, pass RunOptions(resume=True) to "
                f"run() in Python, or --resume to continual-arc run"
            )
        raise RunDirError(f"{out} is not empty and holds no run: give the run an empty directory")
    out.mkdir(parents=True, exist_ok=True)
    session = RunSession(learner, schedule, out, hooks, options)
    if isinstance(learner, JoinsRun):  # before load_state and resume_from: a resumed run is the same run
        guarded(learner, "join_run", read_or_create_run_id(out))
    start = resume(session, options) if resuming else 0
    if not resuming:
        write_meta(session, options, [])
    (out / SUMMARY).unlink(missing_ok=True)
    (out / PLUGINS).unlink(missing_ok=True)
    (out / STOPPED).unlink(missing_ok=True)  # a resumed run plays the stopped round again
    return session, start


def _run_info(runner: RunSession, start: int, *, stopped_by: str | None = None) -> RunInfo:
    # Copies: a plug-in that changes what it is handed changes nothing of the run's.
    records = tuple(copy.deepcopy(runner.records))
    return RunInfo(runner.out, runner.schedule, start, records, stopped_by)


def _report(
    runner: RunSession, options: RunOptions, total_rounds: int, done: int, *, resumed: bool = False
) -> None:
    if options.progress is None:
        return
    tally = runner.tally
    tally.update(runner.records)
    options.progress(
        RunProgress(
            rounds_done=done,
            rounds_total=total_rounds,
            instances_done=tally.instances,
            instances_total=len(runner.schedule.slots),
            budget_used=tally.budget_used(),
            errored=tally.errored,
            resumed=resumed,
        )
    )


def _close(runner: RunSession, start: int, stopped: Stopped | None = None) -> RunResult:
    if isinstance(runner.learner, ShowsMemory):
        atomic_write_json(runner.out / "memory.json", runner.learner.memory())
    stopped_by = runner.hooks.stop_by
    if runner.hooks:
        runner.hooks.run_end(_run_info(runner, start, stopped_by=stopped_by), runner.run_trace)
        stop = None if stopped_by is None else {"plugin": stopped_by, "round": runner.records[-1]["round"]}
        report = {
            "plugins": runner.hooks.names,
            "stopped": stop,
            "run": runner.run_trace.entries,
            "totals": plugin_totals(runner.records),
        }
        atomic_write_json(runner.out / PLUGINS, report)
    summary = summarize(runner.records, read_json(runner.out / META))
    if stopped is not None:
        # Written after the committed rounds are on disk (the committer is closed by now).
        atomic_write_json(runner.out / STOPPED, stopped)
        summary["stopped"] = stopped
    atomic_write_json(runner.out / SUMMARY, summary)
    return RunResult(runner.out, runner.records, summary, stopped_by, stopped)
