"""Pooling into a fixed n x n layout (pool) on hand-made grids."""

from __future__ import annotations

from dsl_rig import assert_added_to_wide

from continual_arc.core.grids import Grid
from continual_arc_baselines.dsl import execute, parse


def g(*rows: str) -> Grid:
    return tuple(tuple(int(c) for c in row) for row in rows)


def run(text: str, grid: Grid) -> Grid | None:
    return execute(parse(text), grid)


def test_pool_gives_each_part_its_mark_or_the_background() -> None:
    # 2 x 2 parts; the parts at row 0 column 2 and at the centre hold no mark.
    grid = g("100200", "000000", "000005", "030000", "000000", "700080")
    assert run("pool(3)", grid) == g("120", "305", "708")


def test_uneven_sides_give_the_first_parts_the_extra_line() -> None:
    # Rows cut 2 + 1, columns 3 + 2: the 3 at row 2, column 2 is in the bottom-left part.
    assert run("pool(2)", g("10002", "00000", "00300")) == g("12", "30")


def test_a_grid_already_n_by_n_or_smaller_is_not_pooled() -> None:
    assert run("pool(3)", g("100", "020", "003")) is None
    assert run("pool(3)", g("12", "34")) is None


# Four solid blocks in two rows, and a stray 5 that is too small to count.
BLOCKS = g("1100220", "1100220", "0050000", "3300444", "3300444")


def test_objgrid_lays_out_the_blocks_colours() -> None:
    assert run("objgrid", BLOCKS) == g("12", "34")


def test_objgrid_needs_rows_of_equal_length() -> None:
    # A fifth block alone in a third row.
    assert run("objgrid", (*BLOCKS, g("0000000")[0], g("6600000")[0], g("6600000")[0])) is None


# Two of the four 3 x 3 blocks are black, and black is the grid's commonest colour (18 of 49 cells).
DARK_BLOCKS = g("1115000", "1115000", "1115000", "5555555", "0005333", "0005333", "0005333")


def test_blockgrid_keeps_blocks_of_the_commonest_colour() -> None:
    # objgrid sets black aside as background and sees only the 1 and the 3, each alone in its row.
    assert run("objgrid", DARK_BLOCKS) == g("1", "3")
    assert run("blockgrid", DARK_BLOCKS) == g("10", "03")


def test_the_steps_are_in_wide() -> None:
    assert_added_to_wide("blockgrid")


def test_blockgrid_needs_rows_of_equal_length() -> None:
    # The 5 cross is no block; with the bottom-right block split, the second row holds one block.
    assert (
        run("blockgrid", g("1115000", "1115000", "1115000", "5555555", "0005363", "0005363", "0005363"))
        is None
    )
