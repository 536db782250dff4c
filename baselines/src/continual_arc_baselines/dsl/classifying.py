"""Outputs chosen from a fitted table by one property of the input: classification.

Many tasks answer with one of a few fixed grids (a colour, a small picture) and choose it by a
property of the input: which shape the picture is, whether it is symmetric, whether two blocks are
joined. One fitted step, ``classify(KEY){key/HxW/cells,...}``, reads the property ``KEY`` off its
grid and answers with the grid its table holds for that value; a value the table lacks makes it
not apply. `counting` already keys tables by counts of objects, cells and colours; the keys here
are the properties it cannot read (`KEYS`):

- ``pattern``: the whole grid with its colours renumbered by first appearance (colour-blind);
- ``shape``: the same, of the box around the foreground with any scaling undone (where the
  picture stands and how large it is are ignored);
- ``sym``: which of the four mirror symmetries the grid has (left-right, up-down, both diagonals);
- ``holes``: how many background regions the foreground encloses;
- ``joined@K``: how many multicolour objects (8-connected) hold colour K, a role or a literal
  (1: every K cell is linked to every other through the foreground; more: they stand apart).

A table is a description of the demonstrations unless the demonstrations repeat their values, so
the fitter is strict (`fit_classify`): every demonstration must agree with the table, the table
must hold two cases at least, one of them shown twice, with different outputs, and the test
input's value must be one the demonstrations show.

A second fitted step, ``specked{H,W}``, answers with a grid of one colour chosen by where the
input's noise lies: the colour whose cells hold the most specks of the rarest colour (the region
strewn with the most dots).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .catalogue import FitInput, Fitter
from .colours import ROLES, roles
from .family import Op
from .grid import SENTINEL, Array, Context, bg_for
from .objects import label, objects

__all__ = [
    "CLASSIFY_COST",
    "FITTER",
    "KEYS",
    "SPECKED",
    "SPECKED_COST",
    "classify_op",
    "fit_classify",
    "fit_specked",
    "parse_classify",
    "parse_specked",
    "property_of",
    "specked_colour",
    "specked_op",
]

CLASSIFY_COST = 4.0
"""The base cost of a classifying step: a count's table costs as much (`counting`)."""

_JOIN_KEYS = (*ROLES[1:4], "cz", *(str(c) for c in range(1, SENTINEL)))
"""The colours ``joined`` may follow: the commonest foreground roles, the rarest, or a literal."""

KEYS: tuple[str, ...] = ("pattern", "shape", "sym", "holes", *(f"joined@{k}" for k in _JOIN_KEYS))
"""The properties a table may be keyed by, in the order the fitter tries them."""

_REPEATS = 1
"""How many demonstrations at least must repeat a value an earlier one showed (`fit_classify`)."""


def _pattern(a: Array) -> str:
    """The grid's shape and its values renumbered in order of first appearance (reading order)."""
    order: dict[int, int] = {}
    for v in a.ravel().tolist():
        order.setdefault(v, len(order))
    if len(order) > SENTINEL:
        return ""
    codes = np.array([order[v] for v in a.ravel().tolist()], dtype=np.uint8)
    return f"{a.shape[0]}x{a.shape[1]}.{''.join(str(int(c)) for c in codes)}"


def _unscaled(box: Array) -> Array:
    """The box with a scaling undone: one cell per k x k block, for the largest k it is made of."""
    h, w = box.shape
    for k in range(min(h, w), 1, -1):
        if h % k or w % k:
            continue
        small = box[::k, ::k]
        if np.array_equal(np.repeat(np.repeat(small, k, axis=0), k, axis=1), box):
            return small
    return box


def _shape(a: Array, bg: int) -> str | None:
    """The pattern of the box around the cells other than ``bg``, scaling undone, ``bg`` numbered first."""
    ys, xs = np.nonzero(a != bg)
    if not len(ys):
        return None
    box = _unscaled(a[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])
    # Numbering the background first keeps a shape apart from its complement within the box.
    order = {bg: 0}
    for v in box.ravel().tolist():
        order.setdefault(v, len(order))
    codes = "".join(str(order[v]) for v in box.ravel().tolist())
    return f"{box.shape[0]}x{box.shape[1]}.{codes}"


