"""Side tinting: cells of one colour take the colour of the markers, whichever side they stand.

`tinting` tints every cell of a plain colour by the marker it meets looking one fixed way
(``tint(l){5}``: a column of markers at the left edge). A variation of the same task puts the
markers in a row along the top in one demonstration and in a column at the right in the next;
one fixed look then fits none of them. Here each plain cell looks all four ways along its row
and column, through the background and through plain cells alike, and takes the one colour of
the markers it meets; it keeps its colour when it meets none, or markers of two colours. So the
side the markers stand on is read from each grid, not fixed by the demonstrations.

The step is written ``sidetint{colour}``, ``colour`` the plain colour named as `tinting` names
it (a literal when the demonstrations share it, else a role, `colours.ROLES`), or else ``f``:
the commonest colour other than black, for a black background the plain shapes may outnumber
(then the roles, ranked by frequency, name the plain colour ``c0`` in one grid and ``c1`` in
the next).
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter, changing_answers
from .colours import ROLES, resolve, roles
from .family import Op, Prim
from .grid import SENTINEL, Array, Context, counts_without
from .tinting import TINT_COST, facing, plains, sites

__all__ = [
    "FITTER",
    "FOREGROUND",
    "SIDETINT_COST",
    "fit_sidetint",
    "parse_sidetint",
    "sidetint",
    "sidetint_op",
]

SIDETINT_COST = TINT_COST + 1.0
"""A side tint costs a little more than a tint: it looks every way, so it fits more."""


def sidetint(a: Array, plain: int) -> Array | None:
    """``a`` with every ``plain`` cell tinted by the one colour of the markers in its row and column."""
    found = sites(a, plain)
    if found is None:
        return None
    targets, markers = found
    if not markers.any():
        return None
    views = np.stack([facing(a, markers, look) for look in ("l", "r", "u", "d")])
    low = np.where(views >= 0, views, np.int16(99)).min(axis=0)
    high = views.max(axis=0)
    found = (high >= 0) & (low == high)
    return np.where(targets & found, high, a).astype(np.uint8)


FOREGROUND = "f"
"""The name of the commonest colour other than black."""


def _foreground(a: Array) -> int | None:
    """The commonest colour of ``a`` other than black (the lowest on a tie), if any."""
    counts = counts_without(a, 0)[:SENTINEL]
    return int(np.argmax(counts)) if counts.any() else None


def _name(plain: str, original: Array) -> int | None:
    """The colour ``plain`` names in the input ``original``."""
    if plain == FOREGROUND:
        return _foreground(original)
    return resolve(plain, roles(original))


def sidetint_op(plain: str) -> Op:
    """The step ``sidetint{plain}``: a literal colour, a role (`colours.ROLES`) or `FOREGROUND`."""

    def prim(a: Array, ctx: Context) -> Array | None:
        colour = _name(plain, ctx.original)
        return None if colour is None else sidetint(a, colour)

    step: Prim = prim
    return Op(f"sidetint{{{plain}}}", SIDETINT_COST, step, "same")


def _foregrounds(given: FitInput) -> list[str]:
    """`FOREGROUND` when it names the one colour each changing demonstration changes, else none."""
    for a, b in zip(given.inputs[: given.n], given.outputs, strict=True):
        if a.shape != b.shape:
            return []
        changed = np.unique(a[a != b]).tolist()
        if len(changed) > 1 or (changed and changed[0] != _foreground(a)):
            return []
    return [FOREGROUND]


def fit_sidetint(given: FitInput) -> list[Op]:
    """The side tints that reproduce every demonstration and change the test input."""
    return changing_answers(given, (sidetint_op(plain) for plain in plains(given) or _foregrounds(given)))


def parse_sidetint(text: str) -> Op | None:
    """The side tint written as ``text``, or ``None`` when it is malformed."""
    if not text.startswith("sidetint{") or not text.endswith("}"):
        return None
    colour = text.removeprefix("sidetint{").removesuffix("}")
    if colour not in {str(c) for c in range(SENTINEL)} and colour not in (*ROLES, FOREGROUND):
        return None
    return sidetint_op(colour)


FITTER = Fitter("sidetint{", {"sidetint": SIDETINT_COST}, fit_sidetint, parse_sidetint)
"""The fitter of side tints."""
