"""The learner protocol: what the runner calls, and when.

A learner is anything with these methods, typed by what it is shown and what it answers:
``Learner[LearnerObservation, Action, Feedback]`` ([`GridLearner`][continual_arc.play.learner.GridLearner])
plays grid instances, ``Learner[GameObservation, GameMove, GameReply]``
([`GameLearner`][continual_arc.play.learner.GameLearner]) game levels. The runner plays a schedule round by
round:

1. ``reset()``, if the round's slots are marked ``reset_before`` (one reset serves them all);
2. ``begin_round()``;
3. for each slot of the round, ``act(obs)`` and ``observe(obs, action, feedback)`` until the
   instance ends;
4. ``end_round()``, where, and only where, the learner may change what it carries from one
   instance to the next. All the instances of a round start from the state it opened with.

Besides the protocol, the runner uses these optional members when present, each a small
runtime-checkable protocol of its own ([`SavesState`][continual_arc.play.learner.SavesState],
[`LoadsState`][continual_arc.play.learner.LoadsState], [`Stateless`][continual_arc.play.learner.Stateless],
[`ResumesFrom`][continual_arc.play.learner.ResumesFrom], [`JoinsRun`][continual_arc.play.learner.JoinsRun],
[`LogsInstances`][continual_arc.play.learner.LogsInstances],
[`CountsInstances`][continual_arc.play.learner.CountsInstances],
[`ShowsMemory`][continual_arc.play.learner.ShowsMemory],
[`Fingerprinted`][continual_arc.play.learner.Fingerprinted]), which the runner asks with ``isinstance``. A
member is recognised by what it is, never by its name alone: a method must be callable with the documented
arguments, and ``stateless`` must be a ``bool``; a data attribute that merely shares a name
(``self.memory = {}``) is not taken for the member, and
[misnamed_members][continual_arc.play.learner.misnamed_members] names it:

* ``save_state(directory)`` / ``load_state(directory)``: write and read everything the learner
  carries between instances. Called after every committed round, they let a killed run resume and
  give each frozen test its own copy of the end-of-stream state.
* ``stateless``: ``True`` for a learner that carries nothing between instances (its own reset);
  such a learner resumes without ``save_state``.
* ``stateless_when`` (on the class): where ``stateless`` depends on the learner's arguments, the
  ``(argument, value)`` pairs under which it is stateless (``()``: whatever its arguments; ``None``:
  its class attribute ``stateless`` says). The protocol reads what a learner keeps from its class,
  without building it ([declared_keeps][continual_arc.play.learner.declared_keeps]), and
  [load_learner][continual_arc.play.learner.load_learner] refuses a class whose built object says
  otherwise.
* ``resume_from(records)``: called only when a run is resumed (after ``load_state``, never
  before a frozen test), with the run's committed records (copies, possibly none), so that a
  learner can continue what it counts over the whole run (cumulative ``resources``, a spend cap)
  from the records instead of from zero.
* ``join_run(run_id)``: called once before anything else of a run, fresh or resumed, with the
  run's id (drawn once and kept in the run directory's ``run-id``), so that a learner naming its
  run to an outside service (the tracking proxy, whose spend cap is per run) names the same run
  after a kill and ``--resume``.
* ``instance_log(user)``: a JSON-ready dict of what the learner reports of its reasoning on the
  user's instance that just ended, stored in the instance's trajectory ``i/<step>.json``.
* ``instance_resources(user)``: the counters (tokens, calls, cost) of the user's instance that
  just ended, stored in its record as ``instance_resources`` beside the cumulative ``resources``.
* ``training_resources()``: counters of the compute the learner spends training its own weights
  (device-seconds, tokens trained, peak memory), cumulative; stored in every record as
  ``training_resources`` apart from ``resources`` (serving), shown by ``report``, never scored.
* ``teacher_resources()``: counters of a teacher model's calls (tokens, cost, and the instances it
  played uncharged; [TEACHER_COUNTERS][continual_arc.core.teacher.TEACHER_COUNTERS]), cumulative; stored
  in every record as ``teacher_resources``, training compute shown by ``report``, never scored. A run
  whose teacher played instances uncharged is an experiment (``experiment`` in its records).
* ``teacher_play(copy)``: an experiment's teacher playing an uncharged copy of each instance first
  ([TeacherPlaysFirst][continual_arc.play.learner.TeacherPlaysFirst]); in the runner's process only.
* ``memory()``: a JSON-ready view of what it keeps, written to ``memory.json`` at the end of a run.
* ``code_fingerprint()``: what identifies its code, for a learner whose code is elsewhere (another
  process); otherwise the runner fingerprints the learner's package itself.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar, _ProtocolMeta, get_type_hints, runtime_checkable

from ..core.actions import Action, Feedback, LearnerObservation
from ..core.errors import ContinualArcError
from ..core.games import GameMove, GameObservation, GameReply
from ..core.records import CodeFingerprint, JSONValue, Record
from .uncharged import UnchargedCopy

__all__ = [
    "MEMBERS",
    "OPTIONAL_PROTOCOLS",
    "STATELESS_WHEN",
    "AnyLearner",
    "BaseLearner",
    "Closes",
    "CountsInstances",
    "Fingerprinted",
    "GameLearner",
    "GridLearner",
    "HasTeacher",
    "JoinsRun",
    "Keeps",
    "Learner",
    "LearnerSpecError",
    "LoadsState",
    "LogsInstances",
    "ResumesFrom",
    "SavesState",
    "ShowsMemory",
    "Stateless",
    "TeacherPlaysFirst",
    "TrainsWeights",
    "build_target",
    "built_keeps",
    "declared_keeps",
    "import_target",
    "is_stateless",
    "kwargs_text",
    "learner_label",
    "learner_slug",
    "load_learner",
    "load_object",
    "misnamed_members",
    "missing_members",
    "protocol_members",
    "saves_state",
]

ObsT = TypeVar("ObsT", contravariant=True)
"""What the learner is shown (a grid instance's observation, a game level's)."""

ActionT = TypeVar("ActionT")
"""What it answers with (and is told back in ``observe``)."""

ReplyT = TypeVar("ReplyT", contravariant=True)
"""The feedback it is given."""


@runtime_checkable
class Learner(Protocol[ObsT, ActionT, ReplyT]):
    """The interface every learner implements, generic over its observation, action and feedback.

    Attributes:
        concurrent_users: ``True`` if the learner can play the users of a round at the same time,
            each on a thread of its own; otherwise the runner serves one action at a time.
    """

    concurrent_users: bool

    def reset(self) -> None:
        """Wipe everything carried between instances (the reset reference calls it before each)."""
        ...

    def act(self, obs: ObsT) -> ActionT:
        """Choose the next action on the instance ``obs`` shows (grid: Submit, RequestDemos or GiveUp)."""
        ...

    def observe(self, obs: ObsT, action: ActionT, feedback: ReplyT) -> None:
        """Take the feedback to ``action``, chosen on ``obs``.

        Keep it for the instance, or for ``end_round``; do not change what the next instance meets.
        """
        ...

    def begin_round(self) -> None:
        """A round starts: one instance per user follows, all meeting the same state."""
        ...

    def end_round(self) -> None:
        """The round is over: fold what was learnt on its instances into the carried state."""
        ...

    def resources(self) -> Mapping[str, float]:
        """Cumulative counters (tokens, calls, state bytes, ...), logged with every instance."""
        ...

    def user_resources(self, user: int) -> Mapping[str, float]:
        """Cumulative counters of one user's instances (for a concurrent learner)."""
        ...


