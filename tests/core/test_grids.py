from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from continual_arc.core.grids import (
    InvalidGridError,
    from_json,
    grid_shape,
    grids_equal,
    to_json,
    validate_grid,
    validate_pair,
)


def test_lists_tuples_and_arrays_validate_to_tuples() -> None:
    expected = ((1, 2), (3, 4))
    assert validate_grid([[1, 2], [3, 4]]) == expected
    assert validate_grid(((1, 2), (3, 4))) == expected
    assert validate_grid(np.array([[1, 2], [3, 4]], dtype=np.int8)) == expected
    assert type(validate_grid(np.array([[1]]))[0][0]) is int


@pytest.mark.parametrize(
    ("value", "reason", "where"),
    [
        ([], "grid has no rows", ""),
        ([[]], "row is empty", "row 0"),
        ([[1, 2], [3]], "row has 1 cells where row 0 has 2", "row 1"),
        ([[1, 10]], "colour 10 is outside 0-9", "row 0, column 1"),
        ([[0], [-1]], "colour -1 is outside 0-9", "row 1, column 0"),
        ([[1, 2.0]], "cell is float 2.0, not an integer colour", "row 0, column 1"),
        ([[True]], "cell is bool True, not an integer colour", "row 0, column 0"),
        ([[1], "2"], "row is str, not a sequence of colours", "row 1"),
        ([[0] * 31], "row has 31 cells, more than 30", "row 0"),
        ([[0]] * 31, "grid has 31 rows, more than 30", ""),
        ("abc", "expected a sequence of rows, got str", ""),
        (None, "expected a sequence of rows, got NoneType", ""),
    ],
)
def test_invalid_grids_say_what_and_where(value: object, reason: str, where: str) -> None:
    with pytest.raises(InvalidGridError) as caught:
        validate_grid(value)
    assert caught.value.reason == reason
    assert caught.value.where == where
    assert reason in str(caught.value)


def test_largest_grid_is_accepted() -> None:
    assert grid_shape(validate_grid([[9] * 30] * 30)) == (30, 30)


def test_pairs() -> None:
    assert validate_pair({"input": [[1]], "output": [[2]]}) == (((1,),), ((2,),))
    assert validate_pair(([[1]], [[2]])) == (((1,),), ((2,),))
    with pytest.raises(InvalidGridError, match="needs both"):
        validate_pair({"input": [[1]]})


def test_equality_needs_shape_and_cells() -> None:
    assert grids_equal(((1, 2),), ((1, 2),))
    assert not grids_equal(((1, 2),), ((1,), (2,)))
    assert not grids_equal(((1, 2),), ((1, 3),))


grids = st.integers(1, 30).flatmap(
    lambda w: st.lists(st.lists(st.integers(0, 9), min_size=w, max_size=w), min_size=1, max_size=30)
)


@given(grids)
def test_json_round_trip(value: list[list[int]]) -> None:
    grid = validate_grid(value)
    assert to_json(grid) == value
    assert from_json(to_json(grid)) == grid
