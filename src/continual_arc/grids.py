"""Grids and pairs, as a learner author meets them (a stable import path).

Defined in :mod:`continual_arc.core.grids`: a :data:`Grid` is a tuple of rows of colours 0-9, at
most :data:`MAX_SIDE` on a side; :func:`validate_grid` checks one (:class:`InvalidGridError`), and
:func:`to_json` / :func:`from_json` turn one into lists and back. Light to import: a program
sandbox or a search worker needs nothing else of the benchmark.
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
