"""Per-process limits of a sandboxed program, and the watch that ends a program over one of them.

The kernel enforces three of them itself (set by the launcher, limits the program cannot raise):
its private memory (``RLIMIT_DATA``: heap, anonymous maps, thread stacks), the size of any file
it writes (``RLIMIT_FSIZE``) and, as a backstop, the PIDs of its PID namespace (the namespace's
own ``pid_max``, so a fork bomb stops there even between two looks of the watch). The rest are
looked at from outside while it runs ([Watch][continual_arc.core.sandbox.limits.Watch], a few
times a second): how many processes its sandbox holds, how much its working folder holds (and
whether a file there stopped at the file-size cap: the first process of a PID namespace is
spared ``SIGXFSZ``, so a write past the cap fails with ``EFBIG``, which a program may ignore),
how long its standard error has grown. The saved state's size is read by its owner when it
copies the state out.

A program over a limit is ended (its whole process group) and its owner is told in one sentence
naming the limit and its value ([sentence][continual_arc.core.sandbox.limits.sentence]).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "LIMIT_OPTIONS",
    "PID_RESERVED",
    "Limits",
    "Watch",
    "folder_bytes",
    "folder_usage",
    "parse_size",
    "processes_under",
    "sentence",
    "size_text",
]

PID_RESERVED = 300
"""The PIDs a namespace never reuses once its numbers wrap (the kernel's ``RESERVED_PIDS``): the
``pid_max`` backstop leaves the program its whole cap above them."""

LIMIT_OPTIONS = {
    "memory_bytes": "--memory-limit",
    "processes": "--process-limit",
    "file_bytes": "--file-limit",
    "folder_bytes": "--folder-limit",
    "log_bytes": "--log-limit",
    "state_bytes": "--state-limit",
}
"""The option of ``continual-arc verify`` that sets each limit (named in the sentence of a hit)."""

_WHAT = {
    "memory_bytes": "memory limit",
    "processes": "process limit",
    "file_bytes": "file-size limit",
    "folder_bytes": "working-folder limit",
    "log_bytes": "log limit",
    "state_bytes": "saved-state limit",
}


@dataclass(frozen=True)
class Limits:
    """What one sandboxed process may use (``None``: no limit of that kind).

    Attributes:
        memory_bytes: its private memory (``RLIMIT_DATA``), in bytes; each process of its own.
        processes: the processes its sandbox (its PID namespace) may hold at once, its own counted.
        file_bytes: the largest file it may write (``RLIMIT_FSIZE``).
        folder_bytes: what its working folder may hold (the disk its files take).
        log_bytes: how long its standard error may grow.
        state_bytes: what one saved state may hold (its files' bytes).
    """

    memory_bytes: int | None = 4 << 30
    processes: int | None = 64
    file_bytes: int = 256 << 20
    folder_bytes: int | None = 2 << 30
    log_bytes: int | None = 16 << 20
    state_bytes: int | None = 1 << 30


def size_text(value: int) -> str:
    """A byte count as people write it: ``4 GiB``, ``256 MiB``, ``1.5 KiB``, ``12 bytes``."""
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if value >= 1 << shift:
            number = value / (1 << shift)
            return f"{number:g} {unit}" if number == int(number) else f"{number:.1f} {unit}"
    return f"{value} bytes"


_UNITS = {"": 1, "b": 1, "k": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mib": 1 << 20, "g": 1 << 30,
          "gib": 1 << 30, "t": 1 << 40, "tib": 1 << 40}  # fmt: skip


def parse_size(text: str) -> int:
    """A size as a person writes it (``4GiB``, ``256 MiB``, ``512k``, ``1000``): its bytes.

    Units are powers of two (``k``/``KiB``, ``m``/``MiB``, ``g``/``GiB``, ``t``/``TiB``); a bare
    number is bytes.

    Raises:
        ValueError: not a size (one sentence says what is expected).
    """
    found = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]*)?)\s*([A-Za-z]*)\s*", text)
    unit = found.group(2).lower() if found else ""
    if found is None or unit not in _UNITS:
        raise ValueError(f"{text!r} is not a size: write a number of bytes, or one with KiB, MiB, GiB or TiB")
    return int(float(found.group(1)) * _UNITS[unit])


def sentence(kind: str, value: int) -> str:
    """The one sentence that ends an instance over the limit ``kind``.

    ``kind`` is a field of [Limits][continual_arc.core.sandbox.limits.Limits]; ``value`` its value.
    """
    amount = f"{value} processes" if kind == "processes" else size_text(value)
    return (
        f"the learner's process went over its {_WHAT[kind]} of {amount} and was ended "
        f"(continual-arc verify {LIMIT_OPTIONS[kind]})"
    )


def processes_under(pid: int) -> int:
    """How many processes descend from ``pid`` (``pid`` itself not counted); 0 once it is gone.

    Read from ``/proc/<pid>/task/<tid>/children``: a sandbox's processes all descend from the
    launcher that waits outside its PID namespace (an orphan is adopted by the namespace's first).
    """
    count, todo = 0, [pid]
    while todo:
        found = todo.pop()
        with contextlib.suppress(OSError, ValueError):
            for task in os.listdir(f"/proc/{found}/task"):
                with open(f"/proc/{found}/task/{task}/children", encoding="ascii") as file:
                    children = [int(child) for child in file.read().split()]
                count += len(children)
                todo += children
    return count


def folder_bytes(folder: Path) -> int:
    """The disk the files under ``folder`` take (links not followed; a vanishing entry counts 0)."""
    return folder_usage(folder)[0]


def folder_usage(folder: Path) -> tuple[int, int]:
    """The disk the files under ``folder`` take, and the size of the largest of them."""
    total = largest = 0
    for top, dirs, files in os.walk(folder):
        for name in files + dirs:
            with contextlib.suppress(OSError):
                found = os.lstat(os.path.join(top, name))
                total += found.st_blocks * 512
                largest = max(largest, found.st_size)
    return total, largest


class Watch:
    """A thread that looks at a running program a few times a second and ends it over a limit.

    Args:
        pid: the program's process (the launcher outside its namespace); its group is killed.
        limits: the limits looked at (processes, working folder, log).
        folder: its working folder. log: its standard error's file.
        every: seconds between two looks.
        count: how its processes are counted (default
            [processes_under][continual_arc.core.sandbox.limits.processes_under]).
    """

    def __init__(
        self,
        pid: int,
        limits: Limits,
        folder: Path,
        log: Path,
        every: float = 0.25,
        count: Callable[[int], int] = processes_under,
    ) -> None:
        self.pid, self.limits, self.folder, self.log = pid, limits, folder, log
        self.every, self.count = every, count
        self.hit: str | None = None
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="sandbox-watch", daemon=True)
        self._thread.start()

    def over(self) -> str | None:
        """The sentence of the first limit the program went over, if any (``None``: none yet)."""
        limits = self.limits
        if limits.processes is not None and self.count(self.pid) > limits.processes:
            return sentence("processes", limits.processes)
        if limits.log_bytes is not None:
            with contextlib.suppress(OSError):
                if self.log.stat().st_size > limits.log_bytes:
                    return sentence("log_bytes", limits.log_bytes)
        total, largest = folder_usage(self.folder)
        if limits.folder_bytes is not None and total > limits.folder_bytes:
            return sentence("folder_bytes", limits.folder_bytes)
        if largest >= limits.file_bytes:  # a write stopped at the cap, whatever the program made of it
            return sentence("file_bytes", limits.file_bytes)
        return None

    def end(self, why: str) -> None:
        """End the program (its whole process group) for the reason ``why``, if none was given yet."""
        if self.hit is None:
            self.hit = why
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)

    def _loop(self) -> None:
        while not self._done.wait(self.every):
            why = self.over()
            if why is not None:
                self.end(why)
                return

    def stop(self) -> None:
        """Stop looking (the program has ended); it waits for the thread's last look."""
        self._done.set()
        if threading.current_thread() is not self._thread:
            self._thread.join()
