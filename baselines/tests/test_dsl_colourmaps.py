"""Colour maps: every cell blown up into the map of where its colour lies."""

from __future__ import annotations

import numpy as np
from dsl_rig import cells

from continual_arc_baselines.dsl.colourmaps import self_map
from continual_arc_baselines.dsl.ops import CORE, WIDE


def test_each_cell_maps_its_colour() -> None:
    # 3 3 / 3 5: the 3 blocks show the three 3s, the 5 block shows the one 5.
    made = self_map(cells([[3, 3], [3, 5]]))
    expected = cells(
        [
            [3, 3, 3, 3],
            [3, 0, 3, 0],
            [3, 3, 0, 0],
            [3, 0, 0, 5],
        ]
    )
    assert made is not None and np.array_equal(made, expected)


def test_one_colour_is_no_map() -> None:
    assert self_map(cells([[4, 4], [4, 4]])) is None


def test_the_step_is_added_to_wide() -> None:
    assert "kself" in WIDE.by_text and "kself" not in CORE.by_text
