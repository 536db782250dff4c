"""The learner protocol: what the runner calls, and when.

A learner is anything with these methods. The runner plays a schedule round by round:

1. ``reset()``, if the round's slots are marked ``reset_before`` (one reset serves them all);
2. ``begin_round()``;
3. for each slot of the round, ``act(obs)`` and ``observe(obs, action, feedback)`` until the
   instance ends;
4. ``end_round()``, where, and only where, the learner may change what it carries from one
   instance to the next. All the instances of a round start from the state it opened with.

Besides the protocol, the runner uses these optional members when present:

* ``save_state(directory)`` / ``load_state(directory)``: write and read everything the learner
  carries between instances. Called after every committed round, they let a killed run resume and
  give each frozen test its own copy of the end-of-stream state.
* ``stateless``: ``True`` for a learner that carries nothing between instances (its own reset);
  such a learner resumes without ``save_state``.
* ``resume_from(records)``: called only when a run is resumed (after ``load_state``, never
  before a frozen test), with the run's committed records (copies, possibly none), so that a
  learner can continue what it counts over the whole run (cumulative ``resources``, a spend cap)
  from the records instead of from zero.
* ``instance_log(user)``: a JSON-ready dict of what the learner reports of its reasoning on the
  user's instance that just ended, stored in the instance's trajectory ``i/<step>.json``.
* ``instance_resources(user)``: the counters (tokens, calls, cost) of the user's instance that
  just ended, stored in its record as ``instance_resources`` beside the cumulative ``resources``.
* ``training_resources()``: counters of the compute the learner spends training its own weights
  (device-seconds, tokens trained, peak memory), cumulative; stored in every record as
  ``training_resources`` apart from ``resources`` (serving), shown by ``report``, never scored.
* ``memory()``: a JSON-ready view of what it keeps, written to ``memory.json`` at the end of a run.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from ..core.actions import Action, Feedback, LearnerObservation
from ..core.errors import ContinualArcError

__all__ = [
    "MEMBERS",
    "BaseLearner",
    "Learner",
    "LearnerSpecError",
    "load_learner",
    "load_object",
    "missing_members",
]


@runtime_checkable
class Learner(Protocol):
    """The interface every learner implements.

    Attributes:
        concurrent_users: ``True`` if the learner can play the users of a round at the same time,
            each on a thread of its own; otherwise the runner serves one action at a time.
    """

    concurrent_users: bool

    def reset(self) -> None:
        """Wipe everything carried between instances (the reset reference calls it before each)."""
        ...

    def act(self, obs: LearnerObservation) -> Action:
        """Choose the next action on the instance ``obs`` shows: Submit, RequestDemos or GiveUp."""
        ...

    def observe(self, obs: LearnerObservation, action: Action, feedback: Feedback) -> None:
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


class BaseLearner:
    """A convenient base: every hook but :meth:`act` does nothing, and it is served serially."""

    concurrent_users: bool = False
    stateless: bool = False

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


def load_object(path: str, kwargs: Mapping[str, Any] | None = None, *, what: str = "learner") -> Any:
    """Import ``module:Class`` and build it with ``kwargs``.

    Raises:
        LearnerSpecError: the path is malformed, the module or class cannot be found, or the class
            refuses the arguments; the message says which.
    """
    module_name, sep, attr = path.partition(":")
    if not sep or not module_name or not attr:
        raise LearnerSpecError(f"{what} must be given as module:Class, got {path!r}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as err:
        raise LearnerSpecError(f"cannot import {what} module {module_name!r}: {err}") from None
    target: Any = module
    for part in attr.split("."):
        if not hasattr(target, part):
            raise LearnerSpecError(f"module {module_name!r} has no {attr!r}")
        target = getattr(target, part)
    try:
        return target(**dict(kwargs or {}))
    except (TypeError, ValueError) as err:  # wrong arguments, or values the class refuses
        arguments = ", ".join(f"{k}={v!r}" for k, v in (kwargs or {}).items())
        raise LearnerSpecError(f"{path}({arguments}): {err}") from None


def load_learner(path: str, kwargs: Mapping[str, Any] | None = None) -> Learner:
    """Build the learner ``module:Class`` with ``kwargs``, checking that it has the protocol's members.

    Raises:
        LearnerSpecError: see :func:`load_object`, or the object lacks a member of :class:`Learner`.
    """
    learner = load_object(path, kwargs)
    missing = missing_members(learner)
    if missing:
        raise LearnerSpecError(
            f"{path} is not a learner: it lacks {', '.join(missing)} "
            f"(subclass continual_arc.learner.BaseLearner for defaults)"
        )
    return learner  # type: ignore[no-any-return]


MEMBERS = (
    "reset",
    "act",
    "observe",
    "begin_round",
    "end_round",
    "resources",
    "user_resources",
    "concurrent_users",
)
"""The members every learner has (:class:`Learner`'s)."""


def missing_members(learner: Any) -> list[str]:
    """The members of :class:`Learner` that ``learner`` lacks, in the protocol's order."""
    return [name for name in MEMBERS if not hasattr(learner, name)]
