"""Kronecker layouts: copies of the grid keyed by a fitted colour, and a shape stencilled by a pattern."""

from __future__ import annotations

import numpy as np
from dsl_rig import cells, fit_input

from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.kronecker import FAMILIES, fit_kron, kron_op, parse_kron
from continual_arc_baselines.dsl.ops import WIDE, lookup

# A 2 x 2 grid keyed by colour 2: a copy where it shows 2, zeros elsewhere (worked by hand).
_IN = cells([[2, 1], [0, 2]])
_OUT = cells(
    [
        [2, 1, 0, 0],
        [0, 2, 0, 0],
        [0, 0, 2, 1],
        [0, 0, 0, 2],
    ]
)


def test_kron_places_copies_where_the_colour_is() -> None:
    op = kron_op("2", "0")
    made = op(_IN, Context(_IN))
    assert made is not None and np.array_equal(made, _OUT)


def test_kron_is_fitted_from_demonstrations_and_reads_back() -> None:
    second_in = cells([[1, 2], [1, 1]])
    second_out = cells(
        [
            [0, 0, 1, 2],
            [0, 0, 1, 1],
            [0, 0, 0, 0],
            [0, 0, 0, 0],
        ]
    )
    test = cells([[2, 2], [1, 0]])
    ops = fit_kron(fit_input([(_IN, _OUT), (second_in, second_out)], test))
    assert ops, "colour 2 keys both layouts"
    # 2 is the commonest colour of the first and the rarest of the second: only the literal fits.
    assert ops[0].text == "kron{2,0}"
    assert parse_kron(ops[0].text) is not None and lookup(ops[0].text) is not None
    made = ops[0](test, Context(test))
    expected = cells(
        [
            [2, 2, 2, 2],
            [1, 0, 1, 0],
            [0, 0, 0, 0],
            [0, 0, 0, 0],
        ]
    )
    assert made is not None and np.array_equal(made, expected)


def test_kron_fits_nothing_when_the_blocks_are_not_copies() -> None:
    wrong = _OUT.copy()
    wrong[0, 0] = 5  # no block keyed by any colour shows a 5
    assert fit_kron(fit_input([(_IN, wrong)], _IN)) == []
    assert fit_kron(fit_input([(_IN, cells([[1, 2]]))], _IN)) == []  # not the squared size


def test_kron_reads_no_bad_text() -> None:
    assert parse_kron("kron{c0,0}") is not None
    assert parse_kron("kron{c0}") is None
    assert parse_kron("kron{q,0}") is None


def test_stencil_paints_the_shape_in_each_cell_colour() -> None:
    (family,) = FAMILIES
    prim = family.make()
    # Left half: a pattern of 3 and 4; right half: a shape of 8 (a diagonal).
    grid = cells([[3, 0, 8, 0], [0, 4, 0, 8]])
    made = prim(grid, Context(grid))
    expected = cells(
        [
            [3, 0, 0, 0],
            [0, 3, 0, 0],
            [0, 0, 4, 0],
            [0, 0, 0, 4],
        ]
    )
    assert made is not None and np.array_equal(made, expected)


def test_stencil_needs_one_plain_half() -> None:
    (family,) = FAMILIES
    prim = family.make()
    grid = cells([[3, 0, 8, 0], [0, 4, 0, 7]])  # both halves have two colours
    assert prim(grid, Context(grid)) is None


def test_the_wide_catalogue_holds_them() -> None:
    assert "stencil" in WIDE.by_text
    assert any(f.prefix == "kron{" for f in WIDE.fitters)
