"""Edge extension: the grid with one more line on every side, each a copy of the edge it borders.

Some outputs grow their input by a line on each side that repeats the edge next to it, as if
every edge cell were stretched outwards; the four new corner cells touch no edge line and take
one colour the demonstrations show. ``edges{c}`` is that step, ``c`` fitted (every
demonstration's four corners must show it), offered only when it reproduces every demonstration.
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter
from .family import Op, Prim
from .grid import Array, Context

__all__ = ["EDGES_COST", "FITTER", "edges", "edges_op", "parse_edges"]

EDGES_COST = 2.5
"""The base cost of ``edges{c}``: its corner colour is fitted."""


def edges(a: Array, corner: int) -> Array:
    """``a`` with its edge lines copied outwards, the new corners ``corner``."""
    out = np.pad(a, 1, mode="edge")
    out[0, 0] = out[0, -1] = out[-1, 0] = out[-1, -1] = corner
    return out


def _prim(corner: int) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return edges(a, corner)

    return prim


def edges_op(corner: int) -> Op:
    """The step ``edges{corner}``."""
    return Op(f"edges{{{corner}}}", EDGES_COST, _prim(corner), "grow")


def parse_edges(text: str) -> Op | None:
    """The step an ``edges{c}`` text names, or ``None`` when it names none."""
    body = text.removeprefix("edges{").removesuffix("}")
    if len(body) != 1 or not body.isdigit():
        return None
    op = edges_op(int(body))
    return op if op.text == text else None


def fit_edges(given: FitInput) -> list[Op]:
    """The edge extension the demonstrations show, if they all show one with one corner colour."""
    first = given.outputs[0]
    if first.shape[0] < 3 or first.shape[1] < 3:
        return []
    op = edges_op(int(first[0, 0]))
    return [op] if given.reproduced_by(op) else []


FITTER = Fitter("edges{", {"edges": EDGES_COST}, fit_edges, parse_edges)
"""The fitter of edge extensions."""
