"""Hopping: every object moved by its own cell count in one direction; walls stay."""

from __future__ import annotations

import numpy as np
from dsl_rig import digits

from continual_arc_baselines.dsl import search
from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.ops import CORE, WIDE, lookup

Cells = list[list[int]]


def _run(text: str, cells: Cells) -> Cells | None:
    op = lookup(text)
    assert op is not None
    a = np.array(cells, dtype=np.uint8)
    out = op(a, Context(a))
    return None if out is None else out.tolist()


def test_hop_is_added_to_wide() -> None:
    for text in ("hop(up,4)", "hop(down,m8)", "hop(left,4)", "hop(right,m8)"):
        assert text in WIDE.by_text
        assert text not in CORE.by_text


def test_objects_rise_by_their_cell_count_over_a_floor() -> None:
    # A dot (1 cell) rises 1, a vertical pair (2 cells) rises 2; the full-width floor stays.
    grid: Cells = [
        [0, 0, 0, 0],
        [0, 0, 0, 0],
        [0, 0, 0, 0],
        [0, 0, 3, 0],
        [2, 0, 3, 0],
        [5, 5, 5, 5],
    ]
    assert _run("hop(up,4)", grid) == [
        [0, 0, 0, 0],
        [0, 0, 3, 0],
        [0, 0, 3, 0],
        [2, 0, 0, 0],
        [0, 0, 0, 0],
        [5, 5, 5, 5],
    ]


def test_what_leaves_the_grid_is_cut_off() -> None:
    # A bar of three cells moves three columns right: its last cell leaves the grid.
    grid: Cells = [
        [0, 0, 0, 0, 0, 0],
        [0, 4, 4, 4, 0, 0],
        [0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0],
    ]
    assert _run("hop(right,4)", grid) == [
        [0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 4, 4],
        [0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0],
    ]


def test_a_multicolour_object_counts_all_its_cells() -> None:
    # The 1-2 pair is one m8 object of two cells (two hops), two one-colour objects of one.
    grid: Cells = [
        [0, 0, 0],
        [0, 0, 0],
        [0, 0, 0],
        [1, 2, 0],
        [0, 0, 0],
    ]
    assert _run("hop(up,m8)", grid) == [
        [0, 0, 0],
        [1, 2, 0],
        [0, 0, 0],
        [0, 0, 0],
        [0, 0, 0],
    ]
    assert _run("hop(up,4)", grid) == [
        [0, 0, 0],
        [0, 0, 0],
        [1, 2, 0],
        [0, 0, 0],
        [0, 0, 0],
    ]


def test_landing_on_one_cell_or_nothing_moving_does_not_apply() -> None:
    land: Cells = [
        [0, 0, 0, 0],
        [0, 0, 0, 0],
        [0, 0, 8, 0],
        [0, 9, 9, 0],
    ]
    # 8 rises one to (1,2), the 9-pair two to (1,1),(1,2): both land on (1,2).
    assert _run("hop(up,4)", land) is None
    # Only a full-width floor: nothing moves.
    assert _run("hop(up,4)", [[0, 0, 0], [0, 0, 0], [4, 4, 4]]) is None


def test_the_search_finds_hops() -> None:
    train = [
        (
            digits("000000", "000000", "000000", "030000", "030220", "000000"),
            digits("000000", "030000", "030220", "000000", "000000", "000000"),
        ),
        (
            digits("000000", "000000", "000000", "000400", "000000", "000000"),
            digits("000000", "000000", "000400", "000000", "000000", "000000"),
        ),
        (
            digits("000000", "000000", "000000", "000000", "005550", "000000"),
            digits("000000", "005550", "000000", "000000", "000000", "000000"),
        ),
    ]
    test_in = digits("000000", "000000", "000000", "060000", "000000", "000000")
    result = search(train, test_in, catalogue=WIDE)
    assert result.candidates
    assert result.candidates[0].prediction == digits(
        "000000", "000000", "060000", "000000", "000000", "000000"
    )
