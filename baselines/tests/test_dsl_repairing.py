"""Pattern repair: completion through the smallest lattice, and a symmetry anchored on the figure."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest
from dsl_rig import made_task

from continual_arc.core.grids import Grid, Pair
from continual_arc_baselines.dsl import execute, parse, search
from continual_arc_baselines.dsl.catalogue import FitInput
from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.ops import CORE, WIDE, lookup
from continual_arc_baselines.dsl.repairing import (
    axis_completion,
    fit_repair,
    lattice_completion,
    lattices,
    parse_repair,
)
from continual_arc_baselines.dsl.symmetry import complete, reflections


def _grid(rows: list[list[int]]) -> Grid:
    return tuple(tuple(r) for r in rows)


def _stripes_pair(rng: random.Random) -> Pair:
    """Anti-diagonal stripes whose k colours cycle; only the corner triangle i + j < k is shown."""
    n, k = rng.randrange(7, 11), rng.choice((3, 4))
    colours = rng.sample(range(1, 10), k)
    full = [[colours[(i + j) % k] for j in range(n)] for i in range(n)]
    shown = [[full[i][j] if i + j < k else 0 for j in range(n)] for i in range(n)]
    return _grid(shown), _grid(full)


def _long_tile_pair(rng: random.Random) -> Pair:
    """A random tile 9 or 10 on a side repeated over the grid, masked by a rectangle of 0: the answer."""
    th, tw = rng.randrange(9, 11), rng.randrange(9, 11)
    tile = [[rng.randrange(1, 10) for _ in range(tw)] for _ in range(th)]
    h, w = 2 * th + rng.randrange(0, 3), 2 * tw + rng.randrange(0, 3)
    full = [[tile[i % th][j % tw] for j in range(w)] for i in range(h)]
    mh, mw = rng.randrange(2, 5), rng.randrange(3, 7)
    top, left = rng.randrange(0, h - mh + 1), rng.randrange(0, w - mw + 1)
    shown = [row[:] for row in full]
    for i in range(top, top + mh):
        for j in range(left, left + mw):
            shown[i][j] = 0
    return _grid(shown), _grid([row[left : left + mw] for row in full[top : top + mh]])


def _edge_figure_pair(rng: random.Random) -> Pair:
    """A left-right symmetric figure touching the left edge of a wide one-colour grid, half masked.

    The mask (a colour of its own) covers the figure's lower left part and the background below it.
    """
    bg, ink, mask = rng.sample(range(1, 10), 3)
    h, w = rng.randrange(12, 16), rng.randrange(14, 18)
    fh, half = rng.randrange(3, 5), rng.randrange(3, 4)
    fw = 2 * half + 1
    full = [[bg] * w for _ in range(h)]
    top = rng.randrange(2, h - fh - 3)
    for i in range(fh):
        for j in range(half + 1):
            if j == half or rng.random() < 0.6:
                full[top + i][j] = full[top + i][fw - 1 - j] = ink
    shown = [row[:] for row in full]
    for i in range(top + fh - 2, top + fh + 1):
        for j in range(0, half):
            shown[i][j] = mask
    return _grid(shown), _grid(full)


def _diagonal_pair(rng: random.Random) -> Pair:
    """A pattern symmetric about its main diagonal only, masked by 0 in a 2 x 2 square across it.

    A band of two colours runs along the diagonal (one on it, one beside it); off the band, each
    anti-diagonal ``i + j`` holds a random one of three colours, so no translation repeats the pattern. The
    mask's cells face each other or themselves across the diagonal, so no reflection fills them.
    """
    n = rng.randrange(10, 14)
    on, beside, *off = rng.sample(range(1, 10), 5)
    # Three colours off the band, each on many cells: the mask's colour is the rarest, as a hole is.
    across = [rng.choice(off) for _ in range(2 * n)]
    full = [
        [on if i == j else beside if abs(i - j) == 1 else across[i + j] for j in range(n)] for i in range(n)
    ]
    at = rng.randrange(1, n - 2)
    shown = [row[:] for row in full]
    for i in range(at, at + 2):
        for j in range(at, at + 2):
            shown[i][j] = 0
    return _grid(shown), _grid(full)


@pytest.mark.parametrize(
    ("make", "prefix", "seed"),
    [
        (_stripes_pair, "repair(lat){fill}", 0),
        (_stripes_pair, "repair(lat){fill}", 1),
        (_long_tile_pair, "repair(lat){crop}", 2),
        (_long_tile_pair, "repair(lat){crop}", 3),
        (_edge_figure_pair, "repair(sym){fill}", 4),
        (_edge_figure_pair, "repair(sym){fill}", 5),
    ],
)
def test_wide_repairs_what_core_does_not(
    make: Callable[[random.Random], Pair], prefix: str, seed: int
) -> None:
    demos, (test_input, answer) = made_task(make, seed, 3)
    wide = search(demos, test_input, catalogue=WIDE)
    assert wide.candidates and wide.candidates[0].prediction == answer
    assert wide.candidates[0].program.text == prefix
    core = search(demos, test_input, catalogue=CORE)
    assert not core.candidates or core.candidates[0].prediction != answer


@pytest.mark.parametrize("seed", [6, 7])
def test_holes_across_a_diagonal_axis_are_continued_along_it(seed: int) -> None:
    demos, (test_input, answer) = made_task(_diagonal_pair, seed, 3)
    wide = search(demos, test_input, catalogue=WIDE)
    assert wide.candidates and wide.candidates[0].prediction == answer
    assert wide.candidates[0].program.text == "repair(axis){fill}"
    # Core's own completion by reflections leaves these holes: they face only each other.
    shown = np.array(test_input, dtype=np.uint8)
    assert complete(shown, 0, reflections(shown)[0]) is None
    done = axis_completion(shown)
    assert done is not None and np.array_equal(done, np.array(answer))


def test_the_smallest_lattice_completes_cycling_stripes() -> None:
    shown = np.zeros((6, 6), dtype=np.uint8)
    for i in range(6):
        for j in range(6):
            if i + j < 3:
                shown[i, j] = (2, 5, 7)[(i + j) % 3]
    done = lattice_completion(shown)
    assert done is not None
    # Every anti-diagonal i + j = d holds the colour of d modulo 3.
    assert all(done[i, j] == (2, 5, 7)[(i + j) % 3] for i in range(6) for j in range(6))


def test_lattices_come_smallest_first_and_are_each_listed_once() -> None:
    found = list(lattices(5, 5, 6))
    assert len(found) == len(set(found))
    assert [p * q for p, q, _ in found] == sorted(p * q for p, q, _ in found)
    # Index 2 first (index 1 is no repair): two columns unsheared and sheared, then two rows.
    assert found[:3] == [(2, 1, 0), (2, 1, 1), (1, 2, 0)]


def test_no_repair_applies_to_noise_or_to_outputs_that_are_not_completions() -> None:
    rng = np.random.default_rng(7)
    noise = rng.integers(0, 10, size=(12, 12)).astype(np.uint8)
    assert lattice_completion(noise) is None
    demos, (test_input, _) = made_task(_stripes_pair, 8, 3)
    inputs = (*(np.array(i, dtype=np.uint8) for i, _ in demos), np.array(test_input, dtype=np.uint8))
    # Outputs turned upside down are no completion of their inputs: nothing is offered.
    outputs = tuple(np.array(o, dtype=np.uint8)[::-1].copy() for _, o in demos)
    assert fit_repair(FitInput(inputs, outputs, tuple(Context(a) for a in inputs))) == []


def test_a_found_program_reads_back_and_runs_with_no_demonstrations() -> None:
    demos, (test_input, answer) = made_task(_long_tile_pair, 9, 3)
    found = search(demos, test_input, catalogue=WIDE)
    text = found.candidates[0].program.text
    assert execute(parse(text), test_input) == answer
    for text in ("repair(lat){fill}", "repair(lat){crop}", "repair(sym){crop}", "repair(axis){fill}"):
        op = lookup(text)
        assert op is not None and op.text == text


@pytest.mark.parametrize(
    "text", ["repair(lat){grow}", "repair(tile){fill}", "repair(sym)", "repair(sym){fill,1}"]
)
def test_malformed_texts_name_no_step(text: str) -> None:
    assert parse_repair(text) is None
