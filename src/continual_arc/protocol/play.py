"""The whole canonical protocol in one call: the stream, the two frozen tests, the reset on each.

``play_protocol`` plays six runs into one directory, laid out as a submission holds them
([`plays.PROTOCOL_PLAYS`][continual_arc.protocol.plays.PROTOCOL_PLAYS]):

* ``stream``: the learner on the configuration's stream (no epilogue);
* ``held-out``, ``seen``: each frozen test, played from the end of the stream with its own copy
  of the learner's state (``load_state`` of what the stream saved, or a deep copy for a learner
  that cannot save) in a directory holding the stream's ``alias-salt``;
* ``stream-reset``, ``held-out-reset``, ``seen-reset``: the same learner, built anew with the same
  arguments, reset before every instance (``--reset-each`` and width 1).

The plays, their order and what each waits for are [`PLAN`][continual_arc.protocol.plan.PLAN]'s.
Independent plays run in parallel processes (``jobs``); the tests wait for the stream, and this
process draws the stream's plots while they play. Every play resumes where it stopped, so the
whole call does too. At the end it writes ``protocol.json`` (the plane, the share learned, what was
played) and the plots, and a ``submission.json`` to fill in.
"""

from __future__ import annotations

import copy
import shutil
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path

from ..core.config import Config
from ..core.learner_ref import LearnerRef
from ..core.records import Play
from ..measure.plots import load_matplotlib
from ..measure.summary import Stopped, Summary
from ..play.aliases import SALT_FILE
from ..play.declared import track_default_learner
from ..play.learner import AnyLearner, Keeps, built_keeps, declared_keeps, import_target, load_learner
from ..stream.schedule import Schedule
from ..tracks.registry import get_config, get_track
from .conclude import ProtocolDocument, conclude, stream_plots
from .jobs import PlayJob, final_state, play_job, release
from .options import ProtocolOptions
from .plan import PLAN, PlannedPlay, stream_start
from .plays import PROTOCOL_PLAYS, ProtocolError, ProtocolStopped, play_finished, protocol_schedules
from .progress import ProtocolWatch, resume_note
from .spec import ProtocolSpec
from .unplayed import removed_if_unplayed

__all__ = [
    "ProtocolError",
    "ProtocolOptions",
    "ProtocolSpec",
    "ProtocolStopped",
    "default_learner",
    "learner_keeps",
    "planned_job",
    "play_protocol",
    "protocol_job",
    "write_schedules",
]


def default_learner(config: Config | str) -> str:
    """The learner the protocol plays on ``config`` (or the configuration so named) when none is named.

    It is the one an installed package declares for the configuration's track.

    Raises:
        LearnerSpecError: no installed package declares one
            ([`track_default_learner`][continual_arc.play.declared.track_default_learner]).
    """
    resolved = get_config(config) if isinstance(config, str) else config
    return track_default_learner(get_track(resolved.track))


def protocol_job(
    spec: ProtocolSpec,
    options: ProtocolOptions,
    name: str,
    state: Path | None = None,
    salt: Path | None = None,
) -> PlayJob:
    """The job of play ``name`` of the protocol (from ``state`` under the names in ``salt``, if given)."""
    return PlayJob(
        name=name,
        out=options.out / PROTOCOL_PLAYS[name],
        schedule=options.out / "schedules" / f"{name}.json",
        learner=spec.learner,
        state=state,
        salt=salt,
        options=options.run,
        lines=options.play_lines,
    )


def planned_job(spec: ProtocolSpec, options: ProtocolOptions, play: PlannedPlay, stateless: bool) -> PlayJob:
    """The job of a planned play, a test starting from the stream's end as the plan says."""
    state = None if stateless or not play.from_stream else _final_state(options)
    return protocol_job(spec, options, play.name, *stream_start(options.out, play, state))


def learner_keeps(learner: LearnerRef) -> Keeps:
    """Whether the learner saves its state, and whether it is stateless, as its class declares.

    Read from the class without building it ([`declared_keeps`][continual_arc.play.learner.declared_keeps]);
    a learner named by a factory that is not a class, or a subclass that an inherited declaration does
    not speak for, is built once to see.

    Raises:
        LearnerSpecError: the learner cannot be imported (or, a factory, built).
    """
    target = import_target(learner.path)
    declared = declared_keeps(target, learner.kwargs) if isinstance(target, type) else None
    if declared is not None:
        return declared
    probe = load_learner(learner.path, learner.kwargs)
    try:
        return built_keeps(probe)
    finally:
        release(probe)


def _final_state(options: ProtocolOptions) -> Path | None:
    return final_state(options.out / PROTOCOL_PLAYS[Play.STREAM])


def _run_all(
    spec: ProtocolSpec, options: ProtocolOptions, keeps: Keeps, watch: ProtocolWatch
) -> tuple[list[Path] | None, dict[str, Stopped]]:
    """Play the six runs: in parallel processes where the learner can carry its state across.

    Every play is started, in the plan's order, as soon as the plays it waits for have finished;
    once the spend cap has stopped one, no other is started (those playing end as they end).

    Returns:
        The stream's plots when they were drawn here while the tests played (``None``: not drawn),
        and the stop of each play the spend cap stopped.
    """
    if options.jobs <= 1 or not keeps.crosses_processes:
        return None, _run_here(spec, options, keeps, watch)
    drawn = None
    finished: set[str] = set()
    stopped: dict[str, Stopped] = {}
    with ProcessPoolExecutor(max_workers=options.jobs) as pool:
        running: dict[Future[Summary], str] = {}

        def start_ready() -> None:
            for play in PLAN.ready(finished):
                if play.name not in running.values() and not stopped:
                    job = planned_job(spec, options, play, keeps.stateless)
                    running[pool.submit(play_job, job)] = play.name

        start_ready()
        # This process only waits while the workers play (they are forked by now): it spends that
        # time on the end's work that needs no test, instead of after the last play.
        if options.plots:
            load_matplotlib()
        while running:
            done, _ = wait(running, timeout=watch.every, return_when=FIRST_COMPLETED)
            watch()
            for future in done:
                name = running.pop(future)
                summary = future.result()
                if "stopped" in summary:
                    stopped[name] = summary["stopped"]
                else:
                    finished.add(name)
            start_ready()
            if options.plots and drawn is None and {Play.STREAM, Play.STREAM_RESET} <= finished:
                drawn = stream_plots(options.out)  # they read the stream and its reset
    return drawn, stopped


