"""A learner in a process of its own, driven by the runner over a pipe.

:func:`remote_learner` starts ``python -m continual_arc.play.remote_child`` for a learner named
by its import path and returns an object with the learner protocol whose every call is forwarded
(arguments and results through :mod:`continual_arc.core.wire`). It has the optional members the
learner has (``save_state``, ``instance_log``, ...), and no others, so the runner treats it as it
would treat the learner itself. The child runs in a working folder of its own and may be wrapped
in a sandbox (``prefix``); its state crosses the folder's edge only through ``save_state`` and
``load_state``.

``restart_on_reset`` makes ``reset()`` end the process and start a new one, from nothing or from a
saved state: what verification does before every test instance, so that a learner carries to an
instance only what it kept as files.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..core.errors import ContinualArcError
from ..core.wire import from_wire, to_wire

__all__ = ["RemoteLearnerError", "remote_learner"]


class RemoteLearnerError(ContinualArcError, RuntimeError):
    """A call the learner's process answered with an error, or could not answer (it ended)."""


class _Child:
    """The learner's process and its pipe."""

    def __init__(
        self, spec: Mapping[str, Any], workdir: Path, prefix: Sequence[str], env: Mapping[str, str]
    ) -> None:
        command = [*prefix, sys.executable, "-m", "continual_arc.play.remote_child", json.dumps(dict(spec))]
        workdir.mkdir(parents=True, exist_ok=True)
        self.log = open(workdir / "learner.log", "a", encoding="utf-8")  # noqa: SIM115  # closed in close()
        self.process = subprocess.Popen(
            command,
            cwd=workdir,
            env=dict(env),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
            encoding="utf-8",
        )
        self.read("start")  # the child says it is ready, or why it could not build the learner

    def read(self, call: str) -> Any:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            code = self.process.poll()
            raise RemoteLearnerError(f"the learner's process ended (exit status {code}) during {call}")
        reply = json.loads(line)
        if "error" in reply:
            error = reply["error"]
            raise RemoteLearnerError(f"{error.get('type')} in {call}: {error.get('message')}")
        return reply["ok"]

    def call(self, name: str, *args: Any) -> Any:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps({"call": name, "args": list(args)}) + "\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            raise RemoteLearnerError(f"the learner's process ended before {name}") from None
        return self.read(name)

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                assert self.process.stdin is not None
                self.process.stdin.write(json.dumps({"call": "quit"}) + "\n")
                self.process.stdin.close()
                self.process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        self.log.close()


class _RemoteBase:
    """The learner protocol, forwarded to the learner's process."""

    concurrent_users = False  # one pipe: the runner serves a remote learner one action at a time

    def __init__(
        self,
        spec: Mapping[str, Any],
        workdir: Path,
        prefix: Sequence[str],
        env: Mapping[str, str],
        restart_on_reset: bool,
        start_state: Path | None,
    ) -> None:
        self.spec, self.workdir, self.prefix, self.env = dict(spec), workdir, list(prefix), dict(env)
        self.restart_on_reset, self.start_state = restart_on_reset, start_state
        self.child = _Child(self.spec, workdir, self.prefix, self.env)
        self.hello: dict[str, Any] = self.child.call("hello")
        self.stateless = bool(self.hello["stateless"])
        if start_state is not None:
            self._load(start_state)

    def _load(self, directory: Path) -> None:
        inside = self.workdir / "state-in"
        shutil.rmtree(inside, ignore_errors=True)
        shutil.copytree(directory, inside)
        self.child.call("load_state", "state-in")

    def reset(self) -> None:
        """Wipe the learner: its own ``reset()``, or a new process (from ``start_state``)."""
        if not self.restart_on_reset:
            self.child.call("reset")
            return
        self.child.close()
        self.child = _Child(self.spec, self.workdir, self.prefix, self.env)
        if self.start_state is not None:
            self._load(self.start_state)

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
    workdir: Path
    _load: Any

    def save_state(self, directory: Path) -> None:
        """Have the learner save into its folder, then copy that out to ``directory``."""
        inside = self.workdir / "state-out"
        shutil.rmtree(inside, ignore_errors=True)
        inside.mkdir(parents=True)
        self.child.call("save_state", "state-out")
        shutil.copytree(inside, Path(directory), dirs_exist_ok=True)

    def load_state(self, directory: Path) -> None:
        """Copy ``directory`` into the learner's folder and have it load from there."""
        self._load(Path(directory))


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
    "instance_log": _InstanceLog,
    "instance_resources": _InstanceResources,
    "memory": _Memory,
}


def remote_learner(
    spec: Mapping[str, Any],
    workdir: Path,
    *,
    prefix: Sequence[str] = (),
    env: Mapping[str, str] | None = None,
    restart_on_reset: bool = False,
    start_state: Path | None = None,
) -> Any:
    """The learner ``spec`` names (``{"class": "module:Class", "kwargs": {...}}``), in a process of its own.

    Args:
        spec: the learner's import path and arguments.
        workdir: the process's working folder (created); its log is ``learner.log`` there.
        prefix: a command the learner's process is started under (a sandbox), or nothing.
        env: the process's environment (default: this one's).
        restart_on_reset: ``reset()`` starts a new process instead of calling the learner's.
        start_state: a saved state every new process loads first (the end of a stream).

    Raises:
        RemoteLearnerError: the learner could not be built (one sentence says why).
    """
    environ = dict(os.environ) if env is None else dict(env)
    probe = _RemoteBase(spec, workdir, prefix, environ, restart_on_reset, start_state)
    members = set(probe.hello["members"])
    bases = tuple(mixin for name, mixin in _MIXINS.items() if name in members)
    kind = type("RemoteLearner", (*bases, _RemoteBase), {})
    learner: Any = object.__new__(kind)
    learner.__dict__.update(probe.__dict__)
    return learner

