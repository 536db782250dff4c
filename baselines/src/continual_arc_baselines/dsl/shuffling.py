"""Shuffling: the cells of a small fixed-size grid rearranged by one fixed permutation.

Some tasks show tiny grids (a column of five cells, a 3 x 3 square) whose cells trade places the
same way in every pair: the first two swap and the last two swap, whatever their colours. No
flip, turn or shift names such a rearrangement, and a colour map fits the demonstrations by
chance and answers the test wrongly. ``shuffle{h,w:s0,s1,...}`` gives output cell ``k`` (reading
order) the input's cell ``s_k``.

The permutation is fitted from the demonstrations: every grid (the test input's too) must have
one shape of at most `MAX_CELLS` cells, the outputs that shape too, and each output cell must
have exactly one input cell that shows its colour in every demonstration. The sources must form
a permutation other than the identity; otherwise nothing is offered.
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter
from .family import Op
from .grid import Array, Context

__all__ = ["FITTER", "MAX_CELLS", "SHUFFLE_COST", "fit_shuffle", "parse_shuffle", "shuffle_op"]

MAX_CELLS = 30
"""The most cells a shuffled grid holds: a larger grid's rearrangement is a shape's, not a list's."""

SHUFFLE_COST = 1.5
"""The base cost of a shuffle: fitted to the demonstrations, so it comes before a chance colour map."""


def shuffle_op(h: int, w: int, sources: tuple[int, ...]) -> Op:
    """The step that gives each cell of an ``h`` x ``w`` grid the input's cell ``sources[k]``."""
    index = np.array(sources, dtype=np.intp)

    def prim(a: Array, ctx: Context) -> Array | None:
        if a.shape != (h, w):
            return None
        return a.ravel()[index].reshape(h, w)

    text = f"shuffle{{{h},{w}:{','.join(map(str, sources))}}}"
    return Op(text, SHUFFLE_COST, prim, "same")


def parse_shuffle(text: str) -> Op | None:
    """The step a ``shuffle{...}`` text names, or ``None`` when it names none."""
    body = text.removeprefix("shuffle{").removesuffix("}")
    size, _, rest = body.partition(":")
    try:
        h, w = (int(v) for v in size.split(","))
        sources = tuple(int(v) for v in rest.split(","))
    except ValueError:
        return None
    if not (h > 0 and w > 0 and h * w <= MAX_CELLS) or sorted(sources) != list(range(h * w)):
        return None
    op = shuffle_op(h, w, sources)
    return op if op.text == text else None


def fit_shuffle(given: FitInput) -> list[Op]:
    """The one shuffle every demonstration shows, if its cells' sources are all certain."""
    if given.n < 2:
        return []
    shape = given.inputs[0].shape
    h, w = shape
    if h * w > MAX_CELLS or any(g.shape != shape for g in (*given.inputs, *given.outputs)):
        return []
    # agree[k, j]: output cell k shows input cell j's colour in every demonstration.
    agree = np.ones((h * w, h * w), dtype=bool)
    for a, b in zip(given.inputs, given.outputs, strict=False):
        agree &= b.ravel()[:, None] == a.ravel()[None, :]
    if not np.all(agree.sum(axis=1) == 1):
        return []
    sources = tuple(int(j) for j in np.argmax(agree, axis=1).tolist())
    if sorted(sources) != list(range(h * w)) or sources == tuple(range(h * w)):
        return []
    return [shuffle_op(h, w, sources)]


FITTER = Fitter("shuffle{", {"shuffle": SHUFFLE_COST}, fit_shuffle, parse_shuffle)
"""The fitter of cell shuffles, searched in ``wide`` (the default)."""
