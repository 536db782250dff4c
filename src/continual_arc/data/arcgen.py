"""Seeded draws from ARC-GEN's generators, loaded from the fetched files under a private name.

ARC-GEN's generators take no random stream: they call the module ``random`` through ARC-GEN's
``common.py``, which also keeps module-level state (the palette that ``common.set_colors``
changes). So every call is made under one lock, with

* ``common``'s ``random`` replaced by a `random.Random` seeded from a SHA-256 of the source
  version, the task, the instance seed, the purpose, the index and the sub-draw, which counts the
  random numbers drawn and stops the call past [`RANDOM_BUDGET`][continual_arc.data.arcgen.RANDOM_BUDGET] of
  them;
* the palette, the generator's default arguments and the process's own ``random`` state set
  back after the call, whatever happened;
* a time limit of [`GENERATOR_TIME_LIMIT`][continual_arc.data.arcgen.GENERATOR_TIME_LIMIT]
  ([`continual_arc.data.timelimit`][continual_arc.data.timelimit]).

So an instance comes out byte for byte the same in any process. ARC-GEN has no verifiers: a
sub-draw is rejected when the generator raises or spends its random budget (both a function of
the seed alone), a grid is invalid, or the output equals the input; a demonstration also when its
input repeats one already drawn ([`continual_arc.data.draws`][continual_arc.data.draws]). A call past its time
limit is an error, never a redraw, since whether it finishes in time depends on the machine.

The files are read once per data directory, each checked against the manifest
([`continual_arc.data.arc2_sources`][continual_arc.data.arc2_sources]), and compiled from the checked bytes:
``import common`` in a task file finds the private copy of ``common.py``, never a module of that name
elsewhere.
"""

from __future__ import annotations

import builtins
import copy
import random
import sys
import threading
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ..core.grids import Grid, Pair
from ..core.seeding import stable_int
from . import draws
from .arc2_sources import ARCGEN_COMMIT, arcgen_dir, read_arcgen
from .draws import Draw, GeneratorError, checked_pair, first_accepted
from .timelimit import CallTimeout, timed_call

__all__ = [
    "GENERATOR_TIME_LIMIT",
    "RANDOM_BUDGET",
    "ArcGenModules",
    "demonstrations",
    "draw",
    "instance",
    "load_arcgen",
    "task_ids",
]

GENERATOR_TIME_LIMIT = 30.0
"""Seconds one generator call may take before the draw fails (an error, not a redraw)."""

RANDOM_BUDGET = 30_000
"""Random numbers one generator call may draw; past them the sub-draw is rejected and redrawn.

A generator that rejects its own attempts in a loop (``while True``) draws random numbers on
every turn; this budget bounds such a loop by a count that depends on the seed alone, so the
rejection is the same on every machine. Draws that are kept use far fewer (docs/arc2.md)."""

TRACK = "arc2"
_PRIVATE = "_continual_arc_arcgen"
_call_lock = threading.Lock()
_load_lock = threading.Lock()


class _BudgetSpent(BaseException):
    """Raised inside a generator past its random budget (a BaseException, so no ``except`` swallows it)."""


class _CountedRandom(random.Random):
    """A seeded `random.Random` that stops after ``budget`` draws of random bits or floats.

    Overriding ``getrandbits`` keeps `random.Random`'s own algorithms (``choice``,
    ``randint``, ``sample``, ...), so the numbers are those of ``random.Random(seed)``.
    """

    def __init__(self, seed: int, budget: int) -> None:
        self.used = 0
        self.budget = budget
        super().__init__(seed)

    def _spend(self) -> None:
        self.used += 1
        if self.used > self.budget:
            raise _BudgetSpent

    def random(self) -> float:
        """The next float in [0, 1), counted."""
        self._spend()
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        """The next ``k`` random bits, counted."""
        self._spend()
        return super().getrandbits(k)


@dataclass(frozen=True)
class ArcGenModules:
    """ARC-GEN's ``common`` module and generators, loaded from the checked files.

    Attributes:
        common: the private copy of ``common.py``.
        generators: each task's ``generate``, by task id.
        palette: ``common.internal_colors`` as loaded, set before every call.
        defaults: each generator's default arguments as loaded, set before every call.
    """

    common: types.ModuleType
    generators: Mapping[str, Callable[..., Any]]
    palette: tuple[int, ...]
    defaults: Mapping[str, tuple[Any, Any]]


def _builtins_for(common: types.ModuleType) -> dict[str, Any]:
    real_import = builtins.__import__

    def import_(
        name: str, globals_: Any = None, locals_: Any = None, fromlist: Any = (), level: int = 0
    ) -> Any:
        if name == "common" and level == 0:
            return common
        return real_import(name, globals_, locals_, fromlist, level)

    return {**vars(builtins), "__import__": import_}


def _module(name: str, source: bytes, path: Path, namespace: dict[str, Any]) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__file__ = str(path)
    module.__dict__.update(namespace)
    exec(compile(source, str(path), "exec"), module.__dict__)
    sys.modules[name] = module
    return module


