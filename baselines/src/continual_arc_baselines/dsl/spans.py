"""Clear lanes: the rows and columns open from one side of a frame straight to the other.

Inside a ragged frame (walls along the grid's border, jutting in here and there) some rows and
columns are open straight through: foreground at their two border cells only. Tasks paint those
lanes (the paths a beam could cross the scene by). ``emptylines`` asks for rows with no
foreground at all, so a framed scene, whose every row meets the frame, has none.

``spans{lines;colour}`` paints the background cells of every row (``h``), column (``v``) or both
(``hv``) whose two end cells are foreground and all of whose other cells are background, in a
fixed colour. Both constants are fitted from the demonstrations (`fit`).
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter
from .drawn import WayColour
from .family import Op
from .grid import SENTINEL, Array, Mask

__all__ = ["SPANS", "SPANS_COST", "parse_spans", "spans_op"]

SPANS_COST = 2.5
"""The base cost of a ``spans`` step."""

_LINES = ("hv", "h", "v")


def _open_rows(free: Mask) -> Mask:
    """Per row of a background mask: walled at both ends, background everywhere between."""
    return ~free[:, 0] & ~free[:, -1] & free[:, 1:-1].all(axis=1)


def _spans(a: Array, bg: int, lines: str, colour: int) -> Array | None:
    """``a`` with its clear lanes painted; ``None`` when it has none."""
    if int(a.max()) >= SENTINEL or min(a.shape) < 3:
        return None
    free = a == bg
    lane = np.zeros(a.shape, dtype=bool)
    if "h" in lines:
        lane |= _open_rows(free)[:, None]
    if "v" in lines:
        lane |= _open_rows(free.T)[None, :]
    on = lane & free
    if not on.any():
        return None
    out = a.copy()
    out[on] = colour
    return out


# No role: lanes take the one colour every demonstration paints.
_STEPS = WayColour("spans", SPANS_COST, _spans, _LINES, {})


def spans_op(lines: str, colour: int) -> Op:
    """The step ``spans{lines;colour}``."""
    return _STEPS.op(lines, colour)


def parse_spans(text: str) -> Op | None:
    """The ``spans`` step written as ``text``, or ``None`` when it is malformed."""
    return _STEPS.parse(text)


def fit(given: FitInput) -> list[Op]:
    """The ``spans`` steps that turn every demonstration input into its output."""
    return _STEPS.fit(given)


SPANS = Fitter("spans{", {"spans": SPANS_COST}, fit, parse_spans)
"""The fitter of ``spans{...}``: rows and columns open from wall to wall, painted."""