def _sym(a: Array) -> str:
    """The mirror symmetries the grid has, as a number: 1 left-right, 2 up-down, 4 and 8 diagonals."""
    bits = int(np.array_equal(a, a[:, ::-1])) + 2 * int(np.array_equal(a, a[::-1]))
    if a.shape[0] == a.shape[1]:
        bits += 4 * int(np.array_equal(a, a.T)) + 8 * int(np.array_equal(a, a[::-1, ::-1].T))
    return str(bits)


def _holes(a: Array, bg: int) -> str:
    """How many regions of ``bg`` (4-connected) touch no side of the grid."""
    region = label(a, a == bg, eight=False, same_colour=True)
    edge = {*region[0].tolist(), *region[-1].tolist(), *region[:, 0].tolist(), *region[:, -1].tolist()}
    inner = set(np.unique(region[region >= 0]).tolist()) - edge
    return str(len(inner))


def _joined(a: Array, bg: int, colour: int) -> str | None:
    """How many multicolour 8-connected objects hold a cell of ``colour`` (``None``: none does)."""
    cells = a == colour
    if colour == bg or not cells.any():
        return None
    return str(len(np.unique(objects(a, bg, "m8").labels[cells])))


def property_of(key: str, a: Array, ctx: Context) -> str | None:
    """The value of property ``key`` on grid ``a``, as text (``None``: it has none)."""
    bg = bg_for(a, ctx)
    if key == "pattern":
        return _pattern(a) or None
    if key == "shape":
        return _shape(a, bg)
    if key == "sym":
        return _sym(a)
    if key == "holes":
        return _holes(a, bg)
    what, _, colour = key.partition("@")
    if what != "joined" or colour not in _JOIN_KEYS:
        return None
    c = roles(ctx.original).get(colour) if colour[0] == "c" else int(colour)
    return None if c is None else _joined(a, bg, c)


def _entry(value: str, grid: Array) -> str:
    h, w = grid.shape
    return f"{value}/{h}x{w}/{''.join(str(int(c)) for c in grid.ravel())}"


def _read_entry(entry: str) -> tuple[str, Array] | None:
    value, _, rest = entry.partition("/")
    size, _, cells = rest.partition("/")
    h, _, w = size.partition("x")
    if not (value and h.isdigit() and w.isdigit() and cells.isdigit()):
        return None
    shape = (int(h), int(w))
    if not (0 < shape[0] <= 30 and 0 < shape[1] <= 30) or len(cells) != shape[0] * shape[1]:
        return None
    return value, np.array([int(c) for c in cells], dtype=np.uint8).reshape(shape)


def classify_op(key: str, table: Sequence[tuple[str, Array]]) -> Op | None:
    """The step ``classify(key){...}`` answering ``grid`` for each ``(value, grid)`` of ``table``."""
    if key not in KEYS or len(table) < 2:
        return None
    grids = {value: grid for value, grid in table}
    if len(grids) != len(table):
        return None
    text = f"classify({key}){{{','.join(_entry(v, g) for v, g in table)}}}"

    def prim(a: Array, ctx: Context) -> Array | None:
        value = property_of(key, a, ctx)
        found = grids.get(value) if value is not None else None
        return None if found is None else found.copy()

    return Op(text, CLASSIFY_COST, prim)


def fit_classify(given: FitInput) -> list[Op]:
    """The first property whose value names every demonstration's output, repeated, the test's seen.

    Strict by design: a table fitted to values that never repeat would answer any task, so the
    demonstrations must show a value twice, two cases with different outputs, and the test input's
    value among them. One repeat, not `counting`'s two, so that three demonstrations can show a
    table (two repeats measured no better on training and Re-ARC, and shut out three-pair tasks).
    """
    n, outputs = given.n, given.outputs
    if n < 3 or len({o.tobytes() + bytes(o.shape) for o in outputs}) < 2:
        return []
    for key in KEYS:
        values = [property_of(key, a, c) for a, c in zip(given.inputs, given.contexts, strict=True)]
        if any(v is None for v in values):
            continue
        table: dict[str, Array] = {}
        if any(
            not np.array_equal(table.setdefault(str(v), o), o) for v, o in zip(values, outputs, strict=False)
        ):
            continue
        if n - len(table) < _REPEATS or len(table) < 2 or values[n] not in table:
            continue
        op = classify_op(key, sorted(table.items()))
        if op is not None and given.reproduced_by(op):
            return [op]
    return []


