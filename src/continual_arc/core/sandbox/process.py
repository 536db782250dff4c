"""A long-lived sandboxed process (an agent harness, a learner) and its only way out: the proxy.

[`ProxyBridge`][continual_arc.core.sandbox.process.ProxyBridge] listens on a Unix socket and carries each
connection to the tracking proxy's TCP port;
[`start_sandboxed`][continual_arc.core.sandbox.process.start_sandboxed] starts a program through
``_launch.py``, which puts it in a network namespace of its own where a relay on ``127.0.0.1:<proxy port>``
leads to the bridge, and confines its files with Landlock. See ``_launch.py`` for the layers and what happens
without them. With no proxy (``port`` ``None``) the program reaches no address at all. Its output goes to
files, or (``pipes``) its standard input and output are pipes to the caller, for a program driven over them (a
remote learner).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, BinaryIO, Protocol

from ._launch import _pipe  # the launcher's relay and the bridge carry bytes the same way
from .limits import PID_RESERVED, Limits

__all__ = [
    "DATA_INSIDE",
    "PROXY_ENV",
    "SYSTEM_READ_DIRS",
    "WORK_INSIDE",
    "Confinement",
    "ProcessHandle",
    "ProxyBridge",
    "SandboxedProcess",
    "interrupted",
    "kill_all",
    "launch_config",
    "start_sandboxed",
    "stop_on_interrupt",
]

PROXY_ENV = "CONTINUAL_ARC_PROXY"
"""The variable naming, to a program in the sandbox, the tracking proxy's OpenAI base as it reaches
it: the relay's ``http://127.0.0.1:<proxy port>/v1`` (a model learner's default endpoint)."""

_LAUNCHER = Path(__file__).with_name("_launch.py")
SYSTEM_READ_DIRS = ("/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/etc", "/proc", "/sys", "/opt")
"""Folders every harness may read and execute from: the system's programs and libraries."""
WORK_INSIDE = "/learner"
"""Where an isolated program sees its working folder: one path for every play, which tells none apart."""
DATA_INSIDE = "/data"
"""Where an isolated program sees its (empty) data directory: a fixed path that names no folder of ours."""
_DEVICES = "/dev"  # /dev/null, /dev/urandom, /dev/tty: readable and writable, as any program needs


class ProxyBridge:
    """A Unix socket whose every connection is carried to ``host:port`` (the proxy); a context manager.

    Args:
        path: where to listen (under 100 bytes).
        host: the proxy's address. port: its port.
    """

    def __init__(self, path: Path, host: str, port: int) -> None:
        self.path, self.host, self.port = path, host, port
        self._server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._server.bind(str(path))
        self._server.listen(64)
        threading.Thread(target=self._accept, name="proxy-bridge", daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self._server.accept()
            except OSError:
                return
            threading.Thread(target=self._carry, args=(conn,), daemon=True).start()

    def _carry(self, conn: socket.socket) -> None:
        with contextlib.suppress(OSError), conn, socket.create_connection((self.host, self.port)) as up:
            back = threading.Thread(target=_pipe, args=(up, conn), daemon=True)
            back.start()
            _pipe(conn, up)
            back.join()

    def close(self) -> None:
        """Stop listening and remove the socket."""
        with contextlib.suppress(OSError):
            self._server.close()
        self.path.unlink(missing_ok=True)

    def __enter__(self) -> ProxyBridge:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True)
class Confinement:
    """What a sandboxed program may reach besides its own folders, and how long it may run.

    Attributes:
        read_dirs: folders it may read and execute from, besides the system's.
        port: the proxy's port, the only TCP port it may reach (``None``: no network at all).
        bridge: the Unix socket of the [`ProxyBridge`][continual_arc.core.sandbox.process.ProxyBridge] (with
            ``port``).
        wall_seconds: the longest it may live, enforced by its caller (``None``: no cap).
        cpu_seconds: the CPU seconds the kernel lets it use (``None``: no cap).
        limits: its memory, processes, file size, working folder, log and saved state
            ([Limits][continual_arc.core.sandbox.limits.Limits]).
        isolate: also a PID namespace, a private root and no privileges (see ``_launch.py``).
        data: an empty data directory of ours and the variable that names it: isolated, the
            program sees an empty folder at
            [DATA_INSIDE][continual_arc.core.sandbox.process.DATA_INSIDE] instead, which the
            variable then names.
    """

    read_dirs: tuple[str, ...] = ()
    port: int | None = None
    bridge: Path | None = None
    wall_seconds: float | None = None
    cpu_seconds: int | None = None
    limits: Limits = field(default_factory=Limits)
    isolate: bool = False
    data: tuple[str, Path] | None = None


