"""Play a learner over a schedule into a run directory that survives a crash.

The runner plays round by round. For each round: ``reset()`` if the round's slots are marked
``reset_before``, ``begin_round()``, every slot of the round served, ``end_round()``, then the
round committed (see :mod:`continual_arc.rundir`). A learner with ``concurrent_users = True``
plays each user's instance on a thread of its own (at most ``max_concurrent`` at once). Any other
learner is asked for actions in turn: each instance still open gets its next action before any of
them gets a further one.

The learner sees only :class:`~continual_arc.env.LearnerObservation`: the task under an alias, the
input, its own counts, step, round and user. The records keep the real ids.

Faults: a learner that raises in ``act`` or ``observe`` (or returns something that is not an
action) fails that instance, charged the whole budget, with the error and traceback in its record
and trajectory, and the run goes on (``fail_fast`` stops it instead, committing nothing of the
round). An instance that runs past ``instance_time_limit`` seconds ends unsolved (``time limit``).
A fault in ``reset``, ``begin_round``, ``end_round`` or ``save_state`` stops the run with
:class:`LearnerError`: it cannot be pinned on one instance. Nothing of an unfinished round is ever
committed, and ``resume=True`` replays it from its start.

Plug-ins (:mod:`continual_arc.addons`) are called around every episode and action. The auxiliary
episodes they ask for are played after the round's slots and before ``end_round``, one at a time,
each on a fresh instance, and committed with the round. A plug-in that raises or breaks the rules
stops the run with :class:`~continual_arc.addons.PluginError`; one that asks to stop ends the run
cleanly once the round is committed.
"""

from __future__ import annotations

import copy
import dataclasses
import platform
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .addons import MAX_EPISODES_PER_ROUND, Episode, PluginError, RunInfo, addon_seed
from .aliases import Aliases, read_or_create_salt
from .env import (
    EnvSettings,
    InstanceEnv,
)
from .episode import EpisodePlay, LearnerError, finish, guarded
from .learner import Learner
from .metrics import budget_used, primary
from .plugin_runtime import PendingEpisode, PluginManager, PluginTrace, plugin_totals
from .records import atomic_write_json, read_json
from .rundir import (
    META,
    SCHEDULE,
    SUMMARY,
    RunDirError,
    committed_rounds,
    is_empty_run_dir,
    prune_states,
    read_meta,
    save_learner_state,
    setup_complete,
    state_for_round,
    write_round,
)
from .schedule import Schedule, Slot
from .tasks import PHASE_SOURCES, TaskSource, get_source

__all__ = ["LearnerError", "PluginError", "RunDirError", "RunOptions", "RunProgress", "RunResult", "run"]

PLUGINS = "plugins.json"


@dataclass(frozen=True)
class RunProgress:
    """Where a run stands, reported after every committed round."""

    rounds_done: int
    rounds_total: int
    instances_done: int
    instances_total: int
    budget_used: float | None
    errored: int


@dataclass(frozen=True)
class RunOptions:
    """How to run.

    Attributes:
        resume: continue the run already in the directory (replaying an unfinished round).
        alias_style: ``hash`` (``task-3f2a9c1e``) or ``names`` (codenames).
        max_concurrent: a concurrent learner's users served at once (default: the whole round).
        plugins: plug-ins (:mod:`continual_arc.addons`), in order; each sees what the one before
            it returned. Recorded by import path in ``meta.json`` and checked on resume.
        fail_fast: stop the run at the first learner fault instead of failing the instance.
        instance_time_limit: seconds an instance may take before it ends unsolved.
        learner_spec: ``{"class": "module:Class", "kwargs": {...}}``, recorded in ``meta.json``
            and checked on resume (the command line fills it in).
        progress: called with a :class:`RunProgress` after every committed round.
    """

    resume: bool = False
    alias_style: str = "hash"
    max_concurrent: int | None = None
    plugins: Sequence[Any] = ()
    fail_fast: bool = False
    instance_time_limit: float | None = None
    learner_spec: Mapping[str, Any] | None = None
    progress: Callable[[RunProgress], None] | None = None


