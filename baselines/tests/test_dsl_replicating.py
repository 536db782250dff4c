"""Replicating: one copy of the grid per coloured cell, laid in rows as long as it has blanks."""

from __future__ import annotations

from dsl_rig import check_fitted, fit_input

from continual_arc_baselines.dsl.ops import lookup
from continual_arc_baselines.dsl.replicating import fit_replicate


def test_one_copy_per_coloured_cell_on_a_square_of_blank_count_copies() -> None:
    given = fit_input(
        [
            (
                [[1, 0], [0, 0]],
                [[1, 0, 0, 0, 0, 0]] + [[0] * 6 for _ in range(5)],
            ),
            ([[2, 2], [0, 0]], [[2, 2, 2, 2], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]),
        ],
        [[3, 0], [0, 3]],
    )
    ops = fit_replicate(given)
    assert [op.text for op in ops] == ["replicate{fg;bg;sq}"]
    check_fitted(ops[0], given, [[3, 0, 3, 0], [0, 3, 0, 3], [0, 0, 0, 0], [0, 0, 0, 0]])


def test_no_replication_when_the_output_is_no_canvas_of_whole_copies() -> None:
    same = fit_input([([[1, 0], [0, 0]], [[0, 1], [0, 0]])], [[2, 0], [0, 0]])
    assert fit_replicate(same) == []
    ragged = fit_input([([[1, 0], [0, 0]], [[1, 0, 0], [0, 0, 0], [0, 0, 0]])], [[2, 0], [0, 0]])
    assert fit_replicate(ragged) == []


def test_a_canvas_too_small_for_its_copies_is_no_answer() -> None:
    # Three coloured cells, one blank: a square of one copy cannot hold three.
    assert lookup("replicate{fg;bg;sq}") is not None
    given = fit_input(
        [([[1, 0], [0, 0]], [[1, 0, 0, 0, 0, 0]] + [[0] * 6 for _ in range(5)])],
        [[4, 4], [4, 0]],
    )
    assert all(op.text != "replicate{fg;bg;sq}" for op in fit_replicate(given))


def test_texts_it_never_writes_name_no_step() -> None:
    assert lookup("replicate{fg;fg;sq}") is None
    assert lookup("replicate{fg;bg;round}") is None
    assert lookup("replicate{all;bg;sq}") is None
    assert lookup("replicate{fg;bg}") is None
