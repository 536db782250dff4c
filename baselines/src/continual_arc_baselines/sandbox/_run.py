"""Running a model-written program in a locked-down subprocess and reading back its outputs."""

from __future__ import annotations

import contextlib
import json
import math
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from continual_arc.grids import Grid, InvalidGridError, validate_grid

from ..json_types import JSONObject, grid_json

__all__ = ["DEFAULT_PACKAGES", "SandboxResult", "run_program"]

DEFAULT_PACKAGES = ("numpy",)
"""Third-party packages a program may import (read-only); everything else installed is out of reach."""

_CHILD = Path(__file__).with_name("_child.py")
_STARTUP_LIMIT = 15.0  # seconds for the interpreter to start and lock down, generous on a loaded machine
_RESULT_BYTES_PER_GRID = 64 * 1024
_SIGNAL_MEANINGS = {
    "SIGXCPU": "CPU time limit",
    "SIGKILL": "killed from outside, e.g. out of memory",
    "SIGSEGV": "it crashed, e.g. recursion too deep",
}


@dataclass(frozen=True)
class SandboxResult:
    """What a program did on each grid, and what isolation it ran under.

    Attributes:
        outputs: per grid, the validated output grid, or ``None`` where the program failed on it.
        errors: per grid, ``None`` on success, else why the program failed on it (an exception and
            its line, the time limit, the memory limit, too much output, a malformed grid, ...).
        stdout: what the program printed, at most ``output_limit`` bytes, decoded leniently.
        stderr: what it wrote to standard error, likewise.
        network_isolated: whether the kernel kept the program off the network (a new network
            namespace, or Landlock's TCP rules); when false only the audit hook stood in the way.
        filesystem_isolated: whether Landlock confined the program's file access; when false only the
            empty environment, the fresh working folder and the audit hook stood in the way.
        isolation: the isolation in force, in words.
        elapsed: wall-clock seconds for the whole run, start-up included.
    """

    outputs: tuple[Grid | None, ...]
    errors: tuple[str | None, ...]
    stdout: str
    stderr: str
    network_isolated: bool
    filesystem_isolated: bool
    isolation: str
    elapsed: float

    @property
    def ok(self) -> bool:
        """Whether the program produced a valid grid for every input."""
        return all(error is None for error in self.errors)


@dataclass
class _Transcript:
    """What the child reported before it ended or was stopped."""

    ready: JSONObject | None = None
    load_error: str | None = None
    loaded: bool = False
    grids: dict[int, JSONObject] | None = None
    refused: str | None = None  # why the child would not run the program, if it would not
    stopped: str | None = None  # why the parent killed the child, if it did
    returncode: int | None = None

    def stage(self) -> str:
        if self.ready is None:
            return "start-up"
        if not self.loaded:
            return "loading the program"
        return f"grid {len(self.grids or {})}"


