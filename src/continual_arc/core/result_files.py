"""A result directory's own files beside its runs: ``submission.json`` and ``verification.json``.

``continual-arc protocol`` and ``verify`` write ``submission.json`` (a person then fills in who made
the learner and where its code is); ``verify`` writes ``verification.json``, its mode, seed, learner,
what it was about and what its sandbox enforced. Every reader (the checker, the leaderboard, a
rebuild, an experiment's table) reads them through
[`read_submission`][continual_arc.core.result_files.read_submission] and
[`read_verification`][continual_arc.core.result_files.read_verification]: validated against the
declarations here, so that a field of the wrong type (``"seed": "7"``) is refused in one sentence
naming the file and the field, not met as a ``TypeError`` somewhere down the line.

Each field a person may leave out is optional, as every earlier release wrote them; a field the
file adds beyond these (a note of one's own) is kept, as a person may add one.
"""

from __future__ import annotations

from pathlib import Path
from typing import NotRequired

# pydantic reads a TypedDict from typing_extensions only, on Python 3.11 (core.documents validates them).
from typing_extensions import TypedDict

from .documents import validate_document
from .files import read_json
from .records import JSONObject, JSONValue, keeps_extra

__all__ = ["Submission", "SubmittedTest", "Verification", "read_submission", "read_verification"]


@keeps_extra
class SubmittedTest(TypedDict):
    """One frozen test as ``submission.json`` names its runs: the learner's, its reset's, and beside them."""

    run: str | None
    reset: str | None
    bare: NotRequired[str | None]
    floor: NotRequired[str | None]


@keeps_extra
class Submission(TypedDict, total=False):
    """``submission.json``: what the result is, who made it, and which folder holds each run.

    ``student``, ``code`` and ``contact`` are ``null`` until a person fills them in (a draft);
    ``stream`` and ``reset`` name the stream's runs, ``tests`` each frozen test's.
    """

    name: str | None
    learner: str | None
    learner_kwargs: JSONObject | None
    student: str | None
    effort: str | None
    teacher: str | None
    code: str | None
    contact: str | None
    stream: str | None
    reset: str | None
    tests: dict[str, SubmittedTest]
    notes: str | None


@keeps_extra
class Verification(TypedDict):
    """``verification.json``: a ``verify`` rerun's mode, seed, learner and configuration, and its sandbox.

    ``isolation`` (what each kind of play's sandbox enforced) and ``limits`` are written when the
    plays end; a verification without them did not finish.
    """

    mode: str
    seed: int
    learner: str
    config: NotRequired[str]
    about: NotRequired[dict[str, JSONValue]]
    isolation: NotRequired[dict[str, JSONObject]]
    limits: NotRequired[JSONObject]


def read_submission(path: Path) -> Submission:
    """``submission.json`` at ``path``, validated.

    Raises:
        FileNotFoundError: there is no such file.
        RecordsError: the file is not valid JSON.
        DocumentError: it is not a submission: the sentence names the file and the field.
    """
    return validate_document(Submission, read_json(path), str(path))


def read_verification(path: Path) -> Verification:
    """``verification.json`` at ``path``, validated.

    Raises:
        FileNotFoundError: there is no such file.
        RecordsError: the file is not valid JSON.
        DocumentError: it is not a verification's marker: the sentence names the file and the field.
    """
    return validate_document(Verification, read_json(path), str(path))
