"""The end of a protocol: ``protocol.json`` with the plane, the plots, and ``submission.json`` to fill in."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NotRequired, Protocol, TypedDict

from ..core.config import TESTS
from ..core.files import atomic_write_json
from ..core.records import JSONValue, LearnerSpec, Play, ProtocolBlock
from ..core.teacher import TEACHER_KWARG
from ..measure.plots import plane_plot, run_plots
from ..play.learner import learner_label
from ..play.rundir import read_meta, read_records
from .floor import FLOOR_PLAYS, copy_floor, stream_floors
from .plane import PlanePoint, plane_point
from .plays import PROTOCOL_PLAYS

__all__ = [
    "SUBMISSION_FIELDS",
    "Played",
    "PlayedProtocol",
    "ProtocolDocument",
    "conclude",
    "fill_submission",
    "stream_plots",
]


class Played(Protocol):
    """What was played, as ``conclude`` reads it (``ProtocolOptions`` and `PlayedProtocol` have it)."""

    @property
    def out(self) -> Path:
        """The protocol directory."""
        ...

    @property
    def learner(self) -> str:
        """The learner's import path."""
        ...

    @property
    def learner_kwargs(self) -> Mapping[str, JSONValue]:
        """The learner's arguments."""
        ...

    @property
    def config(self) -> str:
        """The configuration's name."""
        ...

    @property
    def seed(self) -> int:
        """The run seed."""
        ...

    @property
    def users(self) -> int:
        """The number of users."""
        ...

    @property
    def resamples(self) -> int:
        """Bootstrap resamples of the numbers."""
        ...


class ProtocolDocument(TypedDict):
    """``protocol.json``: what was played, its schedule's verdict, the plays' folders, its place on the plane.

    ``plots`` (the files drawn) is in what [`conclude`][continual_arc.protocol.conclude.conclude] returns, not
    in the file.
    """

    format: int
    learner: LearnerSpec
    config: str
    seed: int
    users: int
    protocol: ProtocolBlock
    plays: dict[str, str]
    plane: PlanePoint
    plots: NotRequired[list[str]]


@dataclass(frozen=True)
class PlayedProtocol:
    """A protocol played by other means than ``continual-arc protocol`` (verification)."""

    out: Path
    learner: str
    learner_kwargs: Mapping[str, JSONValue]
    config: str
    seed: int
    users: int
    resamples: int


def stream_plots(out: Path) -> list[Path]:
    """Draw the stream's plots, the reset's beside them, into ``out/plots``; the files written.

    They read only the stream and its reset, so they can be drawn while the tests still play.

    Args:
        out: the protocol directory.
    """
    return run_plots(
        read_records(out / PROTOCOL_PLAYS[Play.STREAM]),
        out / "plots",
        read_records(out / PROTOCOL_PLAYS[Play.STREAM_RESET]),
    )


def conclude(options: Played, drawn: Sequence[Path] | None = None) -> ProtocolDocument:
    """Write ``protocol.json``, ``submission.json`` (unless one exists) and the plots; the document.

    First the track's floor on each test is copied in beside the plays (played once into the data
    directory's cache if it is not there: [stream_floors][continual_arc.protocol.floor.stream_floors]),
    unless ``options.floor`` is false. The plots are left out when ``options.plots`` is false (a
    sweep may ask so). ``protocol.json`` is written last, so a protocol that has one is concluded
    whole.

    Args:
        options: what was played.
        drawn: the files of [`stream_plots`][continual_arc.protocol.conclude.stream_plots] if they were drawn
            already (else they are drawn here).
    """
    out: Path = options.out
    if getattr(options, "floor", True):
        for test, floor in stream_floors(read_meta(out / PROTOCOL_PLAYS[Play.STREAM])).items():
            if floor is not None:
                copy_floor(floor, out / FLOOR_PLAYS[test])
    label = learner_label(options.learner, options.learner_kwargs)
    point = plane_point(out, label=label, resamples=options.resamples)
    stream = read_meta(out / PROTOCOL_PLAYS[Play.STREAM])
    document: ProtocolDocument = {
        "format": 1,
        "learner": {"class": options.learner, "kwargs": dict(options.learner_kwargs)},
        "config": options.config,
        "seed": options.seed,
        "users": options.users,
        "protocol": stream["protocol"],
        "plays": dict(PROTOCOL_PLAYS),
        "plane": point,
    }
    _write_submission(options)
    plots: list[Path] = []
    if getattr(options, "plots", True):
        plots = plane_plot([point], out / "plots")
        plots += stream_plots(out) if drawn is None else list(drawn)
    atomic_write_json(out / "protocol.json", document)  # last: a protocol with it is concluded
    document["plots"] = [str(p) for p in plots]
    return document


SUBMISSION_FIELDS = ("student", "code", "contact")
"""The fields of ``submission.json`` a person fills in (``protocol`` and ``runs store`` take them)."""


def fill_submission(out: Path, fields: Mapping[str, str]) -> None:
    """Fill ``out/submission.json``'s blank ``student``, ``code`` and ``contact`` with ``fields``.

    A field already filled (by hand, or by an earlier call) is kept: the user's own edits win.

    Raises:
        ValueError: a field that is not one a person fills in.
    """
    unknown = sorted(set(fields) - set(SUBMISSION_FIELDS))
    if unknown:
        raise ValueError(f"not a field of submission.json a person fills in: {', '.join(unknown)}")
    path = out / "submission.json"
    submission = json.loads(path.read_text())
    blank = {name: value for name, value in fields.items() if value and not submission.get(name)}
    if blank:
        atomic_write_json(path, {**submission, **blank})


def _teacher_name(learner_kwargs: Mapping[str, object]) -> str | None:
    name = learner_kwargs.get(TEACHER_KWARG)
    return name if isinstance(name, str) else None


def _write_submission(options: Played) -> None:
    path = options.out / "submission.json"
    if path.exists():
        return  # the user's own edits win
    atomic_write_json(
        path,
        {
            "name": f"{learner_label(options.learner, options.learner_kwargs)} on {options.config}, "
            f"seed {options.seed}",
            "learner": options.learner,
            "learner_kwargs": dict(options.learner_kwargs),
            "student": None,
            "effort": None,
            # The model that only teaches the student, as the learner's keywords name it (check
            # refuses a name that is not a published model's, with the reason).
            "teacher": _teacher_name(options.learner_kwargs),
            "code": None,
            "contact": None,
            Play.STREAM: PROTOCOL_PLAYS[Play.STREAM],
            "reset": PROTOCOL_PLAYS[Play.STREAM_RESET],
            "tests": {
                test: {
                    "run": PROTOCOL_PLAYS[Play.of(test)],
                    "reset": PROTOCOL_PLAYS[Play.of(test, reset=True)],
                    "bare": None,
                    "floor": FLOOR_PLAYS[test] if (options.out / FLOOR_PLAYS[test]).is_dir() else None,
                }
                for test in TESTS
            },
            "notes": "written by continual-arc protocol; fill in student, code and contact before submitting",
        },
    )
