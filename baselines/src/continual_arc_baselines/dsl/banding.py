"""Banding: each row (or column) painted whole by where its one marker cell lies in it.

Every row of a grid holds one marker cell on a plain ground, and the output paints each row in
full a colour that says where the marker sat: near the start, the middle or the end. The step
is written ``band(axis,parts){part>colour;...}``:

* ``axis`` (`AXES`): ``h`` for rows, ``v`` for columns;
* ``parts`` (`PARTS`): the line is cut into that many equal parts (``3``: first, middle and last
  third; ``2``: halves) and the marker keyed by the part it lies in; ``n``: by its index itself;
* each entry gives a part's colour (a literal).

A line that holds no marker, or more than one, or a marker in a part the table lacks, makes the
step not apply. The fitter needs the table to have fewer entries than the demonstrations have
lines, every entry shown twice at least, and the test input's parts all in the table.
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter, one_per_answer
from .family import Op, Prim
from .grid import SENTINEL, Array, Context, bg_for

__all__ = ["AXES", "BAND_COST", "FITTER", "PARTS", "band_op", "fit_band", "parse_band"]

AXES = ("h", "v")
"""Which lines are painted: rows or columns."""

PARTS = ("3", "2", "n")
"""How a marker's place in its line is keyed: its third, its half, or its index."""

BAND_COST = 4.0
"""The base cost of a band table; each entry adds a quarter bit."""

MAX_ENTRIES = 6
"""The most entries a table may have."""


def _keys(a: Array, bg: int, axis: str, parts: str) -> list[int] | None:
    """Per line, the key of its one marker cell (``None`` when some line has none or several)."""
    lines = a if axis == "h" else a.T
    marked = lines != bg
    if not (marked.sum(axis=1) == 1).all():
        return None
    places = np.argmax(marked, axis=1)
    length = lines.shape[1]
    if parts == "n":
        return [int(p) for p in places]
    return [int(p) * int(parts) // length for p in places]


def band_op(axis: str, parts: str, table: dict[int, int]) -> Op:
    """The step ``band(axis,parts){part>colour;...}``."""

    def prim(a: Array, ctx: Context) -> Array | None:
        keys = _keys(a, bg_for(a, ctx), axis, parts)
        if keys is None or any(k not in table for k in keys):
            return None
        colours = np.array([table[k] for k in keys], dtype=np.uint8)
        out = np.repeat(colours[:, None], a.shape[1] if axis == "h" else a.shape[0], axis=1)
        return out if axis == "h" else np.ascontiguousarray(out.T)

    step: Prim = prim
    body = ";".join(f"{k}>{v}" for k, v in sorted(table.items()))
    return Op(f"band({axis},{parts}){{{body}}}", BAND_COST + len(table) / 4, step, "same")


def _fit_one(given: FitInput, axis: str, parts: str) -> Op | None:
    table: dict[int, int] = {}
    seen: dict[int, int] = {}
    lines = 0
    for a, b, ctx in zip(given.inputs[: given.n], given.outputs, given.contexts[: given.n], strict=True):
        keys = _keys(a, ctx.bg, axis, parts)
        if keys is None:
            return None
        rows = b if axis == "h" else b.T
        if not (rows == rows[:, :1]).all():
            return None  # an output line of two colours
        for key, colour in zip(keys, rows[:, 0].tolist(), strict=True):
            if table.setdefault(key, colour) != colour:
                return None
            seen[key] = seen.get(key, 0) + 1
        lines += len(keys)
    if not table or len(table) > MAX_ENTRIES or len(table) >= lines or min(seen.values()) < 2:
        return None
    test = _keys(given.inputs[given.n], given.contexts[given.n].bg, axis, parts)
    if test is None or not set(test) <= set(table):
        return None
    op = band_op(axis, parts, table)
    return op if given.reproduced_by(op) else None


def fit_band(given: FitInput) -> list[Op]:
    """The band tables the demonstrations fix, cheapest first, one per answer on the test input."""
    if not given.keeps_size:
        return []
    found = [op for axis in AXES for parts in PARTS if (op := _fit_one(given, axis, parts)) is not None]
    found.sort(key=lambda op: op.cost)
    return one_per_answer(given, found)


def parse_band(text: str) -> Op | None:
    """The band step written as ``text``, or ``None`` when it is malformed."""
    head, sep, body = text.partition("){")
    axis, _, parts = head.removeprefix("band(").partition(",")
    if not sep or axis not in AXES or parts not in PARTS or not body.endswith("}"):
        return None
    table: dict[int, int] = {}
    for item in body[:-1].split(";"):
        key, arrow, value = item.partition(">")
        if not (arrow and key.isdigit() and value.isdigit() and int(value) < SENTINEL):
            return None
        table[int(key)] = int(value)
    op = band_op(axis, parts, table)
    return op if op.text == text else None


FITTER = Fitter(
    "band(",
    {f"band({axis},{parts})": BAND_COST for axis in AXES for parts in PARTS},
    fit_band,
    parse_band,
)
"""The fitter of band tables."""
