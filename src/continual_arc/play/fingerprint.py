"""A learner's fingerprint: what identifies its code, so that a run never mixes two versions of it."""

from __future__ import annotations

import hashlib
import importlib
import sys
from pathlib import Path
from types import ModuleType

from ..core.records import CodeFingerprint
from .learner import Fingerprinted

__all__ = ["learner_fingerprint", "package_digest", "sources_digest"]


def _version(top: str, module: ModuleType | None) -> str | None:
    version = getattr(module, "__version__", None)
    if isinstance(version, str):
        return version
    # Only for a package with no __version__: at module level it would be imported by every learner
    # process of a verification (one per test instance), and it is among their slowest imports.
    import importlib.metadata

    for dist in (top, top.replace("_", "-")):
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            continue
    return None


def _sources(module: ModuleType) -> tuple[Path, list[Path]]:
    """The folder of the package a module belongs to, and every Python file in it (or the module's own)."""
    paths = list(getattr(module, "__path__", None) or [])
    if paths:
        root = Path(paths[0])
        return root, sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)
    file = getattr(module, "__file__", None)
    return (Path(file).parent, [Path(file)]) if file else (Path("."), [])


def sources_digest(root: Path, files: list[Path]) -> str | None:
    """SHA-256 over a package's Python files, each by its name under ``root`` and its bytes."""
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest() if files else None


def package_digest(name: str) -> str | None:
    """SHA-256 over the Python files of the importable package ``name`` (`sources_digest`)."""
    return sources_digest(*_sources(importlib.import_module(name)))


def learner_fingerprint(learner: object) -> CodeFingerprint:
    """What identifies the code of a learner.

    Its top-level package, that package's version, and a SHA-256 over the package's Python files
    (names and bytes). A run records it, and a resume after the learner's code changed is refused:
    its records would mix two learners. ``sources_sha256`` is ``None`` for a learner with no source
    file (defined in an interactive session).
    """
    if isinstance(learner, Fingerprinted):  # a learner in another process: its code is that process's
        return learner.code_fingerprint()
    top = type(learner).__module__.split(".")[0]
    module = sys.modules.get(top)
    root, files = _sources(module) if module is not None else (Path("."), [])
    return {"package": top, "version": _version(top, module), "sources_sha256": sources_digest(root, files)}
