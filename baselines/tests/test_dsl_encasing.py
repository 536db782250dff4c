"""Encasing: a ring round the outside of every shape, and its holes filled in another colour."""

from __future__ import annotations

from dsl_rig import cells, check_fitted, digits, fit_input

from continual_arc_baselines.dsl.encasing import fit_encase
from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.ops import lookup

# A blue ring gets a green case and a yellow hole; a lone red cell gets a green case.
_DEMOS = [
    (
        digits("0000000", "0000000", "0011100", "0010100", "0011100", "0000000", "0000000"),
        digits("0000000", "0333330", "0311130", "0314130", "0311130", "0333330", "0000000"),
    ),
    (
        digits("0000", "0200", "0000", "0000"),
        digits("3330", "3230", "3330", "0000"),
    ),
]


def test_shapes_are_cased_and_their_holes_filled() -> None:
    given = fit_input(_DEMOS, digits("000000", "000000", "005550", "005050", "005550", "000000"))
    ops = fit_encase(given)
    assert [op.text for op in ops] == ["encase(8){3,4}"]
    check_fitted(
        ops[0],
        given,
        [
            [0, 0, 0, 0, 0, 0],
            [0, 3, 3, 3, 3, 3],
            [0, 3, 5, 5, 5, 3],
            [0, 3, 5, 4, 5, 3],
            [0, 3, 5, 5, 5, 3],
            [0, 3, 3, 3, 3, 3],
        ],
    )


def test_holes_filled_in_one_demonstration_and_not_another_are_no_case() -> None:
    empty_hole = (
        _DEMOS[0][0],
        digits("0000000", "0333330", "0311130", "0310130", "0311130", "0333330", "0000000"),
    )
    assert fit_encase(fit_input([_DEMOS[0], empty_hole], _DEMOS[1][0])) == []
    # Only part of the ring painted: not a case either.
    part = (_DEMOS[1][0], digits("0000", "3200", "0000", "0000"))
    assert fit_encase(fit_input([part], _DEMOS[1][0])) == []


def test_an_empty_grid_has_nothing_to_case() -> None:
    op = lookup("encase(4){3}")
    assert op is not None
    empty = cells([[0, 0], [0, 0]])
    assert op(empty, Context(empty)) is None
    assert lookup("encase(4){3,}") is None