GridLearner = Learner[LearnerObservation, Action, Feedback]
"""A learner of grid instances (arc1, arc2, the toy track, rule packs)."""

GameLearner = Learner[GameObservation, GameMove, GameReply]
"""A learner of game levels (arc3)."""

AnyLearner = GridLearner | GameLearner
"""A learner of either kind, where the kind is the track's, known only at run time."""


class _ByWhatItIs(_ProtocolMeta):
    """The metaclass of the optional members' protocols: ``isinstance`` checks what a member is.

    A runtime-checkable protocol alone asks only whether a name is there, so a learner's data
    attribute ``memory`` (a dict) passes for the ``memory()`` method and the runner, calling it,
    fails at the end of a run. Here each method of the protocol must be callable on the object
    with the protocol's own positional arguments, and each declared attribute must hold a value
    of its declared type.
    """

    def __instancecheck__(cls, obj: object) -> bool:
        return super().__instancecheck__(obj) and not _mismatch(cls, obj)


def _mismatch(protocol: type, obj: object) -> str | None:
    """Why ``obj``'s members are not ``protocol``'s (None: they are), in a few words."""
    for name, declared in vars(protocol).items():
        if name.startswith("_") or not inspect.isfunction(declared):
            continue
        member = getattr(obj, name, None)
        if not callable(member):
            return f"is {type(member).__name__}, not a method"
        arguments = list(inspect.signature(declared).parameters)[1:]  # past self
        try:
            inspect.signature(member).bind(*arguments)
        except TypeError:
            return f"cannot be called as {name}({', '.join(arguments)})"
        except ValueError:  # a builtin without a signature: taken as it says it is
            continue
    for name, kind in get_type_hints(protocol).items():
        if isinstance(kind, type) and not isinstance(getattr(obj, name, None), kind):
            return f"is {type(getattr(obj, name, None)).__name__}, not {kind.__name__}"
    return None


