"""Edge extension: a line more on every side, copying the edge it borders."""

from __future__ import annotations

import numpy as np
from dsl_rig import cells, fit_input

from continual_arc_baselines.dsl.bordering import edges, fit_edges, parse_edges
from continual_arc_baselines.dsl.ops import lookup

_GRID = cells([[1, 2], [3, 8]])
_GROWN = cells(
    [
        [0, 1, 2, 0],
        [1, 1, 2, 2],
        [3, 3, 8, 8],
        [0, 3, 8, 0],
    ]
)


def test_edges_stretch_outwards() -> None:
    assert np.array_equal(edges(_GRID, 0), _GROWN)


def test_edges_are_fitted_with_their_corner_colour() -> None:
    ops = fit_edges(fit_input([(_GRID, _GROWN)], _GRID))
    assert [op.text for op in ops] == ["edges{0}"]
    assert parse_edges("edges{0}") is not None and lookup("edges{0}") is not None


def test_a_plain_frame_is_no_edge_extension() -> None:
    framed = np.pad(_GRID, 1)  # a border of 0, not copies of the edges
    assert fit_edges(fit_input([(_GRID, framed)], _GRID)) == []
    assert parse_edges("edges{x}") is None
