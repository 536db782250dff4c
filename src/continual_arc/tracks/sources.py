"""Task sources: what serves the instances of a set of grid tasks.

A task source serves instances of tasks. There are two kinds:

* **generative** (Re-ARC): every instance's test pair and demonstrations are fresh draws from the
  task's generator at the instance seed ([`continual_arc.data.rearc`][continual_arc.data.rearc]);
* **fixed** (a task's own ARC JSON pairs): the demonstrations are the task's train pairs in their
  order, its demonstration cap is their number (at most 8), and a task with several test pairs
  serves the one the instance seed picks.

Every source has a name (``"arc1/rearc"``, ``"arc1/evaluation"``, ...); a track
([`continual_arc.tracks.track`][continual_arc.tracks.track]) names the source of its stream and seen test and
the source of its held-out test.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol, runtime_checkable

from ..core.errors import ContinualArcError
from ..core.grids import Grid, Pair, TaskJSON, validate_pair
from ..core.seeding import stable_int
from ..data.cache import InstanceCache, cache_enabled, namespace

__all__ = [
    "DEMO_CAP",
    "FixedSource",
    "GenerativeSource",
    "TaskInstance",
    "TaskSource",
    "UnknownTaskError",
]

DEMO_CAP = 8
"""The most demonstrations any instance offers."""


class UnknownTaskError(ContinualArcError, KeyError):
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
            IndexError: ``index`` is not below `demo_cap`.
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

    def instance(self, task_id: str, seed: int) -> Any:
        """Instance ``seed`` of a task; a pure function of the two.

        A grid source serves a [`TaskInstance`][continual_arc.tracks.sources.TaskInstance]; a game source
        (arc3) an instance of its own, which its track's environment plays.

        Raises:
            UnknownTaskError: the source does not serve ``task_id``.
        """
        ...

    def describe(self) -> dict[str, Any]:
        """The source's name, kind and data versions, as recorded in a run's ``meta.json``."""
        ...


class GenerativeSource:
    """Instances drawn fresh from per-task pair generators, through the instance cache.

    Every pair is looked up in the instance cache ([`continual_arc.data.cache`][continual_arc.data.cache])
    before it is drawn, and stored there once drawn; the cache holds exactly what drawing gives, so a run's
    records are the same with it, without it (``CONTINUAL_ARC_NO_CACHE=1``) or with it half full.

    Args:
        name: the registry name.
        task_ids: the tasks served (a track's screened pool).
        test_pair: ``(task_id, seed) -> Pair``.
        demonstrations: ``(task_id, seed, count, test_input) -> tuple[Pair, ...]``; demonstration
            ``k`` must not depend on ``count``.
        versions: data versions recorded by
            [`describe`][continual_arc.tracks.sources.GenerativeSource.describe] (and keying the cache).
        cache_size: test pairs kept in memory.
        demonstration: ``(task_id, seed, k, avoid) -> Pair``: demonstration ``k`` alone, given the
            inputs it must differ from (the test input and the earlier demonstrations' inputs).
            With it, demonstrations are supplied incrementally: demonstration ``k`` is drawn once,
            whatever was bought before; without it, a request for ``k`` redraws the ``k - 1``
            before it through ``demonstrations`` (unless the cache holds them).
        demo_caps: the demonstrations an instance of a task offers, by task id, for tasks that
            offer fewer than [`DEMO_CAP`][continual_arc.tracks.sources.DEMO_CAP] (a rule pack's held-out rules
            may, as ARC-AGI-1's evaluation tasks do); the pairs drawn are the same whatever the cap.
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
        demonstration: Callable[[str, int, int, frozenset[Grid]], Pair] | None = None,
        demo_caps: Mapping[str, int] | None = None,
    ) -> None:
        self.name = name
        self._demo_caps = dict(demo_caps or {})
        self._ids = tuple(sorted(task_ids))
        self._known = frozenset(self._ids)
        self._draw_test = test_pair
        self._demonstrations = demonstrations
        self._demonstration = demonstration
        self._versions = versions
        # The pairs in memory are kept per instance cache on disk (its directory, or "" when off),
        # so a process that moves to another data directory still fills the new one.
        self._test_pair = lru_cache(maxsize=cache_size)(self._cached_test_pair)
        self._demos: dict[tuple[str, str, int], tuple[Pair, ...]] = {}
        self._lock = threading.Lock()
        self._store: InstanceCache | None = None

    def task_ids(self) -> tuple[str, ...]:
        """Every task id this source serves, sorted."""
        return self._ids

    def _check(self, task_id: str) -> None:
        if task_id not in self._known:
            raise UnknownTaskError(f"source {self.name} does not serve task {task_id!r}")

    def _cache(self) -> InstanceCache | None:
        """The source's instance cache, or ``None`` while ``CONTINUAL_ARC_NO_CACHE`` is set."""
        if not cache_enabled():
            return None
        if self._store is None:
            code: list[Callable[..., Any]] = [self._draw_test, self._demonstrations]
            code += [self._demonstration] if self._demonstration else []
            versions = self._versions() if self._versions else {}
            self._store = InstanceCache(namespace(self.name, versions, code))
        return self._store

    def _where(self) -> str:
        """The instance cache's directory for this source, or ``""`` while the cache is off."""
        store = self._cache()
        return store.location() if store else ""

    def _cached_test_pair(self, where: str, task_id: str, seed: int) -> Pair:
        store = self._cache()
        pair = store.get(task_id, seed, "test") if store else None
        if pair is None:
            pair = self._draw_test(task_id, seed)
            if store:
                store.put(task_id, seed, "test", pair)
        return pair

    def _demo(self, task_id: str, seed: int, test_input: Grid, have: tuple[Pair, ...]) -> Pair:
        """Demonstration ``len(have)``, given the ones before it: from the cache, else drawn alone."""
        k = len(have)
        store = self._cache()
        pair = store.get(task_id, seed, f"demo-{k}") if store else None
        if pair is None:
            if self._demonstration is not None:
                avoid = frozenset([test_input, *(p[0] for p in have)])
                pair = self._demonstration(task_id, seed, k, avoid)
            else:
                pair = self._demonstrations(task_id, seed, k + 1, test_input)[k]
            if store:
                store.put(task_id, seed, f"demo-{k}", pair)
        return pair

    def _supply(self, task_id: str, seed: int, test_input: Grid, count: int) -> tuple[Pair, ...]:
        key = (self._where(), task_id, seed)
        have = self._demos.get(key, ())
        if len(have) < count:
            # Drawn outside the lock: demonstrations are pure, so a race only repeats work.
            while len(have) < count:
                have = (*have, self._demo(task_id, seed, test_input, have))
            with self._lock:
                if len(self._demos.get(key, ())) < count:
                    self._demos[key] = have
        return have[:count]

    def instance(self, task_id: str, seed: int) -> TaskInstance:
        """Instance ``seed`` of a task: its test pair now, its demonstrations when bought."""
        self._check(task_id)
        test_input, output = self._test_pair(self._where(), task_id, seed)
        return TaskInstance(
            self.name,
            task_id,
            seed,
            test_input,
            output,
            self._demo_caps.get(task_id, DEMO_CAP),
            lambda count: self._supply(task_id, seed, test_input, count),
        )

    def describe(self) -> dict[str, Any]:
        """The source's name, kind and data versions."""
        return {"name": self.name, "kind": self.kind, "versions": self._versions() if self._versions else {}}


class FixedSource:
    """Instances made of tasks' own pairs (ARC JSON: ``{"train": [...], "test": [...]}``).

    Args:
        name: the registry name.
        tasks: ``task_id -> {"train": [pairs], "test": [pairs]}``, pairs as ``{"input", "output"}``;
            or a function returning that mapping, called on the first instance served, so that a
            command that only lists tasks never decodes the data file.
        versions: data versions recorded by [`describe`][continual_arc.tracks.sources.FixedSource.describe].
        ids: the task ids served; required when ``tasks`` is a function, since listing them must not
            load the tasks.
    """

    kind = "fixed"

    def __init__(
        self,
        name: str,
        tasks: Mapping[str, TaskJSON] | Callable[[], Mapping[str, TaskJSON]],
        versions: Callable[[], dict[str, str]] | None = None,
        ids: Iterable[str] | None = None,
    ) -> None:
        self._load: Callable[[], Mapping[str, TaskJSON]] | None = None
        self._loaded: Mapping[str, TaskJSON] | None = None
        if callable(tasks):
            if ids is None:
                raise TypeError("FixedSource needs ids when its tasks are loaded later")
            self._load = tasks
        else:
            self._loaded = tasks
            ids = tasks.keys() if ids is None else ids
        self.name = name
        self._ids = tuple(sorted(ids))
        self._served = frozenset(self._ids)
        self._versions = versions
        self._parsed: dict[str, tuple[tuple[Pair, ...], tuple[Pair, ...]]] = {}

    def _raw(self) -> Mapping[str, TaskJSON]:
        if self._loaded is None:
            assert self._load is not None
            self._loaded = self._load()
        return self._loaded

    def task_ids(self) -> tuple[str, ...]:
        """Every task id this source serves, sorted."""
        return self._ids

    def pairs(self, task_id: str) -> tuple[tuple[Pair, ...], tuple[Pair, ...]]:
        """A task's validated (train pairs, test pairs)."""
        if task_id not in self._parsed:
            if task_id not in self._served:
                raise UnknownTaskError(f"source {self.name} does not serve task {task_id!r}")
            raw = self._raw()[task_id]
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