@runtime_checkable
class SavesState(Protocol, metaclass=_ByWhatItIs):
    """A learner that writes what it carries between instances (with `LoadsState`, a run resumes)."""

    def save_state(self, directory: Path | str) -> None:
        """Write everything carried between instances into ``directory``."""
        ...


@runtime_checkable
class LoadsState(Protocol, metaclass=_ByWhatItIs):
    """A learner that reads back what `SavesState.save_state` wrote."""

    def load_state(self, directory: Path | str) -> None:
        """Replace what it carries with what ``directory`` holds."""
        ...


@runtime_checkable
class Stateless(Protocol, metaclass=_ByWhatItIs):
    """A learner that says whether it carries nothing between instances (it resumes without saving)."""

    stateless: bool


@runtime_checkable
class ResumesFrom(Protocol, metaclass=_ByWhatItIs):
    """A learner that continues its run-wide counters from the committed records when a run resumes."""

    def resume_from(self, records: list[Record]) -> None:
        """Take the run's committed records (copies, possibly none), after ``load_state``."""
        ...


@runtime_checkable
class JoinsRun(Protocol, metaclass=_ByWhatItIs):
    """A learner that takes the run's id (kept in the run directory) before the run starts or resumes."""

    def join_run(self, run_id: str) -> None:
        """Take the run's id: the same when the run is resumed, another for every other run."""
        ...


@runtime_checkable
class LogsInstances(Protocol, metaclass=_ByWhatItIs):
    """A learner that reports its reasoning on each instance, kept in the instance's trajectory."""

    def instance_log(self, user: int) -> JSONValue:
        """A JSON-ready account of ``user``'s instance that just ended."""
        ...


@runtime_checkable
class CountsInstances(Protocol, metaclass=_ByWhatItIs):
    """A learner that counts each instance's own resources, kept in its record beside the cumulative ones."""

    def instance_resources(self, user: int) -> Mapping[str, float]:
        """The counters (tokens, calls, cost) of ``user``'s instance that just ended."""
        ...


@runtime_checkable
class TrainsWeights(Protocol, metaclass=_ByWhatItIs):
    """A learner that trains its own weights, whose training compute is kept apart from its serving."""

    def training_resources(self) -> Mapping[str, float]:
        """Its cumulative training counters (device-seconds, tokens trained, peak memory), never scored."""
        ...


@runtime_checkable
class HasTeacher(Protocol, metaclass=_ByWhatItIs):
    """A learner taught by a teacher model, whose calls are counted apart from the student's as training."""

    def teacher_resources(self) -> Mapping[str, float]:
        """The teacher's cumulative counters, never scored.

        Keyed as [TEACHER_COUNTERS][continual_arc.core.teacher.TEACHER_COUNTERS].
        """
        ...


@runtime_checkable
class TeacherPlaysFirst(Protocol, metaclass=_ByWhatItIs):
    """An experiment: a learner whose teacher plays an uncharged copy of each instance before it does.

    The runner hands it the copy before the learner's first ``act`` on the instance, marks the
    instance's record ``experiment: uncharged_teacher`` whatever it does with it, and keeps the
    copy's play in the trajectory ([UnchargedCopy][continual_arc.play.uncharged.UnchargedCopy]).
    """

    def teacher_play(self, copy: UnchargedCopy[Any, Any, Any]) -> None:
        """Play ``copy`` (its demonstrations and verdicts charged to nobody) before the instance itself."""
        ...


