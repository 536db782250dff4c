"""Despeckling: specks of noise colours lifted off a picture of shapes, each healed from its neighbours.

Some grids strew single cells of one or more *noise* colours over a picture of solid shapes, on
the shapes and beside them alike; the answer is the clean picture. A person sees the specks at
once: a colour whose cells stand alone (4-connected pieces of one cell; now and then two land side
by side, at most one such pair for three lone cells) while other colours form real shapes.
``despeck`` finds those colours (neither the background nor the shapes' colours) and gives each
speck the colour most of its 4-neighbours that are not specks hold. A speck on a shape's corner
has two neighbours of the shape and two outside it; the tie goes to the shape (not the
background), since a shape is drawn solid to its corner. A tie between two shape colours is
settled by the 8-neighbours, and one still tied makes the step not apply. Specks whose neighbours
are all specks are healed once their neighbours are.

The step needs at least two specks of noise colours and at least one colour that forms a shape
(a 4-connected piece of three or more cells), else a picture of dots would count as noise.
"""

from __future__ import annotations

import numpy as np

from .family import Family, on_colours
from .grid import Array
from .objects import objects

__all__ = ["FAMILIES", "despeck"]

_STEPS4 = ((-1, 0), (1, 0), (0, -1), (0, 1))
_STEPS8 = (*_STEPS4, (-1, -1), (-1, 1), (1, -1), (1, 1))


def _noise_colours(a: Array, bg: int) -> list[int] | None:
    """The colours all of whose 4-connected pieces are single cells, when shapes stand beside them."""
    objs = objects(a, bg, "4")
    if len(objs) == 0:
        return None
    noise, shapes = [], False
    for c in np.unique(objs.colours).tolist():
        sizes = objs.sizes[objs.colours == c]
        ones, twos = int((sizes == 1).sum()), int((sizes == 2).sum())
        # Specks strewn at random now and then land side by side: a few pairs are still noise.
        if int(sizes.max()) <= 2 and ones >= 3 * twos:
            noise.append(int(c))
        elif int(sizes.max()) >= 3:
            shapes = True
    if not noise or not shapes:
        return None
    return noise


def _votes(a: Array, known: np.ndarray, y: int, x: int, steps: tuple[tuple[int, int], ...]) -> dict[int, int]:
    """How many known neighbours (by ``steps``) of cell ``(y, x)`` hold each colour."""
    h, w = a.shape
    votes: dict[int, int] = {}
    for dy, dx in steps:
        ny, nx = y + dy, x + dx
        if 0 <= ny < h and 0 <= nx < w and known[ny, nx]:
            c = int(a[ny, nx])
            votes[c] = votes.get(c, 0) + 1
    return votes


def _heal(a: Array, known: np.ndarray, y: int, x: int, bg: int) -> int | None:
    """The colour a speck takes from its known neighbours, ``None`` when they are tied or absent."""
    votes = _votes(a, known, y, x, _STEPS4)
    if not votes:
        return None
    top = max(votes.values())
    best = sorted(c for c, n in votes.items() if n == top)
    if len(best) > 1 and bg in best:
        best.remove(bg)  # a shape is solid to its corner: the tie goes to the shape
    if len(best) > 1:
        wide = _votes(a, known, y, x, _STEPS8)
        most = max(wide[c] for c in best)
        best = [c for c in best if wide[c] == most]
    return best[0] if len(best) == 1 else None


def despeck(a: Array, bg: int) -> Array | None:
    """The grid with every speck of a noise colour healed from its neighbours (see the module)."""
    noise = _noise_colours(a, bg)
    if noise is None:
        return None
    specks = np.isin(a, noise)
    if int(specks.sum()) < 2:
        return None
    out = a.copy()
    known = ~specks
    left = [(int(y), int(x)) for y, x in zip(*np.nonzero(specks), strict=True)]
    while left:
        # Heal in rounds, each from the cells known before it, so the order of cells cannot matter.
        healed: list[tuple[int, int, int]] = []
        waiting: list[tuple[int, int]] = []
        for y, x in left:
            if not _votes(out, known, y, x, _STEPS4):
                waiting.append((y, x))
                continue
            colour = _heal(out, known, y, x, bg)
            if colour is None:
                return None
            healed.append((y, x, colour))
        if not healed:
            return None
        for y, x, colour in healed:
            out[y, x] = colour
            known[y, x] = True
        left = waiting
    return out


FAMILIES: tuple[Family, ...] = (
    Family(
        "despeck",
        (),
        2.5,
        lambda: on_colours(despeck),
        "lift specks of noise colours off solid shapes, healing each from its neighbours",
        "same",
    ),
)
"""The despeckling family."""
