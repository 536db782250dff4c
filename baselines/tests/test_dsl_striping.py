"""Striping: every k-th column or row has its coloured cells recoloured."""

from __future__ import annotations

from dsl_rig import Cells, assert_fitter_added_to_wide, check_fitted, fit_input, step_on

from continual_arc_baselines.dsl.striping import fit_stripe

# Every third column from the left (columns 0 and 3) turns its coloured cells 6, whatever they were.
_DEMOS: list[tuple[Cells, Cells]] = [
    (
        [
            [1, 2, 0, 4, 5],
            [0, 3, 3, 0, 0],
            [0, 0, 0, 0, 0],
        ],
        [
            [6, 2, 0, 6, 5],
            [0, 3, 3, 0, 0],
            [0, 0, 0, 0, 0],
        ],
    ),
    (
        [
            [0, 0, 0, 0],
            [7, 0, 8, 9],
            [0, 0, 0, 0],
            [0, 0, 0, 0],
        ],
        [
            [0, 0, 0, 0],
            [6, 0, 8, 6],
            [0, 0, 0, 0],
            [0, 0, 0, 0],
        ],
    ),
]


def test_every_third_column_turns() -> None:
    test: Cells = [
        [0, 0, 0, 0, 0, 0, 0],
        [2, 2, 0, 0, 5, 0, 1],
        [0, 9, 0, 4, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0],
    ]
    answer: Cells = [
        [0, 0, 0, 0, 0, 0, 0],
        [6, 2, 0, 0, 5, 0, 6],
        [0, 9, 0, 6, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0],
    ]
    given = fit_input(_DEMOS, test)
    found = fit_stripe(given)
    assert [op.text for op in found][:1] == ["stripe{c3s.0>6}"]
    check_fitted(found[0], given, answer)


def test_counted_from_the_bottom() -> None:
    # Every other row counted from the bottom: the last and the third from last.
    grid: Cells = [[4, 0, 0], [0, 0, 4], [4, 4, 0]]
    assert step_on("stripe{r2e.0>3}", grid) == [[3, 0, 0], [0, 0, 4], [3, 3, 0]]


def test_nothing_is_fitted_when_the_changes_follow_no_stripe() -> None:
    # Two neighbouring columns change while the 2 in the same row stays: no stripe of rows or
    # columns holds the changed cells and not the 2.
    pairs: list[tuple[Cells, Cells]] = [
        ([[1, 1, 2, 0], [0, 0, 0, 0]], [[6, 6, 2, 0], [0, 0, 0, 0]]),
        ([[2, 0, 0, 2], [0, 0, 0, 0]], [[6, 0, 0, 6], [0, 0, 0, 0]]),
    ]
    assert fit_stripe(fit_input(pairs, [[1, 1, 1, 1], [0, 0, 0, 0]])) == []


def test_the_fitter_is_in_wide() -> None:
    assert_fitter_added_to_wide("stripe{")
