"""Task ids of the pinned ARC JSON files, read from a small index shipped with the package.

Listing a split's task ids from the data file itself means decoding megabytes of JSON (arc1.json is
2.6 MB, about 120 ms), which every command that builds a schedule would pay before doing anything.
Each data file is pinned by its sha256 and checked before use, so its ids are fixed too: they are
kept in ``indexes/<dataset>.json`` with the digest of the file they were read from; a test
compares them with the files, and [`write_index`][continual_arc.data.task_index.write_index] rebuilds one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["INDEX_DIR", "index_of", "indexed_ids", "write_index"]

INDEX_DIR = Path(__file__).parent / "indexes"
"""Where the committed indexes live (package data)."""


@cache
def index_of(dataset: str) -> dict[str, Any]:
    """The index of one dataset (``arc1`` or ``arc2``): ``{"sha256": ..., split: [ids]}``."""
    data: dict[str, Any] = json.loads((INDEX_DIR / f"{dataset}.json").read_text())
    return data


def indexed_ids(dataset: str, split: str, sha256: str) -> tuple[str, ...]:
    """The sorted task ids of a split (``"train"`` or ``"eval"``) of a dataset.

    Args:
        dataset: ``arc1`` or ``arc2``.
        split: ``train`` or ``eval``.
        sha256: the digest the caller checked the data file against; the index must be of it.

    Raises:
        RuntimeError: the index was built from another file (a packaging fault, not a user's).
    """
    index = index_of(dataset)
    if index["sha256"] != sha256:
        raise RuntimeError(f"the {dataset} task index is of another data file; rebuild it")
    return tuple(index[split])


def write_index(dataset: str, data: Mapping[str, Mapping[str, object]], sha256: str) -> Path:
    """Write the index of a decoded data file (``{"train": {...}, "eval": {...}}``)."""
    body = {"sha256": sha256, **{split: sorted(tasks) for split, tasks in sorted(data.items())}}
    path = INDEX_DIR / f"{dataset}.json"
    path.write_text(json.dumps(body, indent=0) + "\n")
    return path