@dataclass(frozen=True)
class RunResult:
    """A finished run: its directory, every record, and the summary written last.

    Attributes:
        stopped_by: the plug-in that stopped the run early, if one did.
    """

    out_dir: Path
    records: list[dict[str, Any]]
    summary: dict[str, Any]
    stopped_by: str | None = None


class _Runner:
    """The state of one call to :func:`run`."""

    def __init__(
        self, learner: Learner, schedule: Schedule, out: Path, options: RunOptions, hooks: PluginManager
    ) -> None:
        self.learner, self.schedule, self.out, self.options = learner, schedule, out, options
        self.settings = EnvSettings.from_dict(schedule.meta["configuration"]["env"])
        self.sources: dict[str, TaskSource] = {
            phase: get_source(schedule.meta["sources"][kind]) for phase, kind in PHASE_SOURCES.items()
        }
        self.aliases = Aliases(read_or_create_salt(out), options.alias_style)
        self.aliases.check_unique(sorted({s.task_id for s in schedule.slots}))
        self.saves_state = callable(getattr(learner, "save_state", None)) and callable(
            getattr(learner, "load_state", None)
        )
        self.records: list[dict[str, Any]] = []
        self.hooks = hooks
        self.run_trace = PluginTrace()
        self.first_phase: dict[str, str] = {}
        for slot in schedule.slots:
            self.first_phase.setdefault(slot.task_id, slot.phase)
        self.width = max((len(g) for g in schedule.round_slots()), default=1)
        self.addons_played = 0  # numbers auxiliary episodes; restored from the records on resume
        self.addons_of_task: dict[str, int] = {}  # counts each task's auxiliary instances, for seeds
        self._committer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="continual-arc-commit")
        self._pending: Future[None] | None = None

    def _instance(self, slot: Slot) -> EpisodePlay:
        task = self.sources[slot.phase].instance(slot.task_id, slot.seed)
        episode = Episode.of_slot(slot, self.aliases.alias(slot.task_id))
        return self._wrap(episode, InstanceEnv(task, self.settings))

    def _wrap(self, episode: Episode, env: InstanceEnv) -> EpisodePlay:
        options = self.options
        return EpisodePlay(episode, env, options.instance_time_limit, options.fail_fast, self.hooks)

    def count_addons(self, records: Sequence[dict[str, Any]]) -> None:
        """Take up the auxiliary episodes' numbering where the committed records leave it."""
        for record in records:
            if record.get("episode_type", "primary") != "primary":
                self.addons_played = max(self.addons_played, int(record["addon_index"]))
                task = record["task_id"]
                self.addons_of_task[task] = self.addons_of_task.get(task, 0) + 1

    def _addon_instance(self, request: PendingEpisode, round_: int) -> EpisodePlay:
        task = request.task_id
        phase = request.phase or self.first_phase.get(task)
        if task not in self.first_phase or phase not in self.sources:
            raise PluginError(
                f"plug-in {request.plugin} asked for task {task!r} (phase {phase!r}), "
                f"which this schedule does not serve"
            )
        index = self.addons_of_task.get(task, 0)
        self.addons_of_task[task] = index + 1
        self.addons_played += 1
        n = self.addons_played
        seed = addon_seed(self.schedule.meta["config"], self.schedule.meta["seed"], task, index)
        episode = Episode(
            step=-n,
            round=round_,
            user=0,
            phase=phase,
            task_id=task,
            seed=seed,
            alias=self.aliases.alias(task),
            episode_type="addon",
            plugin=request.plugin,
            reason=request.reason,
            addon_index=n,
        )
        return self._wrap(episode, InstanceEnv(self.sources[phase].instance(task, seed), self.settings))

    def _play_addons(self, round_: int) -> list[EpisodePlay]:
        """Play the auxiliary episodes asked for, one at a time, until none is left or a stop."""
        played: list[EpisodePlay] = []
        while self.hooks.stop_by is None and (request := self.hooks.take_pending()) is not None:
            if self.width > 1:
                raise PluginError(
                    f"plug-in {request.plugin} asked for an auxiliary episode, but this schedule serves "
                    f"{self.width} users a round: auxiliary episodes need a one-user schedule"
                )
            if len(played) >= MAX_EPISODES_PER_ROUND:
                raise PluginError(
                    f"round {round_} asked for more than {MAX_EPISODES_PER_ROUND} auxiliary episodes"
                )
            inst = self._addon_instance(request, round_)
            inst.play(self.learner)
            played.append(inst)
        self.hooks.pending.clear()  # a stop drops what is still queued
        return played

    def _serve_serially(self, instances: list[EpisodePlay]) -> None:
        for inst in instances:
            inst.open()
        open_ = list(instances)
        while open_:
            for inst in list(open_):
                inst.advance(self.learner)
                if inst.env.done:
                    open_.remove(inst)

    def _serve_concurrently(self, instances: list[EpisodePlay], pool: ThreadPoolExecutor) -> None:
        futures = [pool.submit(inst.play, self.learner) for inst in instances]
        for future in futures:
            future.result()  # re-raises a fatal fault (fail-fast, environment) in this thread

    def play_round(self, slots: Sequence[Slot], pool: ThreadPoolExecutor | None) -> None:
        resets = {slot.reset_before for slot in slots}
        if len(resets) > 1:
            raise RunDirError(f"round {slots[0].round} marks some slots reset_before and not others")
        if True in resets:
            guarded(self.learner, "reset")
        guarded(self.learner, "begin_round")
        instances = [self._instance(slot) for slot in slots]
        if pool is not None:
            self._serve_concurrently(instances, pool)
        else:
            self._serve_serially(instances)
        extra = self._play_addons(slots[0].round)
        guarded(self.learner, "end_round")
        finished = [finish(inst, self.learner, self.settings) for inst in instances + extra]
        records = [r for r, _ in finished]
        if extra:  # lets a resumed run tell a whole round from one cut after its primary records
            for record in records:
                record["round_addons"] = len(extra)
        self.commit(slots[0].round, records, [t for _, t in finished])

    def commit(self, round_: int, records: list[dict[str, Any]], trajectories: list[dict[str, Any]]) -> None:
        """Commit a round: the learner's state now, the files on the committer thread.

        The state must be saved before the next round changes it; the writes and fsyncs overlap
        the next round's play, and each commit waits for the one before, so rounds reach the disk
        whole and in order.
        """
        self.wait()
        if self.saves_state:
            try:
                save_learner_state(self.learner, self.out, round_)
            except Exception as err:
                raise LearnerError(f"the learner raised in save_state(): {err!r}") from err
        self._pending = self._committer.submit(write_round, self.out, round_, records, trajectories)
        self.records.extend(records)

    def wait(self) -> None:
        """Wait until every round played so far is on disk (re-raising a failed write)."""
        if self._pending is not None:
            pending, self._pending = self._pending, None
            pending.result()

    def close(self) -> None:
        """Finish the last commit and stop the committer."""
        try:
            self.wait()
        finally:
            self._committer.shutdown(wait=True)


