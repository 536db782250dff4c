"""Cell ends: the first, middle and last cells of a grid of cells labelled."""

from __future__ import annotations

from dsl_rig import step_on

from continual_arc_baselines.dsl.ops import CORE, WIDE

Cells = list[list[int]]


def _ruled(rows: list[int], cols: list[int], side: int) -> Cells:
    """A ``side`` x ``side`` grid of 0 ruled by lines of 5 at ``rows`` and ``cols``."""
    return [[5 if y in rows or x in cols else 0 for x in range(side)] for y in range(side)]


def test_cellends_is_added_to_wide() -> None:
    assert "cellends" in WIDE.by_text
    assert "cellends" not in CORE.by_text


def test_the_diagonal_ends_and_centre_are_labelled() -> None:
    a, b, c = 11, 12, 13
    assert step_on("cellends", _ruled([2, 4], [2, 4], 7)) == [
        [a, a, 5, 0, 5, 0, 0],
        [a, a, 5, 0, 5, 0, 0],
        [5, 5, 5, 5, 5, 5, 5],
        [0, 0, 5, b, 5, 0, 0],
        [5, 5, 5, 5, 5, 5, 5],
        [0, 0, 5, 0, 5, c, c],
        [0, 0, 5, 0, 5, c, c],
    ]


def test_an_even_layout_has_no_middle_cell() -> None:
    assert step_on("cellends", _ruled([2], [2], 5)) is None
    assert step_on("cellends", _ruled([1, 3, 5], [2, 4], 7)) is None
