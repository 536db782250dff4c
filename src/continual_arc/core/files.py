"""Files that survive a crash: atomic JSON and text writes, and append-only JSON lines.

A JSON file is written to a temporary file beside it, flushed, fsynced and renamed over the
target, so a reader sees the old file or the new one, never half of one. ``records.jsonl`` is only
ever appended whole batches of lines (one round's records), flushed and fsynced together; a line
cut short by a crash is detected on reading and dropped by
[`truncate_partial_line`][continual_arc.core.files.truncate_partial_line].
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .errors import ContinualArcError
from .jsonable import as_json

__all__ = [
    "RecordsError",
    "append_jsonl",
    "atomic_write_json",
    "atomic_write_text",
    "dumps_json",
    "fsync_dir",
    "read_json",
    "read_jsonl",
    "truncate_partial_line",
]


class RecordsError(ContinualArcError, ValueError):
    """A records file that cannot be read: a malformed line, or a file that is not JSON."""


def fsync_dir(path: Path) -> None:
    """Flush a directory's entries (renames, new files) to disk; ignored where unsupported."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write_text(path: Path | str, text: str, *, fsync: bool = True) -> None:
    """Replace ``path`` with ``text`` atomically (temporary file, fsync, rename).

    With ``fsync=False`` the write is still atomic against a crash of the process (a reader sees
    the old file or the new one), but not against a crash of the machine; the caller then syncs
    the directory itself.
    """
    path = Path(path)
    # Named by process and thread, so that no two writers share one; a name a killed process left
    # is overwritten (a run writes hundreds of trajectories a second: no random names, no mkdir
    # unless the folder is missing).
    tmp = path.parent / f".{path.name}.{os.getpid()}-{threading.get_ident()}.tmp"
    try:
        fd = os.open(tmp, _CREATE, 0o644)
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(tmp, _CREATE, 0o644)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            os.fchmod(fd, 0o644)  # whatever the umask: run files are read by other users' viewers
            handle.write(text)
            handle.flush()
            if fsync:
                os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    if fsync:
        fsync_dir(path.parent)


_CREATE = os.O_WRONLY | os.O_CREAT | os.O_TRUNC


def dumps_json(value: object) -> str:
    """The canonical text of a JSON file of the benchmark (indented, sorted keys, final newline).

    A result held in the document as itself (a dataclass, an estimate) is written as its JSON form
    ([`as_json`][continual_arc.core.jsonable.as_json]), so a document can hold the objects its
    readers use and still be written as the same bytes.
    """
    return json.dumps(value, indent=1, sort_keys=True, default=as_json) + "\n"


def atomic_write_json(path: Path | str, value: object) -> None:
    """Replace ``path`` with ``value`` as canonical JSON, atomically."""
    atomic_write_text(path, dumps_json(value))


def read_json(path: Path | str) -> Any:
    """Read a JSON file, with an error that names the file and the fault.

    Raises:
        RecordsError: the file is not valid JSON.
        FileNotFoundError: the file does not exist.
    """
    path = Path(path)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise RecordsError(
            f"{path}: not valid JSON ({err.msg} at line {err.lineno}, column {err.colno})"
        ) from None


def append_jsonl(path: Path | str, values: Iterable[object]) -> None:
    """Append one compact JSON line per value, in one write, then flush and fsync."""
    text = "".join(json.dumps(value, sort_keys=True, separators=(",", ":")) + "\n" for value in values)
    if not text:
        return
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())


def truncate_partial_line(path: Path | str) -> int:
    """Cut a trailing line that has no newline (a write a crash interrupted); the bytes removed."""
    path = Path(path)
    if not path.exists():
        return 0
    data = path.read_bytes()
    keep = data.rfind(b"\n") + 1
    if keep == len(data):
        return 0
    with open(path, "r+b") as handle:
        handle.truncate(keep)
        handle.flush()
        os.fsync(handle.fileno())
    return len(data) - keep


def read_jsonl(path: Path | str, *, allow_partial_tail: bool = False) -> list[Any]:
    """Read a JSON-lines file.

    Args:
        path: the file.
        allow_partial_tail: skip a final line with no newline (cut short by a crash) instead of
            refusing it.

    Raises:
        RecordsError: a line is not valid JSON; the message names the file and line number.
    """
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    tail = lines.pop()  # "" when the file ends with a newline
    out = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError as err:
            raise RecordsError(f"{path}, line {number}: not valid JSON ({err.msg})") from None
    if tail.strip() and not allow_partial_tail:
        raise RecordsError(f"{path}, line {len(lines) + 1}: cut short (no final newline); a crash mid-write?")
    return out
