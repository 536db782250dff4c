"""The search: finds known programs on hand-made tasks, cheapest first, deterministically, in budget."""

from __future__ import annotations

import json
import logging
import os
import random
import subprocess
import sys

import pytest

from continual_arc.core.grids import Grid, Pair
from continual_arc_baselines.dsl import DEFAULT_BUDGET, SearchResult, execute, parse, search
from continual_arc_baselines.dsl.search import STEP_BITS


def _grid(rng: random.Random, h: int, w: int, colours: list[int], density: float = 0.4) -> Grid:
    bg, *fg = colours
    return tuple(tuple(rng.choice(fg) if rng.random() < density else bg for _ in range(w)) for _ in range(h))


def _transpose(grid: Grid) -> Grid:
    return tuple(zip(*grid, strict=True))


def transpose_task(seed: int) -> tuple[list[Pair], Pair]:
    rng = random.Random(seed)
    pairs = []
    for _ in range(4):
        g = _grid(rng, rng.randint(3, 6), rng.randint(3, 6), [0, 1, 2, 3])
        pairs.append((g, _transpose(g)))
    return pairs[:3], pairs[3]


def _with_objects(rng: random.Random, h: int, w: int, bg: int, sizes: list[tuple[int, int, int]]) -> Grid:
    """A grid with solid rectangles (height, width, colour) placed on separate rows of blocks."""
    rows = [[bg] * w for _ in range(h)]
    top = 0
    for rh, rw, colour in sizes:
        left = rng.randint(0, w - rw)
        for y in range(top, top + rh):
            for x in range(left, left + rw):
                rows[y][x] = colour
        top += rh + 1
    return tuple(tuple(r) for r in rows)


def crop_largest_task(seed: int) -> tuple[list[Pair], Pair]:
    rng = random.Random(seed)
    pairs = []
    for _ in range(4):
        bg, c1, c2, c3 = rng.sample(range(10), 4)
        big = (3, rng.randint(3, 5), c1)
        shapes = [big, (1, 2, c2), (2, 1, c3)]
        rng.shuffle(shapes)
        g = _with_objects(rng, 10, 8, bg, shapes)
        pairs.append((g, tuple(tuple([c1] * big[1]) for _ in range(3))))
    return pairs[:3], pairs[3]


def recolour_task(seed: int) -> tuple[list[Pair], Pair]:
    """The second most frequent colour becomes the third; colours change from pair to pair."""
    rng = random.Random(seed)
    pairs = []
    for _ in range(4):
        bg, a, b = rng.sample(range(10), 3)
        cells = [bg] * 20 + [a] * 8 + [b] * 4
        rng.shuffle(cells)
        g = tuple(tuple(cells[r * 8 : r * 8 + 8]) for r in range(4))
        out = tuple(tuple(b if c == a else c for c in row) for row in g)
        pairs.append((g, out))
    return pairs[:3], pairs[3]


@pytest.mark.parametrize(
    ("make", "prefix"),
    [(transpose_task, "transpose"), (crop_largest_task, ("pick(", "cut(")), (recolour_task, "map(c1>c2")],
)
def test_finds_known_programs(make, prefix) -> None:  # type: ignore[no-untyped-def]
    demos, test = make(1)
    result = search(demos, test[0])
    assert result.candidates
    best = result.candidates[0]
    assert best.program.text.startswith(prefix)
    assert best.prediction == test[1]
    # The kept program answers a fresh instance of the task with no demonstrations.
    _, fresh = make(2)
    assert execute(parse(best.program.text), fresh[0]) == fresh[1]


def test_candidates_fit_every_demonstration_and_come_cheapest_first() -> None:
    demos, test = crop_largest_task(3)
    result = search(demos, test[0])
    costs = [c.cost for c in result.candidates]
    assert costs == sorted(costs)
    for candidate in result.candidates:
        assert candidate.program == parse(candidate.program.text)
        assert all(execute(candidate.program, i) == o for i, o in demos)
        assert execute(candidate.program, test[0]) == candidate.prediction
        # Under the empty prior: the program's own cost, and a token's price per step (maps and bg0 aside).
        steps = [s for s in candidate.program.text.split(" | ") if not s.startswith(("map(", "bg0"))]
        assert candidate.cost == candidate.program.cost + STEP_BITS * len(steps)
        assert candidate.weight == 2.0**-candidate.cost


def test_budget_bounds_applications() -> None:
    demos, test = recolour_task(5)
    small = search(demos, test[0], budget=10)
    assert small.applications <= 10
    noise = [
        (_grid(random.Random(i), 5, 5, [0, 1, 2]), _grid(random.Random(i + 50), 4, 6, [3, 4]))
        for i in range(3)
    ]
    spent = search(noise, noise[0][0], budget=300)
    assert spent.applications == 300 and spent.budget_exhausted and not spent.candidates
    assert spent.applications <= DEFAULT_BUDGET


def test_max_candidates() -> None:
    demos, test = crop_largest_task(4)
    assert len(search(demos, test[0], max_candidates=1).candidates) == 1


def test_time_cap_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    demos, test = transpose_task(6)
    with caplog.at_level(logging.WARNING):
        result = search(demos, test[0], time_cap=0.0)
    assert result.hit_time_cap
    assert "time cap" in caplog.text


def _texts(result: SearchResult) -> list[str]:
    return [c.program.text for c in result.candidates]


def test_same_search_twice_is_identical() -> None:
    demos, test = crop_largest_task(8)
    first, second = search(demos, test[0]), search(demos, test[0])
    assert first == second


_CHILD = """
import json, sys
from continual_arc_baselines.dsl import search
demos, test_input = json.load(sys.stdin)
demos = [tuple(tuple(tuple(r) for r in g) for g in pair) for pair in demos]
result = search(demos, tuple(tuple(r) for r in test_input))
print(json.dumps([[c.program.text, c.prediction] for c in result.candidates] + [result.applications]))
"""


@pytest.mark.slow
def test_deterministic_across_hash_seeds() -> None:
    demos, test = crop_largest_task(9)
    payload = json.dumps([demos, test[0]])
    outputs = []
    for hash_seed in ("1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", _CHILD], input=payload, capture_output=True, text=True, env=env, check=True
        )
        outputs.append(done.stdout)
    here = search(demos, test[0])
    expected = json.dumps([[c.program.text, c.prediction] for c in here.candidates] + [here.applications])
    assert outputs[0] == outputs[1]
    assert json.loads(outputs[0]) == json.loads(expected)
