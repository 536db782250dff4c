"""Shuffling: a small grid's cells rearranged by one permutation the demonstrations fix."""

from __future__ import annotations

from dsl_rig import check_fitted, fit_input

from continual_arc_baselines.dsl.ops import lookup
from continual_arc_baselines.dsl.shuffling import fit_shuffle


def test_swapping_the_first_two_and_the_last_two_cells() -> None:
    given = fit_input(
        [
            ([[9], [0], [1], [6], [8]], [[0], [9], [1], [8], [6]]),
            ([[4], [3], [6], [2], [8]], [[3], [4], [6], [8], [2]]),
        ],
        [[2], [5], [9], [1], [0]],
    )
    ops = fit_shuffle(given)
    assert [op.text for op in ops] == ["shuffle{5,1:1,0,2,4,3}"]
    check_fitted(ops[0], given, [[5], [2], [9], [0], [1]])


def test_no_shuffle_when_a_source_is_uncertain_or_the_grid_stays() -> None:
    # Both demonstrations repeat a colour, so the first cell's source is not certain.
    unsure = fit_input([([[1, 1, 2]], [[2, 1, 1]]), ([[3, 3, 4]], [[4, 3, 3]])], [[5, 6, 7]])
    assert fit_shuffle(unsure) == []
    # Nothing moves: the identity is no rearrangement.
    still = fit_input([([[1, 2]], [[1, 2]]), ([[3, 4]], [[3, 4]])], [[5, 6]])
    assert fit_shuffle(still) == []
    # A test input of another shape cannot be shuffled the same way.
    other = fit_input([([[1, 2]], [[2, 1]]), ([[3, 4]], [[4, 3]])], [[5, 6, 7]])
    assert fit_shuffle(other) == []


def test_a_text_that_is_no_permutation_names_no_step() -> None:
    assert lookup("shuffle{1,3:0,0,1}") is None
    # Shapes the fitter never writes: negative sides, or more cells than a shuffle may hold.
    assert lookup("shuffle{-1,-2:1,0}") is None
    assert lookup("shuffle{1,31:" + ",".join(str(k) for k in range(31)) + "}") is None
    assert lookup("shuffle{1,2:1,0}") is not None
