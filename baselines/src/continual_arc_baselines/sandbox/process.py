"""A long-lived sandboxed process, such as an agent harness, and its only way out: the proxy.

:class:`ProxyBridge` listens on a Unix socket and carries each connection to the tracking proxy's
TCP port; :func:`start_sandboxed` starts a program through ``_launch.py``, which puts it in a
network namespace of its own where a relay on ``127.0.0.1:<proxy port>`` leads to the bridge, and
confines its files with Landlock. See ``_launch.py`` for the layers and what happens without them.
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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

__all__ = ["SYSTEM_READ_DIRS", "ProxyBridge", "SandboxedProcess", "start_sandboxed"]

_LAUNCHER = Path(__file__).with_name("_launch.py")
SYSTEM_READ_DIRS = ("/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/etc", "/proc", "/sys", "/opt")
"""Folders every harness may read and execute from: the system's programs and libraries."""
_DEVICES = "/dev"  # /dev/null, /dev/urandom, /dev/tty: readable and writable, as any program needs


def _pipe(source: socket.socket, sink: socket.socket) -> None:
    with contextlib.suppress(OSError):
        while data := source.recv(65536):
            sink.sendall(data)
    with contextlib.suppress(OSError):
        sink.shutdown(socket.SHUT_WR)


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


@dataclass
class SandboxedProcess:
    """A started program: its process and the report of what isolation it got."""

    process: subprocess.Popen[bytes]
    report_path: Path
    outputs: tuple[BinaryIO, BinaryIO]

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
        for output in self.outputs:
            output.close()
        return code


def start_sandboxed(
    argv: Sequence[str],
    *,
    env: Mapping[str, str],
    cwd: Path,
    read_dirs: Sequence[str],
    write_dirs: Sequence[Path],
    port: int,
    bridge: Path,
    log_dir: Path,
    file_bytes: int = 256 << 20,
) -> SandboxedProcess:
    """Start ``argv`` confined (see the module docstring); its stdout and stderr go to ``log_dir``.

    Args:
        argv: the program and its arguments (``argv[0]`` an absolute path).
        env: its whole environment (nothing of ours is passed on).
        cwd: where it starts.
        read_dirs: folders it may read and execute from, besides the system's.
        write_dirs: folders it may also write to.
        port: the proxy's port, the only TCP port it may reach.
        bridge: the Unix socket of the :class:`ProxyBridge`.
        log_dir: where its stdout, stderr, the launcher's config and report are written.
        file_bytes: the largest file it may write.
    """
    log_dir.mkdir(parents=True, exist_ok=True)
    config = {
        "argv": list(argv),
        "env": dict(env),
        "cwd": str(cwd),
        "read_dirs": [*SYSTEM_READ_DIRS, *read_dirs],
        "write_dirs": [_DEVICES, *(str(p) for p in write_dirs)],
        "port": port,
        "bridge": str(bridge),
        "report": str(log_dir / "isolation.json"),
        "file_bytes": file_bytes,
    }
    config_path = log_dir / "launch.json"
    config_path.write_text(json.dumps(config), encoding="utf-8")
    out, err = open(log_dir / "stdout.txt", "wb"), open(log_dir / "stderr.txt", "wb")  # noqa: SIM115
    python = getattr(sys, "_base_executable", sys.executable)
    process = subprocess.Popen(
        [python, "-I", "-S", str(_LAUNCHER), str(config_path)],
        cwd=cwd,
        env={},
        stdin=subprocess.DEVNULL,
        stdout=out,
        stderr=err,
        start_new_session=True,
    )
    return SandboxedProcess(process, log_dir / "isolation.json", (out, err))