def run_program(
    source: str,
    grids: Sequence[Sequence[Sequence[int]]],
    *,
    time_limit: float = 5.0,
    memory_mb: int = 512,
    output_limit: int = 1 << 20,
    packages: Sequence[str] = DEFAULT_PACKAGES,
    require_isolation: bool = False,
) -> SandboxResult:
    """Run a program defining ``transform(grid) -> grid`` on each grid, in one fresh subprocess.

    The child is ``python -I -B`` with an empty environment, its standard input closed, its working
    directory a fresh temporary folder, in a session of its own (the whole process group is killed at
    the end). It sets its own resource limits (address space ``memory_mb``, CPU time, file size
    ``output_limit``, no new processes), enters a new network namespace and confines its file access
    with Landlock where the kernel allows, and adds an audit hook. Its outputs come back as JSON over a
    pipe and are validated here; nothing of the child is ever imported.

    Args:
        source: Python source defining ``transform(grid)``; it receives a grid as a list of lists of
            ``int`` and returns one (lists, tuples or an array with ``tolist()``).
        grids: the input grids (anything [`validate_grid`][continual_arc.core.grids.validate_grid] accepts).
        time_limit: wall-clock seconds allowed for loading the program, and again for each grid.
        memory_mb: the child's address-space limit in MiB.
        output_limit: bytes the program may print to stdout and to stderr, each; more fails the program.
        packages: third-party packages the program may import.
        require_isolation: refuse to run the program (every grid fails) unless the kernel keeps it off
            the network and confines its files (Landlock); otherwise run it with what is available
            and say so in the result.

    Returns:
        One outcome per grid. A program that loops, crashes, runs out of memory, prints too much,
        returns a malformed grid or touches the network or files outside its folder fails on the
        grids concerned; this function does not raise for anything the program does.

    Raises:
        InvalidGridError: an input grid is invalid (the caller's mistake, not the program's).
    """
    inputs = [grid_json(validate_grid(grid)) for grid in grids]
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="continual-arc-sandbox-", ignore_cleanup_errors=True) as tmp:
        root = Path(tmp)
        (root / "work").mkdir()
        config: JSONObject = {
            "source": source,
            "grids": inputs,
            "memory_bytes": memory_mb << 20,
            "cpu_seconds": math.ceil(time_limit * (len(inputs) + 1)) + 2,
            "file_bytes": output_limit,
            "packages": list(packages),
            "require_isolation": require_isolation,
        }
        transcript = _execute(root, config, len(inputs), time_limit)
        printed = _Printed(
            *_read_capped(root / "stdout", output_limit), *_read_capped(root / "stderr", output_limit)
        )
    return _result(transcript, len(inputs), printed, output_limit, started)


@dataclass(frozen=True)
class _Printed:
    """What the program printed, and whether each stream reached the output limit."""

    stdout: str
    stdout_full: bool
    stderr: str
    stderr_full: bool


def _result(
    transcript: _Transcript, count: int, printed: _Printed, output_limit: int, started: float
) -> SandboxResult:
    """The result of a run from what the child reported of its ``count`` grids, and what it printed."""
    errors = _grid_errors(transcript, count)
    if printed.stdout_full or printed.stderr_full:
        errors = [f"the program printed more than the output limit of {output_limit} bytes"] * count
    outputs, errors = _validated(transcript, errors)
    ready = transcript.ready or {}
    network = bool(ready.get("network_namespace") or ready.get("landlock_tcp"))
    return SandboxResult(
        outputs=tuple(outputs),
        errors=tuple(errors),
        stdout=printed.stdout,
        stderr=printed.stderr,
        network_isolated=network,
        filesystem_isolated=bool(ready.get("landlock_fs")),
        isolation=_describe_isolation(ready),
        elapsed=time.monotonic() - started,
    )


def _execute(root: Path, config: JSONObject, count: int, time_limit: float) -> _Transcript:
    """Run the child on ``config`` (its ``count`` grids among it) in ``root``; what it reported."""
    read_fd, write_fd = os.pipe()
    config["result_fd"] = write_fd
    config_path = root / "config.json"
    config_path.write_text(json.dumps(config), encoding="utf-8")
    try:
        with open(root / "stdout", "wb") as out, open(root / "stderr", "wb") as err:
            process = subprocess.Popen(
                [sys.executable, "-I", "-B", str(_CHILD), str(config_path)],
                cwd=root / "work",
                env={},
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                pass_fds=(write_fd,),
                start_new_session=True,
            )
    finally:
        os.close(write_fd)
    try:
        transcript = _collect(read_fd, count, time_limit)
    finally:
        _kill_group(process)
        os.close(read_fd)
    transcript.returncode = process.returncode
    return transcript


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):  # the group is already gone
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def _collect(fd: int, count: int, time_limit: float) -> _Transcript:
    """Read the child's events until it ends, overruns a deadline, or sends too much."""
    transcript = _Transcript(grids={})
    limit = _STARTUP_LIMIT
    deadline = time.monotonic() + limit
    budget = _RESULT_BYTES_PER_GRID * (count + 1)
    buffer = b""
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
            transcript.stopped = f"time limit: {transcript.stage()} took longer than {limit:g} s"
            return transcript
        chunk = os.read(fd, 65536)
        if not chunk:
            return transcript
        buffer += chunk
        budget -= len(chunk)
        if budget < 0:
            transcript.stopped = "the program sent more results than its grids can hold"
            return transcript
        *lines, buffer = buffer.split(b"\n")
        for line in lines:
            if _record(transcript, line):
                limit = time_limit
                deadline = time.monotonic() + limit