def parse_classify(text: str) -> Op | None:
    """The step ``text`` names, if it is a classifying step written canonically."""
    head, _, body = text.partition("){")
    key = head.removeprefix("classify(")
    if not body.endswith("}") or key not in KEYS:
        return None
    entries = [_read_entry(e) for e in body[:-1].split(",")]
    table = [e for e in entries if e is not None]
    if len(table) != len(entries):
        return None
    op = classify_op(key, table)
    return op if op is not None and op.text == text else None


def _tokens() -> dict[str, float]:
    return {f"classify({k})": CLASSIFY_COST for k in KEYS}


FITTER = Fitter("classify(", _tokens(), fit_classify, parse_classify)
"""The fitter of classifying steps."""

SPECKED_COST = 3.0
"""The base cost of ``specked{HxW}``: a colour chosen whole, as `counting`'s ``solid`` is."""


def specked_colour(a: Array) -> int | None:
    """The colour whose cells hold the most specks of the input's rarest colour (``None``: a tie).

    A speck belongs to the colour most of its four neighbours have (a tie there: to none), so a
    region strewn with noise is told from its neighbours by how much of the noise lies inside it.
    """
    counts = np.bincount(a.ravel(), minlength=SENTINEL)
    present = np.flatnonzero(counts)
    if len(present) < 3:
        return None
    rare = int(present[np.argmin(counts[present])])
    padded = np.pad(a.astype(np.intp), 1, constant_values=SENTINEL)
    votes = np.zeros(SENTINEL + 1, dtype=np.intp)
    for y, x in zip(*np.nonzero(a == rare), strict=True):
        around = np.bincount(
            [padded[y, x + 1], padded[y + 2, x + 1], padded[y + 1, x], padded[y + 1, x + 2]],
            minlength=SENTINEL + 1,
        )
        around[[rare, SENTINEL]] = 0
        best = int(np.argmax(around))
        if around[best] > 0 and np.count_nonzero(around == around[best]) == 1:
            votes[best] += 1
    top = int(np.argmax(votes))
    if votes[top] == 0 or np.count_nonzero(votes == votes[top]) > 1:
        return None
    return top


def specked_op(h: int, w: int) -> Op | None:
    """The step ``specked{h,w}``: an ``h`` x ``w`` grid of the colour holding the most specks."""
    if not (0 < h <= 30 and 0 < w <= 30):
        return None

    def prim(a: Array, ctx: Context) -> Array | None:
        colour = specked_colour(a)
        return None if colour is None else np.full((h, w), colour, dtype=np.uint8)

    return Op(f"specked{{{h},{w}}}", SPECKED_COST, prim)


def fit_specked(given: FitInput) -> list[Op]:
    """``specked`` at the outputs' one size, when every output is one colour and that colour varies."""
    outputs = given.outputs
    if len({o.shape for o in outputs}) != 1 or any(len(np.unique(o)) != 1 for o in outputs):
        return []
    if len({int(o.flat[0]) for o in outputs}) < 2:
        return []  # a colour that never changes is no choice
    op = specked_op(*outputs[0].shape)
    return [op] if op is not None and given.reproduced_by(op) else []


def parse_specked(text: str) -> Op | None:
    """The step ``text`` names, if it is ``specked{h,w}`` written canonically."""
    h, _, w = text.removeprefix("specked{").removesuffix("}").partition(",")
    if not (h.isdigit() and w.isdigit()):
        return None
    op = specked_op(int(h), int(w))
    return op if op is not None and op.text == text else None


SPECKED = Fitter("specked{", {"specked": SPECKED_COST}, fit_specked, parse_specked)
"""The fitter of ``specked``."""
