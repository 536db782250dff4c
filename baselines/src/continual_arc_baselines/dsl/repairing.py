"""Pattern repair: a masked pattern completed through the smallest lattice, or a fitted symmetry.

Three ways the completions of ``core`` fail on a masked pattern:

* ``tilefill`` (`tiling`) completes a pattern repeating along rows and columns, and ``latfill``
  (`lattice`) one repeating along the short translations the known cells show directly. Both fail
  where the mask hides so much that no known cell faces another along one of the pattern's periods
  (a few diagonal stripes in a corner whose colours cycle), and no step crops the hole of a tile
  longer than `lattice`'s shifts (9 wide). `lattice_completion` fits the pattern as a whole
  lattice: every sublattice of translations of the plane, in Hermite normal form (``p`` columns
  along a row, then ``q`` rows down with a shear ``s``), smallest index first. A lattice fits for a
  hole colour when the known cells of each of its classes agree, every class holding a hole holds
  a known cell, and the known cells are at least twice the classes (so a few known cells cannot
  fit a large lattice by chance). The smallest lattice over all hole colours fills the holes.
* ``symfill`` (`symmetry`) accepts a reflection that pairs half of all known cells, background
  included, so with the figure at the grid's edge an axis that sends the figure off the grid fits
  (it pairs only background) and completes the hole wrongly. `anchored_completion` counts the
  share on the figure's cells only, and tries axes as far off the centre as a figure at the
  edge puts them.
* ``symfill`` fails too where holes lie on the axis or face each other across it (a pattern
  symmetric about its diagonal, masked across the diagonal): no known cell faces them.
  `axis_completion` continues such holes along the axis from their neighbours.

Each is a fitted step ``repair(kind){form}`` (``lat``, ``sym`` or ``axis``; ``fill``: the completed grid,
``crop``: only the completed hole's bounding box), offered only when it reproduces every
demonstration, and then cheaper than the ``core`` completions so it answers first. It acts on the
program's input only (a first step), so it costs one fit per input.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import numpy.typing as npt

from .catalogue import FitInput, Fitter
from .family import Op
from .grid import Array
from .symmetry import _VIEWS, Reflection, _overlap, complete, hole_colours, input_completion, reflections
from .tiling import period

__all__ = [
    "FITTER",
    "FORMS",
    "MAX_SMALL",
    "REPAIR_COST",
    "anchored_completion",
    "anchored_reflections",
    "fit_repair",
    "lattice_completion",
    "lattices",
    "parse_repair",
    "repair_op",
]

MAX_SMALL = 12
"""The largest index (classes) of a lattice tried one by one; larger upright ones come from the
row and column periods."""

_VALUES = 16


def lattices(h: int, w: int, limit: int) -> Iterator[tuple[int, int, int]]:
    """Every lattice ``(p, q, s)`` of index ``1 < p * q <= limit`` that fits an ``h`` x ``w`` grid.

    The lattice holds the translations ``(0, p)`` and ``(q, s)``; ``0 <= s < p``. Smallest index
    first; ties by ``q``, then ``s`` (an upright tile before a sheared one). Index 1 (one class)
    would paint every hole the one other colour: a colour map, not a repair.
    """
    found = [
        (p * q, q, s, p)
        for p in range(1, w + 1)
        for q in range(1, h + 1)
        if 1 < p * q <= limit and p * q < h * w
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
            if (py, px) != a.shape and py * px > 1:
                tries.append((py * px, int(counts[hole]), hole, px, py, 0))
    # The smallest lattice first: the simplest repair. Ties: a rarer hole, then the lower colour.
    for _, _, hole, p, q, s in sorted(tries):
        done = _fill(a, hole, p, q, s)
        if done is not None:
            return done
    return None


_MIN_OBJECT_SHARE = 0.5
"""The least share of the known cells other than the background a reflection must pair with
known cells: a reflection that pairs only background says nothing of the pattern."""


def _all_offsets(view: str, h: int, w: int) -> list[tuple[int, int]]:
    """Every offset whose overlap is not empty, nearest the centre first (`symmetry`'s go half-way).

    A figure at the grid's edge has its axis far from the grid's centre, beyond `symmetry`'s reach.
    """
    if view == "h":
        return [(0, dx) for dx in sorted(range(-(w - 1), w), key=lambda x: (abs(x), x))]
    if view == "v":
        return [(dy, 0) for dy in sorted(range(-(h - 1), h), key=lambda y: (abs(y), y))]
    span = max(h, w) - 1
    if view == "d":
        return [(d, -d) for d in sorted(range(-span, span + 1), key=lambda x: (abs(x), x))]
    centre = (h + w - 2) // 2
    es = sorted(range(0, h + w - 1), key=lambda e: (abs(e - centre), e))
    return [(w - 1 - e, h - 1 - e) for e in es]


def anchored_reflections(a: Array, bg: int) -> dict[int, list[Reflection]]:
    """For each hole colour but ``bg``, the reflections that fit with it unknown and pair the figure.

    As `symmetry.reflections`, but the share of paired cells is counted on the cells that are
    neither the background nor the hole, so an axis that sends the figure off the grid (pairing
    only background) does not fit, however much background it pairs; and every axis is tried, as
    far off the grid's centre as a figure at its edge puts it.
    """
    counts = np.bincount(a.ravel(), minlength=_VALUES)
    colours = [c for c in np.flatnonzero(counts).tolist() if c != bg]
    figure = a.size - int(counts[bg])
    found: dict[int, list[Reflection]] = {}
    for view, make in _VIEWS.items():
        b = make(a)
        done: set[int] = set()
        for dy, dx in _all_offsets(view, *a.shape):
            cut = _overlap(a, b, dy, dx)
            if cut is None:
                continue
            x, y = a[cut[0], cut[1]], b[cut[2], cut[3]]
            # The background is never the hole: it is not among the colours.
            for c in hole_colours(x, y, colours):
                need = _MIN_OBJECT_SHARE * (figure - int(counts[c]))
                if c not in done and 0 < need <= np.count_nonzero((x != c) & (y != c) & (x != bg)):
                    found.setdefault(c, []).append(Reflection(view, dy, dx))
                    done.add(c)
    return found


def anchored_completion(a: Array) -> Array | None:
    """``a`` with a hole colour filled through reflections that pair its figure, if all get filled."""
    counts = np.bincount(a.ravel(), minlength=_VALUES)
    bg = int(np.argmax(counts))
    fitting = anchored_reflections(a, bg)
    for hole in sorted(fitting, key=lambda c: (int(counts[c]), c)):
        done = complete(a, hole, fitting[hole])
        if done is not None:
            return done
    return None


_ALONG = {"h": (1, 0), "v": (0, 1), "d": (1, 1), "a": (1, -1)}
"""The step along each view's axis: down a vertical axis, across a horizontal one, down a diagonal."""


def _mirror(out: Array, hole: int, found: list[Reflection]) -> None:
    """Fill ``out``'s holes in place through the reflections, for a few rounds."""
    for _ in range(3):
        for r in found:
            b = _VIEWS[r.view](out)
            cut = _overlap(out, b, r.dy, r.dx)
            if cut is not None:
                x, y = out[cut[0], cut[1]], b[cut[2], cut[3]].copy()
                x[...] = np.where((x == hole) & (y != hole), y, x)


def _shifted(a: Array, dy: int, dx: int, fill: int) -> Array:
    """``a`` moved by ``(dy, dx)``: cell ``(i, j)`` holds ``a[i - dy, j - dx]``, ``fill`` beyond the edge."""
    h, w = a.shape
    out = np.full_like(a, fill)
    out[max(0, dy) : h + min(0, dy), max(0, dx) : w + min(0, dx)] = a[
        max(0, -dy) : h + min(0, -dy), max(0, -dx) : w + min(0, -dx)
    ]
    return out


def axis_completion(a: Array) -> Array | None:
    """``a`` completed by `symmetry`'s reflections, and the holes they leave continued along the axis.

    A hole on an axis, or facing another hole across it, has no known partner; in a pattern drawn
    about an axis the cells beside it repeat along it, so such a hole takes the value of its
    neighbour before it along the axis (after it, at the start), and the reflections run again.
    """
    counts = np.bincount(a.ravel(), minlength=_VALUES)
    fitting = reflections(a)
    for hole in sorted(fitting, key=lambda c: (int(counts[c]), c)):
        found = fitting[hole]
        out = a.copy()
        _mirror(out, hole, found)
        if not np.any(out == hole):
            return out
        for _ in range(max(a.shape)):
            before = out.copy()
            for r in found:
                dy, dx = _ALONG[r.view]
                for sy, sx in ((dy, dx), (-dy, -dx)):
                    near = _shifted(out, sy, sx, hole)
                    out = np.where((out == hole) & (near != hole), near, out)
                    _mirror(out, hole, found)
            if not np.any(out == hole):
                return out
            if np.array_equal(out, before):
                break
    return None


_COMPLETIONS: dict[str, Callable[[Array], Array | None]] = {
    "lat": lattice_completion,
    "sym": anchored_completion,
    "axis": axis_completion,
}
"""The completions by the name a step's text gives them, in the order the fitter tries them."""

FORMS = ("fill", "crop")
"""What a step answers: the completed grid, or only the completed hole (its bounding box)."""

REPAIR_COST = 1.5
"""The base cost of a repair step. It is offered only when it reproduces every demonstration,
so it may be cheaper than ``symfill`` or ``tilefill`` (2), which it must come before where they
fit the demonstrations too but complete the test input wrongly."""


def repair_op(kind: str, form: str) -> Op:
    """The step ``repair(kind){form}``: complete the input by ``kind``, answer the grid or the hole."""
    prim = input_completion(_COMPLETIONS[kind], form == "crop")
    return Op(f"repair({kind}){{{form}}}", REPAIR_COST, prim, "same" if form == "fill" else "shrink")


def parse_repair(text: str) -> Op | None:
    """The step a ``repair(...){...}`` text names, or ``None`` when it names none."""
    head, _, body = text.partition("){")
    kind, form = head.removeprefix("repair("), body.removesuffix("}")
    if kind not in _COMPLETIONS or form not in FORMS:
        return None
    op = repair_op(kind, form)
    return op if op.text == text else None


def fit_repair(given: FitInput) -> list[Op]:
    """The repair steps that reproduce every demonstration output from its input.

    Checked demonstration by demonstration, so a task whose first input is no masked pattern
    costs one completion of each kind, and one whose outputs are larger none.
    """
    shapes = [(i.shape, o.shape) for i, o in zip(given.inputs, given.outputs, strict=False)]
    # A fill keeps the input's shape and a crop of part of it shrinks it: other forms need no
    # completion (a crop of the whole grid is the fill).
    same = all(i == o for i, o in shapes)
    smaller = all(o[0] <= i[0] and o[1] <= i[1] and o != i for i, o in shapes)
    forms = [form for form, fits in zip(FORMS, (same, smaller), strict=True) if fits]
    found: list[Op] = []
    for kind in _COMPLETIONS:
        for form in forms:
            op = repair_op(kind, form)
            if given.n and given.reproduced_by(op):
                found.append(op)
    return found


FITTER = Fitter(
    "repair(", {f"repair({kind})": REPAIR_COST for kind in _COMPLETIONS}, fit_repair, parse_repair
)
"""The fitter of pattern repairs, for the ``wide`` catalogue."""
