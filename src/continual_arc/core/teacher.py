"""A learner's teacher: how it is named, how its compute is counted, and when its play is an experiment.

A learner may be taught by a second model, the **teacher**: a stronger model that writes its notes,
labels the states it met, or plays an instance before it. The teacher is named like the student, as a
published checkpoint used unchanged: an OpenRouter model id (``org/name``), or a Hugging Face
repository pinned to one commit (``org/name@commit``), checked by
[check_teacher_name][continual_arc.core.teacher.check_teacher_name]. A learner names it in its keywords
(``teacher``, [TEACHER_KWARG][continual_arc.core.teacher.TEACHER_KWARG]), so that ``submission.json``
names it too.

The teacher's calls are part of the learner's training: a learner reports them with its optional
``teacher_resources()`` ([HasTeacher][continual_arc.play.learner.HasTeacher]), cumulative counters
kept in every record as ``teacher_resources`` apart from the student's ``resources``, shown by
``report`` as training compute beside the score and never in it. Their keys are those of
[TEACHER_COUNTERS][continual_arc.core.teacher.TEACHER_COUNTERS].

One kind of teaching is not a learner at all: a teacher that plays the stream's instances itself
before the student, whose demonstrations and verdicts go uncharged (the reference's rows QT, QTE and
QETE). Such a run reports ``uncharged_plays`` above zero, its records are marked with the
experiment [UNCHARGED_TEACHER][continual_arc.core.teacher.UNCHARGED_TEACHER], and it is an upper
bound on what a teacher can pass on: ``check`` accepts it as an experiment, the leaderboard lists it
apart, and ``verify`` refuses it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

__all__ = [
    "TEACHER_COUNTERS",
    "TEACHER_KWARG",
    "UNCHARGED_TEACHER",
    "check_teacher_name",
    "experiment_of",
    "teacher_of",
    "uncharged_plays",
]

TEACHER_KWARG = "teacher"
"""The learner keyword naming its teacher model (absent or ``null`` for none)."""

UNCHARGED_TEACHER = "uncharged_teacher"
"""The record's ``experiment`` for a learner whose teacher played instances uncharged (QT, QTE, QETE)."""

TEACHER_COUNTERS = (
    "calls",
    "prompt_tokens",
    "completion_tokens",
    "reasoning_tokens",
    "cost",
    "refused_calls",
    "uncharged_plays",
)
"""The keys of ``teacher_resources``: the teacher's calls, tokens and cost (USD) as the tracking
proxy counted them under the teacher's own run name, and ``uncharged_plays``, the instances the
teacher played itself with nothing charged (zero for a teacher that only labels or advises)."""

_MODEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*")
_COMMIT = re.compile(r"[0-9a-f]{7,40}")


def check_teacher_name(name: object) -> str:
    """The teacher's name if it names a published checkpoint, as the student's must.

    Accepted: an OpenRouter id ``org/name`` (no ``:variant``: the tracking proxy serves models exactly
    as named) or open weights ``org/name@commit`` (a Hugging Face repository at a commit, 7 to 40
    lowercase hexadecimal digits).

    Raises:
        ValueError: anything else, in one sentence saying what a teacher's name looks like.
    """
    if isinstance(name, str):
        model, at, commit = name.partition("@")
        if _MODEL.fullmatch(model) and (not at or _COMMIT.fullmatch(commit)):
            return name
    raise ValueError(
        f"teacher {name!r} names no published model: give an OpenRouter id 'org/name' or open "
        "weights 'org/name@commit' (a Hugging Face repository at a commit)"
    )


def teacher_of(learner_kwargs: Mapping[str, object]) -> str | None:
    """The teacher a learner's keywords name, ``None`` when they name none.

    Raises:
        ValueError: the keyword is given but names no published model.
    """
    name = learner_kwargs.get(TEACHER_KWARG)
    return None if name is None else check_teacher_name(name)


def uncharged_plays(records: Iterable[Mapping[str, object]]) -> int:
    """The instances a learner's teacher played uncharged by the last of ``records`` (counters accumulate)."""
    most = 0.0
    for record in records:
        counters = record.get("teacher_resources")
        if isinstance(counters, Mapping):
            value = counters.get("uncharged_plays", 0.0)
            if isinstance(value, int | float) and not isinstance(value, bool):
                most = max(most, float(value))
    return int(most)


def experiment_of(records: Iterable[Mapping[str, object]]) -> str | None:
    """The experiment a run's records are marked with, ``None`` for an ordinary learner's run.

    A run is [UNCHARGED_TEACHER][continual_arc.core.teacher.UNCHARGED_TEACHER] when any record is
    marked so or reports a teacher's uncharged play: a mark cannot be dropped from some records only.
    """
    marked = False
    chosen = list(records)
    for record in chosen:
        if record.get("experiment") == UNCHARGED_TEACHER:
            marked = True
    return UNCHARGED_TEACHER if marked or uncharged_plays(chosen) > 0 else None
