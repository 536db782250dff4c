"""Task sources and their registry.

A task source serves instances of tasks. There are two kinds:

* **generative** (Re-ARC): every instance's test pair and demonstrations are fresh draws from the
  task's generator at the instance seed (:mod:`continual_arc.rearc`);
* **fixed** (a task's own ARC JSON pairs): the demonstrations are the task's train pairs in their
  order, its demonstration cap is their number (at most 8), and a task with several test pairs
  serves the one the instance seed picks.

Sources are registered by name (``"arc1/rearc"``, ``"arc1/evaluation"``, ...); a track names the
source of its stream and seen test and the source of its held-out test (:data:`TRACKS`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol, runtime_checkable

from .grids import Grid, Pair, validate_pair
from .seeding import stable_int

__all__ = [
    "DEMO_CAP",
    "PHASE_SOURCES",
    "TRACKS",
    "FixedSource",
    "GenerativeSource",
    "TaskInstance",
    "TaskSource",
    "UnknownTaskError",
    "get_source",
    "register_source",
    "source_names",
]

DEMO_CAP = 8
"""The most demonstrations any instance offers."""


class UnknownTaskError(KeyError):
    """A task id that a source does not serve, or a source name that is not registered."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown task"


@dataclass(frozen=True)
class TaskInstance:
    """One instance: a test pair, and a supply of demonstrations fetched only when bought.

    Attributes:
        source: the name of the source that served it.
        task_id: the real task id.
        seed: the instance seed.
        input: the test input the learner sees.
        output: the answer, which the learner never sees.
        demo_cap: how many demonstrations this instance offers.
    """

    source: str
    task_id: str
    seed: int
    input: Grid
    output: Grid
    demo_cap: int
    _supply: Callable[[int], tuple[Pair, ...]] = field(repr=False, compare=False)

    def demonstration(self, index: int) -> Pair:
        """Demonstration ``index`` (from 0); the same pair whenever it is asked for.

        Raises:
            IndexError: ``index`` is not below :attr:`demo_cap`.
        """
        if not 0 <= index < self.demo_cap:
            raise IndexError(f"demonstration {index} of {self.task_id}: the instance offers {self.demo_cap}")
        return self._supply(index + 1)[index]


@runtime_checkable
class TaskSource(Protocol):
    """Anything that serves instances of a set of tasks."""

    name: str
    kind: str  # "generative" or "fixed"

    def task_ids(self) -> tuple[str, ...]:
        """Every task id this source serves, sorted."""
        ...

    def instance(self, task_id: str, seed: int) -> TaskInstance:
        """Instance ``seed`` of a task; a pure function of the two.

        Raises:
            UnknownTaskError: the source does not serve ``task_id``.
        """
        ...

    def describe(self) -> dict[str, Any]:
        """The source's name, kind and data versions, as recorded in a run's ``meta.json``."""
        ...


class GenerativeSource:
    """Instances drawn fresh from per-task pair generators.

    Args:
        name: the registry name.
        task_ids: the tasks served (a track's screened pool).
        test_pair: ``(task_id, seed) -> Pair``.
        demonstrations: ``(task_id, seed, count, test_input) -> tuple[Pair, ...]``; demonstration
            ``k`` must not depend on ``count``.
        versions: data versions recorded by :meth:`describe`.
        cache_size: instances kept in memory (test pair and demonstrations drawn so far).
    """

    kind = "generative"

    def __init__(
        self,
        name: str,
        task_ids: Sequence[str],
        test_pair: Callable[[str, int], Pair],
        demonstrations: Callable[[str, int, int, Grid], tuple[Pair, ...]],
        versions: Callable[[], dict[str, str]] | None = None,
        cache_size: int = 4096,
    ) -> None:
        self.name = name
        self._ids = tuple(sorted(task_ids))
        self._known = frozenset(self._ids)
        self._demonstrations = demonstrations
        self._versions = versions
        self._test_pair = lru_cache(maxsize=cache_size)(test_pair)
        self._demos: dict[tuple[str, int], tuple[Pair, ...]] = {}
        self._lock = threading.Lock()

    def task_ids(self) -> tuple[str, ...]:
        """Every task id this source serves, sorted."""
        return self._ids

    def _check(self, task_id: str) -> None:
        if task_id not in self._known:
            raise UnknownTaskError(f"source {self.name} does not serve task {task_id!r}")

    def _supply(self, task_id: str, seed: int, test_input: Grid, count: int) -> tuple[Pair, ...]:
        key = (task_id, seed)
        have = self._demos.get(key, ())
        if len(have) < count:
            # Drawn outside the lock: demonstrations are pure, so a race only repeats work.
            have = self._demonstrations(task_id, seed, count, test_input)
            with self._lock:
                if len(self._demos.get(key, ())) < count:
                    self._demos[key] = have
        return have[:count]

    def instance(self, task_id: str, seed: int) -> TaskInstance:
        """Instance ``seed`` of a task: its test pair now, its demonstrations when bought."""
        self._check(task_id)
        test_input, output = self._test_pair(task_id, seed)
        return TaskInstance(
            self.name,
            task_id,
            seed,
            test_input,
            output,
            DEMO_CAP,
            lambda count: self._supply(task_id, seed, test_input, count),
        )

    def describe(self) -> dict[str, Any]:
        """The source's name, kind and data versions."""
        return {"name": self.name, "kind": self.kind, "versions": self._versions() if self._versions else {}}


