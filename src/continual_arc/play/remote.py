"""A learner in a process of its own, driven by the runner over a pipe.

[`remote_learner`][continual_arc.play.remote.remote_learner] starts
``python -m continual_arc.play.remote_child`` for a learner named by its import path and returns an object
with the learner protocol whose every call is forwarded (arguments and results through
[`continual_arc.core.wire`][continual_arc.core.wire]). It has the optional members the learner has
(``save_state``, ``instance_log``, ...), and no others, so the runner treats it as it would treat the learner
itself. Each process runs in a folder made for it alone (named at random, removed when it ends), in the kernel
sandbox of [`continual_arc.core.sandbox`][continual_arc.core.sandbox] when given a ``confinement`` (or under a
``prefix`` command); its state crosses the folder's edge only through ``save_state`` and ``load_state``,
copied as plain files and folders ([`state_copy`][continual_arc.play.state_copy]).

``restart_on_reset`` makes ``reset()`` end the process and start a new one, from nothing or from a
saved state: what verification does before every test instance, so that a learner carries to an
instance only what it kept as files. A process that has played nothing yet (only built, asked its
members, fingerprint and counters, and given the start state) is kept by a reset: it is already new.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TypeVar, cast

from ..core.documents import DocumentError, validate_document
from ..core.jsonable import as_json
from ..core.learner_ref import LearnerRef
from ..core.records import CodeFingerprint, JSONObject, JSONValue, Record
from ..core.sandbox import Confinement, sentence
from ..core.sandbox.zygote import Zygote
from ..core.wire import from_wire, to_wire
from .learner import AnyLearner
from .remote_process import CHILD_MODULE, STATE_IN, STATE_OUT, Child, Hello, RemoteLearnerError, hand_over
from .state_copy import UnsafeState, copy_state

__all__ = [
    "CHILD_MODULE",
    "LOG_INDEX",
    "RemoteLearner",
    "RemoteLearnerError",
    "log_index",
    "remote_learner",
    "state_bytes",
]

T = TypeVar("T")

LOG_INDEX = "index.jsonl"
"""The file, in a labelled learner's log folder, naming each process's log folder (named at random):
one JSON object a line, ``{"log": name, "play": label, "process": n}``."""


def log_index(logs: Path) -> list[dict[str, JSONValue]]:
    """The entries of ``logs/index.jsonl`` (none when there is none)."""
    index = logs / LOG_INDEX
    if not index.is_file():
        return []
    return [json.loads(line) for line in index.read_text(encoding="utf-8").splitlines() if line]


def _log_index(logs: Path, label: str) -> list[dict[str, JSONValue]]:
    return [entry for entry in log_index(logs) if entry.get("play") == label]


def state_bytes(directory: Path) -> int:
    """What a saved state holds: its files' bytes (a state is plain files and folders only)."""
    return sum(path.stat().st_size for path in directory.rglob("*") if path.is_file())


def _object(reply: JSONValue) -> JSONObject:
    """A reply that must be a JSON object (a value on the wire: `to_wire`)."""
    if not isinstance(reply, dict):
        raise RemoteLearnerError(f"the learner's process replied {type(reply).__name__}, not an object")
    return reply


def _reply(kind: type[T], reply: JSONValue, call: str) -> T:
    """A reply of the learner's process, validated as ``kind``: its code is the learner's, so not trusted.

    Raises:
        RemoteLearnerError: the reply is not a ``kind`` (the sentence names the call and the field).
    """
    try:
        return validate_document(kind, reply, f"the learner's process's reply to {call}")
    except DocumentError as err:
        raise RemoteLearnerError(str(err)) from None


def _hello(reply: JSONValue) -> Hello:
    """The child's first reply (``_hello``), validated."""
    return _reply(Hello, reply, "hello")


def _counters(reply: JSONValue) -> Mapping[str, float]:
    """Counters as the learner returned them (the runner reads each as a number where it keeps it)."""
    return cast(Mapping[str, float], reply)


