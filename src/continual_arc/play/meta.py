"""``meta.json``: written first, it says what is played, by which learner, on which release and data."""

from __future__ import annotations

import hashlib
import importlib.metadata
import platform
import sys
import time
from pathlib import Path
from typing import Any

from .. import __version__
from ..core.files import atomic_write_json
from .options import RunOptions
from .rundir import META, SCHEDULE
from .session import RunSession

__all__ = ["learner_fingerprint", "learner_spec", "write_meta"]


def learner_spec(learner: Any, options: RunOptions) -> dict[str, Any]:
    """The learner as ``meta.json`` names it: ``{"class": "module:Class", "kwargs": {...}}``.

    A learner passed from Python without ``learner_spec`` is recorded by its class with no
    arguments (``{}``), as the command line records one built with none.
    """
    spec = dict(options.learner_spec or {})
    cls = type(learner)
    spec.setdefault("class", f"{cls.__module__}:{cls.__qualname__}")
    spec["kwargs"] = dict(spec.get("kwargs") or {})
    return spec


def _version(top: str, module: Any) -> str | None:
    version = getattr(module, "__version__", None)
    if isinstance(version, str):
        return version
    for dist in (top, top.replace("_", "-")):
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            continue
    return None


def _sources(module: Any) -> tuple[Path, list[Path]]:
    """The folder of the package a module belongs to, and every Python file in it (or the module's own)."""
    paths = list(getattr(module, "__path__", None) or [])
    if paths:
        root = Path(paths[0])
        return root, sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)
    file = getattr(module, "__file__", None)
    return (Path(file).parent, [Path(file)]) if file else (Path("."), [])


def learner_fingerprint(learner: Any) -> dict[str, Any]:
    """What identifies the code of a learner.

    Its top-level package, that package's version, and a SHA-256 over the package's Python files
    (names and bytes). A run records it, and a resume after the learner's code changed is refused:
    its records would mix two learners. ``sources_sha256`` is ``None`` for a learner with no source
    file (defined in an interactive session).
    """
    top = type(learner).__module__.split(".")[0]
    module = sys.modules.get(top)
    root, files = _sources(module) if module is not None else (Path("."), [])
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    sources = digest.hexdigest() if files else None
    return {"package": top, "version": _version(top, module), "sources_sha256": sources}


def write_meta(session: RunSession, options: RunOptions, resumes: list[dict[str, Any]]) -> None:
    """Write ``meta.json`` (and ``schedule.json``) for the run ``session`` plays."""
    schedule = session.schedule
    meta = {
        "format": 1,
        "schedule": dict(schedule.meta),
        "protocol": schedule.meta["protocol"],
        "slots": len(schedule.slots),
        "learner": learner_spec(session.learner, options),
        "learner_fingerprint": learner_fingerprint(session.learner),
        "concurrent_users": bool(session.learner.concurrent_users),
        "alias_style": options.alias_style,
        "max_concurrent": options.max_concurrent,
        "instance_time_limit": options.instance_time_limit,
        "plugins": list(session.hooks.names),
        "versions": {"continual-arc": __version__, "sources": session.track.describe_sources()},
        "python": platform.python_version(),
        "platform": platform.platform(),
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "resumes": resumes,
    }
    atomic_write_json(session.out / META, meta)
    schedule.save(session.out / SCHEDULE)

