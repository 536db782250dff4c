"""Choosing an object by its content, not only by its outline: odd, repeated, plainest, busiest.

`objects.choose` compares objects by size, place and outline. Some tasks show several
objects of one outline that differ only in the colours inside them, and ask for the one whose
content no other shares (``oddc``), for the content that several share (``twin``: the first of
them in reading order), or for the object with the fewest (``plain``) or most (``busy``) cells off
its main colour. ``pickc(mode, prop)`` answers with that object's bounding box; ``partc(prop)``
chooses among the parts between separator lines (or the quadrants) the same way.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from .family import Family, Prim
from .grid import Array, Context, bg_for, counts_without, key_of
from .objects import Objects, objects
from .parts import cells_or_quarters

__all__ = ["CONTENT_CHOOSERS", "FAMILIES", "PART_CHOOSERS", "choose_by_content", "content_keys"]

CONTENT_CHOOSERS = ("oddc", "twin", "plain", "busy")
"""Properties of an object's content that pick exactly one object."""

PART_CHOOSERS = ("twin", "plain", "busy")
"""The content properties that choose a part (``part(odd)`` already picks the odd one)."""

_MODES = ("m4", "m8")
"""Multicolour cuts only: an object's content is its colours."""


def content_keys(arr: Array, objs: Objects, bg: int) -> list[bytes]:
    """Per object, bytes naming its box's size and what it shows there (other objects as background)."""
    keys = []
    for i in range(len(objs)):
        box = objs.box(i)
        shown = np.where(objs.labels[box] == i, arr[box], np.uint8(bg)).astype(np.uint8)
        keys.append(key_of(shown))
    return keys


def _unique_extreme(values: list[int], low: bool) -> int | None:
    target = min(values) if low else max(values)
    hits = [i for i, v in enumerate(values) if v == target]
    return hits[0] if len(hits) == 1 else None


def choose_by_content(keys: list[bytes], off: list[int], prop: str) -> int | None:
    """The index of the one item with content property ``prop`` (of `CONTENT_CHOOSERS`).

    Args:
        keys: per item, bytes naming what it shows.
        off: per item, how many of its foreground cells are off its commonest colour.
        prop: the property.
    """
    if len(keys) < 2:
        return None
    if prop in ("plain", "busy"):
        return _unique_extreme(off, low=prop == "plain")
    tally = Counter(keys)
    if prop == "oddc":
        alone = [i for i, k in enumerate(keys) if tally[k] == 1]
        return alone[0] if len(alone) == 1 and len(keys) > 2 else None
    counts = [tally[k] for k in keys]
    top = max(counts)
    # The repeated content must be the only one repeated that often.
    if top < 2 or len({k for k in keys if tally[k] == top}) != 1:
        return None
    return counts.index(top)


def _off_main(cells: Array, bg: int) -> int:
    counts = counts_without(cells, bg)
    return int(counts.sum() - counts.max())


def _pickc(mode: str, prop: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        objs = objects(a, bg, mode)
        memo = f"content:{prop}:{bg}"
        if memo not in objs.memo:
            off = [_off_main(a[objs.mask(i)], bg) for i in range(len(objs))]
            objs.memo[memo] = choose_by_content(content_keys(a, objs, bg), off, prop)
        i: int | None = objs.memo[memo]
        return None if i is None else a[objs.box(i)]

    return prim


def _partc(prop: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        parts = cells_or_quarters(a, bg)
        if parts is None:
            return None
        i = choose_by_content([key_of(p) for p in parts], [_off_main(p, bg) for p in parts], prop)
        return None if i is None else parts[i]

    return prim


FAMILIES = (
    Family(
        "pickc",
        (_MODES, CONTENT_CHOOSERS),
        2,
        _pickc,
        "the bounding box of the one object with a property of its content",
        shape="shrink",
    ),
    Family(
        "partc",
        (PART_CHOOSERS,),
        2,
        _partc,
        "the one part between separators (or quadrant) with a property of its content",
        shape="shrink",
    ),
)