class RemoteLearner:
    """The learner protocol, forwarded to the learner's process (of whichever kind the learner is).

    [`learner`][continual_arc.play.remote.RemoteLearner.learner] is the same object typed as the learner it
    forwards to; the optional members the learner has
    ([`OPTIONAL_PROTOCOLS`][continual_arc.play.learner.OPTIONAL_PROTOCOLS]) are added by
    [`remote_learner`][continual_arc.play.remote.remote_learner].
    """

    concurrent_users = False  # one pipe: the runner serves a remote learner one action at a time

    def __init__(
        self,
        learner: LearnerRef,
        workdir: Path,
        logs: Path,
        prefix: Sequence[str],
        env: Mapping[str, str],
        restart_on_reset: bool,
        start_state: Path | None,
        confinement: Confinement | None,
        zygote: Zygote | None = None,
        label: str | None = None,
    ) -> None:
        self.ref, self.prefix, self.env = learner, list(prefix), dict(env)
        self.zygote = zygote
        self.workdir = workdir.resolve()  # absolute: the child starts in it, and its TMPDIR names it
        self.logs = logs.resolve()
        self.label = label
        # processes are numbered on from those a resumed run's earlier calls left
        self._started = (
            len(_log_index(self.logs, label))
            if label is not None
            else (len(list(self.logs.glob("[0-9]*"))) if self.logs.is_dir() else 0)
        )
        self.restart_on_reset, self.start_state = restart_on_reset, start_state
        self.confinement = confinement
        self.code: CodeFingerprint | None = None  # the caller's fingerprint of the code, if it made one
        self.isolations: list[JSONObject] = []
        self.limit_hits: list[str] = []
        self._saved: Path | None = None  # the last state save_state wrote whole (a restart's start)
        self._run_id: str | None = None  # the run's id once joined: every later process is told it too
        self.child = self._start(start_state)
        self.hello = _hello(self.child.call("hello"))
        self.stateless = bool(self.hello["stateless"])
        if start_state is not None:
            self.child.call("load_state", STATE_IN)
            self.child.played = False  # the state every new process starts from: nothing played yet

    def _start(self, state: Path | None) -> Child:
        """A new process in a new folder; neither its folder's name nor its log's says which play.

        With a ``label``, its log folder is named at random too, and the name is written, with the
        label and the process's number, to ``index.jsonl`` beside it, which only the caller reads.
        """
        number, self._started = self._started, self._started + 1
        if self.label is None:
            log = self.logs / f"{number:05d}"
        else:
            log = self.logs / secrets.token_hex(8)
            self.logs.mkdir(parents=True, exist_ok=True)
            with open(self.logs / LOG_INDEX, "a", encoding="utf-8") as index:
                index.write(json.dumps({"log": log.name, "play": self.label, "process": number}) + "\n")
        child = Child(
            self.ref,
            self.workdir / secrets.token_hex(8),
            log,
            self.prefix,
            self.env,
            self.confinement,
            state,
            self.zygote,
        )
        if child.isolation is not None:
            self.isolations.append(child.isolation)
        return child

    def _replace(self) -> None:
        """A new process for one a limit ended: from the last state saved, or the play's start."""
        self.child.close()
        saved = self._saved if self._saved is not None and self._saved.is_dir() else None
        self._restart(self.start_state if self.restart_on_reset or saved is None else saved)

    def _restart(self, state: Path | None) -> None:
        """A new process: told the run's id (once the run is joined), then loaded from ``state``."""
        self.child = self._start(state)
        if self._run_id is not None:  # before load_state, as the runner tells a run's first process
            self.child.call("join_run", self._run_id)
        if state is not None:
            self.child.call("load_state", STATE_IN)
        self.child.played = False  # told the run and given its state: it has played nothing yet

    def _fresh(self) -> None:
        """Replace a process a limit ended; its sentence, if no instance has failed with it, pends."""
        child = self.child
        pending = child.pending or (None if child.told else child.limit_hit)
        self._replace()
        self.child.pending = pending

    def _call(self, name: str, *args: JSONValue, again: bool = True) -> JSONValue:
        """Call the learner's process; one a limit ended is replaced, and the limit fails an instance.

        A limit hit during ``act`` or ``observe`` fails that instance (its error is the limit's
        sentence). One hit elsewhere (a round's end, say) is not the run's fault: the call is made
        again in a new process (``again``), and the next ``act`` fails with the sentence.
        """
        for attempt in range(2):
            if self.child.limit_hit is not None:
                self._fresh()
            if name == "act" and self.child.pending is not None:
                pending, self.child.pending = self.child.pending, None
                self.child.played = True
                self.limit_hits.append(pending)
                raise RemoteLearnerError(pending)
            try:
                return self.child.call(name, *args)
            except RemoteLearnerError:
                hit = self.child.limit_hit
                if hit is None:
                    raise
                if name in ("act", "observe"):
                    self.limit_hits.append(hit)
                    raise
                self.child.told = False  # said by the next act
                if not again or attempt:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

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
            self._call("reset")
            return
        if not self.child.played:  # a new process already: starting another would only cost its start-up
            return
        self.child.close()
        self._restart(self.start_state)

    def act(self, obs: object) -> object:
        """The learner's action on ``obs``."""
        return from_wire(_object(self._call("act", to_wire(obs))))

    def observe(self, obs: object, action: object, feedback: object) -> None:
        """Hand the learner the verdict."""
        self._call("observe", to_wire(obs), to_wire(action), to_wire(feedback))

    def begin_round(self) -> None:
        """A round starts."""
        self._call("begin_round")

    def end_round(self) -> None:
        """The round ends: the learner folds in what it learnt."""
        self._call("end_round")

    def resources(self) -> Mapping[str, float]:
        """The learner's cumulative counters."""
        return _counters(self._call("resources"))

    def user_resources(self, user: int) -> Mapping[str, float]:
        """One user's counters."""
        return _counters(self._call("user_resources", user))

    def code_fingerprint(self) -> CodeFingerprint:
        """The fingerprint of the learner's code: the caller's (``code``), else as its own process sees it."""
        if self.code is not None:
            return self.code
        return _reply(CodeFingerprint, self._call("fingerprint"), "fingerprint")

    def close(self) -> None:
        """End the learner's process."""
        self.child.close()