def _versions(schedule: Schedule) -> dict[str, Any]:
    from . import __version__

    sources = {kind: get_source(name).describe() for kind, name in schedule.meta["sources"].items()}
    return {"continual-arc": __version__, "sources": sources}


def _learner_spec(learner: Learner, options: RunOptions) -> dict[str, Any]:
    if options.learner_spec is not None:
        return dict(options.learner_spec)
    cls = type(learner)
    return {"class": f"{cls.__module__}:{cls.__qualname__}", "kwargs": None}


def _write_meta(runner: _Runner, resumes: list[dict[str, Any]]) -> None:
    schedule, options = runner.schedule, runner.options
    meta = {
        "format": 1,
        "schedule": dict(schedule.meta),
        "protocol": schedule.meta["protocol"],
        "slots": len(schedule.slots),
        "learner": _learner_spec(runner.learner, options),
        "concurrent_users": bool(runner.learner.concurrent_users),
        "alias_style": options.alias_style,
        "max_concurrent": options.max_concurrent,
        "instance_time_limit": options.instance_time_limit,
        "plugins": list(runner.hooks.names),
        "versions": _versions(schedule),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "resumes": resumes,
    }
    atomic_write_json(runner.out / META, meta)
    runner.schedule.save(runner.out / SCHEDULE)


