"""``check_learner``: a learner checked against the contract the runner relies on, before a long run."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path

from ..core.actions import Action, Feedback, LearnerObservation
from ..core.records import Record
from ..stream.schedule import build_schedule
from ..stream.users import with_users
from ..tracks.registry import get_config
from .faults import LearnerFaults
from .instance_record import TIMING_FIELDS
from .learner import (
    BaseLearner,
    GridLearner,
    LoadsState,
    SavesState,
    is_stateless,
    misnamed_members,
    missing_members,
)
from .runner import run

__all__ = ["check_learner"]


def _snapshot(learner: object) -> bytes | None:
    """The learner's saved state as bytes (every file, in name order), or ``None`` if it cannot save."""
    if not isinstance(learner, SavesState):
        return None
    with tempfile.TemporaryDirectory() as tmp:
        learner.save_state(tmp)
        return b"".join(
            p.name.encode() + b"\0" + p.read_bytes() for p in sorted(Path(tmp).rglob("*")) if p.is_file()
        )


class _Watch(BaseLearner):
    """Wraps a learner and notes when its saved state changes outside ``end_round`` and ``reset``.

    It also notes whether the state changed at all: on a stream where the learner learns nothing,
    the contract's checks pass without having tested anything.
    """

    def __init__(self, inner: GridLearner) -> None:
        self.inner = inner
        self.concurrent_users = False  # one action at a time: the check reads the state between them
        self.problems: list[str] = []
        self.changed = False
        self._first: bytes | None = None
        self._state: bytes | None = None

    def _check(self, where: str) -> None:
        now = _snapshot(self.inner)
        if self._state is not None and now != self._state and not self.problems:
            self.problems.append(f"what the learner saves changed in {where}, not in end_round")

    def reset(self) -> None:
        self.inner.reset()

    def begin_round(self) -> None:
        self.inner.begin_round()
        self._state = _snapshot(self.inner)
        if self._first is None:
            self._first = self._state
        self.changed = self.changed or self._state != self._first

    def act(self, obs: LearnerObservation) -> Action:
        action: Action = self.inner.act(obs)
        self._check("act")
        return action

    def observe(self, obs: LearnerObservation, action: Action, feedback: Feedback) -> None:
        self.inner.observe(obs, action, feedback)
        self._check("observe")

    def end_round(self) -> None:
        self.inner.end_round()
        self.changed = self.changed or _snapshot(self.inner) != self._first

    def resources(self) -> Mapping[str, float]:
        return dict(self.inner.resources())


def check_learner(
    factory: Callable[[], GridLearner], *, config: str = "toy-smoke", users: int = 3, seed: int = 0
) -> list[str]:
    """Check a learner against the contract the runner relies on; each problem in one line.

    Args:
        factory: makes a fresh learner (its class, or a function of no arguments).
        config: the configuration whose stream it plays (data-free by default).
        users: users a round, so that several instances share each round.
        seed: the stream's seed.

    Checks that it has every member of the protocol; that it never raises in ``act`` or ``observe``
    nor answers with something that is not an action; that two fresh copies play the same stream
    to the same records (it is deterministic); that what it saves changes only in ``end_round``
    (every instance of a round meets the state the round began with); that ``reset`` brings it
    back to a fresh learner's state; and that ``save_state`` then ``load_state`` gives back the
    same state. The default stream returns to its tasks, so a learner that keeps what answered
    right does learn on it; a learner whose saved state never changed there is named, since the
    last three checks then tested nothing. A name that looks like an optional member but is not
    one (a data attribute ``memory``, a ``save_state`` that takes no directory) is named too,
    since the runner ignores it.
    """
    fresh = factory()
    problems = [f"it lacks {name}" for name in missing_members(fresh)]
    if problems:
        return problems
    problems += misnamed_members(fresh)
    schedule = build_schedule(with_users(get_config(config), users), seed, epilogue=False)
    with tempfile.TemporaryDirectory() as tmp:
        first, second = factory(), factory()
        a = run(first, schedule, Path(tmp, "a")).records
        faults = LearnerFaults.of(a)
        if faults.errored:  # the runner charges and goes on; the contract is never to raise
            problems.append(
                f"it ended {faults.errored} of {faults.instances} instances in a learner error, each "
                f"charged the whole budget (the first: {faults.first})"
            )
        Path(tmp, "b").mkdir()
        shutil.copy(Path(tmp, "a", "alias-salt"), Path(tmp, "b"))
        b = run(second, schedule, Path(tmp, "b")).records
        if [_strip(r) for r in a] != [_strip(r) for r in b]:
            problems.append("two fresh copies played the same stream differently: it is not deterministic")
        watched = _Watch(factory())
        run(watched, schedule, Path(tmp, "c"))
        problems += watched.problems
        problems += _check_saving(first, factory)
        if not watched.changed and isinstance(first, SavesState) and not is_stateless(first):
            problems.append(
                f"what the learner saves never changed on the stream of {config} (seed {seed}), so "
                f"whether it changes only in end_round, and whether reset and load_state restore it, "
                f"was not exercised: check it on a stream where it learns (config=..., seed=...)"
            )
    return problems


def _strip(record: Record) -> dict[str, object]:
    return {k: v for k, v in record.items() if k not in (*TIMING_FIELDS, "alias")}


def _check_saving(played: GridLearner, factory: Callable[[], GridLearner]) -> list[str]:
    problems = []
    state = _snapshot(played)
    if state is None:
        return [] if is_stateless(played) else ["it keeps state but has no save_state: runs cannot resume"]
    other = factory()
    if not isinstance(played, SavesState) or not isinstance(other, LoadsState):
        return ["it has save_state but no load_state: runs cannot resume"]
    with tempfile.TemporaryDirectory() as tmp:
        played.save_state(tmp)
        other.load_state(tmp)
    if _snapshot(other) != state:
        problems.append("save_state then load_state did not give back the same state")
    played.reset()
    if _snapshot(played) != _snapshot(factory()):
        problems.append("reset() did not bring it back to a fresh learner's state")
    return problems