class _SavesState:
    child: Child
    _saved: Path | None
    start_state: Path | None
    _load: Callable[[Path], None]
    _fresh: Callable[[], None]
    _call: Callable[..., JSONValue]

    def save_state(self, directory: Path) -> None:
        """Have the learner save into its folder, then copy that out to ``directory``.

        A state over the saved-state limit is not kept: the process is ended, a new one starts
        from the last state kept (or the play's start) and saves again (or, over again, the last
        state kept stands for it), and the next instance fails with the limit's sentence.

        Raises:
            UnsafeState: the learner left something other than plain files and folders (a link to
                a path outside, say); what it left is removed, and nothing it names is copied.
        """
        for attempt in range(2):
            if self.child.limit_hit is not None:
                self._fresh()
            inside = self.child.workdir / STATE_OUT
            shutil.rmtree(inside, ignore_errors=True)
            inside.mkdir(parents=True)
            hand_over(inside, self.child.isolation)
            try:
                self._call("save_state", STATE_OUT, again=False)
            except RemoteLearnerError:
                if self.child.limit_hit is None or attempt:
                    raise
                continue
            try:
                copy_state(inside, Path(directory))
            except UnsafeState:
                shutil.rmtree(Path(directory), ignore_errors=True)
                shutil.rmtree(inside, ignore_errors=True)  # a link is removed, never followed
                raise
            limits = self.child.limits
            cap = None if limits is None else limits.state_bytes
            if cap is None or state_bytes(Path(directory)) <= cap:
                self._saved = Path(directory)
                return
            shutil.rmtree(Path(directory), ignore_errors=True)
            self.child.end_for(sentence("state_bytes", cap))
            if attempt:  # a new process's state is over too: the last one kept stands for it
                kept = self._saved if self._saved is not None and self._saved.is_dir() else self.start_state
                if kept is None:
                    raise RemoteLearnerError(sentence("state_bytes", cap))
                copy_state(kept, Path(directory))
                return

    def load_state(self, directory: Path) -> None:
        """Copy ``directory`` into the learner's folder and have it load from there."""
        self._load(Path(directory))


class _ResumeFrom:
    _call: Callable[..., JSONValue]

    def resume_from(self, records: list[Record]) -> None:
        """Hand the learner the committed records of the run it resumes (they are JSON already)."""
        self._call("resume_from", as_json(records))


