"""Turning: each line-drawn shape recoloured by the turns its line takes, whatever its lengths.

Shapes drawn as one-cell-wide lines fall into kinds a person names at a glance (a bar, an L, a
U, an S or Z, a branching shape) however long their arms and however turned or reflected; a
task may recolour each shape by its kind. `relating` can key an object by how many cells turn a
corner, which tells an L from a bar but not a U from an S. Here each single-colour object
(4-connected) gets a *signature*:

* ``o``: one cell;
* for a path (every cell has at most two neighbours of the object, two of them one): the turns
  met walking it from one end, ``l`` left and ``r`` right, ``i`` for a straight bar; written in
  the least of the four readings that reversing the walk and reflecting give, so an L is ``l``,
  a U ``ll`` and an S or Z ``lr``;
* ``x``: anything else (a branch, a loop, a blob).

The step is written ``turns{signature>colour;...}``: every object whose signature the table
names turns that colour (a literal, or ``k`` to keep its own); an object whose signature it
lacks makes the step not apply. The fitter needs every demonstration to change only whole
objects, each to one colour, its table to have fewer entries than the demonstrations have
objects, each changing entry shown on two objects at least, and the test input's signatures
all in the table.
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter
from .family import Op, Prim
from .grid import SENTINEL, Array, Context, bg_for
from .objects import Objects, objects
from .steptext import braced

__all__ = ["FITTER", "MAX_ENTRIES", "TURNS_COST", "fit_turns", "parse_turns", "signatures", "turns_op"]

TURNS_COST = 4.0
"""The base cost of a table of turn signatures; each changing entry adds a quarter bit."""

MAX_ENTRIES = 8
"""The most entries a table may have."""

MAX_OBJECTS = 60
"""The most objects a grid may hold for the step to apply."""

_SIDES = ((-1, 0), (0, 1), (1, 0), (0, -1))
_FLIP = str.maketrans("lr", "rl")
_ALPHABET = frozenset("olrix")


def _walk(cells: set[tuple[int, int]]) -> str | None:
    """The turns along a path of cells, or ``None`` when the cells do not form one path."""
    degree = {c: sum((c[0] + dy, c[1] + dx) in cells for dy, dx in _SIDES) for c in cells}
    ends = sorted(c for c, d in degree.items() if d == 1)
    if len(ends) != 2 or any(d > 2 for d in degree.values()):
        return None
    turns = []
    here, before, heading = ends[0], None, None
    for _ in range(len(cells) - 1):
        step = next(
            (dy, dx)
            for dy, dx in _SIDES
            if (here[0] + dy, here[1] + dx) in cells and (here[0] + dy, here[1] + dx) != before
        )
        if heading is not None and step != heading:
            # A right turn takes (dy, dx) to (dx, -dy) with rows growing downwards.
            turns.append("r" if step == (heading[1], -heading[0]) else "l")
        before, here, heading = here, (here[0] + step[0], here[1] + step[1]), step
    text = "".join(turns)
    back = text[::-1].translate(_FLIP)
    return min(text, text.translate(_FLIP), back, back.translate(_FLIP)) or "i"


def signatures(a: Array, objs: Objects) -> list[str]:
    """Per object, its signature (see the module's docstring)."""
    found = []
    for i in range(len(objs)):
        if objs.sizes[i] == 1:
            found.append("o")
            continue
        ys, xs = np.nonzero(objs.labels == i)
        walked = _walk(set(zip(ys.tolist(), xs.tolist(), strict=True)))
        found.append("x" if walked is None else walked)
    return found


def _cut(a: Array, ctx: Context) -> tuple[Objects, list[str]] | None:
    if int(a.max()) >= SENTINEL:
        return None
    objs = objects(a, bg_for(a, ctx), "4")
    if not 0 < len(objs) <= MAX_OBJECTS:
        return None
    return objs, signatures(a, objs)


def _text(table: dict[str, str]) -> str:
    return "turns{" + ";".join(f"{k}>{v}" for k, v in sorted(table.items())) + "}"


def turns_op(table: dict[str, str]) -> Op:
    """The step ``turns{signature>colour;...}``."""

    def prim(a: Array, ctx: Context) -> Array | None:
        cut = _cut(a, ctx)
        if cut is None:
            return None
        objs, sigs = cut
        paint = np.full(len(objs) + 1, -1, dtype=np.int16)  # the last entry: off every object
        for i, sig in enumerate(sigs):
            value = table.get(sig)
            if value is None:
                return None
            if value != "k":
                paint[i] = int(value)
        new = paint[objs.labels]
        return np.where(new >= 0, new, a).astype(np.uint8)

    step: Prim = prim
    changes = sum(v != "k" for v in table.values())
    return Op(_text(table), TURNS_COST + changes / 4, step, "same")


def fit_turns(given: FitInput) -> list[Op]:
    """The one table of signatures the demonstrations fix, if it answers the test input."""
    n = given.n
    table: dict[str, str] = {}
    seen: dict[str, int] = {}
    objects_seen = 0
    if not given.keeps_size:
        return []
    for a, b, ctx in given.demos():
        cut = _cut(a, ctx)
        if cut is None:
            return []
        objs, sigs = cut
        if ((a != b) & (objs.labels < 0)).any():
            return []  # a change off every object
        objects_seen += len(objs)
        for i, sig in enumerate(sigs):
            after = np.unique(b[objs.labels == i])
            if after.size != 1:
                return []
            value = "k" if int(after[0]) == int(objs.colours[i]) and objs.ncolours[i] == 1 else str(after[0])
            if table.setdefault(sig, value) != value:
                return []
            seen[sig] = seen.get(sig, 0) + 1
    changing = [k for k, v in table.items() if v != "k"]
    if not changing or len(table) > MAX_ENTRIES or len(table) >= objects_seen:
        return []
    if any(seen[k] < 2 for k in changing):
        return []  # a change shown once lists an object rather than states a rule
    test = _cut(given.inputs[n], given.contexts[n])
    if test is None or not set(test[1]) <= set(table):
        return []
    op = turns_op(table)
    answer = op(given.inputs[n], given.contexts[n])
    if answer is None or np.array_equal(answer, given.inputs[n]) or not given.reproduced_by(op):
        return []
    return [op]


def parse_turns(text: str) -> Op | None:
    """The table step written as ``text``, or ``None`` when it is malformed."""
    body = braced(text, "turns")
    if body is None:
        return None
    table: dict[str, str] = {}
    for item in body.split(";"):
        key, sep, value = item.partition(">")
        if not sep or not key or not set(key) <= _ALPHABET:
            return None
        if value != "k" and value not in {str(c) for c in range(SENTINEL)}:
            return None
        table[key] = value
    op = turns_op(table)
    return op if op.text == text else None


FITTER = Fitter("turns{", {"turns": TURNS_COST}, fit_turns, parse_turns)
"""The fitter of turn-signature tables."""
