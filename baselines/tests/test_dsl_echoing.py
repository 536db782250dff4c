"""Echoing: a shape repeated along the step its marker cells show, in the marker's colour."""

from __future__ import annotations

import numpy as np
from dsl_rig import check_fitted, fit_input

from continual_arc_baselines.dsl.echoing import echo, fit_echo
from continual_arc_baselines.dsl.ops import lookup


def test_a_domino_echoes_diagonally_from_its_marker_to_the_edge() -> None:
    given = fit_input(
        [
            (
                [[1, 1, 0, 0, 0, 0], [0, 0, 2, 0, 0, 0]] + [[0] * 6 for _ in range(4)],
                [
                    [1, 1, 0, 0, 0, 0],
                    [0, 2, 2, 0, 0, 0],
                    [0, 0, 2, 2, 0, 0],
                    [0, 0, 0, 2, 2, 0],
                    [0, 0, 0, 0, 2, 2],
                    [0, 0, 0, 0, 0, 2],
                ],
            ),
            (
                [[0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 5, 0], [0, 0, 0, 0, 3], [0, 0, 0, 0, 3]],
                [[5, 5, 0, 0, 0], [0, 5, 5, 0, 0], [0, 0, 5, 5, 0], [0, 0, 0, 5, 3], [0, 0, 0, 0, 3]],
            ),
        ],
        [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 6, 0], [4, 4, 0, 0]],
    )
    ops = fit_echo(given)
    assert [op.text for op in ops] == ["echo{d}"]
    check_fitted(ops[0], given, [[0, 0, 0, 6], [0, 0, 6, 6], [0, 6, 6, 0], [4, 4, 0, 0]])


def test_no_echo_when_the_step_is_unsure_or_the_colours_are_not_two() -> None:
    # Two diagonal moves of one length carry the shape onto the marker: no single step.
    tie = np.array([[1, 0, 1], [0, 2, 0], [0, 0, 0]])
    assert echo(tie, 0, True) is None
    # A third colour: not one shape and its marker.
    three = np.array([[1, 1, 0], [0, 0, 2], [3, 0, 0]])
    assert echo(three, 0, True) is None
    # The output grows: no echo is fitted.
    grown = fit_input([([[1, 1], [0, 2]], [[1, 1, 0], [0, 2, 2]])], [[3, 3], [0, 4]])
    assert fit_echo(grown) == []


def test_texts_it_never_writes_name_no_step() -> None:
    assert lookup("echo{d}") is not None
    assert lookup("echo{a}") is not None
    assert lookup("echo{x}") is None
