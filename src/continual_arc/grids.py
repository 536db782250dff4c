"""Grids and pairs, as a learner author meets them (a stable import path).

Defined in [`continual_arc.core.grids`][continual_arc.core.grids]: a [`Grid`][continual_arc.core.grids.Grid]
is a tuple of rows of colours 0-9, at most [`MAX_SIDE`][continual_arc.core.grids.MAX_SIDE] on a side;
[`validate_grid`][continual_arc.core.grids.validate_grid] checks one
([`InvalidGridError`][continual_arc.core.grids.InvalidGridError]), and
[`to_json`][continual_arc.core.grids.to_json] / [`from_json`][continual_arc.core.grids.from_json] turn one
into lists and back. Light to import: a program sandbox or a search worker needs nothing else of the
benchmark.
"""

from .core.grids import (
    MAX_SIDE,
    Grid,
    InvalidGridError,
    Pair,
    from_json,
    grid_shape,
    grids_equal,
    to_json,
    validate_grid,
    validate_pair,
)

__all__ = [
    "MAX_SIDE",
    "Grid",
    "InvalidGridError",
    "Pair",
    "from_json",
    "grid_shape",
    "grids_equal",
    "to_json",
    "validate_grid",
    "validate_pair",
]
