"""The block hidden in noise (`hidden`): ``densebox`` on hand-made speckled grids."""

from __future__ import annotations

from continual_arc.core.grids import Grid
from continual_arc_baselines.dsl.grid import Context, to_array
from continual_arc_baselines.dsl.hidden import dense_box
from continual_arc_baselines.dsl.ops import WIDE


def g(*rows: str) -> Grid:
    return tuple(tuple(int(c) for c in row) for row in rows)


# A 4 x 4 block of 5 (rows 1-4, columns 2-5) with one speck of 7, amid noise with no 2 x 2 of one colour.
NOISY = g("1234123", "2355551", "3457552", "4155553", "1255554", "2341231", "3412342")


def test_densebox_crops_the_block_specks_and_all() -> None:
    assert dense_box(to_array(NOISY)) == (1, 5, 2, 6)
    a = to_array(NOISY)
    out = WIDE.by_text["densebox"](a, Context(a))
    assert out is not None and out.tolist() == [[5, 5, 5, 5], [5, 7, 5, 5], [5, 5, 5, 5], [5, 5, 5, 5]]


def test_noise_alone_hides_no_block() -> None:
    # No two-by-two of one colour anywhere: nothing to find.
    assert dense_box(to_array(g("1234", "2341", "3412", "4123"))) is None


def test_a_grid_that_is_all_block_is_not_cropped() -> None:
    assert dense_box(to_array(g("5555", "5755", "5555", "5555"))) is None
