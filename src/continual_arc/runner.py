"""Play a learner over a schedule into a run directory that survives a crash.

The runner plays round by round. For each round: ``reset()`` if the round's slots are marked
``reset_before``, ``begin_round()``, every slot of the round served, ``end_round()``, then the
round committed (see :mod:`continual_arc.rundir`). A learner with ``concurrent_users = True``
plays each user's instance on a thread of its own (at most ``max_concurrent`` at once); any other
learner is served one action at a time, one action on every open instance before a second on any.

The learner sees only :class:`~continual_arc.env.LearnerObservation`: the task under an alias, the
input, its own counts, step, round and user. The records keep the real ids.

Faults: a learner that raises in ``act`` or ``observe`` (or returns something that is not an
action) fails that instance, charged the whole budget, with the error and traceback in its record
and trajectory, and the run goes on (``fail_fast`` stops it instead, committing nothing of the
round). An instance that runs past ``instance_time_limit`` seconds ends unsolved (``time limit``).
A fault in ``reset``, ``begin_round``, ``end_round`` or ``save_state`` stops the run with
:class:`LearnerError`: it cannot be pinned on one instance. Nothing of an unfinished round is ever
committed, and ``resume=True`` replays it from its start.
"""

from __future__ import annotations

import dataclasses
import platform
import threading
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .aliases import Aliases, read_or_create_salt
from .env import (
    EnvSettings,
    InstanceEnv,
    LearnerObservation,
    action_to_json,
    feedback_to_json,
)
from .grids import to_json
from .learner import Learner
from .metrics import budget_used, primary
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
    state_for_round,
    write_round,
)
from .schedule import Schedule, Slot
from .tasks import TaskSource, get_source

__all__ = ["LearnerError", "RunDirError", "RunOptions", "RunProgress", "RunResult", "run"]

_SOURCE_OF_PHASE = {"stream": "stream", "seen": "stream", "epilogue": "held-out", "held-out": "held-out"}


class LearnerError(RuntimeError):
    """A learner fault that stops the run (a round hook failed, or ``fail_fast`` was set)."""


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
        plugins: plug-ins (:mod:`continual_arc.addons`), in order.
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
    """A finished run: its directory, every record, and the summary written last."""

    out_dir: Path
    records: list[dict[str, Any]]
    summary: dict[str, Any]


class _TimeLimit(Exception):
    pass


def _call(fn: Callable[..., Any], args: tuple[Any, ...], deadline: float | None) -> Any:
    """Call ``fn``, giving up at ``deadline`` (the call then runs on, abandoned, in its thread)."""
    if deadline is None:
        return fn(*args)
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise _TimeLimit
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = fn(*args)
        except BaseException as err:  # handed to the caller's thread as is
            box["error"] = err

    thread = threading.Thread(target=target, daemon=True, name="continual-arc-learner-call")
    thread.start()
    thread.join(remaining)
    if thread.is_alive():
        raise _TimeLimit
    if "error" in box:
        raise box["error"]
    return box["value"]


@dataclass
class _Instance:
    """One slot being played: its environment, its trajectory, and how it ended."""

    slot: Slot
    env: InstanceEnv
    alias: str
    time_limit: float | None
    fail_fast: bool
    events: list[dict[str, Any]] = field(default_factory=list)
    error: dict[str, Any] | None = None
    started: float = 0.0
    finished: float = 0.0
    deadline: float | None = None

    def open(self) -> None:
        self.started = time.monotonic()
        self.deadline = None if self.time_limit is None else self.started + self.time_limit

    def view(self) -> LearnerObservation:
        slot = self.slot
        return self.env.view(self.alias, slot.step, slot.round, slot.user)

    def _fault(self, err: BaseException, during: str) -> None:
        if self.fail_fast:
            raise LearnerError(f"step {self.slot.step}: the learner raised in {during}: {err!r}") from err
        self.error = {
            "during": during,
            "type": type(err).__name__,
            "message": str(err),
            "traceback": "".join(traceback.format_exception(err)),
        }
        self.env.fail("learner error")

    def advance(self, learner: Learner) -> None:
        """One action: ``act``, the environment's step, ``observe``; faults end the instance."""
        obs = self.view()
        try:
            action = _call(learner.act, (obs,), self.deadline)
            feedback = self.env.step(action)
        except _TimeLimit:
            self.env.fail("time limit")
            self.events.append({"observation": _obs_json(obs), "action": None, "feedback": None})
        except Exception as err:  # InvalidActionError included: a learner fault, not the run's
            if _is_environment_fault(err):
                raise
            self.events.append({"observation": _obs_json(obs), "action": None, "feedback": None})
            self._fault(err, "act")
        else:
            self.events.append(
                {
                    "observation": _obs_json(obs),
                    "action": action_to_json(action),
                    "feedback": feedback_to_json(feedback),
                }
            )
            try:
                _call(learner.observe, (obs, action, feedback), self.deadline)
            except _TimeLimit:
                self.env.fail("time limit")
            except Exception as err:
                if not self.env.done:
                    self._fault(err, "observe")
                elif self.fail_fast:
                    raise LearnerError(
                        f"step {self.slot.step}: the learner raised in observe: {err!r}"
                    ) from err
                else:
                    self.error = {"during": "observe", "type": type(err).__name__, "message": str(err)}
        if self.env.done:
            self.finished = time.monotonic()

    def play(self, learner: Learner) -> None:
        """Play the instance to its end (the concurrent path)."""
        self.open()
        while not self.env.done:
            self.advance(learner)


