"""The code a learner's import path names, read by the verifier itself and never by the learner.

A learner's own processes run its code; asked what that code is, they could answer anything. So
[`learner_code`][continual_arc.submit.learner_code.learner_code] finds the learner's package on this process's
path without importing it (a top-level name is located, none of its code runs) and hashes it here: its Python
files, as [`learner_fingerprint`][continual_arc.play.fingerprint.learner_fingerprint] does for a learner in
this process, and the files of the installed distribution that provides it, with where pip installed it from
(its repository and commit, for ``pip install git+URL@COMMIT``).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.metadata
import importlib.util
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TypedDict

from ..core.jsonable import as_json_object
from ..core.records import CodeFingerprint, JSONObject
from ..play.fingerprint import sources_digest

__all__ = ["LearnerCodeJSON", "code_json", "fingerprint_outside", "learner_code"]

_UNHASHED = frozenset({"INSTALLER", "REQUESTED", "RECORD", "direct_url.json"})
"""A distribution's files that say how this machine installed it, not what it is (RECORD lists
the others with their hashes, which are hashed themselves)."""


class LearnerCodeJSON(TypedDict):
    """What identifies a learner's code, as a verifier read it.

    Attributes:
        package, version, sources_sha256: the fingerprint a run records
            ([`CodeFingerprint`][continual_arc.core.records.CodeFingerprint]), computed here.
        distribution: the installed distribution that provides the package (``None``: none does,
            the package is found on ``PYTHONPATH``).
        distribution_sha256: SHA-256 over that distribution's files, names and bytes (the
            package's own files for a regular install; its metadata for an editable one).
        installed_from: the URL pip installed it from, when it says (a repository, a folder).
        installed_commit: the commit pip checked out, for an install from a repository.
        repository, commit: the repository and commit the verifier was asked to install.
    """

    package: str
    version: str | None
    sources_sha256: str | None
    distribution: str | None
    distribution_sha256: str | None
    installed_from: str | None
    installed_commit: str | None
    repository: str | None
    commit: str | None


def _package(learner: str) -> str:
    return learner.split(":", 1)[0].split(".", 1)[0]


def _found_sources(top: str, search: Sequence[str]) -> tuple[Path, list[Path]]:
    """A top-level package's folder and its Python files, found without importing it.

    Looked for first in ``search`` (the learner processes' ``PYTHONPATH``, which comes first on
    their path), then as this process finds it.
    """
    try:
        spec = importlib.machinery.PathFinder.find_spec(top, list(search)) if search else None
        spec = spec or importlib.util.find_spec(top)  # a top-level name: located, none of its code run
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        return Path("."), []
    if spec.submodule_search_locations:
        root = Path(next(iter(spec.submodule_search_locations)))
        return root, sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)
    if spec.origin and spec.origin.endswith(".py"):
        return Path(spec.origin).parent, [Path(spec.origin)]
    return Path("."), []


def _distribution(top: str) -> importlib.metadata.Distribution | None:
    names = importlib.metadata.packages_distributions().get(top) or []
    for name in dict.fromkeys(names):
        try:
            return importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return None


def _distribution_digest(dist: importlib.metadata.Distribution) -> str:
    """SHA-256 over a distribution's installed files (bytecode and install bookkeeping aside)."""
    digest = hashlib.sha256()
    for file in sorted(dist.files or [], key=str):
        name = file.as_posix()
        if name.startswith("..") or name.endswith(".pyc") or file.name in _UNHASHED:
            continue  # scripts outside site-packages name this machine's Python; bytecode is derived
        path = Path(str(dist.locate_file(file)))
        if path.is_file():
            digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _direct_url(dist: importlib.metadata.Distribution) -> tuple[str | None, str | None]:
    """Where pip installed a distribution from, and the commit, as its ``direct_url.json`` says."""
    text = dist.read_text("direct_url.json")
    if not text:
        return None, None
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return None, None
    vcs = value.get("vcs_info") if isinstance(value, dict) else None
    commit = vcs.get("commit_id") if isinstance(vcs, dict) else None
    url = value.get("url") if isinstance(value, dict) else None
    return (str(url) if url else None), (str(commit) if commit else None)


def code_json(code: LearnerCodeJSON) -> JSONObject:
    """The learner's code as a JSON object (what a signed statement holds)."""
    return as_json_object(code)


def fingerprint_outside(learner: str, search: Sequence[str] = ()) -> CodeFingerprint:
    """The fingerprint a run of this learner records, computed here without importing its code.

    Its version is the installed distribution's (a learner's ``__version__`` would need its code run).
    """
    code = learner_code(learner, search=search)
    return {"package": code["package"], "version": code["version"], "sources_sha256": code["sources_sha256"]}


def learner_code(
    learner: str, *, repository: str | None = None, commit: str | None = None, search: Sequence[str] = ()
) -> LearnerCodeJSON:
    """What identifies the code of the learner ``learner`` (``module:Class``) names, read here.

    Args:
        learner: the learner's import path.
        search: folders its processes find code in before their Python's own (their ``PYTHONPATH``).
        repository: the repository the learner was asked to be installed from, if any.
        commit: the commit it was asked to be installed at, if any.
    """
    top = _package(learner)
    root, files = _found_sources(top, search)
    dist = _distribution(top)
    installed_from, installed_commit = _direct_url(dist) if dist is not None else (None, None)
    return {
        "package": top,
        "version": dist.version if dist is not None else None,
        "sources_sha256": sources_digest(root, files),
        "distribution": dist.name if dist is not None else None,
        "distribution_sha256": _distribution_digest(dist) if dist is not None else None,
        "installed_from": installed_from,
        "installed_commit": installed_commit,
        "repository": repository,
        "commit": commit,
    }
