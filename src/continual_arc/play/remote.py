"""A learner in a process of its own, driven by the runner over a pipe.

:func:`remote_learner` starts ``python -m continual_arc.play.remote_child`` for a learner named
by its import path and returns an object with the learner protocol whose every call is forwarded
(arguments and results through :mod:`continual_arc.core.wire`). It has the optional members the
learner has (``save_state``, ``instance_log``, ...), and no others, so the runner treats it as it
would treat the learner itself. Each process runs in a folder made for it alone (named at random,
removed when it ends), in the kernel sandbox of :mod:`continual_arc.core.sandbox` when given a
``confinement`` (or under a ``prefix`` command); its state crosses the folder's edge only through
``save_state`` and ``load_state``, copied as plain files and folders (:mod:`.state_copy`).

``restart_on_reset`` makes ``reset()`` end the process and start a new one, from nothing or from a
saved state: what verification does before every test instance, so that a learner carries to an
instance only what it kept as files. A process that has played nothing yet (only built, asked its
members, fingerprint and counters, and given the start state) is kept by a reset: it is already new.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from ..core.errors import ContinualArcError
from ..core.sandbox import Confinement, ProcessHandle, SandboxedProcess, launch_config, start_sandboxed
from ..core.sandbox.zygote import Zygote
from ..core.wire import from_wire, to_wire
from .state_copy import UnsafeState, copy_state

__all__ = ["CHILD_MODULE", "RemoteLearnerError", "remote_learner"]

CHILD_MODULE = "continual_arc.play.remote_child"
"""The learner's side of the pipe: what every learner process runs, and what a zygote preloads."""


class RemoteLearnerError(ContinualArcError, RuntimeError):
    """A call the learner's process answered with an error, or could not answer (it ended)."""


STATE_IN, STATE_OUT = "state-in", "state-out"
"""The folders, in a process's own, that a state is loaded from and saved to (relative paths)."""

_UNPLAYED = frozenset({"hello", "fingerprint", "resources", "user_resources"})
"""Calls after which a process has still played nothing: a reset need not replace it."""


def _hand_over(folder: Path, isolation: Mapping[str, Any] | None) -> None:
    """``folder`` and what it holds to the user a sandboxed process runs as (when that is not us)."""
    uid = (isolation or {}).get("uid")
    if not isinstance(uid, int) or uid == os.geteuid() or os.geteuid() != 0:
        return
    os.lchown(folder, uid, uid)
    for top, dirs, files in os.walk(folder):
        for name in dirs + files:
            os.lchown(Path(top) / name, uid, uid)