class _JoinsRun:
    _call: Callable[..., JSONValue]
    _run_id: str | None

    def join_run(self, run_id: str) -> None:
        """Hand the learner the run's id (kept in the run directory), and every later process of it."""
        self._run_id = run_id
        self._call("join_run", run_id)


class _InstanceLog:
    _call: Callable[..., JSONValue]

    def instance_log(self, user: int) -> JSONValue:
        """What the learner reports of its work on the user's last instance."""
        return self._call("instance_log", user)


class _InstanceResources:
    _call: Callable[..., JSONValue]

    def instance_resources(self, user: int) -> Mapping[str, float]:
        """The counters of the user's last instance."""
        return _counters(self._call("instance_resources", user))


class _TrainingResources:
    _call: Callable[..., JSONValue]

    def training_resources(self) -> Mapping[str, float]:
        """The compute the learner has spent training its weights so far."""
        return _counters(self._call("training_resources"))


class _TeacherResources:
    _call: Callable[..., JSONValue]

    def teacher_resources(self) -> Mapping[str, float]:
        """The learner's teacher's counters so far (its calls, tokens, cost, uncharged plays)."""
        return _counters(self._call("teacher_resources"))


class _Memory:
    _call: Callable[..., JSONValue]

    def memory(self) -> JSONValue:
        """What the learner says it keeps."""
        return self._call("memory")


_MIXINS = {
    "save_state": _SavesState,
    "resume_from": _ResumeFrom,
    "join_run": _JoinsRun,
    "instance_log": _InstanceLog,
    "instance_resources": _InstanceResources,
    "training_resources": _TrainingResources,
    "teacher_resources": _TeacherResources,
    "memory": _Memory,
}


def remote_learner(
    learner: LearnerRef,
    workdir: Path,
    *,
    logs: Path | None = None,
    prefix: Sequence[str] = (),
    env: Mapping[str, str] | None = None,
    restart_on_reset: bool = False,
    start_state: Path | None = None,
    confinement: Confinement | None = None,
    zygote: Zygote | None = None,
    label: str | None = None,
    code: CodeFingerprint | None = None,
) -> RemoteLearner:
    """The learner ``learner`` names (its import path and arguments), in a process of its own.

    Args:
        learner: the learner's import path and arguments.
        workdir: the folder in which each process gets a folder of its own, named at random and
            removed when the process ends.
        logs: where each process's standard error (``<n>/stderr.txt``) and sandbox report
            (``<n>/isolation.json``) are kept, ``n`` counting the processes (default
            ``workdir/logs``).
        prefix: a command the learner's process is started under (a sandbox), or nothing.
        env: the process's environment (default: this one's).
        restart_on_reset: ``reset()`` starts a new process instead of calling the learner's.
        start_state: a saved state every new process loads first (the end of a stream).
        confinement: start every process in the kernel sandbox
            ([`continual_arc.core.sandbox`][continual_arc.core.sandbox]) with these rights; it writes only in
            its own folder. ``None``: no sandbox.
        zygote: fork each sandboxed process from this fork server rather than start an interpreter
            ([`continual_arc.core.sandbox.zygote`][continual_arc.core.sandbox.zygote]); with a ``prefix``, it
            is not used.
        label: what these processes play (``seen-reset``, say): each process's log folder is then
            named at random, and ``logs/index.jsonl`` maps the name to the label and the number.
        code: the fingerprint of the learner's code as the caller computed it, which the runner
            records; ``None``: the learner's process is asked (a verifier never asks it).

    Raises:
        RemoteLearnerError: the learner could not be built (one sentence says why).
    """
    environ = dict(os.environ) if env is None else dict(env)
    where = workdir / "logs" if logs is None else logs
    probe = RemoteLearner(
        learner, workdir, where, prefix, environ, restart_on_reset, start_state, confinement, zygote, label
    )
    members = set(probe.hello["members"])
    bases = tuple(mixin for name, mixin in _MIXINS.items() if name in members)
    kind = type("RemoteLearner", (*bases, RemoteLearner), {})
    remote: RemoteLearner = object.__new__(kind)
    remote.__dict__.update(probe.__dict__)
    remote.code = code
    return remote