def _run_here(
    spec: ProtocolSpec, options: ProtocolOptions, keeps: Keeps, watch: ProtocolWatch
) -> dict[str, Stopped]:
    """Every play in this process, one by one; each learner built here is closed after its play.

    A test of a learner that cannot save its state plays a deep copy of the learner the stream left.
    The first play the spend cap stops ends the protocol: its stop is returned, by play name.
    """
    stream: AnyLearner | None = None
    try:
        for play in PLAN.one_by_one():
            job = planned_job(spec, options, play, keeps.stateless)
            if play_finished(job.out):
                continue  # finished (a resumed run's summary is removed first and written last)
            if play.name == Play.STREAM:
                stream = load_learner(spec.learner.path, spec.learner.kwargs)
                summary = play_job(job, stream, progress=watch)
                if keeps.crosses_processes:  # the tests build their own
                    release(stream)
                    stream = None
            elif not play.from_stream or keeps.crosses_processes:
                summary = play_job(job, progress=watch)
            else:
                summary = _play_copy(job, stream, watch)
            if "stopped" in summary:
                return {play.name: summary["stopped"]}
    finally:
        if stream is not None:
            release(stream)
    return {}


def _play_copy(job: PlayJob, stream: AnyLearner | None, watch: ProtocolWatch) -> Summary:
    """A test played by a deep copy of the learner the stream left in this process; its summary."""
    if stream is None or (job.out / "meta.json").exists():
        raise ProtocolError(
            f"{job.out} was left unfinished, and the learner cannot save its state: "
            f"delete that directory and run again to replay the test from the stream's end"
        )
    assert job.salt is not None  # a test plays under the stream's names
    job.out.mkdir(parents=True, exist_ok=True)
    shutil.copy(job.salt, job.out / SALT_FILE)
    learner = copy.deepcopy(stream)
    try:
        return play_job(job, learner, progress=watch)
    finally:
        release(learner)


def write_schedules(spec: ProtocolSpec, options: ProtocolOptions) -> dict[str, Schedule]:
    """Write the six plays' schedules into the protocol directory; the schedules, by play.

    Raises:
        ProtocolError: the directory holds another protocol's schedules, or is not empty and holds
            no protocol (anything but a protocol being resumed is left alone).
    """
    out = options.out
    if out.is_dir() and any(out.iterdir()) and not (out / "schedules").is_dir():
        raise ProtocolError(f"{out} is not empty and holds no protocol: give the protocol an empty --out")
    out.mkdir(parents=True, exist_ok=True)
    schedules = protocol_schedules(spec.config, spec.seed, spec.users)
    for name, schedule in schedules.items():
        path = out / "schedules" / f"{name}.json"
        if path.exists() and Schedule.load(path, verify=False) != schedule:
            raise ProtocolError(f"{out} holds another protocol ({path} differs); choose another --out")
        schedule.save(path)
    return schedules


def play_protocol(spec: ProtocolSpec, options: ProtocolOptions) -> ProtocolDocument:
    """Play (or resume) the whole protocol ``spec`` as ``options`` say; ``protocol.json``'s content.

    A call that fails before any play started removes what it wrote into a folder that was new or
    empty ([`removed_if_unplayed`][continual_arc.protocol.unplayed.removed_if_unplayed]).

    Raises:
        ProtocolStopped: the spend cap stopped a play (its ``stopped.json`` says where); every
            committed round is kept, and the same call with a raised cap continues the protocol.
        ProtocolError: the directory holds another protocol, or a test cannot get the stream's
            state.
    """
    with removed_if_unplayed(options.out):
        return _play_protocol(spec, options)


def _play_protocol(spec: ProtocolSpec, options: ProtocolOptions) -> ProtocolDocument:
    out = options.out
    sizes = {name: len(schedule.slots) for name, schedule in write_schedules(spec, options).items()}
    note = resume_note(out, sizes)
    if note is not None and options.notes is not None:
        options.notes(note)
    keeps = learner_keeps(spec.learner)
    if (out / PROTOCOL_PLAYS[Play.STREAM] / "meta.json").exists() and not keeps.crosses_processes:
        # The stream's end lived in the process that played it: a resume can finish the resets,
        # never a test that still needs that end.
        needs_end = [p.name for p in PLAN if p.name == Play.STREAM or p.from_stream]
        if not all(play_finished(out / PROTOCOL_PLAYS[name]) for name in needs_end):
            raise ProtocolError(
                f"{spec.learner.path} cannot save its state, so an unfinished protocol cannot resume"
            )
    watch = ProtocolWatch(out, sizes, options.progress or (lambda _: None))
    drawn, stopped = _run_all(spec, options, keeps, watch)
    watch()
    if stopped:
        raise ProtocolStopped(stopped)
    return conclude(spec, options, drawn)
