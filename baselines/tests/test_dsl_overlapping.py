"""Folding a grid onto itself: halves or quarters united, a middle line shared or dropped."""

from __future__ import annotations

import numpy as np
from dsl_rig import cells

from continual_arc_baselines.dsl.ops import WIDE
from continual_arc_baselines.dsl.overlapping import union


def test_quarters_share_the_middle_row_and_drop_the_middle_column() -> None:
    # 3 x 5: rows 0-1 and 1-2 (row 1 shared), columns 0-1 and 3-4 (column 2 dropped).
    grid = cells(
        [
            [4, 0, 9, 0, 0],
            [0, 0, 9, 0, 4],
            [0, 4, 9, 0, 0],
        ]
    )
    made = union(grid, 0, "qsd")
    # tl [[4,0],[0,0]], tr [[0,0],[0,4]], bl [[0,0],[0,4]], br [[0,4],[0,0]].
    assert made is not None and np.array_equal(made, cells([[4, 4], [0, 4]]))


def test_halves_across_with_a_shared_middle_column() -> None:
    made = union(cells([[1, 0, 0], [0, 1, 0]]), 0, "hs")
    # Left [[1,0],[0,1]], right [[0,0],[1,0]].
    assert made is not None and np.array_equal(made, cells([[1, 0], [1, 1]]))


def test_parts_that_disagree_unite_to_nothing() -> None:
    assert union(cells([[1, 0, 2]]), 0, "hd") is None
    assert union(cells([[1]]), 0, "hs") is None


def test_the_wide_catalogue_holds_it() -> None:
    assert "union(qsd)" in WIDE.by_text
