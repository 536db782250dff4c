"""Shared pieces of the DSL tests: grids written by hand, a fitter's input, seeded tasks made by a
pair maker, and the wide-against-core check."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from continual_arc.core.grids import Grid, Pair
from continual_arc_baselines.dsl import execute, parse, search
from continual_arc_baselines.dsl.catalogue import FitInput
from continual_arc_baselines.dsl.family import Op
from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.ops import CORE, WIDE, lookup

P = TypeVar("P")

Made = tuple[np.ndarray, np.ndarray]
"""A pair made as arrays (input, output)."""

Cells = list[list[int]]
"""A grid written as rows of ints."""


def digits(*rows: str) -> Grid:
    """A grid written as one string of digits a row: ``digits("010", "000")``."""
    return tuple(tuple(int(c) for c in row) for row in rows)


def cells(rows: Cells) -> np.ndarray:
    """A grid written as rows of ints, as a ``uint8`` array."""
    return np.array(rows, dtype=np.uint8)


def fit_input(pairs: Sequence[tuple[npt.ArrayLike, npt.ArrayLike]], test: npt.ArrayLike) -> FitInput:
    """What a fitter reads for demonstrations ``pairs`` and the ``test`` input (grids, rows or arrays).

    Each grid becomes a ``uint8`` array (one that already is one is used as it is) with its own plain context.
    """
    inputs = (*(np.asarray(i, dtype=np.uint8) for i, _ in pairs), np.asarray(test, dtype=np.uint8))
    outputs = tuple(np.asarray(o, dtype=np.uint8) for _, o in pairs)
    return FitInput(inputs, outputs, tuple(Context(a) for a in inputs))


def step_on(text: str, rows: Cells) -> Cells | None:
    """What the one step written ``text`` (fixed or fitted) makes of a grid, with its own context.

    Asserts that the text names a step; ``None`` when the step does not apply.
    """
    op = lookup(text)
    assert op is not None
    grid = cells(rows)
    made = op(grid, Context(grid))
    return None if made is None else made.tolist()


def check_fitted(op: Op, given: FitInput, answer: Cells) -> None:
    """Asserts that a fitted ``op`` answers the test input of ``given`` with ``answer``.

    And that it reads back from its text, as a kept program must to run with no demonstrations.
    """
    made = op(given.inputs[-1], given.contexts[-1])
    assert made is not None and made.tolist() == answer
    again = lookup(op.text)
    assert again is not None and again.text == op.text


def assert_added_to_wide(*texts: str) -> None:
    """Asserts that each fixed step named is in the ``wide`` catalogue (the default) and not in ``core``."""
    for text in texts:
        assert text in WIDE.by_text
        assert text not in CORE.by_text


def assert_fitter_added_to_wide(prefix: str) -> None:
    """Asserts that a fitter writing steps that begin ``prefix`` is in ``wide`` and not in ``core``."""
    assert prefix in [fitter.prefix for fitter in WIDE.fitters]
    assert prefix not in [fitter.prefix for fitter in CORE.fitters]


def made_pairs(make: Callable[[random.Random], P], seed: int, count: int) -> list[P]:
    """``count`` pairs drawn by ``make`` from one generator seeded with ``seed``, in order."""
    rng = random.Random(seed)
    return [make(rng) for _ in range(count)]


def made_task(make: Callable[[random.Random], P], seed: int, demos: int) -> tuple[list[P], P]:
    """``demos`` demonstrations, then the test pair, drawn as `made_pairs` draws them."""
    pairs = made_pairs(make, seed, demos + 1)
    return pairs[:demos], pairs[demos]


def array_grid(a: np.ndarray) -> Grid:
    """An array as a grid of plain ints."""
    return tuple(tuple(int(v) for v in row) for row in a.tolist())


def solves(make: Callable[[random.Random], Made], seed: int) -> tuple[str, bool]:
    """The wide search's first program on a made task, and whether core's first answer is right too.

    Asserts that wide's first answer is right and that its program, read back from its text,
    answers a fresh pair with no demonstrations.
    """
    rng = random.Random(seed)
    pairs = [make(rng) for _ in range(4)]
    demos: list[Pair] = [(array_grid(i), array_grid(o)) for i, o in pairs[:3]]
    test_in, test_out = array_grid(pairs[3][0]), array_grid(pairs[3][1])
    wide = search(demos, test_in, catalogue=WIDE)
    assert wide.candidates and wide.candidates[0].prediction == test_out
    core = search(demos, test_in, catalogue=CORE)
    core_right = bool(core.candidates) and core.candidates[0].prediction == test_out
    fresh_in, fresh_out = make(rng)
    program = wide.candidates[0].program.text
    assert execute(parse(program), array_grid(fresh_in)) == array_grid(fresh_out)
    return program, core_right