@runtime_checkable
class Closes(Protocol, metaclass=_ByWhatItIs):
    """A learner holding what it must release (weights, a server, a process) once its play is over."""

    def close(self) -> None:
        """Release it; the learner is not played again."""
        ...


@runtime_checkable
class ShowsMemory(Protocol, metaclass=_ByWhatItIs):
    """A learner that shows what it keeps, written to ``memory.json`` at the end of a run."""

    def memory(self) -> JSONValue:
        """A JSON-ready view of what it keeps."""
        ...


@runtime_checkable
class Fingerprinted(Protocol, metaclass=_ByWhatItIs):
    """A learner whose code lies elsewhere (another process) and says itself what identifies it."""

    def code_fingerprint(self) -> CodeFingerprint:
        """Its package, version and the SHA-256 of its sources."""
        ...


def protocol_members(protocol: type) -> tuple[str, ...]:
    """The public members ``protocol`` declares itself: its methods in order, then its attributes."""
    methods = [n for n, v in vars(protocol).items() if not n.startswith("_") and inspect.isfunction(v)]
    attributes = [n for n in vars(protocol).get("__annotations__", {}) if not n.startswith("_")]
    return (*methods, *attributes)


def _by_member(*protocols: type) -> dict[str, type]:
    """Each one-member protocol by the name of its member."""
    named = {}
    for protocol in protocols:
        (member,) = protocol_members(protocol)  # an optional protocol stands for one member
        named[member] = protocol
    return named


OPTIONAL_PROTOCOLS: Mapping[str, type] = _by_member(
    SavesState,
    LoadsState,
    ResumesFrom,
    JoinsRun,
    LogsInstances,
    CountsInstances,
    TrainsWeights,
    HasTeacher,
    ShowsMemory,
)
"""The optional methods a learner in another process may have, each with its protocol (named on the wire)."""

OPTIONAL_MEMBERS: Mapping[str, type] = {
    **OPTIONAL_PROTOCOLS,
    **_by_member(Stateless, Closes, Fingerprinted),
}
"""Every optional member the runner looks for, each with the protocol that says what it must be."""


def misnamed_members(learner: object) -> list[str]:
    """One sentence for each name of ``learner`` that looks like an optional member but is not one.

    The runner ignores such a name (a data attribute ``memory`` is not the ``memory()`` method), so
    what its author meant it for never happens; the sentence says what the name holds instead.
    """
    sentences = []
    for name, protocol in OPTIONAL_MEMBERS.items():
        if not hasattr(learner, name):
            continue
        why = _mismatch(protocol, learner)
        if why is not None:
            sentences.append(
                f"its {name} {why}, so the runner does not take it for the optional member "
                f"{name} (rename it, e.g. _{name}, if it is the learner's own data)"
            )
    return sentences


def saves_state(learner: object) -> bool:
    """Whether ``learner`` can save and load its state (so that a killed run resumes)."""
    return isinstance(learner, SavesState) and isinstance(learner, LoadsState)


def is_stateless(learner: object) -> bool:
    """Whether ``learner`` says it carries nothing between instances."""
    return isinstance(learner, Stateless) and bool(learner.stateless)


STATELESS_WHEN = "stateless_when"
"""The class attribute by which a learner whose statelessness depends on its arguments declares it."""


@dataclass(frozen=True)
class Keeps:
    """What a learner keeps between instances, as its class declares it.

    Attributes:
        saves: it can save and load its state ([`saves_state`][continual_arc.play.learner.saves_state]).
        stateless: it carries nothing between instances
            ([`is_stateless`][continual_arc.play.learner.is_stateless]).
    """

    saves: bool
    stateless: bool

    @property
    def crosses_processes(self) -> bool:
        """Whether another process can take up where this one stopped (its state saved, or none kept)."""
        return self.saves or self.stateless

    def words(self) -> str:
        """The two answers in words, for a sentence."""
        saves = "saves its state" if self.saves else "cannot save its state"
        return f"{saves} and is {'' if self.stateless else 'not '}stateless"


def _class_has(protocol: type, cls: type) -> bool:
    """Whether every method of ``protocol`` is a method of ``cls`` callable with the protocol's arguments."""
    for name, declared in vars(protocol).items():
        if name.startswith("_") or not inspect.isfunction(declared):
            continue
        member = getattr(cls, name, None)
        if not callable(member):
            return False
        arguments = list(inspect.signature(declared).parameters)[1:]
        # A function on the class is unbound: its first parameter is the instance's.
        bound = [None, *arguments] if inspect.isfunction(member) else arguments
        try:
            inspect.signature(member).bind(*bound)
        except TypeError:
            return False
        except ValueError:  # a builtin without a signature: taken as it says it is
            continue
    return True