class _Child:
    """The learner's process and its pipe, started under ``prefix`` or in the kernel sandbox.

    It works in ``workdir``, a folder made for it alone and removed when it ends; its standard
    error and the sandbox's report go to ``log_dir``, out of its reach. ``start_state`` is copied
    into ``workdir/state-in`` before it starts (so that, run as another user, it owns the copy).
    """

    def __init__(
        self,
        spec: Mapping[str, Any],
        workdir: Path,
        log_dir: Path,
        prefix: Sequence[str],
        env: Mapping[str, str],
        confinement: Confinement | None,
        start_state: Path | None = None,
        zygote: Zygote | None = None,
    ) -> None:
        command = [*prefix, sys.executable, "-m", CHILD_MODULE, json.dumps(dict(spec))]
        workdir.mkdir(parents=True)
        log_dir.mkdir(parents=True, exist_ok=True)
        self.workdir = workdir
        if start_state is not None:
            copy_state(start_state, workdir / STATE_IN)
        self.isolation: dict[str, Any] | None = None
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

    def _time_out(self) -> None:
        """The wall cap: end the process (and, sandboxed, its whole group)."""
        self.timed_out = True
        with contextlib.suppress(ProcessLookupError):
            if self.sandboxed is not None:
                os.killpg(self.process.pid, signal.SIGKILL)
            else:
                self.process.kill()

    def read(self, call: str) -> Any:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            code = self.process.wait()
            why = " (its wall-time cap)" if self.timed_out else ""
            raise RemoteLearnerError(f"the learner's process ended (exit status {code}{why}) during {call}")
        reply = json.loads(line)
        if "error" in reply:
            error = reply["error"]
            raise RemoteLearnerError(f"{error.get('type')} in {call}: {error.get('message')}")
        return reply["ok"]

    def call(self, name: str, *args: Any) -> Any:
        assert self.process.stdin is not None
        self.played = self.played or name not in _UNPLAYED
        try:
            self.process.stdin.write(json.dumps({"call": name, "args": list(args)}).encode() + b"\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            raise RemoteLearnerError(f"the learner's process ended before {name}") from None
        return self.read(name)

    def close(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
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
        if self.log is not None:
            self.log.close()
        # nothing an instance leaves in its folder reaches another: the folder goes with it
        shutil.rmtree(self.workdir, ignore_errors=True)


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
    where: dict[str, Any] = {
        "env": {**env, "TMPDIR": str(workdir), "HOME": str(workdir)},
        "cwd": workdir,
        "read_dirs": confinement.read_dirs,
        "write_dirs": [workdir],
        "port": confinement.port,
        "bridge": confinement.bridge,
        "log_dir": log_dir,
        "file_bytes": confinement.file_bytes,
        "cpu_seconds": confinement.cpu_seconds,
        "isolate": confinement.isolate,
    }
    if zygote is not None and command[0] == sys.executable:
        process = zygote.spawn(launch_config(command, **where), log_dir / "stderr.txt")
        return SandboxedProcess(process, log_dir / "isolation.json", ())
    return start_sandboxed(command, **where, pipes=True)


class _RemoteBase:
    """The learner protocol, forwarded to the learner's process."""

    concurrent_users = False  # one pipe: the runner serves a remote learner one action at a time

    def __init__(
        self,
        spec: Mapping[str, Any],
        workdir: Path,
        logs: Path,
        prefix: Sequence[str],
        env: Mapping[str, str],
        restart_on_reset: bool,
        start_state: Path | None,
        confinement: Confinement | None,
        zygote: Zygote | None = None,
    ) -> None:
        self.spec, self.prefix, self.env = dict(spec), list(prefix), dict(env)
        self.zygote = zygote
        self.workdir = workdir.resolve()  # absolute: the child starts in it, and its TMPDIR names it
        self.logs = logs.resolve()
        self.restart_on_reset, self.start_state = restart_on_reset, start_state
        self.confinement = confinement
        self.isolations: list[dict[str, Any]] = []
        self.child = self._start(start_state)
        self.hello: dict[str, Any] = self.child.call("hello")
        self.stateless = bool(self.hello["stateless"])
        if start_state is not None:
            self.child.call("load_state", STATE_IN)
            self.child.played = False  # the state every new process starts from: nothing played yet

    def _start(self, state: Path | None) -> _Child:
        """A new process in a new folder, whose name says nothing of the play (its log's does)."""
        number = len(list(self.logs.glob("[0-9]*"))) if self.logs.is_dir() else 0
        child = _Child(
            self.spec,
            self.workdir / secrets.token_hex(8),
            self.logs / f"{number:05d}",
            self.prefix,
            self.env,
            self.confinement,
            state,
            self.zygote,
        )
        if child.isolation is not None:
            self.isolations.append(child.isolation)
        return child

    def sandbox_reports(self) -> list[dict[str, Any]]:
        """What the kernel sandbox put in force for each process started so far (none unconfined)."""
        return list(self.isolations)

    def _load(self, directory: Path) -> None:
        inside = self.child.workdir / STATE_IN
        shutil.rmtree(inside, ignore_errors=True)
        copy_state(directory, inside)
        _hand_over(inside, self.child.isolation)
        self.child.call("load_state", STATE_IN)

    def reset(self) -> None:
        """Wipe the learner: its own ``reset()``, or a new process (from ``start_state``)."""
        if not self.restart_on_reset:
            self.child.call("reset")
            return
        if not self.child.played:  # a new process already: starting another would only cost its start-up
            return
        self.child.close()
        self.child = self._start(self.start_state)
        if self.start_state is not None:
            self.child.call("load_state", STATE_IN)
            self.child.played = False

    def act(self, obs: Any) -> Any:
        """The learner's action on ``obs``."""
        return from_wire(self.child.call("act", to_wire(obs)))

    def observe(self, obs: Any, action: Any, feedback: Any) -> None:
        """Hand the learner the verdict."""
        self.child.call("observe", to_wire(obs), to_wire(action), to_wire(feedback))

    def begin_round(self) -> None:
        """A round starts."""
        self.child.call("begin_round")

    def end_round(self) -> None:
        """The round ends: the learner folds in what it learnt."""
        self.child.call("end_round")

    def resources(self) -> Mapping[str, float]:
        """The learner's cumulative counters."""
        counters: Mapping[str, float] = self.child.call("resources")
        return counters

    def user_resources(self, user: int) -> Mapping[str, float]:
        """One user's counters."""
        counters: Mapping[str, float] = self.child.call("user_resources", user)
        return counters

    def code_fingerprint(self) -> dict[str, Any]:
        """The fingerprint of the learner's code, as its own process sees it."""
        fingerprint: dict[str, Any] = self.child.call("fingerprint")
        return fingerprint

    def close(self) -> None:
        """End the learner's process."""
        self.child.close()


class _SavesState:
    child: _Child
    _load: Any

    def save_state(self, directory: Path) -> None:
        """Have the learner save into its folder, then copy that out to ``directory``.

        Raises:
            UnsafeState: the learner left something other than plain files and folders (a link to
                a path outside, say); what it left is removed, and nothing it names is copied.
        """
        inside = self.child.workdir / STATE_OUT
        shutil.rmtree(inside, ignore_errors=True)
        inside.mkdir(parents=True)
        _hand_over(inside, self.child.isolation)
        self.child.call("save_state", STATE_OUT)
        try:
            copy_state(inside, Path(directory))
        except UnsafeState:
            shutil.rmtree(Path(directory), ignore_errors=True)
            shutil.rmtree(inside, ignore_errors=True)  # a link is removed, never followed
            raise

    def load_state(self, directory: Path) -> None:
        """Copy ``directory`` into the learner's folder and have it load from there."""
        self._load(Path(directory))


class _ResumeFrom:
    child: _Child

    def resume_from(self, records: list[dict[str, Any]]) -> None:
        """Hand the learner the committed records of the run it resumes (they are JSON already)."""
        self.child.call("resume_from", records)


class _InstanceLog:
    child: _Child

    def instance_log(self, user: int) -> Any:
        """What the learner reports of its work on the user's last instance."""
        return self.child.call("instance_log", user)


class _InstanceResources:
    child: _Child

    def instance_resources(self, user: int) -> Any:
        """The counters of the user's last instance."""
        return self.child.call("instance_resources", user)


class _Memory:
    child: _Child

    def memory(self) -> Any:
        """What the learner says it keeps."""
        return self.child.call("memory")


_MIXINS = {
    "save_state": _SavesState,
    "resume_from": _ResumeFrom,
    "instance_log": _InstanceLog,
    "instance_resources": _InstanceResources,
    "memory": _Memory,
}


def remote_learner(
    spec: Mapping[str, Any],
    workdir: Path,
    *,
    logs: Path | None = None,
    prefix: Sequence[str] = (),
    env: Mapping[str, str] | None = None,
    restart_on_reset: bool = False,
    start_state: Path | None = None,
    confinement: Confinement | None = None,
    zygote: Zygote | None = None,
) -> Any:
    """The learner ``spec`` names (``{"class": "module:Class", "kwargs": {...}}``), in a process of its own.

    Args:
        spec: the learner's import path and arguments.
        workdir: the folder in which each process gets a folder of its own, named at random and
            removed when the process ends.
        logs: where each process's standard error (``<n>/stderr.txt``) and sandbox report
            (``<n>/isolation.json``) are kept, ``n`` counting the processes (default
            ``workdir/logs``).
        prefix: a command the learner's process is started under (a sandbox), or nothing.
        env: the process's environment (default: this one's).
        restart_on_reset: ``reset()`` starts a new process instead of calling the learner's.
        start_state: a saved state every new process loads first (the end of a stream).
        confinement: start every process in the kernel sandbox (:mod:`continual_arc.core.sandbox`)
            with these rights; it writes only in its own folder. ``None``: no sandbox.
        zygote: fork each sandboxed process from this fork server rather than start an interpreter
            (:mod:`continual_arc.core.sandbox.zygote`); with a ``prefix``, it is not used.

    Raises:
        RemoteLearnerError: the learner could not be built (one sentence says why).
    """
    environ = dict(os.environ) if env is None else dict(env)
    where = workdir / "logs" if logs is None else logs
    probe = _RemoteBase(
        spec, workdir, where, prefix, environ, restart_on_reset, start_state, confinement, zygote
    )
    members = set(probe.hello["members"])
    bases = tuple(mixin for name, mixin in _MIXINS.items() if name in members)
    kind = type("RemoteLearner", (*bases, _RemoteBase), {})
    learner: Any = object.__new__(kind)
    learner.__dict__.update(probe.__dict__)
    return learner
