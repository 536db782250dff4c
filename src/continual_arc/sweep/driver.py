"""A sweep played: its protocols planned as units, run on an engine, resumed, and tabled.

[`run_sweep`][continual_arc.sweep.driver.run_sweep] expands the spec into protocols (each a directory of its
own, laid out as ``continual-arc protocol`` lays one out), writes each protocol's schedules, turns them into
units ([`units`][continual_arc.sweep.units]) and hands the ready ones to the engine, at most
``max_parallel`` at once: a test once its stream is done, ``conclude`` once its protocol's six plays
are. Units already finished on disk are skipped without reaching a worker; unfinished ones resume
from their last committed round. A unit whose worker died runs again (Ray retries it itself; the
local engine's pool is rebuilt and the driver resubmits it), up to the spec's ``retries``. A failed
unit fails the units that wait for it, and the rest of the sweep goes on. At the end the table of
every learner and setting is written ([`table`][continual_arc.sweep.table]).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..core.files import atomic_write_json
from ..core.learner_ref import LearnerRef
from ..core.records import Play
from ..core.sweep_listing import SWEEP_FILE
from ..play.learner import Keeps
from ..protocol.plan import PLAN
from ..protocol.play import ProtocolOptions, ProtocolSpec, learner_keeps, write_schedules
from ..tracks.registry import get_config
from .engines import Engine, WorkerLost, make_engine
from .spec import ProtocolRun, SweepSpec
from .units import Unit, driver_env, is_finished, protocol_units, read_progress

__all__ = ["SWEEP_FILE", "SweepOptions", "SweepProgress", "SweepResult", "dry_run", "plan", "run_sweep"]

_FINISHED = ("done", "skipped")


@dataclass(frozen=True)
class SweepProgress:
    """Where a sweep stands: units done (played now or found finished), running, failed, and the ETA.

    Attributes:
        units, done, running, failed, waiting: unit counts.
        instances_done, instances_total: instances over every play (finished plays count whole).
        eta: seconds left at this session's pace so far (``None`` until it has played something).
        final: the last report.
    """

    units: int
    done: int
    running: int
    failed: int
    waiting: int
    instances_done: int
    instances_total: int
    eta: float | None
    final: bool = False


@dataclass(frozen=True)
class SweepOptions:
    """How to run a sweep.

    Attributes:
        spec: the spec.
        out: the sweep's directory (on a cluster, a path every node sees).
        engine: ``ray`` or ``local``.
        address: a Ray cluster's address (``None``: a local instance).
        max_parallel: units at once (default: the engine's CPUs).
        progress: called about once a second, and at the end.
    """

    spec: SweepSpec
    out: Path
    engine: str = "ray"
    address: str | None = None
    max_parallel: int | None = None
    progress: Callable[[SweepProgress], None] | None = None


@dataclass
class SweepResult:
    """A sweep's outcome: every unit's status, and the failures' messages."""

    out: Path
    status: dict[str, str] = field(default_factory=dict)
    failures: dict[str, str] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        """Whether every unit finished."""
        return all(s in _FINISHED for s in self.status.values())


def _protocol(run: ProtocolRun) -> ProtocolSpec:
    """What one protocol of the sweep plays, its configuration resolved here, once."""
    return ProtocolSpec(
        LearnerRef(run.learner.learner, run.learner.kwargs), get_config(run.config), run.seed, run.users
    )


def _options(spec: SweepSpec, out: Path, run: ProtocolRun) -> ProtocolOptions:
    settings = spec.run
    return ProtocolOptions(
        out=out / run.directory,
        jobs=1,
        run=settings.run_options(),
        resamples=settings.resamples,
        plots=settings.plots,
    )


def plan(spec: SweepSpec, out: Path, session: str = "") -> list[Unit]:
    """Every unit of the sweep, with each protocol's schedules written and ``sweep.json`` beside them.

    Raises:
        LearnerSpecError: a learner cannot be imported (whether it can carry its state across
            processes is read from its class, unbuilt).
        ProtocolError: a protocol directory holds another protocol.
    """
    out.mkdir(parents=True, exist_ok=True)
    atomic_write_json(out / SWEEP_FILE, spec.to_json())
    keeps: dict[LearnerRef, Keeps] = {}
    env = driver_env()
    units: list[Unit] = []
    for run in spec.protocols():
        protocol, options = _protocol(run), _options(spec, out, run)
        schedules = write_schedules(protocol, options)
        if protocol.learner not in keeps:
            keeps[protocol.learner] = learner_keeps(protocol.learner)
        base = Unit(
            id="",
            kind="",
            play="",
            spec=protocol,
            options=options,
            cpus=run.learner.cpus,
            gpus=run.learner.gpus,
            env=env,
            session=session,
        )
        slots = {name: len(s.slots) for name, s in schedules.items()}
        units += protocol_units(str(run.directory), slots, keeps[protocol.learner], base)
    return units


def dry_run(spec: SweepSpec) -> list[str]:
    """The plays ``spec`` makes, one protocol a block, listed without playing, building or writing anything.

    Each protocol is named by its directory, learner variant (its class and arguments), setting and
    seed, and what one play asks of the engine; under it, its plays in the order they are started
    (a test after the stream it starts from). Nothing is imported but the spec's configurations,
    which the spec was already checked against.
    """
    lines = [
        f"sweep {spec.name}: {len(spec.variants)} learner variant(s) x {len(spec.configs)} configuration(s) "
        f"x {len(spec.users)} number(s) of users x {len(spec.seeds)} seed(s) = {len(spec.protocols())} "
        f"protocol(s), {len(spec.protocols()) * len(PLAN.plays)} plays (nothing played: --dry-run)"
    ]
    for run in spec.protocols():
        variant = run.learner
        kwargs = json.dumps(dict(variant.kwargs), sort_keys=True)
        lines += [
            "",
            f"{run.directory}: {variant.label} ({variant.learner} {kwargs}) on {run.setting}, "
            f"seed {run.seed}, {variant.cpus:g} cpu(s) and {variant.gpus:g} gpu(s) a play",
        ]
        for play in PLAN.one_by_one():
            after = f" (after {', '.join(play.after)})" if play.after else ""
            lines.append(f"  {play.name}{after}")
    return lines


class _Tracker:
    """The driver's view of its units: status, attempts, what runs, and the progress it reports."""

    def __init__(self, units: list[Unit], session: str) -> None:
        self.units = {u.id: u for u in units}
        self.status = {u.id: ("skipped" if is_finished(u) else "waiting") for u in units}
        self.attempts = dict.fromkeys(self.units, 0)
        self.failures: dict[str, str] = {}
        self.session = session
        self.start = time.monotonic()
        self.baseline = self._instances_done({})

    def ready(self) -> list[Unit]:
        """Waiting units whose units before them finished (streams first, then the longest)."""
        out = []
        for unit_id, state in self.status.items():
            if state != "waiting":
                continue
            before = [self.status[a] for a in self.units[unit_id].after]
            if any(s == "failed" for s in before):
                self.fail(unit_id, "a unit it waits for failed")
            elif all(s in _FINISHED for s in before):
                out.append(self.units[unit_id])
        return sorted(out, key=lambda u: (u.kind == "conclude", u.play != Play.STREAM, -u.slots, u.id))

    def fail(self, unit_id: str, message: str) -> None:
        """Mark a unit failed, and every unit waiting for it."""
        self.status[unit_id] = "failed"
        self.failures[unit_id] = message

    def _instances_done(self, running: Mapping[str, Unit]) -> int:
        total = 0
        for unit_id, unit in self.units.items():
            if self.status[unit_id] in _FINISHED:
                total += unit.slots
            elif unit_id in running:
                seen = read_progress(unit.options.out, unit.play)
                if seen and seen["session"] == self.session:
                    total += min(int(seen["instances_done"]), unit.slots)
        return total

    def report(self, running: Mapping[str, Unit], final: bool = False) -> SweepProgress:
        """The progress now."""
        done_now = self._instances_done(running)
        total = sum(u.slots for u in self.units.values())
        played = done_now - self.baseline
        elapsed = time.monotonic() - self.start
        eta = elapsed * (total - done_now) / played if played > 0 else None
        started = sum(
            1
            for u in running.values()
            if (progress := read_progress(u.options.out, u.play)) and progress["session"] == self.session
        )
        count = {s: sum(1 for v in self.status.values() if v == s) for s in ("waiting", "failed")}
        return SweepProgress(
            units=len(self.units),
            done=sum(1 for v in self.status.values() if v in _FINISHED),
            running=started,
            failed=count["failed"],
            waiting=count["waiting"] + len(running) - started,
            instances_done=done_now,
            instances_total=total,
            eta=0.0 if final else eta,
            final=final,
        )


def _collect(engine: Engine, tracker: _Tracker, flight: dict[object, Unit], retries: int) -> None:
    """Wait up to a second for units to finish, and record what each gave."""
    for handle in engine.wait(list(flight), timeout=1.0):
        unit = flight.pop(handle)
        try:
            result = engine.result(handle)
        except WorkerLost as err:
            tracker.attempts[unit.id] += 1
            if engine.retries_itself or tracker.attempts[unit.id] > retries:
                tracker.fail(unit.id, f"its worker died: {err}")
            else:
                tracker.status[unit.id] = "waiting"  # resubmitted: it resumes where it stopped
            continue
        tracker.status[unit.id] = result.status
        if result.status == "failed":
            tracker.fail(unit.id, result.error or "failed")


def _drive(units: list[Unit], engine: Engine, options: SweepOptions, session: str) -> SweepResult:
    tracker = _Tracker(units, session)
    slots = options.max_parallel or engine.slots
    flight: dict[object, Unit] = {}
    last = 0.0
    while True:
        for unit in tracker.ready()[: max(0, slots - len(flight))]:
            tracker.status[unit.id] = "submitted"
            flight[engine.submit(unit)] = unit
        if not flight:
            break
        _collect(engine, tracker, flight, options.spec.run.retries)
        if options.progress and time.monotonic() - last >= 1.0:
            last = time.monotonic()
            options.progress(tracker.report({u.id: u for u in flight.values()}))
    if options.progress:
        options.progress(tracker.report({}, final=True))
    return SweepResult(options.out, dict(tracker.status), dict(tracker.failures))


def run_sweep(options: SweepOptions) -> SweepResult:
    """Play (or resume) every protocol of the sweep on the engine; every unit's status.

    The table is not written here: see
    [`continual_arc.sweep.table.write_table`][continual_arc.sweep.table.write_table].

    Raises:
        EngineError: the engine cannot be started.
        LearnerSpecError, ProtocolError: see [`plan`][continual_arc.sweep.driver.plan].
    """
    session = f"{os.getpid()}-{time.time_ns()}"
    units = plan(options.spec, options.out, session)
    engine = make_engine(
        options.engine, address=options.address, slots=options.max_parallel, retries=options.spec.run.retries
    )
    try:
        return _drive(units, engine, options, session)
    finally:
        engine.close()