@cache
def _load(root: str) -> ArcGenModules:
    files = read_arcgen(Path(root))
    with _load_lock:
        package = types.ModuleType(_PRIVATE)
        package.__path__ = [root]
        sys.modules[_PRIVATE] = package
        common = _module(f"{_PRIVATE}.common", files["common.py"], Path(root) / "common.py", {})
        namespace = {"__builtins__": _builtins_for(common)}
        generators: dict[str, Callable[..., Any]] = {}
        for name in sorted(files):
            if name.startswith("tasks/task_"):
                task = Path(name).stem.removeprefix("task_")
                module = _module(f"{_PRIVATE}.tasks.task_{task}", files[name], Path(root) / name, namespace)
                generators[task] = module.generate
    return ArcGenModules(
        common=common,
        generators=generators,
        palette=tuple(common.internal_colors),
        defaults={
            task: copy.deepcopy((fn.__defaults__, fn.__kwdefaults__)) for task, fn in generators.items()
        },
    )


def load_arcgen() -> ArcGenModules:
    """ARC-GEN's generators from the data directory, every file checked (loaded once per directory).

    Raises:
        SourceError: ARC-GEN is not fetched, or a file differs from the manifest.
    """
    return _load(str(arcgen_dir()))


def task_ids() -> tuple[str, ...]:
    """The task ids of the ARC-GEN generators the track uses, sorted."""
    return tuple(sorted(load_arcgen().generators))


def _call(modules: ArcGenModules, task_id: str, seed: int, time_limit: float) -> Any:
    """One generator call on a seeded random stream, every global it may touch set back after it."""
    generate: Any = modules.generators[task_id]
    common: Any = modules.common
    with _call_lock:
        saved = (common.random, common.internal_colors, random.getstate())
        common.random = _CountedRandom(seed, RANDOM_BUDGET)
        common.internal_colors = list(modules.palette)
        generate.__defaults__, generate.__kwdefaults__ = copy.deepcopy(modules.defaults[task_id])
        try:
            return timed_call(generate, time_limit)
        finally:
            common.random, common.internal_colors, state = saved
            random.setstate(state)
            generate.__defaults__, generate.__kwdefaults__ = modules.defaults[task_id]


def draw(
    task_id: str,
    seed: int,
    purpose: str,
    index: int,
    avoid: frozenset[Grid] = frozenset(),
    max_spent: int | None = None,
) -> Draw:
    """Draw one pair of a task.

    Args:
        task_id: a task with an ARC-GEN generator.
        seed: the instance seed.
        purpose: what the pair is for (``"test"``, ``"demo"``, ``"screen"``); draws for different
            purposes never share a random stream.
        index: the pair's number among the instance's pairs of that purpose.
        avoid: input grids the pair's input must differ from.
        max_spent: fail once more sub-draws than this spent the random budget (the screen's limit
            on the work of one draw; default: no limit but the redraws').

    Raises:
        KeyError: no generator has this id.
        GeneratorError: too many sub-draws in a row were rejected, or a call ran past its limit.
    """
    modules = load_arcgen()
    if task_id not in modules.generators:
        raise KeyError(task_id)
    spent: list[int] = []

    def sub_draw(sub: int) -> Pair | str:
        stream = stable_int(TRACK, "arc-gen", ARCGEN_COMMIT, task_id, seed, purpose, index, sub)
        try:
            raw = _call(modules, task_id, stream, GENERATOR_TIME_LIMIT)
        except CallTimeout:
            reason = f"a call ran past {GENERATOR_TIME_LIMIT:g} s"
            raise GeneratorError(
                f"the ARC-GEN generator of {task_id} (seed {seed}): {reason}", reason
            ) from None
        except _BudgetSpent:
            spent.append(sub)
            if max_spent is not None and len(spent) > max_spent:
                reason = f"{len(spent)} sub-draws of one draw spent the random budget"
                raise GeneratorError(
                    f"the ARC-GEN generator of {task_id} (seed {seed}): {reason}", reason
                ) from None
            return "random budget spent"
        except Exception as err:  # a generator's own bug rejects the draw, whatever it is
            return f"generator raised {type(err).__name__}"
        return checked_pair(raw)

    return first_accepted(
        sub_draw, avoid, f"the ARC-GEN generator of {task_id} (seed {seed}, {purpose} {index})"
    )


def instance(task_id: str, seed: int) -> Pair:
    """The test pair of instance ``seed`` of a task."""
    return draw(task_id, seed, "test", 0).pair


def demonstrations(task_id: str, seed: int, count: int, test_input: Grid | None = None) -> tuple[Pair, ...]:
    """The first ``count`` demonstrations of an instance, each with an input of its own.

    Demonstration ``k`` is the same whatever ``count`` is asked for.

    Args:
        task_id: a task with an ARC-GEN generator.
        seed: the instance seed.
        count: how many demonstrations.
        test_input: the instance's test input (computed if not given).
    """
    if test_input is None:
        test_input = instance(task_id, seed)[0]
    return draws.demonstrations(draw, task_id, seed, count, test_input)
