"""A submission's teacher, as the checker and the verifier read it: named, consistent, and any experiment.

A result names the model that teaches its student in ``submission.json``'s ``teacher`` (``null`` for
none), named as the student is (an OpenRouter id or ``org/name@commit``). Every run whose learner
keywords name a teacher names that one: a result cannot say one teacher and play another. A run whose
teacher played instances uncharged is an experiment
([UNCHARGED_TEACHER][continual_arc.core.teacher.UNCHARGED_TEACHER]): ``check`` accepts it and says so,
the leaderboard lists it apart, ``verify`` refuses it (`EXPERIMENT_REFUSAL`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ..core.teacher import TEACHER_KWARG, UNCHARGED_TEACHER, check_teacher_name, experiment_of
from .check_run import LoadedRun

__all__ = ["EXPERIMENT_NOTES", "EXPERIMENT_REFUSAL", "experiment_of", "result_experiment", "teacher_problems"]

EXPERIMENT_NOTES: Mapping[str, str] = {
    UNCHARGED_TEACHER: (
        "an experiment, not a learner: its teacher played stream instances itself with their "
        "demonstrations and verdicts uncharged (an upper bound on what a teacher can pass on)"
    ),
}
"""What ``check`` says of a result marked with each experiment."""

EXPERIMENT_REFUSAL = (
    "this result is an experiment whose teacher played instances uncharged, not a learner the "
    "benchmark verifies: only a learner that pays for everything it is shown can be verified"
)
"""The one sentence ``verify`` refuses an experiment with."""


def result_experiment(runs: Mapping[str, LoadedRun]) -> str | None:
    """The experiment any run of a result is marked with, ``None`` for an ordinary learner's result."""
    for run in runs.values():
        found = experiment_of(run.records or [])
        if found is not None:
            return found
    return None


def teacher_problems(
    runs: Mapping[str, LoadedRun], submission: Mapping[str, object], root: Path
) -> list[str]:
    """What is wrong with the teacher a submission names: its name, or runs whose learner names another.

    Args:
        runs: the submission's runs as the checker loaded them, by role.
        submission: ``submission.json``.
        root: the result directory, for the messages.
    """
    problems: list[str] = []
    named = submission.get(TEACHER_KWARG)
    if named is not None:
        try:
            check_teacher_name(named)
        except ValueError as err:
            problems.append(f"{root / 'submission.json'}: {err}")
    for role, run in sorted(runs.items()):
        if run.meta is None or role.endswith(("-bare", "-floor")):
            continue  # the bare model and the floor are other learners, taught by nobody
        kwargs = run.meta["learner"].get("kwargs")
        played = kwargs.get(TEACHER_KWARG) if isinstance(kwargs, Mapping) else None
        if played is not None and played != named:  # keywords naming none: the learner's default
            problems.append(
                f"{run.path / 'meta.json'}: the learner's teacher is {played!r} but submission.json "
                f"names {named!r}: a result names the teacher its learner played with"
            )
    return problems
