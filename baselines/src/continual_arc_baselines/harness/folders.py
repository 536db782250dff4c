"""A learner's temporary folder, marked with its owner so that a killed learner's folder is swept.

A `SystemLearner` keeps its workspace, its
instances' folders and its Unix sockets in one folder under the temporary directory (``/tmp`` by
default: a Unix socket's path must stay under about 100 bytes, so the folder cannot live deep in
a run directory). ``close()`` removes it, and so does the interpreter's exit; a learner killed
outright (SIGKILL, an out-of-memory kill) removes nothing. So the folder holds ``owner.json``, the
process that made it and that process's start time (a pid alone could be reused by a later
process), and every harness it started; each new learner sweeps the folders whose owner has died,
first killing any harness of theirs still running.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import tempfile
import weakref
from pathlib import Path

from continual_arc.learner import atomic_write_text

from ..json_types import JSONObject, JSONValue

__all__ = ["PREFIX", "LearnerFolder", "process_start", "sweep"]

PREFIX = "carc-"
"""How a learner's folder's name begins (short, for the sockets inside it)."""

_OWNER = "owner.json"
_HARNESSES = "harnesses"


def process_start(pid: int) -> str | None:
    """The start time of process ``pid`` (clock ticks since boot), or ``None`` if it does not run.

    Where ``/proc`` is missing, ``"?"`` for any live process: the pid alone must then do.
    """
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except FileNotFoundError:
        if Path("/proc/self/stat").exists():
            return None
        return "?" if _signalable(pid) else None
    except OSError:
        return None
    fields = stat.rpartition(")")[2].split()  # the name, in parentheses, may hold spaces
    return fields[19] if len(fields) > 19 else None  # field 22 of the whole line: starttime


def _signalable(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _pid(mark: JSONValue) -> int | None:
    """The process a mark (``{"pid", "start"}``) names, if it is one."""
    pid = mark.get("pid") if isinstance(mark, dict) else None
    return pid if isinstance(pid, int) else None


def _alive(mark: JSONValue) -> bool:
    """Whether the process a mark names is still the one that wrote it."""
    pid = _pid(mark)
    if pid is None or not isinstance(mark, dict):
        return False
    start = process_start(pid)
    return start is not None and (start == mark.get("start") or start == "?")


def _read(path: Path) -> JSONValue:
    try:
        value: JSONValue = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return value


def _mark(pid: int) -> JSONObject:
    return {"pid": pid, "start": process_start(pid)}


def sweep(parent: Path | None = None) -> list[Path]:
    """Remove every learner folder in ``parent`` (the temporary directory) whose owner has died.

    A dead owner's harnesses still running are killed first. A folder with no readable owner is
    left alone: it may be one another learner is making at this moment. Returns what was removed.
    """
    removed = []
    for folder in sorted(Path(parent or tempfile.gettempdir()).glob(PREFIX + "*")):
        owner = _read(folder / _OWNER)
        if owner is None or _alive(owner):
            continue
        for mark_file in (folder / _HARNESSES).glob("*.json"):
            _kill_group(_read(mark_file))
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed


def _kill_group(mark: JSONValue) -> None:
    pid = _pid(mark)
    if pid is not None and _alive(mark):
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGKILL)  # a harness leads its own process group


class LearnerFolder:
    """A learner's folder in the temporary directory, marked with its owner (see the module docstring).

    It is made after a sweep, and removed by `remove` or, failing that, at the interpreter's exit.
    """

    def __init__(self) -> None:
        sweep()
        self.path = Path(tempfile.mkdtemp(prefix=PREFIX))
        (self.path / _HARNESSES).mkdir()
        # Whole or not at all (a sweeper must never read half an owner); a mark in /tmp need no fsync.
        atomic_write_text(self.path / _OWNER, json.dumps(_mark(os.getpid())), fsync=False)
        self._finalizer = weakref.finalize(self, shutil.rmtree, str(self.path), ignore_errors=True)

    def harness_started(self, pid: int) -> None:
        """Note a harness process (the leader of its own group), for a sweep after a kill."""
        atomic_write_text(self.path / _HARNESSES / f"{pid}.json", json.dumps(_mark(pid)), fsync=False)

    def remove(self) -> None:
        """Remove the folder now (once; later calls do nothing)."""
        self._finalizer()