def declared_keeps(cls: type, kwargs: Mapping[str, object]) -> Keeps | None:
    """What a learner class built with ``kwargs`` keeps, read from the class without building it.

    It saves its state when the class has ``save_state`` and ``load_state`` methods. It is stateless
    when its ``stateless_when`` attribute, ``(argument, value)`` pairs, matches ``kwargs`` (the class's
    defaults fill in the arguments not given), or else when its class attribute ``stateless`` is ``True``.

    Returns:
        What it keeps; ``None`` when the class inherits a ``stateless_when`` naming arguments its own
        ``__init__`` does not take (a subclass that fixed them itself): the declaration does not
        speak for it, and whoever needs the answer builds it to see.

    Raises:
        LearnerSpecError: the class refuses ``kwargs``, or its own ``stateless_when`` names an
            argument it does not take.
    """
    saves = _class_has(SavesState, cls) and _class_has(LoadsState, cls)
    pairs = getattr(cls, STATELESS_WHEN, None)
    if pairs is None:
        return Keeps(saves, getattr(cls, "stateless", False) is True)
    try:
        arguments = inspect.signature(cls).bind(**kwargs)
    except TypeError as err:
        raise LearnerSpecError(f"{cls.__qualname__}: {err}") from None
    arguments.apply_defaults()
    when = dict(pairs)
    unknown = sorted(set(when) - set(arguments.arguments))
    if unknown and STATELESS_WHEN not in vars(cls):
        return None
    if unknown:
        raise LearnerSpecError(
            f"{cls.__qualname__}.{STATELESS_WHEN} names no argument of it: {', '.join(unknown)}"
        )
    return Keeps(saves, all(arguments.arguments[name] == value for name, value in when.items()))


def built_keeps(learner: object) -> Keeps:
    """What a built learner keeps, asked of the object itself."""
    return Keeps(saves_state(learner), is_stateless(learner))


class BaseLearner:
    """A convenient base: every hook but `act` does nothing, and it is served serially."""

    concurrent_users: bool = False
    stateless: bool = False
    stateless_when: tuple[tuple[str, JSONValue], ...] | None = None  # None: ``stateless`` says

    def reset(self) -> None:
        """Wipe carried state (nothing by default)."""

    def act(self, obs: LearnerObservation) -> Action:
        """Choose the next action; a subclass must override it."""
        raise NotImplementedError(f"{type(self).__name__} must implement act()")

    def observe(self, obs: LearnerObservation, action: Action, feedback: Feedback) -> None:
        """Take the feedback (ignored by default)."""

    def begin_round(self) -> None:
        """Start a round (nothing by default)."""

    def end_round(self) -> None:
        """End a round (nothing by default)."""

    def resources(self) -> Mapping[str, float]:
        """Cumulative counters (none by default)."""
        return {}

    def user_resources(self, user: int) -> Mapping[str, float]:
        """One user's counters (the learner's own by default)."""
        return self.resources()


class LearnerSpecError(ContinualArcError, ValueError):
    """A ``module:Class`` path or its keyword arguments that do not make a learner."""


