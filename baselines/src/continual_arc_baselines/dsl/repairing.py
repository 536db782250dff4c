"""Pattern repair: a masked pattern completed through the smallest lattice of translations.

``tilefill`` (`tiling`) completes a pattern that repeats along rows and columns with the smallest
period of each, and ``latfill`` (`lattice`) through the short translations the known cells show
directly. Both fail where the mask hides so much that no known cell faces another along one of
the pattern's periods (a few diagonal stripes in a corner whose colours cycle), and no step
crops the hole of a tile longer than `lattice`'s shifts (9 wide). Here the pattern is fitted as a whole
lattice: every sublattice of translations of the plane, in Hermite normal form (``p`` columns
along a row, then ``q`` rows down with a shear ``s``), smallest index first. A lattice fits for a
hole colour when the known cells of each of its classes agree, every class holding a hole holds a
known cell, and the known cells are at least twice the classes (so a few known cells cannot fit a
large lattice by chance). The smallest such lattice fills the holes.

``repfill`` answers with the completed grid, ``repcrop`` with the completed hole's bounding box.
Both act on the program's input only (a first step), so they cost one fit per input.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import numpy.typing as npt

from .family import Family
from .grid import Array
from .symmetry import input_completion
from .tiling import period

__all__ = ["FAMILIES", "MAX_SMALL", "lattice_completion", "lattices"]

MAX_SMALL = 12
"""The largest index (classes) of a lattice tried one by one; larger upright ones come from the
row and column periods."""

_VALUES = 16


def lattices(h: int, w: int, limit: int) -> Iterator[tuple[int, int, int]]:
    """Every lattice ``(p, q, s)`` of index ``p * q <= limit`` that fits an ``h`` x ``w`` grid.

    The lattice holds the translations ``(0, p)`` and ``(q, s)``; ``0 <= s < p``. Smallest index
    first; ties by ``q``, then ``s`` (an upright tile before a sheared one).
    """
    found = [
        (p * q, q, s, p)
        for p in range(1, w + 1)
        for q in range(1, h + 1)
        if p * q <= limit and p * q < h * w
        for s in range(p)
    ]
    for _, q, s, p in sorted(found):
        yield p, q, s


def _classes(h: int, w: int, p: int, q: int, s: int) -> npt.NDArray[np.intp]:
    """Each cell's class under the lattice: its row modulo ``q``, its column less the shear modulo ``p``."""
    i = np.arange(h)[:, None]
    j = np.arange(w)[None, :]
    return (i % q) * p + (j - (i // q) * s) % p


def _small(a: Array, counts: npt.NDArray[np.intp]) -> dict[int, tuple[int, int, int]]:
    """For each colour that could be the hole, the smallest lattice (index up to `MAX_SMALL`) that fits."""
    h, w = a.shape
    present = counts > 0
    known = a.size - counts
    flat = a.ravel().astype(np.intp)
    found: dict[int, tuple[int, int, int]] = {}
    limit = min(MAX_SMALL, int(known[present].max()) // 2)
    for p, q, s in lattices(h, w, limit):
        n = p * q
        cls = _classes(h, w, p, q, s).ravel()
        seen = np.bincount(cls * _VALUES + flat, minlength=n * _VALUES).reshape(n, _VALUES) > 0
        # For a hole c, a class's other colours are its colours less c: at most one, and one
        # wherever c is (a hole needs a known cell to copy).
        others = seen.sum(axis=1)[:, None] - seen
        fits = (
            present & (known >= 2 * n) & np.all(others <= 1, axis=0) & np.all(~seen | (others == 1), axis=0)
        )
        for c in np.flatnonzero(fits).tolist():
            found.setdefault(c, (p, q, s))
        if len(found) == int(np.count_nonzero(present)):
            break
    return found


def _fill(a: Array, hole: int, p: int, q: int, s: int) -> Array | None:
    """``a`` with its holes given their lattice class's known colour, if the lattice fits and covers."""
    h, w = a.shape
    n = p * q
    if np.count_nonzero(a != hole) < 2 * n:
        return None
    cls = _classes(h, w, p, q, s).ravel()
    flat = a.ravel().astype(np.intp)
    table = np.bincount(cls * _VALUES + flat, minlength=n * _VALUES).reshape(n, _VALUES)
    table[:, hole] = 0
    seen = table > 0
    kinds = seen.sum(axis=1)
    if np.any(kinds > 1) or np.any(kinds[cls[flat == hole]] == 0):
        return None
    fill = np.argmax(table, axis=1)[cls].reshape(h, w).astype(np.uint8)
    return np.where(a == hole, fill, a)


def lattice_completion(a: Array) -> Array | None:
    """``a`` with the cells of a hole colour filled through the smallest lattice that fits, if any.

    Each hole colour is tried with its smallest lattice of index up to `MAX_SMALL`, or else the
    upright one of its smallest row and column periods (`tiling.period`); the smallest lattice wins.
    """
    counts = np.bincount(a.ravel(), minlength=_VALUES)
    if np.count_nonzero(counts) < 2:
        return None
    small = _small(a, counts)
    tries: list[tuple[int, int, int, int, int, int]] = []
    for hole in np.flatnonzero(counts).tolist():
        if hole in small:
            p, q, s = small[hole]
            tries.append((p * q, int(counts[hole]), hole, p, q, s))
        else:
            known = a != hole
            py, px = period(a, known), period(a.T, known.T)
            if (py, px) != a.shape:
                tries.append((py * px, int(counts[hole]), hole, px, py, 0))
    # The smallest lattice first: the simplest repair. Ties: a rarer hole, then the lower colour.
    for _, _, hole, p, q, s in sorted(tries):
        done = _fill(a, hole, p, q, s)
        if done is not None:
            return done
    return None


FAMILIES = (
    Family(
        "repfill",
        (),
        2.5,
        lambda: input_completion(lattice_completion, False),
        "complete a masked pattern through the smallest lattice of translations",
        "same",
    ),
    Family(
        "repcrop",
        (),
        2.5,
        lambda: input_completion(lattice_completion, True),
        "the cells under a mask, completed through the smallest lattice",
        "shrink",
    ),
)