def _check_resumable(runner: _Runner, meta: Mapping[str, Any]) -> None:
    old = Schedule.load(runner.out / SCHEDULE, verify=False)
    new = runner.schedule
    n = min(len(old.slots), len(new.slots))
    for got, want in zip(old.slots[:n], new.slots[:n], strict=True):
        if got != want:
            raise RunDirError(
                f"{runner.out}: the schedule differs from the run's at step {got.step} "
                f"({got.task_id} seed {got.seed} recorded, {want.task_id} seed {want.seed} now)"
            )
    spec = _learner_spec(runner.learner, runner.options)
    recorded = meta.get("learner", {})
    if recorded.get("class") != spec["class"] or (
        spec.get("kwargs") is not None
        and recorded.get("kwargs") is not None
        and recorded["kwargs"] != spec["kwargs"]
    ):
        raise RunDirError(f"{runner.out} was played by {recorded}; resuming with {spec} is refused")
    if meta.get("alias_style") != runner.options.alias_style:
        raise RunDirError(f"{runner.out} was played with alias style {meta.get('alias_style')}")
    if list(meta.get("plugins", [])) != runner.hooks.names:
        raise RunDirError(
            f"{runner.out} was played with plug-ins {meta.get('plugins', [])}; "
            f"resuming with {runner.hooks.names} is refused"
        )


def _resume(runner: _Runner) -> int:
    """Prepare a resumed run; the number of rounds already committed."""
    meta = read_meta(runner.out)
    _check_resumable(runner, meta)
    sizes = [len(group) for group in runner.schedule.round_slots()]
    records = committed_rounds(runner.out, sizes)
    slotted = primary(records)
    if len(slotted) > len(runner.schedule.slots):
        raise RunDirError(f"{runner.out} holds {len(slotted)} records, more than the schedule's slots")
    for record, slot in zip(slotted, runner.schedule.slots, strict=False):
        if any(record.get(k) != v for k, v in slot.to_json().items()):
            raise RunDirError(f"{runner.out}: record {record.get('step')} does not match the schedule's slot")
    rounds = records[-1]["round"] + 1 if records else 0
    if rounds:
        _restore_state(runner, rounds - 1)
    prune_states(runner.out, keep=rounds - 1)  # a state saved for a round that never committed
    runner.records = records
    runner.count_addons(records)
    resumes = [*meta.get("resumes", []), {"at_round": rounds, "time": time.strftime("%Y-%m-%dT%H:%M:%SZ")}]
    _write_meta(runner, resumes)
    return rounds


def _restore_state(runner: _Runner, last_round: int) -> None:
    learner = runner.learner
    if runner.saves_state:
        state = state_for_round(runner.out, last_round)
        if state is None:
            raise RunDirError(f"{runner.out}: no saved learner state for round {last_round}")
        guarded(learner, "load_state", state)
    elif not getattr(learner, "stateless", False):
        raise RunDirError(
            f"{type(learner).__name__} keeps state between instances but has no save_state/load_state, "
            f"so its run cannot resume; give it both methods, set stateless = True if it keeps nothing, "
            f"or start again in an empty directory"
        )


def _check_learner(learner: Any) -> None:
    from .learner import _MEMBERS

    missing = [name for name in _MEMBERS if not hasattr(learner, name)]
    if missing:
        raise TypeError(
            f"{type(learner).__name__} is not a learner: it lacks {', '.join(missing)} "
            f"(subclass continual_arc.learner.BaseLearner for defaults)"
        )


