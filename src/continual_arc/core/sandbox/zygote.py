"""A fork server for sandboxed Python programs: the interpreter's start-up paid once, isolation per program.

``verify`` starts a new learner process before every test instance, and each used to pay the
interpreter's start and the imports of NumPy and ``continual_arc`` (a quarter of a CPU-second)
before doing anything. A [`Zygote`][continual_arc.core.sandbox.zygote.Zygote] is one process, started with the
learners' environment, that imports trusted modules only (``continual_arc``'s and what they import; never the
learner's: its code runs nowhere but in a sandbox), then forks a program per request. Each forked program puts
every layer of the launcher in force on itself (`lockdown`: a network, PID and mount
namespace of its own, its private root, Landlock, no privileges, the limits), exactly as a program
started through ``_launch.py`` does, and then runs its module (``python -m MODULE ARGS``) in
process instead of starting an interpreter. Forked from a process that never ran the learner, it
starts from nothing the learner could have left: no memory is shared (copy on write), no
descriptor but its own three is open.

A fork holds nothing of its launch: the configuration reaches it in a list it empties, and it
drops every reference to it once the layers are in force, before the module runs; the zygote
starts in ``/``, and requests are named at random rather than counted.

The server speaks over a ``SOCK_SEQPACKET`` pair: a request is the launcher's config (JSON, with an
``id``) and three descriptors (the program's standard input, output and error); the answers are
``{"started": id, "pid": pid}`` and ``{"exited": pid, "code": code}``.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import json
import os
import runpy
import secrets
import select
import signal
import socket
import subprocess
import sys
import threading
import traceback
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from . import _launch

__all__ = ["SpawnedProcess", "Zygote", "serve"]

_MESSAGE = 1 << 20


class SpawnedProcess:
    """A program the zygote forked: what `subprocess.Popen` offers that the remote learner uses."""

    def __init__(self, zygote: Zygote, pid: int, stdin: IO[bytes], stdout: IO[bytes]) -> None:
        self.zygote, self.pid = zygote, pid
        self.stdin: IO[bytes] | None = stdin
        self.stdout: IO[bytes] | None = stdout
        self.returncode: int | None = None

    def poll(self) -> int | None:
        """Its exit code once it has ended (negative: the signal that ended it), else ``None``."""
        if self.returncode is None:
            self.returncode = self.zygote.exit_code(self.pid)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Wait for it to end; its exit code.

        Raises:
            subprocess.TimeoutExpired: it still runs after ``timeout`` seconds.
        """
        if self.returncode is None:
            code = self.zygote.wait_exit(self.pid, timeout)
            if code is None:
                raise subprocess.TimeoutExpired(f"sandboxed process {self.pid}", timeout or 0.0)
            self.returncode = code
        return self.returncode

    def kill(self) -> None:
        """Kill it and everything it started (its process group)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)


class Zygote:
    """The fork server, seen from the process that asks it for programs; a context manager.

    Args:
        env: its environment, the one every program it forks is given (their ``PYTHONPATH`` is its).
        log: the file its own standard error goes to.
        preload: the modules it imports once, before any fork (trusted code only: the program's
            side of its pipe, say, and what that imports).
    """

    def __init__(self, env: Mapping[str, str], log: Path, preload: Sequence[str] = ()) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        log.parent.mkdir(parents=True, exist_ok=True)
        with open(log, "ab") as err:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "continual_arc.core.sandbox.zygote", str(theirs.fileno()), *preload],
                env=dict(env),
                pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=err,
                cwd="/",  # a folder that names nothing: the path a fork's imports remember
                start_new_session=True,
            )
        theirs.close()
        self.sock = ours
        self._changed = threading.Condition()
        self._started: dict[str, int] = {}
        self._exits: dict[int, int] = {}
        self._gone = False
        threading.Thread(target=self._read, name="zygote", daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                data = self.sock.recv(_MESSAGE)
            except OSError:
                data = b""
            with self._changed:
                if not data:
                    self._gone = True
                    self._changed.notify_all()
                    return
                message = json.loads(data)
                if "started" in message:
                    self._exits.pop(message["pid"], None)  # a pid the kernel gave out again
                    self._started[message["started"]] = message["pid"]
                else:
                    self._exits[message["exited"]] = message["code"]
                self._changed.notify_all()

    def spawn(self, config: Mapping[str, Any], stderr: Path, timeout: float = 60.0) -> SpawnedProcess:
        """Fork a program for the launcher's ``config`` (its ``argv`` is ``[python, "-m", MODULE, *args]``).

        Its standard input and output are pipes to the caller; its standard error is appended to
        ``stderr``.

        Raises:
            RuntimeError: the zygote has ended, or did not fork in ``timeout`` seconds.
        """
        in_read, in_write = os.pipe()
        out_read, out_write = os.pipe()
        err = os.open(stderr, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o644)
        request = secrets.token_hex(8)  # a name that counts nothing: no fork learns how many came before
        try:
            socket.send_fds(
                self.sock, [json.dumps({**config, "id": request}).encode()], [in_read, out_write, err]
            )
        except OSError as error:
            for fd in (in_read, in_write, out_read, out_write, err):
                os.close(fd)
            raise RuntimeError(f"the zygote has ended ({error})") from error
        for fd in (in_read, out_write, err):
            os.close(fd)
        with self._changed:
            found = self._changed.wait_for(lambda: request in self._started or self._gone, timeout)
            if not found or request not in self._started:
                raise RuntimeError("the zygote did not start the learner's process")
            pid = self._started.pop(request)
        return SpawnedProcess(self, pid, os.fdopen(in_write, "wb"), os.fdopen(out_read, "rb"))

    def exit_code(self, pid: int) -> int | None:
        """The exit code of a program it forked, if it has ended (``-9`` if the zygote is gone)."""
        with self._changed:
            return self._exits.get(pid, -signal.SIGKILL if self._gone else None)

    def wait_exit(self, pid: int, timeout: float | None) -> int | None:
        """Wait up to ``timeout`` seconds for the program ``pid`` to end; its exit code, or ``None``."""
        with self._changed:
            self._changed.wait_for(lambda: pid in self._exits or self._gone, timeout)
            return self._exits.get(pid, -signal.SIGKILL if self._gone else None)

    def close(self) -> None:
        """End the zygote (the programs it forked are ended by their owners)."""
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def __enter__(self) -> Zygote:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _code(status: int) -> int:
    return os.WEXITSTATUS(status) if os.WIFEXITED(status) else -os.WTERMSIG(status)


def _reap(sock: socket.socket) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        with contextlib.suppress(OSError):
            sock.send(json.dumps({"exited": pid, "code": _code(status)}).encode())


def _run(sock: socket.socket, request: list[dict[str, Any]], fds: Sequence[int]) -> None:
    """In the forked child: the three descriptors, every layer, then the module as ``__main__``.

    The launcher's config arrives in ``request``, a list this function empties: once the layers are
    in force, nothing of the config (its folders, its report's path) is referenced from the module's
    frames, the stack beneath them or any object the collector can reach.
    """
    code = 1
    try:
        sock.close()
        os.setsid()  # its own process group, which its owner kills whole
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        for fd in fds:
            if fd > 2:
                os.close(fd)
        config = request.pop()
        cwd, env = _launch.lockdown(config)
        module, *args = config["argv"][2:]
        del config  # what is left of the launch: the module, its arguments, its folder and environment
        gc.collect()
        os.environ.clear()
        os.environ.update(env)
        del env
        sys.argv = [module, *args]
        sys.path[0] = cwd  # as ``python -m`` puts its working folder first
        try:
            with warnings.catch_warnings():
                # The module was preloaded on purpose: running it as __main__ again is what is meant.
                warnings.filterwarnings("ignore", "'.*' found in sys.modules", RuntimeWarning)
                runpy.run_module(module, run_name="__main__", alter_sys=True)
            code = 0
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    except BaseException:  # the program's fault or ours: said on its standard error, never raised here
        traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def serve(fd: int, preload: Sequence[str]) -> None:
    """The zygote's loop: import ``preload``, then fork a program per request until the socket closes."""
    for name in preload:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    sock = socket.socket(fileno=fd)
    while True:
        ready, _, _ = select.select([sock], [], [], 0.05)
        _reap(sock)
        if not ready:
            continue
        try:
            data, fds, _, _ = socket.recv_fds(sock, _MESSAGE, 3)
        except OSError:
            return
        if not data:
            return
        request = [json.loads(data)]  # handed to the child in a list it empties (see _run)
        ident = request[0].pop("id")
        del data
        pid = os.fork()
        if pid == 0:
            _run(sock, request, fds)
        del request
        for received in fds:
            os.close(received)
        sock.send(json.dumps({"started": ident, "pid": pid}).encode())


if __name__ == "__main__":
    serve(int(sys.argv[1]), sys.argv[2:])
