"""Box fitting: a template scaled up and completed inside the box four corner marks frame."""

from __future__ import annotations

from dsl_rig import cells

from continual_arc_baselines.dsl.boxfitting import box_fit


def _grid(inside: list[tuple[int, int, int]]) -> list[list[int]]:
    # Corner marks 4 frame rows 0-5 and columns 0-5; the template 1 2 / 3 . lies outside.
    rows = [[0] * 8 for _ in range(8)]
    for y, x in ((0, 0), (0, 5), (5, 0), (5, 5)):
        rows[y][x] = 4
    rows[6][6], rows[6][7], rows[7][6] = 1, 2, 3
    for y, x, c in inside:
        rows[y][x] = c
    return rows


def test_the_template_is_completed_at_the_scale_its_blocks_show() -> None:
    # A 2 x 2 block of 1 inside: the template doubled, its 1 block on the one given.
    made = box_fit(cells(_grid([(1, 1, 1), (1, 2, 1), (2, 1, 1), (2, 2, 1)])), 0)
    assert made is not None
    assert made.tolist() == [
        [4, 0, 0, 0, 0, 4],
        [0, 1, 1, 2, 2, 0],
        [0, 1, 1, 2, 2, 0],
        [0, 3, 3, 0, 0, 0],
        [0, 3, 3, 0, 0, 0],
        [4, 0, 0, 0, 0, 4],
    ]


def test_a_block_that_leaves_the_scale_in_doubt_gives_nothing() -> None:
    # A template 1 1 / 3 . and one cell of 1 inside: it may be either 1 of the template, so
    # two placements fit and there is no answer.
    doubt = _grid([(1, 1, 1)])
    doubt[6][7] = 1
    assert box_fit(cells(doubt), 0) is None
    # No corner marks: no box.
    rows = _grid([(1, 1, 1), (1, 2, 1), (2, 1, 1), (2, 2, 1)])
    rows[5][5] = 0
    assert box_fit(cells(rows), 0) is None
