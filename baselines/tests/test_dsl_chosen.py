"""Chosen crops: the region a fitted colour selects, and the output size the demonstrations imply."""

from __future__ import annotations

import random

import numpy as np
import pytest
from dsl_rig import made_task

from continual_arc.core.grids import Grid, Pair
from continual_arc_baselines.dsl import execute, parse, search
from continual_arc_baselines.dsl.catalogue import FitInput
from continual_arc_baselines.dsl.chosen import fit_chosen, infer_size, parse_chosen, selector
from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.ops import CORE, WIDE, lookup


def _grid(rows: list[list[int]]) -> Grid:
    return tuple(tuple(r) for r in rows)


def _framed_pair(rng: random.Random) -> Pair:
    """Sparse noise of colours 1, 3 and 5 on 0, and one outline of colour 2; the answer is inside it."""
    h, w = rng.randrange(12, 18), rng.randrange(12, 18)
    rows = [[rng.choice((1, 3, 5)) if rng.random() < 0.3 else 0 for _ in range(w)] for _ in range(h)]
    fh, fw = rng.randrange(4, 8), rng.randrange(4, 8)
    top, left = rng.randrange(0, h - fh), rng.randrange(0, w - fw)
    for y in range(top, top + fh):
        for x in range(left, left + fw):
            if y in (top, top + fh - 1) or x in (left, left + fw - 1):
                rows[y][x] = 2
    inside = [row[left + 1 : left + fw - 1] for row in rows[top + 1 : top + fh - 1]]
    return _grid(rows), _grid(inside)


def _speckled_pair(rng: random.Random) -> Pair:
    """Three blocks of colour 1 apart on 0, speckled with 4, 5 and 6 cells of colour 8 and 6, 5 and 4
    of colour 3 (all equally busy); the answer is the block with six of colour 8."""
    h, w = 20, 20
    rows = [[0] * w for _ in range(h)]
    answer: list[list[int]] = []
    marks = [4, 5, 6]
    rng.shuffle(marks)  # the busiest block is anywhere, so no choice by place finds it
    for k, (top, left) in zip(marks, ((1, 1), (1, 11), (11, 5)), strict=True):
        bh, bw = rng.randrange(5, 8), rng.randrange(5, 8)
        cells = [(y, x) for y in range(bh) for x in range(bw)]
        marked = rng.sample(cells, 10)
        block = [[1] * bw for _ in range(bh)]
        for i, (y, x) in enumerate(marked):
            block[y][x] = 8 if i < k else 3
        for y in range(bh):
            rows[top + y][left : left + bw] = block[y]
        answer = block if k == 6 else answer
    return _grid(rows), _grid(answer)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_inside_of_a_frame_is_found_by_wide_and_not_by_core(seed: int) -> None:
    demos, (test_input, answer) = made_task(_framed_pair, seed, 4)
    wide = search(demos, test_input, catalogue=WIDE)
    assert wide.candidates and wide.candidates[0].prediction == answer
    assert wide.candidates[0].program.text.startswith("chosen(inside)")
    core = search(demos, test_input, catalogue=CORE)
    assert not core.candidates or core.candidates[0].prediction != answer


@pytest.mark.parametrize("seed", [3, 4])
def test_the_object_with_most_of_a_colour_is_found_by_wide_and_not_by_core(seed: int) -> None:
    demos, (test_input, answer) = made_task(_speckled_pair, seed, 4)
    wide = search(demos, test_input, catalogue=WIDE)
    assert wide.candidates and wide.candidates[0].prediction == answer
    assert wide.candidates[0].program.text.startswith("chosen(most){8,")
    core = search(demos, test_input, catalogue=CORE)
    assert not core.candidates or core.candidates[0].prediction != answer


def test_a_found_program_reads_back_and_runs_with_no_demonstrations() -> None:
    demos, (test_input, answer) = made_task(_framed_pair, 5, 4)
    found = search(demos, test_input, catalogue=WIDE)
    text = found.candidates[0].program.text
    assert execute(parse(text), test_input) == answer
    for text in (
        "chosen(box){r}",
        "chosen(frame){a}",
        "chosen(mark){5,m8}",
        "chosen(least){r,m4}",
        "chosen(odd){a}",
        "chosen(common){a,8}",
        "chosen(skew){a}",
    ):
        op = lookup(text)
        assert op is not None and op.text == text