class FixedSource:
    """Instances made of tasks' own pairs (ARC JSON: ``{"train": [...], "test": [...]}``).

    Args:
        name: the registry name.
        tasks: ``task_id -> {"train": [pairs], "test": [pairs]}``, pairs as ``{"input", "output"}``.
        versions: data versions recorded by :meth:`describe`.
    """

    kind = "fixed"

    def __init__(
        self,
        name: str,
        tasks: dict[str, dict[str, Any]],
        versions: Callable[[], dict[str, str]] | None = None,
    ) -> None:
        self.name = name
        self._raw = tasks
        self._ids = tuple(sorted(tasks))
        self._versions = versions
        self._parsed: dict[str, tuple[tuple[Pair, ...], tuple[Pair, ...]]] = {}

    def task_ids(self) -> tuple[str, ...]:
        """Every task id this source serves, sorted."""
        return self._ids

    def pairs(self, task_id: str) -> tuple[tuple[Pair, ...], tuple[Pair, ...]]:
        """A task's validated (train pairs, test pairs)."""
        if task_id not in self._parsed:
            if task_id not in self._raw:
                raise UnknownTaskError(f"source {self.name} does not serve task {task_id!r}")
            raw = self._raw[task_id]
            train = tuple(validate_pair(p) for p in raw["train"])
            test = tuple(validate_pair(p) for p in raw["test"])
            self._parsed[task_id] = (train, test)
        return self._parsed[task_id]

    def instance(self, task_id: str, seed: int) -> TaskInstance:
        """Instance ``seed`` of a task: the test pair the seed picks, the train pairs as demonstrations."""
        train, test = self.pairs(task_id)
        chosen = test[stable_int(self.name, task_id, seed, "test-pair") % len(test)]
        demos = train[:DEMO_CAP]
        return TaskInstance(
            self.name, task_id, seed, chosen[0], chosen[1], len(demos), lambda count: demos[:count]
        )

    def describe(self) -> dict[str, Any]:
        """The source's name, kind and data versions."""
        return {"name": self.name, "kind": self.kind, "versions": self._versions() if self._versions else {}}


def _rearc_source() -> TaskSource:
    from . import rearc
    from .data import check_sources
    from .screen import screened_pool

    return GenerativeSource(
        "arc1/rearc",
        screened_pool("arc1"),
        rearc.instance,
        rearc.demonstrations,
        versions=check_sources,
    )


def _arc1_split(split: str, name: str) -> Callable[[], TaskSource]:
    def build() -> TaskSource:
        from .data import arc1_tasks, check_sources

        return FixedSource(name, arc1_tasks()[split], versions=check_sources)

    return build


def _toy(kind: str) -> Callable[[], TaskSource]:
    def build() -> TaskSource:
        from . import testing

        return testing.toy_generative_source() if kind == "generative" else testing.toy_fixed_source()

    return build


_FACTORIES: dict[str, Callable[[], TaskSource]] = {
    "arc1/rearc": _rearc_source,
    "arc1/training": _arc1_split("train", "arc1/training"),
    "arc1/evaluation": _arc1_split("eval", "arc1/evaluation"),
    "toy/generative": _toy("generative"),
    "toy/fixed": _toy("fixed"),
}
_BUILT: dict[str, TaskSource] = {}
_registry_lock = threading.Lock()

TRACKS: dict[str, dict[str, str]] = {
    "arc1": {"stream": "arc1/rearc", "held-out": "arc1/evaluation"},
    "toy": {"stream": "toy/generative", "held-out": "toy/fixed"},
}
"""Each track's sources: ``"stream"`` serves the stream and seen test, ``"held-out"`` the held-out test."""

PHASE_SOURCES: dict[str, str] = {
    "stream": "stream",
    "seen": "stream",
    "epilogue": "held-out",
    "held-out": "held-out",
}
"""Which of a track's two sources (:data:`TRACKS`) serves each phase."""


def register_source(name: str, factory: Callable[[], TaskSource]) -> None:
    """Register a source under ``name``, built on first use; replaces any earlier one."""
    with _registry_lock:
        _FACTORIES[name] = factory
        _BUILT.pop(name, None)


def source_names() -> tuple[str, ...]:
    """The registered source names, sorted."""
    return tuple(sorted(_FACTORIES))


def get_source(name: str) -> TaskSource:
    """The source registered as ``name`` (built once, then shared).

    Raises:
        UnknownTaskError: no source has that name.
    """
    with _registry_lock:
        if name not in _BUILT:
            if name not in _FACTORIES:
                raise UnknownTaskError(
                    f"no task source named {name!r}; known: {', '.join(sorted(_FACTORIES))}"
                )
            _BUILT[name] = _FACTORIES[name]()
        return _BUILT[name]
