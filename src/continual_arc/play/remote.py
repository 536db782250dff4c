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

import os
import secrets
import shutil
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import cast

from ..core.records import CodeFingerprint, JSONObject, JSONValue, LearnerSpec, Record
from ..core.sandbox import Confinement
from ..core.sandbox.zygote import Zygote
from ..core.wire import from_wire, to_wire
from .learner import AnyLearner
from .remote_process import CHILD_MODULE, STATE_IN, STATE_OUT, Child, Hello, RemoteLearnerError, hand_over
from .state_copy import UnsafeState, copy_state

__all__ = ["CHILD_MODULE", "RemoteLearner", "RemoteLearnerError", "remote_learner"]


def _object(reply: JSONValue) -> JSONObject:
    """A reply that must be a JSON object (a value on the wire: :func:`~continual_arc.core.wire.to_wire`)."""
    if not isinstance(reply, dict):
        raise RemoteLearnerError(f"the learner's process replied {type(reply).__name__}, not an object")
    return reply


def _counters(reply: JSONValue) -> Mapping[str, float]:
    """Counters as the learner returned them (the runner reads each as a number where it keeps it)."""
    return cast(Mapping[str, float], reply)


class RemoteLearner:
    """The learner protocol, forwarded to the learner's process (of whichever kind the learner is).

    :meth:`learner` is the same object typed as the learner it forwards to; the optional members
    the learner has (:data:`~continual_arc.play.learner.OPTIONAL_PROTOCOLS`) are added by
    :func:`remote_learner`.
    """

    concurrent_users = False  # one pipe: the runner serves a remote learner one action at a time

    def __init__(
        self,
        spec: LearnerSpec,
        workdir: Path,
        logs: Path,
        prefix: Sequence[str],
        env: Mapping[str, str],
        restart_on_reset: bool,
        start_state: Path | None,
        confinement: Confinement | None,
        zygote: Zygote | None = None,
    ) -> None:
        self.spec, self.prefix, self.env = spec, list(prefix), dict(env)
        self.zygote = zygote
        self.workdir = workdir.resolve()  # absolute: the child starts in it, and its TMPDIR names it
        self.logs = logs.resolve()
        # processes are numbered on from those a resumed run's earlier calls left
        self._started = len(list(self.logs.glob("[0-9]*"))) if self.logs.is_dir() else 0
        self.restart_on_reset, self.start_state = restart_on_reset, start_state
        self.confinement = confinement
        self.code: CodeFingerprint | None = None  # the caller's fingerprint of the code, if it made one
        self.isolations: list[JSONObject] = []
        self.child = self._start(start_state)
        self.hello = cast(Hello, self.child.call("hello"))  # the child's _hello, as JSON
        self.stateless = bool(self.hello["stateless"])
        if start_state is not None:
            self.child.call("load_state", STATE_IN)
            self.child.played = False  # the state every new process starts from: nothing played yet

    def _start(self, state: Path | None) -> Child:
        """A new process in a new folder, whose name says nothing of the play (its log's does)."""
        number, self._started = self._started, self._started + 1
        child = Child(
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

    def learner(self) -> AnyLearner:
        """This object as the learner it forwards to: observations, actions and feedback pass as they are."""
        return cast(AnyLearner, self)  # of the track's kind, as the learner in the child is

    def sandbox_reports(self) -> list[JSONObject]:
        """What the kernel sandbox put in force for each process started so far (none unconfined)."""
        return list(self.isolations)

    def _load(self, directory: Path) -> None:
        inside = self.child.workdir / STATE_IN
        shutil.rmtree(inside, ignore_errors=True)
        copy_state(directory, inside)
        hand_over(inside, self.child.isolation)
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

    def act(self, obs: object) -> object:
        """The learner's action on ``obs``."""
        return from_wire(_object(self.child.call("act", to_wire(obs))))

    def observe(self, obs: object, action: object, feedback: object) -> None:
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
        return _counters(self.child.call("resources"))

    def user_resources(self, user: int) -> Mapping[str, float]:
        """One user's counters."""
        return _counters(self.child.call("user_resources", user))

    def code_fingerprint(self) -> CodeFingerprint:
        """The fingerprint of the learner's code: the caller's (``code``), else as its own process sees it."""
        if self.code is not None:
            return self.code
        return cast(CodeFingerprint, self.child.call("fingerprint"))  # learner_fingerprint's, as JSON

    def close(self) -> None:
        """End the learner's process."""
        self.child.close()


class _SavesState:
    child: Child
    _load: Callable[[Path], None]

    def save_state(self, directory: Path) -> None:
        """Have the learner save into its folder, then copy that out to ``directory``.

        Raises:
            UnsafeState: the learner left something other than plain files and folders (a link to
                a path outside, say); what it left is removed, and nothing it names is copied.
        """
        inside = self.child.workdir / STATE_OUT
        shutil.rmtree(inside, ignore_errors=True)
        inside.mkdir(parents=True)
        hand_over(inside, self.child.isolation)
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
    child: Child

    def resume_from(self, records: list[Record]) -> None:
        """Hand the learner the committed records of the run it resumes (they are JSON already)."""
        self.child.call("resume_from", cast(list[JSONValue], records))  # records are JSON objects


class _InstanceLog:
    child: Child

    def instance_log(self, user: int) -> JSONValue:
        """What the learner reports of its work on the user's last instance."""
        return self.child.call("instance_log", user)


class _InstanceResources:
    child: Child

    def instance_resources(self, user: int) -> Mapping[str, float]:
        """The counters of the user's last instance."""
        return _counters(self.child.call("instance_resources", user))


class _TrainingResources:
    child: Child

    def training_resources(self) -> Mapping[str, float]:
        """The compute the learner has spent training its weights so far."""
        return _counters(self.child.call("training_resources"))


class _Memory:
    child: Child

    def memory(self) -> JSONValue:
        """What the learner says it keeps."""
        return self.child.call("memory")


_MIXINS = {
    "save_state": _SavesState,
    "resume_from": _ResumeFrom,
    "instance_log": _InstanceLog,
    "instance_resources": _InstanceResources,
    "training_resources": _TrainingResources,
    "memory": _Memory,
}


def remote_learner(
    spec: LearnerSpec,
    workdir: Path,
    *,
    logs: Path | None = None,
    prefix: Sequence[str] = (),
    env: Mapping[str, str] | None = None,
    restart_on_reset: bool = False,
    start_state: Path | None = None,
    confinement: Confinement | None = None,
    zygote: Zygote | None = None,
    code: CodeFingerprint | None = None,
) -> RemoteLearner:
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
        code: the fingerprint of the learner's code as the caller computed it, which the runner
            records; ``None``: the learner's process is asked (a verifier never asks it).

    Raises:
        RemoteLearnerError: the learner could not be built (one sentence says why).
    """
    environ = dict(os.environ) if env is None else dict(env)
    where = workdir / "logs" if logs is None else logs
    probe = RemoteLearner(
        spec, workdir, where, prefix, environ, restart_on_reset, start_state, confinement, zygote
    )
    members = set(probe.hello["members"])
    bases = tuple(mixin for name, mixin in _MIXINS.items() if name in members)
    kind = type("RemoteLearner", (*bases, RemoteLearner), {})
    learner: RemoteLearner = object.__new__(kind)
    learner.__dict__.update(probe.__dict__)
    learner.code = code
    return learner
