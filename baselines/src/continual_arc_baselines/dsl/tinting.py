"""Tinting: every cell of one colour takes the colour of the marker it faces, cell by cell.

A grid holds shapes of one plain colour (grey, say) and markers of other colours (a column of
coloured cells at the left edge, dots around); each grey cell turns the colour of the marker in
its row, or its column, or the nearest one. `relating` recolours a whole object by the colour it
meets looking one way, which fails as soon as one object spans rows of different markers; here
each cell looks for itself. The step is written ``tint(look){colour}``:

* ``colour``: the plain colour tinted, the one every demonstration changes: a literal when the
  demonstrations share it (ARC), else a role (``c1``, the grid's second commonest colour) that
  names it in each (Re-ARC draws colours afresh);
* ``look`` (`LOOKS`): ``l``, ``r``, ``u``, ``d``: the first cell met looking left, right, up or
  down that is neither the plain colour nor the background; ``n``: the nearest such cell by
  steps along rows and columns, when every nearest one has one colour; ``s``: the markers it
  sees along its row and column across the background alone (a plain cell in between hides
  them), when they have one colour: so only the plain shape's cells that face a marker turn.

The background is the commonest colour other than the plain one (the plain shapes may outnumber
it). A cell that finds no marker keeps its colour. The fitter offers a step only when it turns
every demonstration into its output, the demonstrations change nothing but cells of the plain
colour, and it changes the test input.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .catalogue import FitInput, Fitter, one_per_answer
from .colours import ROLES, resolve, roles
from .family import Op, Prim
from .grid import SENTINEL, Array, Context, Mask

__all__ = [
    "FITTER",
    "LOOKS",
    "TINT_COST",
    "facing",
    "fit_tint",
    "ground",
    "parse_tint",
    "plains",
    "sites",
    "tint",
    "tint_op",
]

LOOKS = ("l", "r", "u", "d", "n", "s")
"""Where a cell looks for its marker: left, right, up, down, the nearest, or every way it sees."""

TINT_COST = 4.0
"""The base cost of a tint: a fitted colour and a way of looking."""

Found = npt.NDArray[np.int16]
"""Per cell, a marker's colour, or -1 where none is."""


def ground(a: Array, plain: int) -> int:
    """The commonest colour of ``a`` other than ``plain`` (the lowest on a tie)."""
    counts = np.bincount(a.ravel(), minlength=SENTINEL)
    counts[plain] = -1
    return int(np.argmax(counts))


def facing(a: Array, markers: Mask, look: str, walls: Mask | None = None) -> Found:
    """Per cell, the colour of the first marker met looking ``look`` (-1 where none is).

    A cell of ``walls`` met first hides every marker beyond it.
    """
    # Turn the grid so the look runs along rows to the left, sweep, and turn back.
    turns = {"l": 0, "u": 1, "r": 2, "d": 3}[look]
    codes = np.where(markers, a.astype(np.int16), np.int16(-1))
    if walls is not None:
        codes = np.where(walls & ~markers, np.int16(-2), codes)
    grid = np.rot90(codes, turns)
    out = np.full(grid.shape, -1, dtype=np.int16)
    seen = np.full(grid.shape[0], -1, dtype=np.int16)
    for x in range(grid.shape[1]):
        out[:, x] = seen
        column = grid[:, x]
        seen = np.where(column >= 0, column, np.where(column == -2, np.int16(-1), seen))
    back: Found = np.rot90(out, -turns)
    return back


def _sighted(a: Array, markers: Mask, walls: Mask) -> Found:
    """Per cell, the one colour of the markers it sees along its row and column, across background.

    -1 where it sees none, or markers of two colours.
    """
    views = np.stack([facing(a, markers, look, walls) for look in ("l", "r", "u", "d")])
    low = np.where(views >= 0, views, np.int16(99)).min(axis=0)
    high = views.max(axis=0)
    return np.where((high >= 0) & (low == high), high, np.int16(-1)).astype(np.int16)