def _is_environment_fault(err: BaseException) -> bool:
    from .rearc import GeneratorError

    return isinstance(err, GeneratorError)


def _obs_json(obs: LearnerObservation) -> dict[str, Any]:
    return {
        "attempts_used": obs.attempts_used,
        "demos_used": obs.demos_used,
        "step": obs.step,
        "round": obs.round,
        "user": obs.user,
        "extra": dict(obs.extra),
    }


def _guarded(learner: Learner, name: str, *args: Any) -> Any:
    try:
        return getattr(learner, name)(*args)
    except Exception as err:
        raise LearnerError(f"the learner raised in {name}(): {err!r}") from err


def _resources(learner: Learner, user: int) -> dict[str, float]:
    try:
        counters = learner.user_resources(user) if learner.concurrent_users else learner.resources()
        return {str(k): float(v) for k, v in dict(counters).items()}
    except Exception as err:  # counters are logged, never scored: a broken counter loses only itself
        return {"resources_error": 1.0, "_message": repr(err)}  # type: ignore[dict-item]


def _finish(
    inst: _Instance, learner: Learner, settings: EnvSettings
) -> tuple[dict[str, Any], dict[str, Any]]:
    slot, result = inst.slot, inst.env.result()
    actions = []
    for event in inst.events:
        action, feedback = event["action"], event["feedback"]
        entry: dict[str, Any] = {"action": action["action"] if action else None}
        if feedback and feedback["feedback"] == "submit":
            entry.update(correct=feedback["correct"], invalid=feedback["invalid"] is not None)
        if feedback and feedback["feedback"] == "demos":
            entry["refused"] = feedback["refused"]
        actions.append(entry)
    record = {
        **slot.to_json(),
        "alias": inst.alias,
        "episode_type": "primary",
        "actions": actions,
        "demos_bought": result.demos_bought,
        "demos_refused": result.demos_refused,
        "wrong_attempts": result.wrong_attempts,
        "solved": result.solved,
        "end": result.end,
        "charge": result.charge,
        "max_cost": settings.max_cost,
        "budget_share": result.charge / settings.max_cost,
        "wall_time": round(max(inst.finished - inst.started, 0.0), 6),
        "resources": _resources(learner, slot.user),
        "error": inst.error,
    }
    log = getattr(learner, "instance_log", None)
    trajectory = {
        **slot.to_json(),
        "alias": inst.alias,
        "input": to_json(inst.env.instance.input),
        "demo_cap": inst.env.demo_cap,
        "events": inst.events,
        "result": dataclasses.asdict(result),
        "learner_log": log(slot.user) if callable(log) else None,
        "error": inst.error,
    }
    return record, trajectory