@pytest.mark.parametrize(
    "text",
    [
        "chosen(box){a}",
        "chosen(with){3}",
        "chosen(box){3,m4}",
        "chosen(grow){3}",
        "chosen(odd){3}",
        "chosen(common){a,m8}",
        "chosen(skew){r}",
    ],
)
def test_malformed_texts_name_no_step(text: str) -> None:
    assert parse_chosen(text) is None


def test_a_selector_does_not_apply_where_its_region_is_missing() -> None:
    plain = np.zeros((6, 6), dtype=np.uint8)
    plain[2, 2] = 3
    ctx = Context(plain)
    assert selector("inside", "a")(plain, ctx) is None  # no outline anywhere
    assert selector("box", "4")(plain, ctx) is None  # no cell of colour 4
    assert selector("most", "3", "m4")(plain, ctx) is None  # one object: nothing to choose among


def test_nothing_is_offered_when_the_outputs_are_larger_than_the_inputs() -> None:
    inputs = tuple(np.full((3, 3), c, dtype=np.uint8) for c in (1, 2, 3))
    outputs = tuple(np.full((6, 6), c, dtype=np.uint8) for c in (1, 2))
    given = FitInput(inputs, outputs, tuple(Context(a) for a in inputs))
    assert fit_chosen(given) == []
    assert infer_size(given) is None


def test_the_output_size_follows_the_frame() -> None:
    rng = random.Random(7)
    pairs = [_framed_pair(rng) for _ in range(4)]
    inputs = tuple(np.array(i, dtype=np.uint8) for i, _ in pairs)
    outputs = tuple(np.array(o, dtype=np.uint8) for _, o in pairs[:3])
    given = FitInput(inputs, outputs, tuple(Context(a) for a in inputs))
    assert infer_size(given) == np.array(pairs[3][1]).shape


def test_the_odd_quarter_about_a_middle_cross_of_background_is_chosen() -> None:
    rng = random.Random(11)
    same = np.array([[rng.randrange(1, 4) for _ in range(3)] for _ in range(2)], dtype=np.uint8)
    odd = same.copy()
    odd[1, 2] = 9
    grid = np.zeros((5, 7), dtype=np.uint8)
    corners = [(0, 0), (0, 4), (3, 0), (3, 4)]
    place = rng.randrange(4)
    for k, (y, x) in enumerate(corners):
        grid[y : y + 2, x : x + 3] = odd if k == place else same
    out = selector("odd", "a")(grid, Context(grid))
    assert out is not None and np.array_equal(out, odd)
    grid[2, 3] = 5  # the cross is no longer of one colour
    assert selector("odd", "a")(grid, Context(grid)) is None


def test_two_parallel_lines_are_cut_out_with_their_caps() -> None:
    rng = random.Random(13)
    grid = np.array([[8 if rng.random() < 0.15 else 0 for _ in range(12)] for _ in range(12)], dtype=np.uint8)
    top, left, height, width = 3, 2, 5, 6
    for x in (left, left + width - 1):
        grid[top : top + height, x] = 5
        grid[top - 1, x] = grid[top + height, x] = 8  # the caps
    grid[top : top + height, left + 1 : left + width - 1] = 0  # no 5 between the lines
    out = selector("ends", "5")(grid, Context(grid))
    assert out is not None and out.shape == (height + 2, width)
    assert out[0, 0] == out[-1, -1] == 8 and (out[1:-1, 0] == 5).all()
    grid[top + 2, left] = 0  # a broken line is no line: nothing to cap
    assert selector("ends", "5")(grid, Context(grid)) is None


def test_the_one_square_part_off_its_diagonal_symmetry_is_chosen() -> None:
    rng = random.Random(17)
    blocks = []
    for _ in range(3):
        b = np.array([[rng.randrange(1, 10) for _ in range(4)] for _ in range(4)], dtype=np.uint8)
        blocks.append(np.triu(b) + np.triu(b, 1).T)  # symmetric about the main diagonal
    blocks[1][0, 3] = 0 if blocks[1][3, 0] else 1  # one part loses its symmetry
    grid = np.vstack(blocks)
    out = selector("skew", "a")(grid, Context(grid))
    assert out is not None and np.array_equal(out, blocks[1])
    blocks[2][0, 1] = 0 if blocks[2][1, 0] else 1  # two skewed parts: no one to choose
    grid = np.vstack(blocks)
    assert selector("skew", "a")(grid, Context(grid)) is None
