"""Sequencing: scattered cells read off in order into a small grid."""

from __future__ import annotations

from dsl_rig import cells, check_fitted, digits, fit_input

from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.ops import lookup
from continual_arc_baselines.dsl.sequencing import fit_seq

# Cells 3, 5, 7, 9 in columns 0, 1, 2, 3 (rows scattered): read left to right into a 2 x 2 snake.
_DEMOS = [
    (digits("0070", "3000", "0009", "0500"), digits("35", "97")),
    (digits("0400", "0006", "2000", "0000"), digits("24", "06")),
]


def test_cells_read_left_to_right_into_a_snake() -> None:
    given = fit_input(_DEMOS, digits("0000", "0800", "0001", "6000"))
    ops = fit_seq(given)
    assert ops and ops[0].text == "seq(x,snake){2x2}"
    # By column: 6 (col 0), 8 (col 1), 1 (col 3); the second row runs right to left.
    check_fitted(ops[0], given, [[6, 8], [0, 1]])


def test_a_line_as_long_as_the_count() -> None:
    demos = [
        (digits("0300", "0002", "1000"), digits("132")),
        (digits("00", "40", "00", "07"), digits("47")),
    ]
    given = fit_input(demos, digits("000", "500", "008", "060"))
    ops = fit_seq(given)
    assert ops
    check_fitted(ops[0], given, [[5, 6, 8]])


def test_cells_sharing_a_column_are_not_sequenced() -> None:
    # Two cells in one column leave the order by column in doubt: the step does not apply.
    op = lookup("seq(x,rows){2x2}")
    assert op is not None
    arr = cells([[3, 0], [5, 0]])
    assert op(arr, Context(arr)) is None
    # Demonstrations whose outputs keep the input's size are no sequencing.
    same = [(digits("30", "05"), digits("35", "00"))]
    assert fit_seq(fit_input(same, digits("40", "06"))) == []
    assert lookup("seq(z,rows){2x2}") is None
