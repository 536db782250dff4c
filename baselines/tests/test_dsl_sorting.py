"""Sorting: bars stacked by length on the wall bar, flush to one end."""

from __future__ import annotations

import numpy as np

from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.ops import CORE, WIDE, lookup

Cells = list[list[int]]


def _run(text: str, cells: Cells) -> list[list[int]] | None:
    op = lookup(text)
    assert op is not None
    a = np.array(cells, dtype=np.uint8)
    out = op(a, Context(a))
    return None if out is None else out.tolist()


_FLOOR: Cells = [
    [0, 3, 3, 0, 0],
    [0, 0, 0, 0, 0],
    [4, 4, 4, 0, 0],
    [8, 8, 8, 8, 8],
]


def test_sortbars_is_wide_not_core() -> None:
    for text in ("sortbars(rot)", "sortbars(ref)"):
        assert text in WIDE.by_text
        assert text not in CORE.by_text


def test_bars_stack_on_the_floor_flush_right_or_left() -> None:
    assert _run("sortbars(rot)", _FLOOR) == [
        [0, 0, 0, 0, 0],
        [0, 0, 0, 3, 3],
        [0, 0, 4, 4, 4],
        [8, 8, 8, 8, 8],
    ]
    assert _run("sortbars(ref)", _FLOOR) == [
        [0, 0, 0, 0, 0],
        [3, 3, 0, 0, 0],
        [4, 4, 4, 0, 0],
        [8, 8, 8, 8, 8],
    ]


def test_a_ceiling_turns_the_stacking_with_the_grid() -> None:
    ceiling: Cells = [
        [8, 8, 8, 8, 8],
        [0, 0, 4, 4, 4],
        [0, 0, 0, 0, 0],
        [0, 0, 3, 3, 0],
    ]
    # The floor answer turned half a turn: flush left under the ceiling.
    assert _run("sortbars(rot)", ceiling) == [
        [8, 8, 8, 8, 8],
        [4, 4, 4, 0, 0],
        [3, 3, 0, 0, 0],
        [0, 0, 0, 0, 0],
    ]


def test_equal_bars_or_a_block_do_not_sort() -> None:
    tie: Cells = [
        [0, 3, 3, 0, 0],
        [0, 0, 0, 4, 4],
        [0, 0, 0, 0, 0],
        [8, 8, 8, 8, 8],
    ]
    assert _run("sortbars(rot)", tie) is None
    block: Cells = [
        [0, 3, 3, 0, 0],
        [0, 3, 3, 0, 0],
        [0, 0, 0, 0, 0],
        [8, 8, 8, 8, 8],
    ]
    assert _run("sortbars(rot)", block) is None
