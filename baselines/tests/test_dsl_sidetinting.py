"""Side tinting: plain cells take the colour of the markers, whichever side the markers stand."""

from __future__ import annotations

from dsl_rig import Cells, assert_fitter_added_to_wide, check_fitted, fit_input, step_on

from continual_arc_baselines.dsl.sidetinting import fit_sidetint

# Markers stand in a column at the left in one demonstration, in a row along the top in the
# next; the plain colour is 5 in one and 6 in the other, and outnumbers the black background in
# the second, so neither a literal nor a frequency role names it: "f" (commonest non-black) does.
_DEMOS: list[tuple[Cells, Cells]] = [
    (
        [
            [1, 0, 5, 5, 0],
            [2, 0, 5, 5, 0],
            [3, 0, 0, 5, 5],
        ],
        [
            [1, 0, 1, 1, 0],
            [2, 0, 2, 2, 0],
            [3, 0, 0, 3, 3],
        ],
    ),
    (
        [
            [4, 7, 0, 8],
            [0, 0, 0, 0],
            [6, 6, 6, 6],
            [6, 6, 6, 6],
        ],
        [
            [4, 7, 0, 8],
            [0, 0, 0, 0],
            [4, 7, 6, 8],
            [4, 7, 6, 8],
        ],
    ),
]


def test_markers_on_the_right_tint_their_rows() -> None:
    test: Cells = [
        [0, 9, 9, 0, 2],
        [9, 9, 0, 0, 3],
        [0, 0, 0, 0, 0],
    ]
    # Each 9 looks along its row and meets one marker; the empty row keeps its black.
    answer: Cells = [
        [0, 2, 2, 0, 2],
        [3, 3, 0, 0, 3],
        [0, 0, 0, 0, 0],
    ]
    given = fit_input(_DEMOS, test)
    found = fit_sidetint(given)
    assert [op.text for op in found] == ["sidetint{f}"]
    check_fitted(found[0], given, answer)


def test_a_cell_meeting_two_colours_keeps_its_own() -> None:
    # The middle 5 meets 1 on its left and 2 below it: no one colour, so it stays.
    grid: Cells = [
        [1, 5, 0],
        [0, 2, 0],
    ]
    assert step_on("sidetint{5}", grid) == [[1, 5, 0], [0, 2, 0]]
    assert step_on("sidetint{5}", [[1, 5, 5], [0, 0, 0]]) == [[1, 1, 1], [0, 0, 0]]


def test_nothing_is_fitted_when_the_changed_cells_take_no_marker_colour() -> None:
    pairs: list[tuple[Cells, Cells]] = [
        ([[1, 0, 5, 5]], [[1, 0, 9, 9]]),
        ([[0, 0, 0], [6, 6, 2]], [[0, 0, 0], [9, 9, 2]]),
    ]
    assert fit_sidetint(fit_input(pairs, [[3, 0, 5, 5]])) == []


def test_the_fitter_is_in_wide() -> None:
    assert_fitter_added_to_wide("sidetint{")
