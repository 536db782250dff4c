"""The channel between a harness's ``arc`` command and its learner: one Unix socket per instance.

The harness runs ``arc demo`` (or ``submit``, ``give-up``, ``show``) with its own shell; the command
connects to the instance's socket, sends one JSON line and waits. The learner's ``act`` takes the
request off the channel as the environment's action, and ``observe`` answers it with the verdict,
so each tool call is one action and the harness hears the environment's answer as the tool's output.
``show`` is answered here, without an action. Once the instance is over every request is answered
at once that it is over: a harness that goes on calling its tools cannot hold up the round.
"""

from __future__ import annotations

import contextlib
import json
import queue
import socket
import stat
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..json_types import JSONValue

__all__ = ["ToolChannel", "ToolRequest", "write_arc_command"]

_READ_LIMIT = 1 << 20  # a 30 x 30 grid is a few KB of JSON; anything far larger is no answer
_TOOL = Path(__file__).with_name("arc_tool.py")


@dataclass(frozen=True)
class ToolRequest:
    """One call of the ``arc`` command.

    Attributes:
        tool: ``demo``, ``submit``, ``give-up`` or ``show``.
        grid: for ``submit``, the grid as the harness wrote it (JSON text).
    """

    tool: str
    grid: str | None = None


class _Pending:
    """A request waiting for its answer, with the connection to answer on."""

    def __init__(self, conn: socket.socket, request: ToolRequest) -> None:
        self.conn, self.request = conn, request

    def answer(self, text: str) -> None:
        with contextlib.suppress(OSError):  # the harness may have given up waiting
            self.conn.sendall((json.dumps({"text": text}) + "\n").encode())
        with contextlib.suppress(OSError):
            self.conn.close()


class ToolChannel:
    """The learner's end of one instance's ``arc`` socket.

    Args:
        path: where to make the socket (under 100 bytes: a Unix socket path is short).
        show: answers ``arc show`` without an action (the instance as the harness last saw it).
    """

    def __init__(self, path: Path, show: Callable[[], str]) -> None:
        self.path = path
        self._show = show
        self._queue: queue.Queue[_Pending] = queue.Queue()
        self._over: str | None = None
        self._lock = threading.Lock()
        self._server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._server.bind(str(path))
        self._server.listen(16)
        name = f"arc-channel-{path.parent.name}"
        self._thread = threading.Thread(target=self._accept, name=name, daemon=True)
        self._thread.start()
        self.current: _Pending | None = None

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self._server.accept()
            except OSError:
                return  # closed
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        conn.settimeout(30)
        try:
            data = b""
            while not data.endswith(b"\n") and len(data) < _READ_LIMIT:
                chunk = conn.recv(65536)
                if not chunk:
                    break
                data += chunk
            body: JSONValue = json.loads(data or b"null")
        except (OSError, ValueError):
            conn.close()
            return
        if not isinstance(body, dict) or not isinstance(body.get("tool"), str):
            _Pending(conn, ToolRequest("?")).answer("a malformed request")
            return
        tool, grid = body["tool"], body.get("grid")
        pending = _Pending(conn, ToolRequest(str(tool), grid if isinstance(grid, str) else None))
        with self._lock:
            over = self._over
        if over is not None:
            pending.answer(over)
        elif pending.request.tool == "show":
            pending.answer(self._show())
        else:
            self._queue.put(pending)

    def next_request(self, alive: Callable[[], bool], deadline: float) -> ToolRequest | None:
        """Wait for the harness's next action; ``None`` once it has exited or the deadline passed."""
        while time.monotonic() < deadline:
            try:
                self.current = self._queue.get(timeout=0.05)
                return self.current.request
            except queue.Empty:
                if not alive() and self._queue.empty():
                    return None
        return None

    def answer(self, text: str) -> None:
        """Answer the request last taken."""
        if self.current is not None:
            self.current.answer(text)
            self.current = None

    def finish(self, text: str) -> None:
        """The instance is over: answer the waiting request and every later one with ``text``."""
        with self._lock:
            self._over = text
        self.answer(text)
        while not self._queue.empty():
            self._queue.get_nowait().answer(text)

    def close(self) -> None:
        """Stop listening and remove the socket."""
        self.finish(self._over or "the instance is over")
        with contextlib.suppress(OSError):
            self._server.close()
        self.path.unlink(missing_ok=True)


def write_arc_command(bin_dir: Path, socket_path: Path, python: str | None = None) -> Path:
    """Write the ``arc`` launcher for one instance into ``bin_dir``; its path.

    The launcher runs the tool with the interpreter Python itself was built from
    (``sys._base_executable``), isolated (``-I -S``): the harness's sandbox may read that
    interpreter's standard library, never the benchmark's environment and its packages.
    """
    bin_dir.mkdir(parents=True, exist_ok=True)
    interpreter = python or getattr(sys, "_base_executable", sys.executable)
    command = bin_dir / "arc"
    command.write_text(f'#!/bin/sh\nexec "{interpreter}" -I -S "{_TOOL}" "{socket_path}" "$@"\n')
    command.chmod(command.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return command
