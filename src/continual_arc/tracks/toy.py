"""The toy track: data-free tasks for tests and for trying the benchmark in seconds.

The toy tasks are tiny hand-made rules: each applies one of the eight rotations and reflections of
the square, then shifts every non-background colour by a fixed amount. ``toy/generative`` serves
63 such tasks with fresh random grids (every pair drawn from a stable seed, like Re-ARC's), and
``toy/fixed`` serves 24 tasks with their own fixed train and test pairs, like ARC's evaluation set.
"""

from __future__ import annotations

import random

from ..core.grids import Grid, Pair, TaskJSON, grid_json
from ..core.records import JSONValue
from ..core.seeding import stable_rng
from .grid_env import GridEnv
from .sources import FixedSource, GenerativeSource
from .track import Role, Track, smoke_config

__all__ = ["TOY", "apply_rule", "toy_fixed_source", "toy_generative_source", "toy_rule"]


def _versions() -> dict[str, str]:
    return {"toy": "1"}


_TOY_IDS = tuple(f"toy-d{d}-c{c}" for d in range(8) for c in range(8) if (d, c) != (0, 0))
_FIXED_IDS = tuple(f"toyfix-{i:02d}" for i in range(24))


def _dihedral(grid: Grid, d: int) -> Grid:
    rows = [list(row) for row in grid]
    if d & 4:
        rows = [list(col) for col in zip(*rows, strict=True)]  # transpose
    for _ in range(d & 3):
        rows = [list(col) for col in zip(*rows[::-1], strict=True)]  # rotate a quarter turn
    return tuple(tuple(row) for row in rows)


def apply_rule(grid: Grid, rule: tuple[int, int]) -> Grid:
    """Apply a toy rule ``(d, c)``: dihedral transform ``d``, then colours 1-9 shifted by ``c``."""
    d, c = rule
    return tuple(tuple(0 if x == 0 else (x - 1 + c) % 9 + 1 for x in row) for row in _dihedral(grid, d))


def toy_rule(task_id: str) -> tuple[int, int]:
    """The rule of a toy task id."""
    if task_id.startswith("toyfix-"):
        index = int(task_id.removeprefix("toyfix-"))
        return _TOY_RULES_FIXED[index]
    d, c = task_id.removeprefix("toy-d").split("-c")
    return int(d), int(c)


_TOY_RULES_FIXED = tuple(((i * 3) % 8, (i * 5 + 1) % 8) for i in range(24))


def _random_grid(rng: random.Random) -> Grid:
    height, width = rng.randint(2, 6), rng.randint(2, 6)
    return tuple(
        tuple(rng.choice((1, 2, 3, 4)) if rng.random() < 0.45 else 0 for _ in range(width))
        for _ in range(height)
    )


def _toy_pair(task_id: str, seed: int, purpose: str, index: int, avoid: frozenset[Grid]) -> Pair:
    rule = toy_rule(task_id)
    for sub in range(1000):
        grid = _random_grid(stable_rng("toy", task_id, seed, purpose, index, sub))
        out = apply_rule(grid, rule)
        if out != grid and grid not in avoid:
            return grid, out
    raise RuntimeError(f"no toy pair for {task_id} seed {seed}")  # pragma: no cover - unreachable


def _toy_test(task_id: str, seed: int) -> Pair:
    return _toy_pair(task_id, seed, "test", 0, frozenset())


def _toy_demos(task_id: str, seed: int, count: int, test_input: Grid) -> tuple[Pair, ...]:
    avoid = {test_input}
    pairs = []
    for k in range(count):
        pair = _toy_pair(task_id, seed, "demo", k, frozenset(avoid))
        avoid.add(pair[0])
        pairs.append(pair)
    return tuple(pairs)


def _toy_demo(task_id: str, seed: int, index: int, avoid: frozenset[Grid]) -> Pair:
    return _toy_pair(task_id, seed, "demo", index, avoid)


def toy_generative_source() -> GenerativeSource:
    """63 generative toy tasks (``toy-d<d>-c<c>``)."""
    return GenerativeSource(
        "toy/generative", _TOY_IDS, _toy_test, _toy_demos, versions=_versions, demonstration=_toy_demo
    )


def toy_fixed_source() -> FixedSource:
    """24 fixed toy tasks (``toyfix-NN``), with 2 to 5 train pairs and 1 or 2 test pairs each."""
    tasks: dict[str, TaskJSON] = {}
    for i, task_id in enumerate(_FIXED_IDS):
        train_n, test_n = 2 + i % 4, 1 + (i % 3 == 0)
        pairs = _toy_demos(task_id, 0, train_n + test_n, ())
        as_json: list[JSONValue] = [{"input": grid_json(a), "output": grid_json(b)} for a, b in pairs]
        tasks[task_id] = {"train": as_json[:train_n], "test": as_json[train_n:]}
    return FixedSource("toy/fixed", tasks, versions=_versions)


TOY = Track(
    name="toy",
    roles={Role.STREAM: "toy/generative", Role.HELD_OUT: "toy/fixed"},
    factories={"toy/generative": toy_generative_source, "toy/fixed": toy_fixed_source},
    configs=(smoke_config("toy-smoke", "toy", task_seed=0),),
    environment=GridEnv,
    summary="data-free toy rules (dihedral transforms and colour shifts), for tests",
)
"""The toy track."""
