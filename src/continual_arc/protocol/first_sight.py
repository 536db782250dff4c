"""``continual-arc first-sight``: what a learner solves the first time it meets each public task.

The learner plays [`first_sight_schedule`][continual_arc.stream.first_sight.first_sight_schedule] (one
instance of each pool task and each held-out task, wiped before each) into a run directory, resuming where a
killed run stopped. The share solved is the tracks table's "at first sight" column.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

# the form pydantic reads on 3.11: the document is read back through its declaration
from typing_extensions import TypedDict

from ..core.config import Config
from ..core.jsonable import fields_json
from ..core.learner_ref import LearnerRef
from ..core.records import JSONObject, Phase, Record
from ..measure.budget import budget_used, primary, share_solved
from ..play.learner import load_learner
from ..play.options import RunOptions, RunProgress
from ..play.runner import run
from ..stream.first_sight import first_sight_schedule

__all__ = ["FirstSight", "FirstSightPart", "play_first_sight"]

_PARTS = {Phase.STREAM: "pool", Phase.HELD_OUT: Phase.HELD_OUT}
"""The part of the tasks each phase plays at first sight, by its name in the document (the held-out
part named as its phase)."""


class FirstSightPart(TypedDict):
    """A learner at first sight over a part of the tasks: how many, solved, share solved, budget used."""

    tasks: int
    solved: int
    share_solved: float | None
    budget_used: float | None


@dataclass(frozen=True)
class FirstSight:
    """A learner at first sight: share solved and budget used, over every task and per part.

    Attributes:
        parts: ``{"pool" | "held-out" | "all": {"tasks", "solved", "share_solved", "budget_used"}}``.
        out: the run directory.
    """

    config: str
    learner: str
    parts: dict[str, FirstSightPart]
    out: Path

    def to_json(self) -> JSONObject:
        """The result as JSON (every field, by [`fields_json`][continual_arc.core.jsonable.fields_json])."""
        return fields_json(self)


def _part(records: Sequence[Record]) -> FirstSightPart:
    return {
        "tasks": len(records),
        "solved": sum(1 for r in records if r["solved"]),
        "share_solved": share_solved(records),
        "budget_used": budget_used(records),
    }


def play_first_sight(
    config: Config,
    learner: LearnerRef,
    out: Path,
    *,
    seed: int = 0,
    options: RunOptions | None = None,
    progress: Callable[[RunProgress], None] | None = None,
) -> FirstSight:
    """Play (or resume) first sight of ``config``'s public tasks with ``learner``.

    ``options`` says how to play (a time limit, the names the learner sees); the run always resumes.

    Raises:
        LearnerSpecError: the learner cannot be imported or built.
        RunDirError: ``out`` holds another run.
    """
    schedule = first_sight_schedule(config, seed)
    options = replace(options or RunOptions(), resume=True, learner=learner, progress=progress)
    result = run(load_learner(learner.path, learner.kwargs), schedule, out, options)
    records = primary(result.records)
    parts = {name: _part([r for r in records if r["phase"] == phase]) for phase, name in _PARTS.items()}
    parts["all"] = _part(records)
    return FirstSight(schedule.meta["config"], learner.path, parts, out)