def _record(transcript: _Transcript, line: bytes) -> bool:
    """Note one event; whether it starts a new timed stage."""
    try:
        event = json.loads(line)
    except ValueError:
        return False  # not one of ours: the program wrote to the pipe itself
    if not isinstance(event, dict):
        return False
    kind = event.get("event")
    if kind == "ready" and transcript.ready is None:
        transcript.ready = event
    elif kind == "loaded":
        transcript.loaded = True
    elif kind == "load_error":
        transcript.load_error = str(event.get("error"))
    elif kind == "refused":
        transcript.refused = str(event.get("error"))
    elif kind == "grid" and transcript.grids is not None and isinstance(event.get("index"), int):
        transcript.grids.setdefault(event["index"], event)
    else:
        return False
    return True


def _grid_errors(transcript: _Transcript, count: int) -> list[str | None]:
    """Per grid: ``None`` where the child reported an outcome (checked later), else why there is none."""
    if transcript.ready is None:
        why = transcript.stopped or "the interpreter ended before it was ready"
        return [f"the sandbox failed to start: {why}"] * count
    if transcript.refused is not None:
        return [f"not run: {transcript.refused}"] * count
    if transcript.load_error is not None:
        return [f"the program failed to load: {transcript.load_error}"] * count
    grids = transcript.grids or {}
    errors: list[str | None] = []
    first_missing: str | None = None
    for index in range(count):
        event = grids.get(index)
        if event is not None:
            errors.append(str(event["error"])[:400] if "error" in event else None)
        elif first_missing is None:
            first_missing = _stop_reason(transcript)
            errors.append(first_missing)
        else:
            errors.append(f"not run: the program was stopped earlier ({first_missing})")
    return errors


def _stop_reason(transcript: _Transcript) -> str:
    if transcript.stopped:
        return transcript.stopped
    code = transcript.returncode
    if code is not None and code < 0:
        name = signal.Signals(-code).name if -code in signal.valid_signals() else str(-code)
        meaning = _SIGNAL_MEANINGS.get(name, "it crashed")
        return f"the program was killed by {name} ({meaning})"
    return f"the program ended the process (exit code {code}) before returning"


def _validated(
    transcript: _Transcript, errors: list[str | None]
) -> tuple[list[Grid | None], list[str | None]]:
    grids = transcript.grids or {}
    outputs: list[Grid | None] = []
    checked: list[str | None] = []
    for index, error in enumerate(errors):
        grid: Grid | None = None
        if error is None:
            try:
                grid = validate_grid(grids[index]["output"])
            except InvalidGridError as invalid:
                error = f"the program returned a malformed grid: {invalid}"
        outputs.append(grid)
        checked.append(error)
    return outputs, checked


def _read_capped(path: Path, limit: int) -> tuple[str, bool]:
    """The file's first ``limit`` bytes as text, and whether it reached the limit."""
    try:
        with open(path, "rb") as file:
            data = file.read(limit)
    except OSError:
        return "", False
    return data.decode("utf-8", errors="replace"), len(data) >= limit


def _describe_isolation(ready: JSONObject) -> str:
    if not ready:
        return "unknown: the sandbox did not start"
    network = [
        name
        for name, key in (("namespace", "network_namespace"), ("landlock", "landlock_tcp"))
        if ready.get(key)
    ]
    return (
        f"network: {'+'.join(network) or 'audit hook only'}; "
        f"files: {'landlock' if ready.get('landlock_fs') else 'audit hook only'}; "
        "processes: audit hook, no-exec, rlimits"
    )
