"""Solids: the largest solid rectangle, and noisy stripes restored along their own axis."""

from __future__ import annotations

import numpy as np

from continual_arc_baselines.dsl.grid import TRUE, Context
from continual_arc_baselines.dsl.ops import CORE, WIDE, lookup
from continual_arc_baselines.dsl.solids import largest_rectangle

Cells = list[list[int]]


def _run(text: str, cells: Cells) -> list[list[int]] | None:
    op = lookup(text)
    assert op is not None
    a = np.array(cells, dtype=np.uint8)
    out = op(a, Context(a))
    return None if out is None else out.tolist()


def test_the_steps_are_wide_not_core() -> None:
    for text in ("solid(bg)", "solid(fg)", "keepsolid", "restripe"):
        assert text in WIDE.by_text
        assert text not in CORE.by_text


def test_a_longer_line_is_no_room_and_a_tie_is_no_answer() -> None:
    grid = np.array(
        [
            [0, 0, 0, 0, 0, 0, 0, 0],
            [1, 1, 1, 0, 0, 1, 1, 1],
            [1, 1, 1, 0, 0, 1, 0, 1],
            [0, 1, 1, 1, 1, 1, 0, 1],
        ],
        dtype=np.uint8,
    )
    # The top row of 0s (1 x 8) is a line; the room is rows 0-2 x columns 3-4 (area 6).
    assert largest_rectangle(grid, 0, "bg") == (0, 3, 3, 2)
    # The 1s hold two blocks of area 6 (rows 1-2 x columns 0-2, rows 1-3 x columns 1-2): a tie.
    assert largest_rectangle(grid, 0, "fg") is None


def test_solid_bg_labels_the_room() -> None:
    grid: Cells = [
        [0, 0, 0, 0, 0, 0],
        [5, 5, 0, 0, 0, 5],
        [5, 0, 0, 0, 0, 5],
        [0, 5, 5, 0, 5, 0],
    ]
    # 0 is the commonest colour (15 of 24). Rectangles of 0 at least 2 x 2: rows 0-2 x cols 2-4
    # (3 x 3 = 9) beats rows 0-1 x cols 2-4 (6) and rows 1-2 x cols 1-4 (8).
    t = TRUE
    assert _run("solid(bg)", grid) == [
        [0, 0, t, t, t, 0],
        [5, 5, t, t, t, 5],
        [5, 0, t, t, t, 5],
        [0, 5, 5, 0, 5, 0],
    ]


def test_keepsolid_keeps_the_block_and_erases_the_noise() -> None:
    grid: Cells = [
        [0, 3, 0, 0, 0],
        [0, 2, 2, 2, 0],
        [4, 2, 2, 2, 0],
        [0, 0, 0, 1, 2],
        [2, 0, 0, 0, 0],
    ]
    assert _run("keepsolid", grid) == [
        [0, 0, 0, 0, 0],
        [0, 2, 2, 2, 0],
        [0, 2, 2, 2, 0],
        [0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0],
    ]


def test_two_equal_blocks_are_a_tie_and_nothing_applies() -> None:
    grid: Cells = [
        [3, 3, 0, 0, 0],
        [3, 3, 0, 4, 4],
        [0, 0, 0, 4, 4],
        [0, 0, 0, 0, 0],
    ]
    assert _run("keepsolid", grid) is None
    assert _run("solid(fg)", grid) is None


def test_restripe_picks_the_axis_the_stripes_run() -> None:
    rows: Cells = [
        [1, 1, 1, 1],
        [2, 5, 2, 2],
        [2, 2, 2, 2],
        [3, 3, 5, 3],
    ]
    assert _run("restripe", rows) == [[1] * 4, [2] * 4, [2] * 4, [3] * 4]
    columns: Cells = [
        [1, 2, 3, 4],
        [1, 2, 3, 4],
        [1, 6, 3, 4],
        [7, 2, 3, 4],
        [1, 2, 3, 4],
    ]
    assert _run("restripe", columns) == [[1, 2, 3, 4]] * 5


def test_restripe_does_not_apply_without_a_stripe_axis() -> None:
    checker: Cells = [
        [1, 2, 1, 2],
        [2, 1, 2, 1],
        [1, 2, 1, 2],
        [2, 1, 2, 1],
    ]
    assert _run("restripe", checker) is None


def test_onion_reverses_the_rings() -> None:
    # Three rings of a 5 x 6 grid: 1 outside, 2, then 3 in the middle (two cells).
    grid: Cells = [
        [1, 1, 1, 1, 1, 1],
        [1, 2, 2, 2, 2, 1],
        [1, 2, 3, 3, 2, 1],
        [1, 2, 2, 2, 2, 1],
        [1, 1, 1, 1, 1, 1],
    ]
    assert _run("onion", grid) == [
        [3, 3, 3, 3, 3, 3],
        [3, 2, 2, 2, 2, 3],
        [3, 2, 1, 1, 2, 3],
        [3, 2, 2, 2, 2, 3],
        [3, 3, 3, 3, 3, 3],
    ]


def test_onion_needs_one_colour_per_ring() -> None:
    grid: Cells = [
        [1, 1, 1, 1],
        [1, 2, 2, 1],
        [1, 2, 2, 4],
        [1, 1, 1, 1],
    ]
    assert _run("onion", grid) is None
