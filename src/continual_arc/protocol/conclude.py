"""The end of a protocol: ``protocol.json`` with the plane, the plots, and ``submission.json`` to fill in."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ..core.config import TESTS
from ..core.files import atomic_write_json, read_json
from ..measure.plots import plane_plot, run_plots
from ..play.rundir import read_records
from .plane import plane_point
from .plays import PROTOCOL_PLAYS

__all__ = ["Played", "PlayedProtocol", "conclude"]


class Played(Protocol):
    """What was played, as ``conclude`` reads it (``ProtocolOptions`` and :class:`PlayedProtocol` have it)."""

    @property
    def out(self) -> Path:
        """The protocol directory."""
        ...

    @property
    def learner(self) -> str:
        """The learner's import path."""
        ...

    @property
    def learner_kwargs(self) -> Mapping[str, Any]:
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


@dataclass(frozen=True)
class PlayedProtocol:
    """A protocol played by other means than ``continual-arc protocol`` (verification)."""

    out: Path
    learner: str
    learner_kwargs: Mapping[str, Any]
    config: str
    seed: int
    users: int
    resamples: int


def conclude(options: Played) -> dict[str, Any]:
    """Write ``protocol.json``, ``submission.json`` (unless one exists) and the plots; the document.

    Args:
        options: what was played.
    """
    out: Path = options.out
    point = plane_point(out, label=options.learner.rsplit(":", 1)[-1], resamples=options.resamples).to_json()
    stream = read_json(out / PROTOCOL_PLAYS["stream"] / "meta.json")
    document = {
        "format": 1,
        "learner": {"class": options.learner, "kwargs": dict(options.learner_kwargs)},
        "config": options.config,
        "seed": options.seed,
        "users": options.users,
        "protocol": stream["protocol"],
        "plays": dict(PROTOCOL_PLAYS),
        "plane": point,
    }
    atomic_write_json(out / "protocol.json", document)
    _write_submission(options)
    plots = plane_plot([point], out / "plots")
    plots += run_plots(
        read_records(out / PROTOCOL_PLAYS["stream"]),
        out / "plots",
        read_records(out / PROTOCOL_PLAYS["stream-reset"]),
    )
    document["plots"] = [str(p) for p in plots]
    return document


def _write_submission(options: Played) -> None:
    path = options.out / "submission.json"
    if path.exists():
        return  # the user's own edits win
    atomic_write_json(
        path,
        {
            "name": f"{options.learner.rsplit(':', 1)[-1]} on {options.config}, seed {options.seed}",
            "learner": options.learner,
            "learner_kwargs": dict(options.learner_kwargs),
            "student": None,
            "effort": None,
            "teacher": None,
            "code": None,
            "contact": None,
            "stream": PROTOCOL_PLAYS["stream"],
            "reset": PROTOCOL_PLAYS["stream-reset"],
            "tests": {
                test: {"run": PROTOCOL_PLAYS[test], "reset": PROTOCOL_PLAYS[f"{test}-reset"], "bare": None}
                for test in TESTS
            },
            "notes": "written by continual-arc protocol; fill in student, code and contact before submitting",
        },
    )