def import_target(path: str, *, what: str = "learner") -> object:
    """Import ``module:Class`` and return the class (or whatever callable the path names), unbuilt.

    Raises:
        LearnerSpecError: the path is malformed, the module cannot be imported (a syntax error in
            it is named by file and line) or it has no such name; the message says which.
    """
    module_name, sep, attr = path.partition(":")
    if not sep or not module_name or not attr:
        raise LearnerSpecError(f"{what} must be given as module:Class, got {path!r}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as err:
        raise LearnerSpecError(f"cannot import {what} module {module_name!r}: {err}") from None
    except SyntaxError as err:  # the user's own code: where it breaks, in one line, not a traceback
        raise LearnerSpecError(
            f"cannot import {what} module {module_name!r}: {err.filename}, line {err.lineno}: {err.msg}"
        ) from None
    target: object = module
    for part in attr.split("."):
        if not hasattr(target, part):
            raise LearnerSpecError(f"module {module_name!r} has no {attr!r}")
        target = getattr(target, part)
    return target


def build_target(target: object, path: str, kwargs: Mapping[str, object] | None = None) -> object:
    """Call what [`import_target`][continual_arc.play.learner.import_target] returned with ``kwargs``.

    Raises:
        LearnerSpecError: it is not callable, or refuses the arguments (the message names ``path``).
    """
    try:
        if not callable(target):  # as calling it would say
            raise TypeError(f"{type(target).__name__!r} object is not callable")
        return target(**dict(kwargs or {}))
    except (TypeError, ValueError) as err:  # wrong arguments, or values the class refuses
        arguments = ", ".join(f"{k}={v!r}" for k, v in (kwargs or {}).items())
        raise LearnerSpecError(f"{path}({arguments}): {err}") from None


def load_object(path: str, kwargs: Mapping[str, object] | None = None, *, what: str = "learner") -> object:
    """Import ``module:Class`` and build it with ``kwargs``.

    Raises:
        LearnerSpecError: the path is malformed, the module cannot be imported (a syntax error in
            it is named by file and line) or the class cannot be found, or the class refuses the
            arguments; the message says which.
    """
    return build_target(import_target(path, what=what), path, kwargs)


def load_learner(path: str, kwargs: Mapping[str, object] | None = None) -> AnyLearner:
    """Build the learner ``module:Class`` with ``kwargs``, checking that it has the protocol's members.

    Raises:
        LearnerSpecError: see [`load_object`][continual_arc.play.learner.load_object], or the object lacks a
            member of [`Learner`][continual_arc.play.learner.Learner], or a class's declaration of what
            it keeps ([`declared_keeps`][continual_arc.play.learner.declared_keeps]) is not what the
            object built says.
    """
    target = import_target(path)
    learner = build_target(target, path, kwargs)
    missing = missing_members(learner)
    if missing or not isinstance(learner, Learner):
        raise LearnerSpecError(
            f"{path} is not a learner: it lacks {', '.join(missing)} "
            f"(subclass continual_arc.learner.BaseLearner for defaults)"
        )
    declared = declared_keeps(target, kwargs or {}) if isinstance(target, type) else None
    if declared is not None:
        built = built_keeps(learner)
        if declared != built:  # the protocol plans by the declaration: it must not lie
            raise LearnerSpecError(
                f"{path} declares that it {declared.words()}, but built it {built.words()}: "
                f"declare {STATELESS_WHEN} (or stateless) on the class to match"
            )
    return learner


MEMBERS = protocol_members(Learner)
"""The members every learner has ([`Learner`][continual_arc.play.learner.Learner]'s), read from it."""


def missing_members(learner: object) -> list[str]:
    """The members of `Learner` that ``learner`` lacks, in the protocol's order."""
    return [name for name in MEMBERS if not hasattr(learner, name)]


def kwargs_text(kwargs: Mapping[str, JSONValue]) -> str:
    """A learner's arguments as ``k=v`` words, sorted by name (``depth=3 keep=demos``; ``""``: none)."""
    return " ".join(f"{k}={v if isinstance(v, str) else json.dumps(v)}" for k, v in sorted(kwargs.items()))


def learner_label(path: str, kwargs: Mapping[str, JSONValue], name: str | None = None) -> str:
    """A learner's short name: its class's name (or ``name``), then its arguments (``keep=demos``)."""
    short = name or path.rsplit(":", 1)[-1].rsplit(".", 1)[-1]
    return f"{short} {kwargs_text(kwargs)}".strip()


SLUG_ARGS = 40
"""Past this many characters, a folder name gives its learner's arguments as a digest."""


def learner_slug(path: str, kwargs: Mapping[str, JSONValue]) -> str:
    """A learner's name for a folder: its class's name, then its arguments, safe in a path.

    Two variants of one class get two folders (``ProgramLibraryLearner-keep=demos``); arguments too
    long or too odd for a name are given by the first 8 hex digits of their SHA-256.
    """
    short = path.rsplit(":", 1)[-1].rsplit(".", 1)[-1]
    if not kwargs:
        return short
    words = re.sub(r"[^A-Za-z0-9._=,-]", "_", kwargs_text(kwargs).replace(" ", "-"))
    if len(words) > SLUG_ARGS:
        words = hashlib.sha256(json.dumps(kwargs, sort_keys=True).encode()).hexdigest()[:8]
    return f"{short}-{words}"
