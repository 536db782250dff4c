"""ARC grids: validation, equality and JSON conversion.

A grid is a non-empty rectangle of at most 30 x 30 cells, each an integer colour from 0 to 9.
Inside the benchmark a grid is always a tuple of tuples of ``int`` (hashable and immutable);
[`validate_grid`][continual_arc.core.grids.validate_grid] turns anything grid-like (nested lists or tuples, or
an object with a ``tolist()`` method such as a NumPy array) into that form or raises
[`InvalidGridError`][continual_arc.core.grids.InvalidGridError] saying what is wrong and where.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import TypedDict

from .records import JSONValue

__all__ = [
    "MAX_SIDE",
    "Grid",
    "InvalidGridError",
    "Pair",
    "TaskJSON",
    "from_json",
    "grid_json",
    "grid_shape",
    "grids_equal",
    "to_json",
    "validate_grid",
    "validate_pair",
]

MAX_SIDE = 30
"""The largest height and width of an ARC grid."""

Grid = tuple[tuple[int, ...], ...]
"""A validated grid: rows of colours, every row the same length."""

Pair = tuple[Grid, Grid]
"""An input grid and its output grid."""


class TaskJSON(TypedDict):
    """An ARC task as its JSON file holds it: its train pairs and its test pairs.

    Each pair is ``{"input": grid, "output": grid}`` as stored; it is read as a
    [`Pair`][continual_arc.core.grids.Pair] only through
    [`validate_pair`][continual_arc.core.grids.validate_pair], so it stays a JSON value here.
    """

    train: list[JSONValue]
    test: list[JSONValue]


class InvalidGridError(ValueError):
    """A value that is not a valid ARC grid.

    Attributes:
        reason: what is wrong, in words.
        where: the position of the fault (``"row 3, column 7"``, ``"row 2"``, or ``""``).
    """

    def __init__(self, reason: str, where: str = "") -> None:
        self.reason = reason
        self.where = where
        super().__init__(f"invalid grid: {reason}" + (f" at {where}" if where else ""))


def _as_rows(value: object) -> Sequence[object]:
    if hasattr(value, "tolist") and not isinstance(value, list | tuple):
        value = value.tolist()
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise InvalidGridError(f"expected a sequence of rows, got {type(value).__name__}")
    return value


_INT = {int}
_COLOURS = frozenset(range(10))


def _as_colour(cell: object, where: str) -> int:
    # bool is an Integral in Python, but True is not a colour.
    if isinstance(cell, bool) or not isinstance(cell, numbers.Integral):
        raise InvalidGridError(f"cell is {type(cell).__name__} {cell!r}, not an integer colour", where)
    colour = int(cell)
    if not 0 <= colour <= 9:
        raise InvalidGridError(f"colour {colour} is outside 0-9", where)
    return colour


def validate_grid(value: object) -> Grid:
    """Return ``value`` as a validated [`Grid`][continual_arc.core.grids.Grid].

    Args:
        value: nested rows of integer colours (lists, tuples, or an array with ``tolist()``).

    Returns:
        The grid as a tuple of tuples of ``int``.

    Raises:
        InvalidGridError: the value is empty, ragged, larger than 30 x 30, or holds a cell that
            is not an integer from 0 to 9; the error names the offending row or cell.
    """
    rows = _as_rows(value)
    if len(rows) == 0:
        raise InvalidGridError("grid has no rows")
    if len(rows) > MAX_SIDE:
        raise InvalidGridError(f"grid has {len(rows)} rows, more than {MAX_SIDE}")
    width: int | None = None
    out: list[tuple[int, ...]] = []
    for r, row in enumerate(rows):
        if isinstance(row, str | bytes) or not isinstance(row, Sequence):
            raise InvalidGridError(f"row is {type(row).__name__}, not a sequence of colours", f"row {r}")
        if len(row) == 0:
            raise InvalidGridError("row is empty", f"row {r}")
        if len(row) > MAX_SIDE:
            raise InvalidGridError(f"row has {len(row)} cells, more than {MAX_SIDE}", f"row {r}")
        if width is None:
            width = len(row)
        elif len(row) != width:
            raise InvalidGridError(f"row has {len(row)} cells where row 0 has {width}", f"row {r}")
        if {*map(type, row)} == _INT and _COLOURS.issuperset(row):
            # The common case, checked in C loops (every cell an int, every value a colour),
            # without the slow numbers.Integral check.
            out.append(tuple(row))
        else:
            out.append(tuple(_as_colour(cell, f"row {r}, column {c}") for c, cell in enumerate(row)))
    return tuple(out)


def validate_pair(value: object) -> Pair:
    """Validate an ``{"input": ..., "output": ...}`` mapping or a 2-sequence as a `Pair`.

    Raises:
        InvalidGridError: either grid is invalid, or the value is not a pair.
    """
    if isinstance(value, dict):
        if "input" not in value or "output" not in value:
            raise InvalidGridError("pair needs both 'input' and 'output'")
        return validate_grid(value["input"]), validate_grid(value["output"])
    if isinstance(value, Sequence) and not isinstance(value, str | bytes) and len(value) == 2:
        return validate_grid(value[0]), validate_grid(value[1])
    raise InvalidGridError(f"expected a pair of grids, got {type(value).__name__}")


def grids_equal(a: Grid, b: Grid) -> bool:
    """Whether two validated grids have the same shape and the same colour in every cell."""
    return a == b


def grid_shape(grid: Grid) -> tuple[int, int]:
    """The (height, width) of a validated grid."""
    return len(grid), len(grid[0])


def to_json(grid: Grid) -> list[list[int]]:
    """A grid as JSON-ready nested lists."""
    return [list(row) for row in grid]


def grid_json(grid: Grid) -> JSONValue:
    """A grid as a JSON value (`to_json`'s nested lists), for a document of JSON values."""
    rows: list[JSONValue] = [[*row] for row in grid]
    return rows


def from_json(value: object) -> Grid:
    """A grid from JSON nested lists, validated (same rules as `validate_grid`)."""
    return validate_grid(value)
