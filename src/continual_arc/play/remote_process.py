"""The process behind a remote learner: started in its own folder, driven over a pipe, then gone.

[`Child`][continual_arc.play.remote_process.Child] is one learner process
([`continual_arc.play.remote`][continual_arc.play.remote] starts a new one whenever a reset must start from
nothing): started under a prefix command, in the kernel sandbox through the launcher, or forked from a zygote;
it says it is ready, or why it could not build the learner, before any call. Its folder is made for it and
removed when it ends; its log is kept apart.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import BinaryIO, NotRequired

# pydantic reads a TypedDict from typing_extensions only, on Python 3.11 (the parent validates Hello).
from typing_extensions import TypedDict

from ..core.errors import ContinualArcError
from ..core.learner_ref import LearnerRef
from ..core.records import JSONObject, JSONValue
from ..core.sandbox import (
    Confinement,
    ProcessHandle,
    SandboxedProcess,
    Watch,
    interrupted,
    launch_config,
    sentence,
    start_sandboxed,
)
from ..core.sandbox._root import give
from ..core.sandbox.zygote import Zygote
from .state_copy import copy_state

__all__ = [
    "CHILD_MODULE",
    "STATE_IN",
    "STATE_OUT",
    "UNPLAYED",
    "Child",
    "Hello",
    "RemoteLearnerError",
    "hand_over",
]

CHILD_MODULE = "continual_arc.play.remote_child"
"""The learner's side of the pipe: what every learner process runs, and what a zygote preloads."""


class RemoteLearnerError(ContinualArcError, RuntimeError):
    """A call the learner's process answered with an error, or could not answer (it ended)."""


STATE_IN, STATE_OUT = "state-in", "state-out"
"""The folders, in a process's own, that a state is loaded from and saved to (relative paths)."""

UNPLAYED = frozenset(
    {"hello", "fingerprint", "resources", "user_resources", "training_resources", "teacher_resources"}
)
"""Calls after which a process has still played nothing: a reset need not replace it."""


class Hello(TypedDict):
    """The child's first reply: the optional members its learner has, and what it says of itself."""

    members: list[str]
    stateless: bool
    concurrent_users: bool
    teacher_plays_first: NotRequired[bool]  # an experiment's learner, which no other process can serve


def hand_over(folder: Path, isolation: Mapping[str, JSONValue] | None) -> None:
    """``folder`` and what it holds to the user a sandboxed process runs as (when that is not us)."""
    uid = (isolation or {}).get("uid")
    if not isinstance(uid, int) or uid == os.geteuid() or os.geteuid() != 0:
        return
    give(str(folder), uid, uid)  # the launcher's own walk, which follows no link


