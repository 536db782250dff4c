"""The registry of primitives: every family of every module, expanded in search order."""

from __future__ import annotations

from continual_arc.core.grids import MAX_SIDE

from . import combining, extract, geometry, objectops, painting, sizing, tiling
from .family import Family, Op, expand

__all__ = ["FAMILIES", "OPS", "WINDOW_COST", "lookup", "window_op"]

WINDOW_COST = 2
"""The cost of ``window(corner,h,w)``, whose sizes are fitted constants."""

FAMILIES: tuple[Family, ...] = (
    *geometry.FAMILIES,
    *extract.FAMILIES,
    *sizing.FAMILIES,
    *tiling.FAMILIES,
    *painting.FAMILIES,
    *combining.FAMILIES,
    *objectops.FAMILIES,
)
"""Every primitive family, in the order the search tries them."""

OPS: tuple[Op, ...] = tuple(op for family in FAMILIES for op in expand(family))
"""Every primitive with its arguments bound, cheapest family first within the order above."""

_BY_TEXT = {op.text: op for op in OPS}


def window_op(corner: str, height: int, width: int) -> Op:
    """The primitive ``window(corner,height,width)``."""
    return Op(f"window({corner},{height},{width})", WINDOW_COST, extract.window(corner, height, width))


def _window(text: str) -> Op | None:
    corner, _, sizes = text.removeprefix("window(").removesuffix(")").partition(",")
    height, _, width = sizes.partition(",")
    if corner not in extract.CORNERS or not (height.isdigit() and width.isdigit()):
        return None
    h, w = int(height), int(width)
    if not (0 < h <= MAX_SIDE and 0 < w <= MAX_SIDE) or text != f"window({corner},{h},{w})":
        return None
    return window_op(corner, h, w)


def lookup(text: str) -> Op | None:
    """The primitive whose canonical text is ``text`` (``"rot90"``, ``"pick(8,big)"``), if any."""
    if text.startswith("window(") and text.endswith(")"):
        return _window(text)
    return _BY_TEXT.get(text)
