"""How to run, where a run stands, and what a finished run gives back."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..core.learner_ref import LearnerRef
from ..core.records import Record, RunMeta, is_primary
from ..measure.budget import instance_charge
from ..measure.summary import Stopped, Summary
from .plugins import Addon, Plugin

__all__ = ["ProgressTally", "RunOptions", "RunProgress", "RunResult", "played_with"]


@dataclass(frozen=True)
class RunProgress:
    """Where a run stands, reported after every committed round, and once as a resumed run opens.

    Attributes:
        resumed: this report opens a resumed run (the rounds done are those it resumes from).
    """

    rounds_done: int
    rounds_total: int
    instances_done: int
    instances_total: int
    budget_used: float | None
    errored: int
    resumed: bool = False


class ProgressTally:
    """The counts a progress report needs, kept up as records come instead of recounted every round."""

    def __init__(self) -> None:
        self.seen = self.instances = self.errored = 0
        self.charges = 0.0

    def update(self, records: Sequence[Record]) -> None:
        """Count the records added since the last update (primary ones only, as the budget does)."""
        for record in records[self.seen :]:
            if is_primary(record):
                self.instances += 1
                self.charges += instance_charge(record)
                self.errored += bool(record.get("error"))
        self.seen = len(records)

    def budget_used(self) -> float | None:
        """``U`` over the primary records counted (`budget_used`)."""
        return self.charges / self.instances if self.instances else None


@dataclass(frozen=True)
class RunOptions:
    """How to run.

    Attributes:
        resume: continue the run already in the directory (replaying an unfinished round).
        alias_style: ``hash`` (``task-3f2a9c1e``) or ``names`` (codenames).
        max_concurrent: a concurrent learner's users served at once (default: the whole round).
        plugins: plug-ins ([`continual_arc.play.plugins`][continual_arc.play.plugins]), in order; each sees
            what the one before it returned. Recorded by import path in ``meta.json`` and checked on resume.
        fail_fast: stop the run at the first learner fault instead of failing the instance.
        instance_time_limit: seconds an instance may take before it ends unsolved.
        learner: the learner's import path and arguments, recorded in ``meta.json`` (as
            ``{"class": "module:Class", "kwargs": {...}}``) and checked on resume (the command line
            fills it in).
        progress: called with a [`RunProgress`][continual_arc.play.options.RunProgress] after every committed
            round.
    """

    resume: bool = False
    alias_style: str = "hash"
    max_concurrent: int | None = None
    plugins: Sequence[Plugin | Addon] = ()
    fail_fast: bool = False
    instance_time_limit: float | None = None
    learner: LearnerRef | None = None
    progress: Callable[[RunProgress], None] | None = None


@dataclass(frozen=True)
class RunResult:
    """A finished run: its directory, every record, and the summary written last.

    Attributes:
        stopped_by: the plug-in that stopped the run early, if one did.
        stopped: the spend cap's stop, when it ended the run before its schedule did (the same
            as the summary's ``stopped``).
    """

    out_dir: Path
    records: list[Record]
    summary: Summary
    stopped_by: str | None = None
    stopped: Stopped | None = None


def played_with(meta: RunMeta) -> RunOptions:
    """The options a run was played with, as its ``meta.json`` records them (a run's tests play the same)."""
    return RunOptions(
        alias_style=meta.get("alias_style", "hash"),
        max_concurrent=meta.get("max_concurrent"),
        instance_time_limit=meta.get("instance_time_limit"),
    )
