"""Unveiling: a tiled pattern under solid patches of changing colours, read back by hand-made grids."""

from __future__ import annotations

from dsl_rig import Cells, assert_added_to_wide, cells, digits, step_on

from continual_arc_baselines.dsl import search
from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.ops import WIDE


def _pattern(h: int, w: int) -> Cells:
    """Rows alternate 1 2 3 ... and 4 5 6 ...: a tile 2 rows by 3 columns."""
    return [[(c % 3) + 1 + (3 if r % 2 else 0) for c in range(w)] for r in range(h)]


def _patched(base: Cells, patches: list[tuple[int, int, int, int, int]]) -> Cells:
    """``base`` with each (top, left, height, width, colour) rectangle painted solid."""
    out = [row[:] for row in base]
    for top, left, height, width, colour in patches:
        for r in range(top, top + height):
            for c in range(left, left + width):
                out[r][c] = colour
    return out


def test_the_steps_are_in_wide() -> None:
    assert_added_to_wide("unveil(crop)", "unveil(fill)")


def test_the_largest_patch_is_read_back_and_the_small_one_ignored() -> None:
    grid = _patched(_pattern(8, 9), [(1, 1, 4, 3, 7), (5, 6, 2, 2, 8)])
    # Under rows 1-4, columns 1-3: odd rows read 5 6 4, even rows 2 3 1.
    assert step_on("unveil(crop)", grid) == [[5, 6, 4], [2, 3, 1], [5, 6, 4], [2, 3, 1]]
    assert step_on("unveil(fill)", grid) == _pattern(8, 9)


def test_a_patch_clipped_by_the_edge_counts_too() -> None:
    grid = _patched(_pattern(8, 9), [(5, 6, 3, 3, 9), (0, 0, 2, 2, 7)])
    # Rows 5-7, columns 6-8: odd rows 4 5 6, even rows 1 2 3.
    assert step_on("unveil(crop)", grid) == [[4, 5, 6], [1, 2, 3], [4, 5, 6]]


def test_no_answer_on_a_tie_or_without_a_pattern() -> None:
    tie = _patched(_pattern(8, 9), [(0, 0, 2, 2, 7), (5, 6, 2, 2, 8)])
    assert step_on("unveil(crop)", tie) is None
    # Rows that repeat nothing: no lattice fits once the patch is masked.
    plain = [list(row) for row in digits("1234567", "2461357", "3617425", "4172635", "5327164")]
    assert step_on("unveil(crop)", _patched(plain, [(1, 1, 2, 2, 9)])) is None
    assert step_on("unveil(fill)", _patched(plain, [(1, 1, 2, 2, 9)])) is None


def test_the_search_answers_under_a_patch_whose_colour_changes() -> None:
    demos = [
        (
            _patched(_pattern(8, 9), [(1, 1, 4, 3, 7), (6, 6, 2, 2, 8)]),
            [[5, 6, 4], [2, 3, 1], [5, 6, 4], [2, 3, 1]],
        ),
        (_patched(_pattern(9, 8), [(2, 3, 2, 4, 9), (6, 0, 2, 2, 7)]), [[1, 2, 3, 1], [4, 5, 6, 4]]),
        (_patched(_pattern(7, 9), [(0, 4, 3, 3, 8)]), [[2, 3, 1], [5, 6, 4], [2, 3, 1]]),
    ]
    pairs = [(tuple(map(tuple, i)), tuple(map(tuple, o))) for i, o in demos]
    test = _patched(_pattern(8, 8), [(3, 2, 3, 2, 9), (0, 6, 2, 2, 7)])
    found = search(pairs, tuple(map(tuple, test)), catalogue=WIDE)
    # Rows 3-5, columns 2-3: row 3 (odd) 6 4, row 4 3 1, row 5 6 4.
    assert found.candidates and found.candidates[0].prediction == ((6, 4), (3, 1), (6, 4))


def test_two_patches_on_a_plain_background_reveal_nothing() -> None:
    # With both patches masked the rest is all 0: periods of 1 both ways, a colour map and no
    # pattern, so neither form answers.
    grid = [[0] * 8 for _ in range(8)]
    grid = _patched(grid, [(1, 1, 2, 3, 3), (5, 4, 2, 3, 4)])
    assert step_on("unveil(fill)", grid) is None
    assert step_on("unveil(crop)", grid) is None


def test_an_answer_is_a_fresh_grid_each_time() -> None:
    grid = _patched(_pattern(8, 9), [(1, 1, 4, 3, 7), (5, 6, 2, 2, 8)])
    step = WIDE.by_text["unveil(fill)"]
    array = cells(grid)
    one = step(array, Context(array))
    assert one is not None
    one[0, 0] = 9  # a later step writing into its input must not reach the next call
    two = step(array, Context(array))
    assert two is not None and two.tolist() == _pattern(8, 9)
