"""Cluster boxes: loose clusters of the rarest colour, each boxed in, its box's other cells labelled.

Some grids hide a few sparse shapes in a field of noise: each shape is a scatter of cells of one
colour, the rarest in the grid, over a rectangle whose other cells the noise fills. The answer
paints the rest of each rectangle in one colour, so the shapes stand out as solid boxes. A
scatter's cells need not touch, but they lie close: two cells belong to one *cluster* when a
chain of its cells joins them, each within ``gap`` cells of the next on both axes (a gap of 1 is
8-connectivity; 2 lets one cell of noise lie between).

``clusterbox(gap)`` finds the rarest colour (a tie for rarest makes it not apply, as does a grid
of fewer than three colours, since then the rarest colour is no scatter among noise) and labels
every other cell inside each cluster's bounding box `TRUE`, for the fitted map to colour.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim, on_colours
from .grid import TRUE, Array

__all__ = ["FAMILIES", "GAPS", "cluster_boxes"]

GAPS = ("1", "2")
"""How far apart two cells of one cluster may lie, on both axes."""

_MAX_CELLS = 300
"""More cells of the rarest colour than this are a texture, not a few scatters."""


def _clusters(ys: np.ndarray, xs: np.ndarray, gap: int) -> np.ndarray:
    """Per cell, the index of its cluster: cells chained within ``gap`` on both axes share one."""
    near = (np.abs(ys[:, None] - ys[None, :]) <= gap) & (np.abs(xs[:, None] - xs[None, :]) <= gap)
    cluster = np.arange(len(ys))
    # Each cell takes the least label among its near cells, then its label's own label (pointer
    # jumping, so a long chain settles in few rounds), until nothing changes: every cell of a
    # chain ends with the least index in it.
    while True:
        spread = np.where(near, cluster[None, :], len(ys)).min(axis=1)
        spread = spread[spread]
        if np.array_equal(spread, cluster):
            return cluster
        cluster = spread


def cluster_boxes(a: Array, gap: int) -> Array | None:
    """The grid with the other cells of each rarest-colour cluster's box labelled (see the module)."""
    values, counts = np.unique(a, return_counts=True)
    if len(values) < 3:
        return None
    order = np.argsort(counts, kind="stable")
    if counts[order[0]] == counts[order[1]] or counts[order[0]] > _MAX_CELLS:
        return None
    rare = int(values[order[0]])
    ys, xs = np.nonzero(a == rare)
    cluster = _clusters(ys, xs, gap)
    out = a.copy()
    for c in np.unique(cluster).tolist():
        mine = cluster == c
        top, bottom = int(ys[mine].min()), int(ys[mine].max()) + 1
        left, right = int(xs[mine].min()), int(xs[mine].max()) + 1
        box = out[top:bottom, left:right]
        box[box != rare] = TRUE
    return None if np.array_equal(out, a) else out


def _make(gap: str) -> Prim:
    return on_colours(lambda a, bg: cluster_boxes(a, int(gap)))


FAMILIES: tuple[Family, ...] = (
    Family(
        "clusterbox",
        (GAPS,),
        3,
        _make,
        "label the other cells of the box around each loose cluster of the rarest colour",
        "same",
    ),
)
"""The cluster-box family."""