def _nearest(a: Array, markers: Mask, targets: Mask) -> Found:
    """Per cell of ``targets``, the one colour of its nearest markers (-1 where they disagree)."""
    out = np.full(a.shape, -1, dtype=np.int16)
    my, mx = np.nonzero(markers)
    ty, tx = np.nonzero(targets)
    if my.size == 0 or ty.size == 0:
        return out
    dist = np.abs(ty[:, None] - my[None, :]) + np.abs(tx[:, None] - mx[None, :])
    near = dist == dist.min(axis=1, keepdims=True)
    colours = a[my, mx].astype(np.int16)
    low = np.where(near, colours[None, :], 99).min(axis=1)
    high = np.where(near, colours[None, :], -1).max(axis=1)
    out[ty, tx] = np.where(low == high, low, -1)
    return out


def sites(a: Array, plain: int) -> tuple[Mask, Mask] | None:
    """The cells of colour ``plain`` to tint and the marker cells (neither ``plain`` nor ground).

    ``None`` when ``a`` holds a label or no cell of ``plain``.
    """
    if int(a.max()) >= SENTINEL:
        return None
    targets = a == plain
    if not targets.any():
        return None
    return targets, ~targets & (a != ground(a, plain))


def tint(a: Array, plain: int, look: str) -> Array | None:
    """``a`` with every cell of colour ``plain`` tinted by the marker it finds looking ``look``."""
    found_sites = sites(a, plain)
    if found_sites is None:
        return None
    targets, markers = found_sites
    if look == "n":
        found = _nearest(a, markers, targets)
    elif look == "s":
        found = _sighted(a, markers, targets)
    else:
        found = facing(a, markers, look)
    paint = targets & (found >= 0)
    return np.where(paint, found, a).astype(np.uint8)


def tint_op(look: str, plain: str) -> Op:
    """The step ``tint(look){plain}``: ``plain`` a literal colour or a role (`colours.ROLES`)."""

    def prim(a: Array, ctx: Context) -> Array | None:
        colour = resolve(plain, roles(ctx.original))
        return None if colour is None else tint(a, colour, look)

    step: Prim = prim
    return Op(f"tint({look}){{{plain}}}", TINT_COST + (look in "ns") / 2, step, "same")


def plains(given: FitInput) -> list[str]:
    """How the one colour every demonstration changes may be named: literally, else by its roles.

    Each demonstration must change cells of one colour only; ARC keeps that colour from pair to
    pair, Re-ARC draws it afresh, so a role (`colours.ROLES`) that names it in every
    demonstration serves when no literal does.
    """
    changed: list[int] = []
    for a, b in zip(given.inputs[: given.n], given.outputs, strict=True):
        if a.shape != b.shape:
            return []
        colours = np.unique(a[a != b]).tolist()
        if len(colours) > 1:
            return []
        changed.extend(colours)
    if not changed:
        return []
    if len(set(changed)) == 1:
        return [str(changed[0])]
    named = [roles(a) for a, b in zip(given.inputs[: given.n], given.outputs, strict=True) if (a != b).any()]
    return [role for role in ROLES if all(n.get(role) == c for n, c in zip(named, changed, strict=True))][:1]


def fit_tint(given: FitInput) -> list[Op]:
    """The tints that reproduce every demonstration and change the test input, cheapest first."""
    test = given.inputs[given.n]
    found = []
    for plain in plains(given):
        for look in LOOKS:
            op = tint_op(look, plain)
            answer = op(test, given.contexts[given.n])
            if answer is None or np.array_equal(answer, test) or not given.reproduced_by(op):
                continue
            found.append(op)
    return one_per_answer(given, found)


def parse_tint(text: str) -> Op | None:
    """The tint written as ``text``, or ``None`` when it is malformed."""
    head, sep, body = text.partition("){")
    look = head.removeprefix("tint(")
    colour = body.removesuffix("}")
    if not sep or look not in LOOKS or not body.endswith("}"):
        return None
    if colour not in {str(c) for c in range(SENTINEL)} and colour not in ROLES:
        return None
    op = tint_op(look, colour)
    return op if op.text == text else None


FITTER = Fitter(
    "tint(", {f"tint({look})": TINT_COST + (look in "ns") / 2 for look in LOOKS}, fit_tint, parse_tint
)
"""The fitter of tints."""