class Child:
    """The learner's process and its pipe, started under ``prefix`` or in the kernel sandbox.

    It works in ``workdir``, a folder made for it alone and removed when it ends; its standard
    error and the sandbox's report go to ``log_dir``, out of its reach. ``start_state`` is copied
    into ``workdir/state-in`` before it starts (so that, run as another user, it owns the copy).
    """

    def __init__(
        self,
        learner: LearnerRef,
        workdir: Path,
        log_dir: Path,
        prefix: Sequence[str],
        env: Mapping[str, str],
        confinement: Confinement | None,
        start_state: Path | None = None,
        zygote: Zygote | None = None,
    ) -> None:
        command = [*prefix, sys.executable, "-m", CHILD_MODULE, json.dumps(learner.spec)]
        workdir.mkdir(parents=True)
        log_dir.mkdir(parents=True, exist_ok=True)
        self.workdir = workdir
        if start_state is not None:
            copy_state(start_state, workdir / STATE_IN)
        self.isolation: JSONObject | None = None
        self.sandboxed: SandboxedProcess | None = None
        self.log: BinaryIO | None = None
        self.process: ProcessHandle
        if confinement is None:
            self.log = open(log_dir / "stderr.txt", "ab")  # noqa: SIM115  # closed in close()
            self.process = subprocess.Popen(
                command,
                cwd=workdir,
                env=dict(env),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.log,
            )
        else:
            self.sandboxed = _start_confined(command, workdir, log_dir, env, confinement, zygote)
            self.process = self.sandboxed.process
        self.limits = confinement.limits if confinement is not None else None
        # The limits looked at from outside, while it runs: processes, working folder, log.
        self.watch = (
            Watch(self.process.pid, self.limits, workdir, log_dir / "stderr.txt")
            if self.sandboxed is not None and self.limits is not None
            else None
        )
        self.told = False  # whether the limit it went over (if any) has failed an instance yet
        self.pending: str | None = None  # a limit an earlier process went over, to fail the next instance
        self.timed_out = False
        self.played = False  # until a call that could tell it anything of an instance
        wall = confinement.wall_seconds if confinement else None
        self.timer = threading.Timer(wall, self._time_out) if wall is not None else None
        if self.timer is not None:
            self.timer.daemon = True
            self.timer.start()
        try:
            self.read("start")  # the child says it is ready, or why it could not build the learner
        except RemoteLearnerError:
            self.close()  # its folder goes, its log stays
            raise
        if self.sandboxed is not None:
            self.isolation = self.sandboxed.isolation()
            # the launcher has read its config, which holds the whole environment: not kept in the rerun
            (self.sandboxed.report_path.parent / "launch.json").unlink(missing_ok=True)

    @property
    def limit_hit(self) -> str | None:
        """The sentence of the limit this process went over, and was ended for (``None``: none)."""
        return None if self.watch is None else self.watch.hit

    def end_for(self, why: str) -> None:
        """End the process for going over a limit, ``why`` the sentence that says which."""
        if self.watch is not None:
            self.watch.end(why)

    def _limit_of_exit(self, code: int) -> None:
        """Name the limit an exit says was hit: a file written past the file-size cap (SIGXFSZ)."""
        if self.limits is not None and code in (-signal.SIGXFSZ, 128 + signal.SIGXFSZ):
            self.end_for(sentence("file_bytes", self.limits.file_bytes))

    def _time_out(self) -> None:
        """The wall cap: end the process (and, sandboxed, its whole group)."""
        self.timed_out = True
        with contextlib.suppress(ProcessLookupError):
            if self.sandboxed is not None:
                os.killpg(self.process.pid, signal.SIGKILL)
            else:
                self.process.kill()

    def read(self, call: str) -> JSONValue:
        """The next reply, for ``call``: its value, or the error it carries raised.

        Raises:
            RemoteLearnerError: the reply is an error, or the process ended before it.
        """
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            code = self.process.wait()
            self._limit_of_exit(code)
            if self.limit_hit is not None:
                self.told = True
                raise RemoteLearnerError(self.limit_hit)
            why = " (its wall-time cap)" if self.timed_out else ""
            raise RemoteLearnerError(f"the learner's process ended (exit status {code}{why}) during {call}")
        reply: JSONObject = json.loads(line)  # serve's reply: {"ok": value} or {"error": {...}}
        error = reply.get("error")
        if isinstance(error, dict):
            if error.get("memory") and self.limits is not None and self.limits.memory_bytes is not None:
                # Out of memory under the sandbox's cap: the limit, whatever the learner makes of it.
                self.end_for(sentence("memory_bytes", self.limits.memory_bytes))
                self.told = True
                raise RemoteLearnerError(f"{self.limit_hit} (a {error.get('type')} in {call})")
            if error.get("file_size") and self.limits is not None:
                self.end_for(sentence("file_bytes", self.limits.file_bytes))
                self.told = True
                raise RemoteLearnerError(f"{self.limit_hit} (an {error.get('type')} in {call})")
            raise RemoteLearnerError(f"{error.get('type')} in {call}: {error.get('message')}")
        return reply["ok"]

    def call(self, name: str, *args: JSONValue) -> JSONValue:
        """Send the call ``name`` with ``args`` and return the reply's value (see `read`)."""
        assert self.process.stdin is not None
        self.played = self.played or name not in UNPLAYED
        try:
            self.process.stdin.write(json.dumps({"call": name, "args": list(args)}).encode() + b"\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            raise RemoteLearnerError(f"the learner's process ended before {name}") from None
        return self.read(name)

    def close(self) -> None:
        """End the process (asked to quit, killed after five seconds) and remove its folder."""
        if self.timer is not None:
            self.timer.cancel()
        if self.process.poll() is None and interrupted():
            self.process.kill()  # interrupted: no time to ask it to quit
            self.process.wait()
        if self.process.poll() is None:
            try:
                assert self.process.stdin is not None
                self.process.stdin.write(json.dumps({"call": "quit"}).encode() + b"\n")
                self.process.stdin.close()
                self.process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        if self.sandboxed is not None:
            self.sandboxed.stop(0)  # the process has ended; this ends its relay and closes the log
        if self.watch is not None:
            self.watch.stop()
        if self.log is not None:
            self.log.close()
        # nothing an instance leaves in its folder reaches another: the folder goes with it
        shutil.rmtree(self.workdir, ignore_errors=True)


class _Confined(TypedDict):
    """The arguments `launch_config` and `start_sandboxed` share, for a learner's process."""

    env: dict[str, str]
    cwd: Path
    read_dirs: Sequence[str]
    write_dirs: Sequence[Path]
    port: int | None
    bridge: Path | None
    log_dir: Path
    file_bytes: int
    cpu_seconds: int | None
    isolate: bool
    memory_bytes: int | None
    processes: int | None
    data: tuple[str, Path] | None


def _start_confined(
    command: Sequence[str],
    workdir: Path,
    log_dir: Path,
    env: Mapping[str, str],
    confinement: Confinement,
    zygote: Zygote | None,
) -> SandboxedProcess:
    """The learner's process in the kernel sandbox: it writes only in ``workdir``.

    The launcher's config and report, and the learner's standard error, go to ``log_dir``, where
    the learner cannot rewrite them. With a ``zygote`` (and no prefix command), the process is
    forked from it, every layer put in force as the launcher would.
    """
    where: _Confined = {
        "env": {**env, "TMPDIR": str(workdir), "HOME": str(workdir)},
        "cwd": workdir,
        "read_dirs": confinement.read_dirs,
        "write_dirs": [workdir],
        "port": confinement.port,
        "bridge": confinement.bridge,
        "log_dir": log_dir,
        "file_bytes": confinement.limits.file_bytes,
        "cpu_seconds": confinement.cpu_seconds,
        "isolate": confinement.isolate,
        "memory_bytes": confinement.limits.memory_bytes,
        "processes": confinement.limits.processes,
        "data": confinement.data,
    }
    if zygote is not None and command[0] == sys.executable:
        process = zygote.spawn(launch_config(command, **where), log_dir / "stderr.txt")
        return SandboxedProcess(process, log_dir / "isolation.json", ())
    return start_sandboxed(command, **where, pipes=True)