class _Runner:
    """The state of one call to :func:`run`."""

    def __init__(self, learner: Learner, schedule: Schedule, out: Path, options: RunOptions) -> None:
        self.learner, self.schedule, self.out, self.options = learner, schedule, out, options
        self.settings = EnvSettings.from_dict(schedule.meta["configuration"]["env"])
        self.sources: dict[str, TaskSource] = {
            phase: get_source(schedule.meta["sources"][kind]) for phase, kind in _SOURCE_OF_PHASE.items()
        }
        self.aliases = Aliases(read_or_create_salt(out), options.alias_style)
        self.aliases.check_unique(sorted({s.task_id for s in schedule.slots}))
        self.saves_state = callable(getattr(learner, "save_state", None)) and callable(
            getattr(learner, "load_state", None)
        )
        self.records: list[dict[str, Any]] = []
        self._committer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="continual-arc-commit")
        self._pending: Future[None] | None = None

    def _instance(self, slot: Slot) -> _Instance:
        task = self.sources[slot.phase].instance(slot.task_id, slot.seed)
        return _Instance(
            slot,
            InstanceEnv(task, self.settings),
            self.aliases.alias(slot.task_id),
            self.options.instance_time_limit,
            self.options.fail_fast,
        )

    def _serve_serially(self, instances: list[_Instance]) -> None:
        for inst in instances:
            inst.open()
        open_ = list(instances)
        while open_:
            for inst in list(open_):
                inst.advance(self.learner)
                if inst.env.done:
                    open_.remove(inst)

    def _serve_concurrently(self, instances: list[_Instance], pool: ThreadPoolExecutor) -> None:
        futures = [pool.submit(inst.play, self.learner) for inst in instances]
        for future in futures:
            future.result()  # re-raises a fatal fault (fail-fast, environment) in this thread

    def play_round(self, slots: Sequence[Slot], pool: ThreadPoolExecutor | None) -> None:
        resets = {slot.reset_before for slot in slots}
        if len(resets) > 1:
            raise RunDirError(f"round {slots[0].round} marks some slots reset_before and not others")
        if True in resets:
            _guarded(self.learner, "reset")
        _guarded(self.learner, "begin_round")
        instances = [self._instance(slot) for slot in slots]
        if pool is not None:
            self._serve_concurrently(instances, pool)
        else:
            self._serve_serially(instances)
        _guarded(self.learner, "end_round")
        finished = [_finish(inst, self.learner, self.settings) for inst in instances]
        self.commit(slots[0].round, [r for r, _ in finished], [t for _, t in finished])

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
        "plugins": [f"{type(p).__module__}:{type(p).__qualname__}" for p in options.plugins],
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


def _resume(runner: _Runner) -> int:
    """Prepare a resumed run; the number of rounds already committed."""
    meta = read_meta(runner.out)
    _check_resumable(runner, meta)
    sizes = [len(group) for group in runner.schedule.round_slots()]
    records = committed_rounds(runner.out, sizes)
    if len(records) > len(runner.schedule.slots):
        raise RunDirError(f"{runner.out} holds {len(records)} records, more than the schedule's slots")
    for record, slot in zip(records, runner.schedule.slots, strict=False):
        if any(record.get(k) != v for k, v in slot.to_json().items()):
            raise RunDirError(f"{runner.out}: record {record.get('step')} does not match the schedule's slot")
    rounds = records[-1]["round"] + 1 if records else 0
    if rounds:
        _restore_state(runner, rounds - 1)
    prune_states(runner.out, keep=rounds - 1)  # a state saved for a round that never committed
    runner.records = records
    resumes = [*meta.get("resumes", []), {"at_round": rounds, "time": time.strftime("%Y-%m-%dT%H:%M:%SZ")}]
    _write_meta(runner, resumes)
    return rounds


def _restore_state(runner: _Runner, last_round: int) -> None:
    learner = runner.learner
    if runner.saves_state:
        state = state_for_round(runner.out, last_round)
        if state is None:
            raise RunDirError(f"{runner.out}: no saved learner state for round {last_round}")
        _guarded(learner, "load_state", state)
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
            resumed under this schedule and learner (the message says why).
        LearnerError: the learner failed in a round hook, or ``fail_fast`` was set.
    """
    options = dataclasses.replace(options or RunOptions(), **overrides)
    _check_learner(learner)
    if options.plugins:
        raise NotImplementedError("plug-ins are not wired into the runner yet (issue 9)")
    out = Path(out_dir)
    resuming = options.resume and (out / META).exists()
    if not resuming and not is_empty_run_dir(out):
        raise RunDirError(f"{out} is not empty: pass resume=True (--resume) to continue the run there")
    out.mkdir(parents=True, exist_ok=True)
    runner = _Runner(learner, schedule, out, options)
    start = _resume(runner) if resuming else 0
    if not resuming:
        _write_meta(runner, [])
    (out / SUMMARY).unlink(missing_ok=True)
    groups = schedule.round_slots()
    concurrent = bool(learner.concurrent_users) and max((len(g) for g in groups), default=0) > 1
    workers = options.max_concurrent or max((len(g) for g in groups), default=1)
    pool = (
        ThreadPoolExecutor(max_workers=workers, thread_name_prefix="continual-arc-user")
        if concurrent
        else None
    )
    try:
        for group in groups[start:]:
            runner.play_round(group, pool)
            _report(runner, len(groups), group[0].round + 1)
    finally:
        runner.close()  # even when stopping: the rounds already played reach the disk whole
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
    return _close(runner)


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


def _close(runner: _Runner) -> RunResult:
    from .metrics import summarize

    memory = getattr(runner.learner, "memory", None)
    if callable(memory):
        atomic_write_json(runner.out / "memory.json", memory())
    summary = summarize(runner.records, read_json(runner.out / META))
    atomic_write_json(runner.out / SUMMARY, summary)
    return RunResult(runner.out, runner.records, summary)
