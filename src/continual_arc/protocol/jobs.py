"""One play of a protocol as a job: everything a worker process needs to play or resume a run.

The protocol's plays and ``continual-arc test`` run through
[`play_job`][continual_arc.protocol.jobs.play_job]: the learner built anew from its import path and arguments,
given the stream's end state (``load_state``) and the stream's task names (its ``alias-salt``) where the play
needs them, and played with ``resume`` so that a play killed midway continues where it stopped.
"""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..core.learner_ref import LearnerRef
from ..measure.summary import Summary
from ..play.aliases import SALT_FILE
from ..play.learner import AnyLearner, Closes, LoadsState, load_learner
from ..play.options import RunOptions, RunProgress
from ..play.runner import run
from ..stream.schedule import Schedule

__all__ = ["PlayJob", "ProgressLines", "final_state", "play_job", "prepare", "release"]


@dataclass(frozen=True)
class PlayJob:
    """One play, as a worker process receives it (everything picklable).

    Not a protocol's spec: a job is one of its plays (or a test, or a floor), with its own directory,
    schedule file and starting state, and the run options it is played with.

    Attributes:
        name: the play's name, which prefixes its progress lines.
        out: its run directory.
        schedule: its schedule file.
        learner: the learner, by import path and arguments.
        state: the saved state to start from (the stream's end), or ``None``.
        salt: the ``alias-salt`` to play under (the stream's), or ``None``.
        options: how to play (the runner's options; the job sets ``resume``, the learner's spec and
            progress itself).
        lines: print the play's own progress lines (the protocol's display, behind ``-v``).
    """

    name: str
    out: Path
    schedule: Path
    learner: LearnerRef
    state: Path | None
    salt: Path | None
    options: RunOptions = field(default_factory=RunOptions)
    lines: bool = True


class ProgressLines:
    """Progress as prefixed lines, at most every few seconds: several processes share stderr.

    Args:
        name: the prefix.
        every: the least seconds between two lines (the last is always printed).
    """

    def __init__(self, name: str, every: float = 5.0) -> None:
        self.name, self.every, self.last = name, every, 0.0

    def __call__(self, p: RunProgress) -> None:
        """Print where the run stands, unless a line was printed less than ``every`` seconds ago."""
        now = time.monotonic()
        if p.resumed:
            print(f"[{self.name}] resuming after round {p.rounds_done}/{p.rounds_total}", file=sys.stderr)
            return
        if now - self.last < self.every and p.rounds_done < p.rounds_total:
            return
        self.last = now
        used = "-" if p.budget_used is None else f"{p.budget_used:.1f}"
        errored = f", {p.errored} errored" if p.errored else ""
        print(
            f"[{self.name}] round {p.rounds_done}/{p.rounds_total}, instances {p.instances_done}/"
            f"{p.instances_total}, U {used}{errored}",
            file=sys.stderr,
            flush=True,
        )


def prepare(job: PlayJob) -> AnyLearner:
    """The job's learner, built from its import path, with the stream's end state and names where given."""
    learner = load_learner(job.learner.path, job.learner.kwargs)
    job.out.mkdir(parents=True, exist_ok=True)
    if job.salt is not None and not (job.out / SALT_FILE).exists():
        shutil.copy(job.salt, job.out / SALT_FILE)  # the names the stream gave its tasks
    if job.state is not None:
        # The stream's end state; once the test has committed its round, the runner's own resume
        # replaces it with the test's saved state.
        assert isinstance(learner, LoadsState)  # a job is given a state only if it loads one (_saves_state)
        learner.load_state(job.state)
    return learner


def play_job(
    job: PlayJob, learner: AnyLearner | None = None, progress: Callable[[RunProgress], None] | None = None
) -> Summary:
    """Play (or resume) one run, in a worker process or here; its summary.

    Args:
        job: the play.
        learner: the learner to play (default: built by [`prepare`][continual_arc.protocol.jobs.prepare], and
            closed after it if it can be: [`release`][continual_arc.protocol.jobs.release]).
        progress: where progress goes, besides the play's own prefixed lines on stderr when the
            job prints them (``lines``).
    """
    built = learner is None
    player = prepare(job) if learner is None else learner
    lines = ProgressLines(job.name) if job.lines else None
    shown = [show for show in (lines, progress) if show is not None]

    def report(p: RunProgress) -> None:
        for show in shown:
            show(p)

    options = replace(
        job.options,
        resume=True,
        learner=job.learner,
        progress=report,
    )
    try:
        return run(player, Schedule.load(job.schedule), job.out, options).summary
    finally:
        if built:
            release(player)


def release(learner: object) -> None:
    """Close a learner built for one play, so that what it holds (weights, servers) is not kept."""
    if isinstance(learner, Closes):
        learner.close()


def final_state(stream_dir: Path) -> Path | None:
    """The learner's state the runner saved after a stream's last committed round, if any."""
    root = stream_dir / "state"
    states = sorted(root.glob("round-*")) if root.is_dir() else []
    return states[-1] if states else None
