"""Chequered floods: the paths joined to a two-coloured seed fill in its chequerboard colours.

A *seed* is a 4-connected patch of two colours laid out like a chequerboard: every cell of one
colour on the squares where row + column is even, every cell of the other where it is odd (a
cell with its four neighbours in another colour, say). The *medium* is the colour of the open
paths of a maze around it. ``chequer(medium)`` floods the medium from the seed, through 4-connected
medium cells, and paints each reached cell in the seed colour of its square's parity, so the
seed's alternation runs on along every path it touches; paths it does not touch stay. `filling`'s
``touch`` floods from a seed in one colour; this is its two-colour, alternating kind.

``medium`` is ``bg`` (the background) or ``other`` (the one colour next to the seed that is
neither the background nor a seed colour: a maze whose walls are the commonest colour). The
step does not apply unless exactly one pair of non-background colours forms a seed, or when the
flood reaches no cell.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .family import Family, Prim, on_colours
from .grid import Array, Mask
from .objects import label

__all__ = ["FAMILIES", "MEDIUMS", "chequer"]

MEDIUMS = ("bg", "other")
"""Where the medium's colour comes from: the background, or the seed's one other neighbour colour."""


def _seed(a: Array, bg: int, parity: npt.NDArray[np.intp]) -> tuple[int, int, Mask] | None:
    """The one seed's colours (the even square's first) and cells, or ``None`` unless exactly one."""
    colours = [c for c in np.unique(a).tolist() if c != bg]
    sides: dict[int, int] = {}
    for c in colours:
        found = np.unique(parity[a == c])
        if len(found) == 1:
            sides[c] = int(found[0])
    seeds = []
    for i, c in enumerate(colours):
        for d in colours[i + 1 :]:
            if c not in sides or d not in sides or sides[c] == sides[d]:
                continue
            cells = (a == c) | (a == d)
            if int(label(a, cells, False, False).max()) == 0:
                seeds.append((c, d, cells) if sides[c] == 0 else (d, c, cells))
    return seeds[0] if len(seeds) == 1 else None


def _around(mask: Mask) -> Mask:
    """The cells 4-adjacent to ``mask`` and not in it."""
    p = np.pad(mask, 1)
    near: Mask = p[:-2, 1:-1] | p[2:, 1:-1] | p[1:-1, :-2] | p[1:-1, 2:]
    return near & ~mask


def chequer(a: Array, bg: int, medium: str) -> Array | None:
    """``a`` with the medium flooded from its seed in the seed's alternating colours, or ``None``."""
    h, w = a.shape
    parity = np.add.outer(np.arange(h), np.arange(w)) % 2
    seed = _seed(a, bg, parity)
    if seed is None:
        return None
    even, odd, cells = seed
    near = set(a[_around(cells)].tolist())
    if medium == "bg":
        fill = bg
    else:
        others = sorted(near - {bg, even, odd})
        if len(others) != 1:
            return None
        fill = others[0]
    if fill not in near:
        return None
    labels = label(a, (a == fill) | cells, False, False)
    reached = (labels == labels[cells][0]) & (a == fill)
    out = a.copy()
    out[reached & (parity == 0)] = even
    out[reached & (parity == 1)] = odd
    return out


def _chequer(medium: str) -> Prim:
    return on_colours(lambda a, bg: chequer(a, bg, medium))


FAMILIES: tuple[Family, ...] = (
    Family(
        "chequer",
        (MEDIUMS,),
        3,
        _chequer,
        "flood the paths joined to a two-coloured seed in its alternating colours",
        "same",
    ),
)
"""The family of this module: ``chequer(medium)``."""
