"""Halos: each foreground colour paints a fixed pattern on the background around its cells.

A halo of radius ``r`` gives every colour a ``(2r+1) x (2r+1)`` stamp centred on each cell of that
colour; the stamp's entries paint the background cells at those offsets and leave every other cell
alone. The stamps are literal colours keyed by literal colours (red cells grow one thing, blue cells
another), fitted from the demonstrations (`fit_halo`) and written into the step's text,
``halo(1){1:.7.7.7.7.;2:4.4...4.4;*:.........}`` (row by row, ``.`` paints nothing; ``*`` stands
for a colour the demonstrations never show, present when some colour paints nothing), so the program
runs on a new grid with no demonstrations. A colour the table lacks, or two stamps painting one
cell two ways, makes the step not apply: a halo answers only what it has seen.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .family import Op, Prim
from .grid import SENTINEL, Array, Context

__all__ = ["HALO_COST", "RADII", "fit_halo", "halo_op", "parse_halo"]

HALO_COST = 3
"""The base cost of a halo; each painted entry adds a quarter bit."""

RADII = (1, 2)
"""The radii a halo may have."""

_NONE = -1
_ANY = -2
"""The table's key for a colour the demonstrations never show (written ``*``)."""
Stamps = dict[int, tuple[int, ...]]


def _offsets(radius: int) -> list[tuple[int, int]]:
    side = range(-radius, radius + 1)
    return [(dy, dx) for dy in side for dx in side]


def fit_halo(
    inputs: Sequence[Array], outputs: Sequence[Array], bgs: Sequence[int], radius: int
) -> Stamps | None:
    """The stamps of radius ``radius`` that turn every input into its output, if some do.

    ``None`` when the shapes differ, a foreground cell changes, one colour's stamp would need two
    colours at one offset, the stamps paint nothing, or painting them does not give the outputs.
    """
    offsets = _offsets(radius)
    # For each colour and offset, the colours the background cells there become (bg: unpainted).
    seen: dict[int, list[set[int]]] = {}
    for a, b, bg in zip(inputs, outputs, bgs, strict=True):
        if a.shape != b.shape or int(a.max()) >= SENTINEL:
            return None
        if np.any((a != bg) & (a != b)):
            return None
        pa = np.pad(a.astype(np.int16), radius, constant_values=_NONE)
        pb = np.pad(b.astype(np.int16), radius, constant_values=_NONE)
        for colour in np.unique(a).tolist():
            if colour == bg:
                continue
            ys, xs = np.nonzero(a == colour)
            found = seen.setdefault(colour, [set() for _ in offsets])
            for i, (dy, dx) in enumerate(offsets):
                at_a = pa[ys + radius + dy, xs + radius + dx]
                at_b = pb[ys + radius + dy, xs + radius + dx]
                found[i].update(np.where(at_b[at_a == bg] == bg, _NONE, at_b[at_a == bg]).tolist())
    # An offset paints only where every background cell there became one colour; cells another
    # stamp paints as well are left to it, and the check below catches what nothing explains.
    wanted = {c: [next(iter(v)) if len(v) == 1 else _NONE for v in found] for c, found in seen.items()}
    stamps = {c: tuple(s) for c, s in sorted(wanted.items())}
    if not _fits(radius, stamps, inputs, outputs, bgs):
        return None
    # The fewest stamps that still fit: a colour whose stamp only shadows another's paints nothing.
    for colour in list(stamps):
        if any(v != _NONE for v in stamps[colour]):
            bare = {**stamps, colour: (_NONE,) * len(offsets)}
            if _fits(radius, bare, inputs, outputs, bgs):
                stamps = bare
    if all(v == _NONE for s in stamps.values() for v in s):
        return None
    if any(all(v == _NONE for v in s) for s in stamps.values()):
        # Some colour paints nothing: so does a colour the demonstrations never show.
        stamps[_ANY] = (_NONE,) * len(offsets)
    return stamps


def _fits(
    radius: int, stamps: Stamps, inputs: Sequence[Array], outputs: Sequence[Array], bgs: Sequence[int]
) -> bool:
    paint = _Painter(radius, stamps)
    for a, b, bg in zip(inputs, outputs, bgs, strict=True):
        made = paint(a, bg)
        if made is None or not np.array_equal(made, b):
            return False
    return True


class _Painter:
    """Paints a table of stamps onto a grid."""

    def __init__(self, radius: int, stamps: Stamps) -> None:
        self.radius = radius
        self.stamps = stamps
        self.offsets = _offsets(radius)

    def __call__(self, a: Array, bg: int) -> Array | None:
        r = self.radius
        h, w = a.shape
        paint = np.full((h + 2 * r, w + 2 * r), _NONE, dtype=np.int16)
        for colour in np.unique(a).tolist():
            if colour == bg:
                continue
            stamp = self.stamps.get(colour, self.stamps.get(_ANY))
            if stamp is None:
                return None
            ys, xs = np.nonzero(a == colour)
            for (dy, dx), value in zip(self.offsets, stamp, strict=True):
                if value == _NONE:
                    continue
                cells = paint[ys + r + dy, xs + r + dx]
                if np.any((cells != _NONE) & (cells != value)):
                    return None
                paint[ys + r + dy, xs + r + dx] = value
        inner = paint[r : r + h, r : r + w]
        return np.where((inner != _NONE) & (a == bg), inner, a).astype(np.uint8)


def _text(radius: int, stamps: Stamps) -> str:
    body = ";".join(
        ("*" if colour == _ANY else str(colour)) + ":" + "".join("." if v == _NONE else str(v) for v in stamp)
        for colour, stamp in sorted(stamps.items(), key=lambda item: (item[0] == _ANY, item[0]))
    )
    return f"halo({radius}){{{body}}}"


def halo_op(radius: int, stamps: Stamps) -> Op:
    """The step ``halo(radius){colour:stamp;...}`` for fitted stamps."""
    painter = _Painter(radius, stamps)

    def prim(a: Array, ctx: Context) -> Array | None:
        return painter(a, ctx.bg)

    # Priced by the colours that paint, not by the cells: a full ring is one idea, not eight, and
    # a step dearer than two plain steps would never be reached within the budget.
    painting = sum(any(v != _NONE for v in stamp) for stamp in stamps.values())
    step: Prim = prim
    return Op(_text(radius, stamps), HALO_COST + painting / 2, step, "same")


def parse_halo(text: str) -> Op | None:
    """The halo step written as ``text``, or ``None`` when it is malformed."""
    head, _, body = text.partition("){")
    radius_text = head.removeprefix("halo(")
    if radius_text not in {str(r) for r in RADII} or not body.endswith("}"):
        return None
    radius = int(radius_text)
    size = (2 * radius + 1) ** 2
    stamps: Stamps = {}
    for item in body[:-1].split(";"):
        colour, sep, cells = item.partition(":")
        if colour != "*" and not (colour.isdigit() and int(colour) < SENTINEL):
            return None
        if not sep or len(cells) != size or any(c != "." and not c.isdigit() for c in cells):
            return None
        stamps[_ANY if colour == "*" else int(colour)] = tuple(_NONE if c == "." else int(c) for c in cells)
    op = halo_op(radius, stamps)
    return op if op.text == text else None
