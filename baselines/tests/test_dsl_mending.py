"""Mending: the broken lines of a one-colour drawing made whole, the mends in a new colour."""

from __future__ import annotations

from dsl_rig import cells, check_fitted, digits, fit_input

from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.mending import fit_mend
from continual_arc_baselines.dsl.ops import lookup

# A dashed blue rectangle with a bar across it: the gaps in its sides and in the bar turn red.
_DEMO = (
    digits(
        "00000000",
        "01101110",
        "01000010",
        "01000010",
        "01110110",
        "00000010",
        "01000010",
        "01111110",
        "00000000",
    ),
    digits(
        "00000000",
        "01121110",
        "01000010",
        "01000010",
        "01112110",
        "02000010",
        "01000010",
        "01111110",
        "00000000",
    ),
)


def test_sides_and_bars_are_mended() -> None:
    # A grey rectangle with a bar down it, four of whose seven cells are drawn.
    test = digits(
        "000000000",
        "055505550",
        "050050000",
        "050000050",
        "000050050",
        "050050050",
        "050000050",
        "055555550",
        "000000000",
    )
    given = fit_input([_DEMO], test)
    ops = fit_mend(given)
    assert [op.text for op in ops] == ["mend{2}"]
    check_fitted(
        ops[0],
        given,
        [
            [0, 0, 0, 0, 0, 0, 0, 0, 0],
            [0, 5, 5, 5, 2, 5, 5, 5, 0],
            [0, 5, 0, 0, 5, 0, 0, 2, 0],
            [0, 5, 0, 0, 2, 0, 0, 5, 0],
            [0, 2, 0, 0, 5, 0, 0, 5, 0],
            [0, 5, 0, 0, 5, 0, 0, 5, 0],
            [0, 5, 0, 0, 2, 0, 0, 5, 0],
            [0, 5, 5, 5, 5, 5, 5, 5, 0],
            [0, 0, 0, 0, 0, 0, 0, 0, 0],
        ],
    )


def test_a_sparse_row_is_no_line() -> None:
    # The demonstration also fills row 2, only two of whose six cells are drawn: no mend does that.
    wrong = (
        _DEMO[0],
        digits(
            "00000000",
            "01121110",
            "01222210",
            "01000010",
            "01112110",
            "02000010",
            "01000010",
            "01111110",
            "00000000",
        ),
    )
    assert fit_mend(fit_input([wrong], _DEMO[0])) == []


def test_two_colours_are_no_drawing() -> None:
    op = lookup("mend{2}")
    grid = cells([[1, 1, 0, 1], [1, 0, 0, 3], [1, 1, 1, 1]])
    assert op is not None and op(grid, Context(grid)) is None
    assert lookup("mend{x}") is None
