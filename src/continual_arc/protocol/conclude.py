"""The end of a protocol: ``protocol.json`` with the plane, the plots, and ``submission.json`` to fill in."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NotRequired, TypedDict

from ..core.config import TESTS
from ..core.files import atomic_write_json
from ..core.records import LearnerSpec, Play, ProtocolBlock
from ..core.teacher import TEACHER_KWARG
from ..measure.plots import plane_plot, run_plots
from ..play.learner import learner_label
from ..play.rundir import read_meta, read_records
from .floor import FLOOR_PLAYS, copy_floor, stream_floors
from .options import ProtocolOptions
from .plane import PlanePoint, plane_point
from .plays import PROTOCOL_PLAYS
from .spec import ProtocolSpec

__all__ = [
    "SUBMISSION_FIELDS",
    "ProtocolDocument",
    "conclude",
    "fill_submission",
    "stream_plots",
]


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


def conclude(
    spec: ProtocolSpec, options: ProtocolOptions, drawn: Sequence[Path] | None = None
) -> ProtocolDocument:
    """Write ``protocol.json``, ``submission.json`` (unless one exists) and the plots; the document.

    First the track's floor on each test is copied in beside the plays (played once into the data
    directory's cache if it is not there: [stream_floors][continual_arc.protocol.floor.stream_floors]),
    unless ``options.floor`` is false. The plots are left out when ``options.plots`` is false (a
    sweep may ask so). ``protocol.json`` is written last, so a protocol that has one is concluded
    whole.

    Args:
        spec: what was played.
        options: how (its directory, resamples, plots and floor; a verifier's plays, played by other
            means, are concluded with the same options).
        drawn: the files of [`stream_plots`][continual_arc.protocol.conclude.stream_plots] if they were drawn
            already (else they are drawn here).
    """
    out: Path = options.out
    if options.floor:
        for test, floor in stream_floors(read_meta(out / PROTOCOL_PLAYS[Play.STREAM])).items():
            if floor is not None:
                copy_floor(floor, out / FLOOR_PLAYS[test])
    label = learner_label(spec.learner.path, spec.learner.kwargs)
    point = plane_point(out, label=label, resamples=options.resamples)
    stream = read_meta(out / PROTOCOL_PLAYS[Play.STREAM])
    document: ProtocolDocument = {
        "format": 1,
        "learner": spec.learner.spec,
        "config": spec.config.name,
        "seed": spec.seed,
        "users": spec.users,
        "protocol": stream["protocol"],
        "plays": dict(PROTOCOL_PLAYS),
        "plane": point,
    }
    _write_submission(spec, out)
    plots: list[Path] = []
    if options.plots:
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


def _write_submission(spec: ProtocolSpec, out: Path) -> None:
    path = out / "submission.json"
    if path.exists():
        return  # the user's own edits win
    atomic_write_json(
        path,
        {
            "name": f"{learner_label(spec.learner.path, spec.learner.kwargs)} on {spec.config.name}, "
            f"seed {spec.seed}",
            "learner": spec.learner.path,
            "learner_kwargs": spec.learner.arguments,
            "student": None,
            "effort": None,
            # The model that only teaches the student, as the learner's keywords name it (check
            # refuses a name that is not a published model's, with the reason).
            "teacher": _teacher_name(spec.learner.kwargs),
            "code": None,
            "contact": None,
            Play.STREAM: PROTOCOL_PLAYS[Play.STREAM],
            "reset": PROTOCOL_PLAYS[Play.STREAM_RESET],
            "tests": {
                test: {
                    "run": PROTOCOL_PLAYS[Play.of(test)],
                    "reset": PROTOCOL_PLAYS[Play.of(test, reset=True)],
                    "bare": None,
                    "floor": FLOOR_PLAYS[test] if (out / FLOOR_PLAYS[test]).is_dir() else None,
                }
                for test in TESTS
            },
            "notes": "written by continual-arc protocol; fill in student, code and contact before submitting",
        },
    )