def run(
    learner: Learner,
    schedule: Schedule,
    out_dir: Path | str,
    options: RunOptions | None = None,
    **overrides: Any,
) -> RunResult:
    """Play ``learner`` over ``schedule`` into ``out_dir``.

    Args:
        learner: the learner (see :mod:`continual_arc.learner`).
        schedule: the schedule to play.
        out_dir: the run directory: empty (or holding only an ``alias-salt``), or, with
            ``resume=True``, a run to continue.
        options: a :class:`RunOptions`.
        **overrides: any field of :class:`RunOptions`, passed as a keyword (``resume=True``,
            ``alias_style="names"``, ``max_concurrent=4``, ...).

    Returns:
        The run's records and summary.

    Raises:
        RunDirError: the directory is not empty without ``resume``, or the run there cannot be
            resumed under this schedule, learner and plug-ins (the message says why).
        LearnerError: the learner failed in a round hook, or ``fail_fast`` was set.
        PluginSpecError: an object in ``plugins`` implements neither plug-in protocol.
        PluginError: a plug-in raised or broke the rules (see :mod:`continual_arc.addons`).
    """
    options = dataclasses.replace(options or RunOptions(), **overrides)
    _check_learner(learner)
    hooks = PluginManager(options.plugins)  # checked before anything is written
    out = Path(out_dir)
    resuming = options.resume and setup_complete(out)
    if not resuming and not is_empty_run_dir(out, interrupted_setup=options.resume):
        raise RunDirError(f"{out} is not empty: pass resume=True (--resume) to continue the run there")
    out.mkdir(parents=True, exist_ok=True)
    runner = _Runner(learner, schedule, out, options, hooks)
    start = _resume(runner) if resuming else 0
    if not resuming:
        _write_meta(runner, [])
    (out / SUMMARY).unlink(missing_ok=True)
    (out / PLUGINS).unlink(missing_ok=True)
    groups = schedule.round_slots()
    concurrent = bool(learner.concurrent_users) and max((len(g) for g in groups), default=0) > 1
    workers = options.max_concurrent or max((len(g) for g in groups), default=1)
    pool = (
        ThreadPoolExecutor(max_workers=workers, thread_name_prefix="continual-arc-user")
        if concurrent
        else None
    )
    try:
        if runner.hooks:  # the records are copied for plug-ins only
            runner.hooks.run_start(_run_info(runner, start), runner.run_trace)
        for group in groups[start:]:
            runner.play_round(group, pool)
            _report(runner, len(groups), group[0].round + 1)
            if runner.hooks.stop_by is not None:
                break
    finally:
        runner.close()  # even when stopping: the rounds already played reach the disk whole
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
    return _close(runner, start)


def _run_info(runner: _Runner, start: int, *, stopped_by: str | None = None) -> RunInfo:
    # Copies: a plug-in that changes what it is handed changes nothing of the run's.
    records = tuple(copy.deepcopy(runner.records))
    return RunInfo(runner.out, runner.schedule, start, records, stopped_by)


def _report(runner: _Runner, total_rounds: int, done: int) -> None:
    if runner.options.progress is None:
        return
    records = primary(runner.records)
    runner.options.progress(
        RunProgress(
            rounds_done=done,
            rounds_total=total_rounds,
            instances_done=len(records),
            instances_total=len(runner.schedule.slots),
            budget_used=budget_used(records),
            errored=sum(1 for r in records if r.get("error")),
        )
    )


def _close(runner: _Runner, start: int) -> RunResult:
    from .metrics import summarize

    memory = getattr(runner.learner, "memory", None)
    if callable(memory):
        atomic_write_json(runner.out / "memory.json", memory())
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
    atomic_write_json(runner.out / SUMMARY, summary)
    return RunResult(runner.out, runner.records, summary, stopped_by)
