"""A harness's workspace as files: snapshots, what changed, and folding changes into another copy.

A harness learner's state is one folder. Each instance works in a copy of it; what the instance
changed is found by comparing the copy with the snapshot it started from, and folded into the
learner's folder at the round's end. Paths the adapter marks volatile (logs, locks, caches, the
per-launch configuration) are never part of the state.
"""

from __future__ import annotations

import difflib
import fnmatch
import hashlib
import json
import shutil
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..json_types import JSONObject, JSONValue

__all__ = [
    "FileChange",
    "Snapshot",
    "apply_changes",
    "changes_between",
    "copy_state",
    "listing",
    "read_json",
    "readable_text",
    "snapshot",
    "write_json",
]

Snapshot = dict[str, str]
"""Relative POSIX path -> SHA-256 of the file's bytes, for every file kept as state."""

_TEXT_LIMIT = 64 * 1024  # larger files, and binary ones, are recorded by hash and size only


def _ignored(relative: str, ignore: Sequence[str]) -> bool:
    parts = relative.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    return any(fnmatch.fnmatchcase(p, pattern) for pattern in ignore for p in prefixes)


def _files(root: Path, ignore: Sequence[str]) -> Iterable[tuple[str, Path]]:
    if not root.is_dir():
        return
    for path in sorted(root.rglob("*")):
        if path.is_file() and not path.is_symlink():
            relative = path.relative_to(root).as_posix()
            if not _ignored(relative, ignore):
                yield relative, path


def snapshot(root: Path, ignore: Sequence[str] = ()) -> Snapshot:
    """The hash of every file under ``root`` that is state (not matched by an ``ignore`` pattern).

    A pattern matches a path or any of its leading folders (``logs`` ignores ``logs/a/b.txt``).
    """
    return {rel: hashlib.sha256(path.read_bytes()).hexdigest() for rel, path in _files(root, ignore)}


def copy_state(source: Path, dest: Path, ignore: Sequence[str] = ()) -> None:
    """Replace ``dest`` with a copy of the state files under ``source`` (volatile ones left out)."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    for relative, path in _files(source, ignore):
        target = dest / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)


@dataclass(frozen=True)
class FileChange:
    """One file an instance added, modified or removed in its copy of the workspace.

    Attributes:
        path: the file's path under the workspace, with ``/``.
        kind: ``added``, ``modified`` or ``removed``.
        sha256: the new content's hash (``None`` when removed).
        size: the new content's size in bytes (0 when removed).
        diff: a unified diff of the text, or ``None`` for binary or large files.
    """

    path: str
    kind: str
    sha256: str | None
    size: int
    diff: str | None

    def to_json(self) -> JSONObject:
        """The change as a JSON-ready dict."""
        return {
            "path": self.path,
            "kind": self.kind,
            "sha256": self.sha256,
            "size": self.size,
            "diff": self.diff,
        }


def _text(path: Path | None) -> list[str] | None:
    if path is None:
        return []
    data = path.read_bytes()
    if len(data) > _TEXT_LIMIT:
        return None
    try:
        return data.decode("utf-8").splitlines(keepends=True)
    except UnicodeDecodeError:
        return None


def _diff(relative: str, before: Path | None, after: Path | None) -> str | None:
    old, new = _text(before), _text(after)
    if old is None or new is None:
        return None
    lines = difflib.unified_diff(old, new, f"a/{relative}", f"b/{relative}")
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def changes_between(
    base: Snapshot, base_root: Path | None, root: Path, ignore: Sequence[str] = ()
) -> list[FileChange]:
    """What ``root`` holds now against ``base`` (taken of ``base_root``, for the diffs), by path."""
    now = snapshot(root, ignore)
    changes = []
    for relative in sorted(set(base) | set(now)):
        old_hash, new_hash = base.get(relative), now.get(relative)
        if old_hash == new_hash:
            continue
        before = base_root / relative if base_root is not None and old_hash is not None else None
        if new_hash is None:
            changes.append(FileChange(relative, "removed", None, 0, _diff(relative, before, None)))
            continue
        after = root / relative
        kind = "added" if old_hash is None else "modified"
        size = after.stat().st_size
        changes.append(FileChange(relative, kind, new_hash, size, _diff(relative, before, after)))
    return changes


def apply_changes(changes: Iterable[FileChange], source: Path, dest: Path) -> None:
    """Fold ``changes`` (found in ``source``) into ``dest``.

    What was added or modified is written, what was removed deleted. Applied one instance after
    another, a later instance's version of a file wins.
    """
    for change in changes:
        target = dest / change.path
        if change.kind == "removed":
            target.unlink(missing_ok=True)
            _prune(target.parent, dest)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / change.path, target)


def _prune(folder: Path, root: Path) -> None:
    """Remove folders left empty under ``root``, so a removed file leaves no trace in the state."""
    while folder != root and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent


def listing(snap: Mapping[str, str]) -> list[JSONValue]:
    """A snapshot as a list of ``{"path", "sha256"}``, in path order (for trajectories)."""
    return [{"path": path, "sha256": digest} for path, digest in sorted(snap.items())]


def readable_text(path: Path) -> str | None:
    """The file's text, if it is UTF-8 and small enough to show; else ``None``."""
    lines = _text(path)
    return None if lines is None else "".join(lines)


def write_json(path: Path, value: JSONValue) -> None:
    """Write ``value`` as JSON, keys sorted, so that the same state gives the same bytes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, sort_keys=True, indent=1) + "\n", encoding="utf-8")


def read_json(path: Path) -> JSONValue:
    """Read a JSON file written by `write_json`."""
    value: JSONValue = json.loads(path.read_text(encoding="utf-8"))
    return value