class ProcessHandle(Protocol):
    """A started program as its owner drives it: `subprocess.Popen`, or a zygote's fork."""

    pid: int
    stdin: IO[bytes] | None
    stdout: IO[bytes] | None

    def poll(self) -> int | None:
        """Its exit code once it has ended, else ``None``."""

    def wait(self, timeout: float | None = None) -> int:
        """Wait for it to end (raising `subprocess.TimeoutExpired` past ``timeout``)."""

    def kill(self) -> None:
        """Kill it."""


_LIVE: dict[int, None] = {}  # the process groups of the programs started here and not yet stopped
_INTERRUPTED = threading.Event()


def kill_all() -> None:
    """Kill every sandboxed program this process started and has not stopped (each whole group)."""
    for pid in list(_LIVE):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)


def interrupted() -> bool:
    """Whether an interrupt is ending this process's programs.

    See [stop_on_interrupt][continual_arc.core.sandbox.process.stop_on_interrupt].
    """
    return _INTERRUPTED.is_set()


@contextlib.contextmanager
def stop_on_interrupt() -> Iterator[None]:
    """While inside, an interrupt (SIGINT) first kills every sandboxed program, then is raised.

    A program killed with its whole group ends at once, whatever it was doing, so the caller's
    clean-up (its ``finally`` clauses) meets no program to wait for. Outside the main thread, where
    no handler can be installed, it does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: object) -> None:
        _INTERRUPTED.set()
        kill_all()
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        _INTERRUPTED.clear()


@dataclass
class SandboxedProcess:
    """A started program: its process and the report of what isolation it got."""

    process: ProcessHandle
    report_path: Path
    outputs: tuple[BinaryIO, ...]

    def __post_init__(self) -> None:
        _LIVE[self.process.pid] = None  # its group, killed whole by an interrupt

    def alive(self) -> bool:
        """Whether the program is still running."""
        return self.process.poll() is None

    def isolation(self) -> dict[str, Any]:
        """What the launcher put in force (empty if it failed before saying)."""
        try:
            report: dict[str, Any] = json.loads(self.report_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return report

    def stop(self, grace: float) -> int:
        """Wait up to ``grace`` seconds for the program to end, then kill its whole process group.

        Returns its exit code (negative: the signal that ended it).
        """
        deadline = time.monotonic() + grace
        while self.alive() and time.monotonic() < deadline:
            time.sleep(0.05)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)  # its children and the relay too
        code = self.process.wait()
        _LIVE.pop(self.process.pid, None)
        for output in self.outputs:
            output.close()
        return code


def launch_config(
    argv: Sequence[str],
    *,
    env: Mapping[str, str],
    cwd: Path,
    read_dirs: Sequence[str],
    write_dirs: Sequence[Path],
    port: int | None,
    bridge: Path | None,
    log_dir: Path,
    file_bytes: int = 256 << 20,
    cpu_seconds: int | None = None,
    isolate: bool = False,
    memory_bytes: int | None = None,
    processes: int | None = None,
    data: tuple[str, Path] | None = None,
) -> dict[str, Any]:
    """The launcher's config for a program (the arguments as `start_sandboxed` takes them).

    It makes ``log_dir`` and, in it, the empty folder the private root is built on.
    """
    # The launcher starts in ``cwd``: a relative path would be read from there, not from here.
    log_dir, cwd = log_dir.resolve(), cwd.resolve()
    log_dir.mkdir(parents=True, exist_ok=True)
    scratch = log_dir / "root"  # the private root is built on it (an empty folder of ours)
    scratch.mkdir(exist_ok=True)
    writable = [str(p.resolve()) for p in write_dirs]
    return {
        "argv": list(argv),
        "env": dict(env),
        "cwd": str(cwd),
        "read_dirs": [*SYSTEM_READ_DIRS, *(os.path.abspath(d) for d in read_dirs)],
        "write_dirs": [_DEVICES, *writable],
        "port": port,
        "bridge": None if bridge is None else str(bridge.resolve()),
        "report": str(log_dir / "isolation.json"),
        "file_bytes": file_bytes,
        "cpu_seconds": cpu_seconds,
        "isolate": isolate,
        "scratch": str(scratch),
        "binds": [[host, WORK_INSIDE if i == 0 else host] for i, host in enumerate(writable)],
        "home_env": ["TMPDIR", "HOME"] if isolate else [],
        "memory_bytes": memory_bytes,
        # the kernel's backstop for the process cap: the namespace's PIDs, its cap above the reserved
        "pid_max": None if processes is None else PID_RESERVED + processes + 1,
        "empty": None
        if data is None
        else {"env": data[0], "host": str(data[1].resolve()), "inside": DATA_INSIDE},
    }


def start_sandboxed(
    argv: Sequence[str],
    *,
    env: Mapping[str, str],
    cwd: Path,
    read_dirs: Sequence[str],
    write_dirs: Sequence[Path],
    port: int | None,
    bridge: Path | None,
    log_dir: Path,
    file_bytes: int = 256 << 20,
    cpu_seconds: int | None = None,
    pipes: bool = False,
    stderr: Path | None = None,
    isolate: bool = False,
    memory_bytes: int | None = None,
    processes: int | None = None,
    data: tuple[str, Path] | None = None,
) -> SandboxedProcess:
    """Start ``argv`` confined (see the module docstring); its stdout and stderr go to ``log_dir``.

    Args:
        argv: the program and its arguments (``argv[0]`` an absolute path).
        env: its whole environment (nothing of ours is passed on).
        cwd: where it starts.
        read_dirs: folders it may read and execute from, besides the system's.
        write_dirs: folders it may also write to.
        port: the proxy's port, the only TCP port it may reach (``None``: no proxy, no network).
        bridge: the Unix socket of the [`ProxyBridge`][continual_arc.core.sandbox.process.ProxyBridge]
            (``None`` with no proxy).
        log_dir: where its stdout, stderr, the launcher's config and report are written; keep it
            out of ``write_dirs``, so the program cannot rewrite its own report.
        file_bytes: the largest file it may write.
        cpu_seconds: the CPU seconds it may use (``None``: no cap).
        pipes: its standard input and output are pipes (``process.stdin``, ``process.stdout``).
        stderr: the file its standard error is appended to (default ``log_dir/stderr.txt``).
        isolate: a PID namespace, a private root and no privileges too: the program then sees
            ``write_dirs[0]`` at [`WORK_INSIDE`][continual_arc.core.sandbox.process.WORK_INSIDE] (its ``cwd``,
            when ``cwd`` is that folder), and its ``TMPDIR`` and ``HOME`` name its working folder as it sees
            it.
        memory_bytes: the private memory it may use (``RLIMIT_DATA``; ``None``: no cap).
        processes: the processes its PID namespace may hold (the kernel's backstop,
            ``pid_max``, is this many above the reserved PIDs; ``None``: none).
        data: the variable naming an empty data directory, and that directory: isolated, the
            program sees an empty read-only folder at
            [DATA_INSIDE][continual_arc.core.sandbox.process.DATA_INSIDE], which the variable names.
    """
    config = launch_config(
        argv, env=env, cwd=cwd, read_dirs=read_dirs, write_dirs=write_dirs, port=port, bridge=bridge,
        log_dir=log_dir, file_bytes=file_bytes, cpu_seconds=cpu_seconds, isolate=isolate,
        memory_bytes=memory_bytes, processes=processes, data=data,
    )  # fmt: skip
    return _launch(config, log_dir.resolve(), cwd.resolve(), pipes=pipes, stderr=stderr)


def _launch(
    config: Mapping[str, object], log_dir: Path, cwd: Path, *, pipes: bool, stderr: Path | None
) -> SandboxedProcess:
    """Write the launcher's ``config`` into ``log_dir`` and start the launcher on it, with nothing of ours."""
    config_path = log_dir / "launch.json"
    config_path.write_text(json.dumps(config), encoding="utf-8")
    err = open(stderr or log_dir / "stderr.txt", "ab" if stderr else "wb")  # noqa: SIM115  # closed in stop()
    out: BinaryIO | None = None if pipes else open(log_dir / "stdout.txt", "wb")  # noqa: SIM115
    python = getattr(sys, "_base_executable", sys.executable)
    process = subprocess.Popen(
        [python, "-I", "-S", str(_LAUNCHER), str(config_path)],
        cwd=cwd,
        env={},
        stdin=subprocess.PIPE if pipes else subprocess.DEVNULL,
        stdout=subprocess.PIPE if out is None else out,
        stderr=err,
        start_new_session=True,
    )
    outputs = (err,) if out is None else (out, err)
    return SandboxedProcess(process, log_dir / "isolation.json", outputs)
