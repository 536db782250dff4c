"""Per-object rewriting: each object changed in place by a rule or table fitted from the demonstrations.

`relating` recolours whole objects (or their insides) by a property; `halo` paints around single
cells by their colour; `objectops` keeps, erases and labels whole objects. None of them can say
"the lower half of each bar turns blue", "every other cell of each line is hollowed", "every
hollow square becomes a plus": a change to an object's own cells (and the cells around it) that
depends on where a cell lies in the object, or on the object's whole pattern. This module fits
two kinds of step, each over objects cut as `MODES` says:

``objcell(mode,by){what.f1.f2>token;...}`` (`CELLS`) repaints every cell of each object's box
that is the object's own or background, by a table keyed by what the cell is (``0`` the object's
commonest colour, ``1`` its next, ``b`` background) and where it lies in the box (`BYS`: on the
rim or not; the parities of its row and column from the box's corner; which half, or the middle
line, it lies in). A token is ``_`` (background), a letter ``a``-``j`` (the object's colour of
that role) or a digit (that colour). One table serves objects of any size and colour, so it
carries over to shapes the demonstrations never show. A cell whose key the table lacks makes the
step not apply.

``objmap(mode,kind,margin){key>value;...}`` (`FITTER`) replaces each object by the pattern a
table gives its own pattern, in its box grown by a margin of 0 or 1 cells (`MARGINS`). Keys come
in three kinds (`KINDS`): ``r``, the pattern in colour *roles* (the object's colours numbered by
how many cells each holds, most first, ties to the one met first in reading order), so one entry
serves every colouring of a shape; ``x``, the pattern in literal colours; ``d``, roles up to the
eight turns and reflections of the box (the least key of the eight; the value is stored in that
frame and turned back). A key is ``HxW:`` and one character per cell of the box, row by row:
``-`` for a cell off the object, else its role or colour. A value has one character per cell of
the grown box: ``.`` keeps the cell, ``_`` paints the background, a letter a role's colour, a
digit that colour. The entry ``*>.`` keeps an object whose key the table lacks; it is present
only when the demonstrations show objects left as they were.

Both read back from their text, so a kept program runs with no demonstrations; a role an object
lacks, or two objects painting one cell two ways, makes a step not apply. A fitter offers a step
only when it reproduces every demonstration, changes the test input and answers all of it, and
only the cheapest step of those that give the test input one answer; a shape table also needs
the demonstrations to show each of its changes on two objects at least (so it is a rule rather
than a list of the objects) and at most `MAX_CHANGES` entries that change anything.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from .catalogue import FitInput, Fitter, one_per_answer
from .family import Op, Prim
from .grid import SENTINEL, Array, Context, key_of
from .objects import Objects, objects

__all__ = [
    "BYS",
    "CELLS",
    "FITTER",
    "FITTERS",
    "KINDS",
    "MARGINS",
    "MAX_CHANGES",
    "MODES",
    "OBJCELL_COST",
    "OBJMAP_COST",
    "fit_objcell",
    "fit_objmap",
    "objcell_op",
    "objmap_op",
    "parse_objcell",
    "parse_objmap",
]

MODES = ("4", "8", "m4", "m8")
"""How the grid is cut into objects (as `objects.MODES`, without colour classes)."""

KINDS = ("r", "x", "d")
"""How an object is keyed: its pattern in colour roles, in literal colours, or in colour roles up
to a turn or reflection."""

MARGINS = (0, 1)
"""How many cells around an object's box its entry may paint."""

OBJMAP_COST = 4
"""The base cost of a table; each changing entry adds half a bit (a shape remembered is dear)."""

MAX_CHANGES = 8
"""The most entries of a table that change something."""

MAX_OBJECTS = 40
"""The most objects a grid may be cut into (beyond that it is texture, not objects)."""

_OFF = "-"
_KEEP = "."
_BG = "_"
_UNKNOWN = "?"
_DEFAULT = "*"
_ROLE_LETTERS = "abcdefghij"
Table = dict[str, str]
_CUTS: dict[tuple[bytes, int, str, str], list[_Object] | None] = {}
_CUTS_LIMIT = 1024
_Cells = npt.NDArray[Any]
"""A pattern of codes or colours (turned by `_TURNS` whatever its type)."""


def _anti(x: _Cells) -> _Cells:
    out: _Cells = np.rot90(x, 2).T
    return out


_TURNS: tuple[Callable[[_Cells], _Cells], ...] = (
    lambda x: x,
    lambda x: np.rot90(x, 1),
    lambda x: np.rot90(x, 2),
    lambda x: np.rot90(x, 3),
    lambda x: x.T,
    lambda x: x[::-1],
    lambda x: x[:, ::-1],
    _anti,
)
"""The eight symmetries of the square, as maps of a pattern."""

_UNDO = (0, 3, 2, 1, 4, 5, 6, 7)
"""For each of `_TURNS`, the index of its inverse."""


class _Object:
    """One object's box, key, colours by role, and the turn that brings it to its key's frame."""

    __slots__ = ("box", "colours", "frame", "key", "mask", "turn")

    def __init__(self, a: Array, objs: Objects, i: int, kind: str) -> None:
        self.box = objs.box(i)
        self.mask = objs.labels[self.box] == i
        cells = a[self.box]
        values = cells[self.mask]
        counts = np.bincount(values, minlength=SENTINEL)
        # The first cell of each colour in reading order breaks ties between equal counts, so a
        # recoloured copy of a shape gets the same roles.
        first = np.full(SENTINEL, values.size, dtype=np.intp)
        np.minimum.at(first, values, np.arange(values.size))
        present = np.flatnonzero(counts)
        order = present[np.lexsort((first[present], -counts[present]))]
        self.colours: list[int] = [int(c) for c in order]
        code = np.full(256, ord(_OFF), dtype=np.uint8)
        if kind == "x":
            code[:SENTINEL] = np.frombuffer(b"0123456789", dtype=np.uint8)
        else:
            code[order] = np.frombuffer(b"0123456789", dtype=np.uint8)[: len(order)]
        chars = np.where(self.mask, code[cells], ord(_OFF)).astype(np.uint8)
        self.turn = 0
        self.key = _key(chars)
        if kind == "d":
            # The least key over the eight symmetries names the shape in every orientation.
            for turn in range(1, len(_TURNS)):
                key = _key(_TURNS[turn](chars))
                if key < self.key:
                    self.key, self.turn = key, turn
        self.frame = _TURNS[self.turn](chars).shape


def _key(chars: Array) -> str:
    h, w = chars.shape
    return f"{h}x{w}:" + np.ascontiguousarray(chars).tobytes().decode()


def _cut(a: Array, bg: int, mode: str, kind: str) -> list[_Object] | None:
    """The objects of ``a`` keyed as ``kind`` says (cached: every fit and step asks again)."""
    if int(a.max()) >= SENTINEL:
        return None
    memo = (key_of(a), bg, mode, kind)
    if memo in _CUTS:
        return _CUTS[memo]
    objs = objects(a, bg, mode)
    found = [_Object(a, objs, i, kind) for i in range(len(objs))] if 0 < len(objs) <= MAX_OBJECTS else None
    if len(_CUTS) >= _CUTS_LIMIT:
        _CUTS.clear()
    _CUTS[memo] = found
    return found


def _covered(given: FitInput, mode: str, margin: int) -> bool:
    """Whether every cell the demonstrations change lies in some object's box grown by ``margin``.

    A cheap test on the bare boxes that spares keying the objects of a cut that cannot fit.
    """
    for a, b, ctx in zip(given.inputs[: given.n], given.outputs, given.contexts[: given.n], strict=True):
        objs = objects(a, ctx.bg, mode)
        if not 0 < len(objs) <= MAX_OBJECTS:
            return False
        cover = np.zeros(a.shape, dtype=bool)
        tops, lefts = np.maximum(objs.tops - margin, 0), np.maximum(objs.lefts - margin, 0)
        for top, left, bottom, right in zip(
            tops.tolist(),
            lefts.tolist(),
            (objs.bottoms + margin).tolist(),
            (objs.rights + margin).tolist(),
            strict=True,
        ):
            cover[top:bottom, left:right] = True
        if ((a != b) & ~cover).any():
            return False
    return True


def _region(obj: _Object, margin: int, shape: tuple[int, ...]) -> tuple[slice, slice, slice, slice]:
    """The grid's slices of the object's box grown by ``margin``, and the matching slices of a value."""
    ys, xs = obj.box
    top, left = ys.start - margin, xs.start - margin
    bottom, right = ys.stop + margin, xs.stop + margin
    gy = slice(max(top, 0), min(bottom, shape[0]))
    gx = slice(max(left, 0), min(right, shape[1]))
    vy = slice(gy.start - top, gy.stop - top)
    vx = slice(gx.start - left, gx.stop - left)
    return gy, gx, vy, vx


def _encode(obj: _Object, a: Array, b: Array, bg: int, margin: int, kind: str) -> str:
    """What the object's grown box became, as a value (``?`` for cells off the grid)."""
    ys, xs = obj.box
    h, w = ys.stop - ys.start + 2 * margin, xs.stop - xs.start + 2 * margin
    gy, gx, vy, vx = _region(obj, margin, a.shape)
    table = np.full(256, 0, dtype=np.uint8)
    table[:SENTINEL] = np.frombuffer(b"0123456789", dtype=np.uint8)
    if kind == "r":
        for role, colour in enumerate(obj.colours):
            table[colour] = ord(_ROLE_LETTERS[role])
    table[bg] = ord(_BG)
    src, dst = a[gy, gx], b[gy, gx]
    chars = np.full((h, w), ord(_UNKNOWN), dtype=np.uint8)
    chars[vy, vx] = np.where(src == dst, ord(_KEEP), table[dst])
    return np.ascontiguousarray(_TURNS[obj.turn](chars)).tobytes().decode()


def _paint(a: Array, bg: int, mode: str, kind: str, margin: int, table: Table) -> Array | None:
    """``a`` with every object rewritten by the table, or ``None`` when the table cannot answer."""
    cut = _cut(a, bg, mode, kind)
    if cut is None:
        return None
    out = a.copy()
    painted = np.zeros(a.shape, dtype=bool)
    for obj in cut:
        value = table.get(obj.key, table.get(_DEFAULT))
        if value is None:
            return None
        if value == _KEEP:
            continue
        h, w = obj.frame[0] + 2 * margin, obj.frame[1] + 2 * margin
        lookup = np.full(256, 255, dtype=np.int16)
        lookup[ord(_KEEP)] = -1
        lookup[ord(_BG)] = bg
        lookup[48:58] = np.arange(10)
        for role, colour in enumerate(obj.colours):
            lookup[ord(_ROLE_LETTERS[role])] = colour
        cells = _TURNS[_UNDO[obj.turn]](lookup[np.frombuffer(value.encode(), dtype=np.uint8)].reshape(h, w))
        gy, gx, vy, vx = _region(obj, margin, a.shape)
        want = cells[vy, vx]
        if (want == 255).any():
            return None  # a role this object does not have
        paint = want >= 0
        here = out[gy, gx]
        # Two objects may paint one cell only the same way.
        if (paint & painted[gy, gx] & (here != want)).any():
            return None
        out[gy, gx] = np.where(paint, want, here).astype(np.uint8)
        painted[gy, gx] |= paint
    return out


def _merge(old: str, new: str) -> str | None:
    """Two values of one key made one: unknown cells filled from the other, ``None`` on a clash."""
    if old == new:
        return old
    if len(old) != len(new):
        return None
    merged = []
    for p, q in zip(old, new, strict=True):
        if p in (_UNKNOWN, q):
            merged.append(q)
        elif q == _UNKNOWN:
            merged.append(p)
        else:
            return None
    return "".join(merged)


def _text(mode: str, kind: str, margin: int, table: Table) -> str:
    body = ";".join(f"{k}>{v}" for k, v in sorted(table.items(), key=lambda kv: (kv[0] == _DEFAULT, kv[0])))
    return f"objmap({mode},{kind},{margin}){{{body}}}"


def objmap_op(mode: str, kind: str, margin: int, table: Table) -> Op:
    """The step ``objmap(mode,kind,margin){key>value;...}`` for a fitted table."""
    changes = sum(v != _KEEP for v in table.values())

    def prim(a: Array, ctx: Context) -> Array | None:
        return _paint(a, ctx.bg, mode, kind, margin, table)

    step: Prim = prim
    return Op(_text(mode, kind, margin, table), OBJMAP_COST + changes / 2 + margin / 2, step, "same")


def _same_ground(given: FitInput) -> bool:
    """Whether the test input's background is the demonstrations', when they all share one.

    Demonstrations on backgrounds of their own (keys name the background by role) say nothing
    against a test input on yet another; but when they share one and the test input's commonest
    colour is another, its objects would be cut against the wrong colour.
    """
    bgs = {c.bg for c in given.contexts[: given.n]}
    return len(bgs) > 1 or given.contexts[given.n].bg in bgs


def _fit_one(given: FitInput, mode: str, kind: str, margin: int) -> Op | None:
    if not _covered(given, mode, margin):
        return None
    table: dict[str, str] = {}
    seen: dict[str, int] = {}
    for a, b, ctx in given.demos():
        cut = _cut(a, ctx.bg, mode, kind)
        if cut is None:
            return None
        for obj in cut:
            value = _encode(obj, a, b, ctx.bg, margin, kind)
            merged = _merge(table.get(obj.key, value), value)
            if merged is None:
                return None
            table[obj.key] = merged
            seen[obj.key] = seen.get(obj.key, 0) + 1
    # A cell no demonstration shows (off the grid every time) is left alone.
    table = {
        k: _KEEP if set(v) <= {_KEEP, _UNKNOWN} else v.replace(_UNKNOWN, _KEEP) for k, v in table.items()
    }
    changing = sum(v != _KEEP for v in table.values())
    if not 0 < changing <= MAX_CHANGES:
        return None
    if any(seen[k] < 2 for k, v in table.items() if v != _KEEP):
        return None  # a change shown once is a list of the objects, not a rule
    if changing < len(table):
        # The demonstrations leave some objects as they were: so is an object they never show.
        table = {k: v for k, v in table.items() if v != _KEEP}
        table[_DEFAULT] = _KEEP
    return _checked(given, objmap_op(mode, kind, margin, table))


def _checked(given: FitInput, op: Op) -> Op | None:
    """``op`` if it turns every demonstration into its output and changes the test input."""
    if not given.reproduced_by(op):
        return None
    n = given.n
    answer = op(given.inputs[n], given.contexts[n])
    if answer is None or np.array_equal(answer, given.inputs[n]):
        return None
    return op


def fit_objmap(given: FitInput) -> list[Op]:
    """The per-object tables the demonstrations fix, cheapest first, one per answer on the test input."""
    if not given.keeps_size:
        return []
    if not _same_ground(given):
        return []
    found: list[Op] = []
    for mode in MODES:
        for kind in KINDS:
            for margin in MARGINS:
                op = _fit_one(given, mode, kind, margin)
                if op is not None:
                    found.append(op)
    found.sort(key=lambda op: op.cost)  # stable: ties keep the order tried
    return one_per_answer(given, found)


def _parse_value(value: str) -> bool:
    return bool(value) and all(c in "._0123456789" or c in _ROLE_LETTERS for c in value)


def parse_objmap(text: str) -> Op | None:
    """The table step written as ``text``, or ``None`` when it is malformed."""
    head, _, body = text.partition("){")
    fields = head.removeprefix("objmap(").split(",")
    if len(fields) != 3 or not body.endswith("}"):
        return None
    mode, kind, margin_text = fields
    if mode not in MODES or kind not in KINDS or margin_text not in {str(m) for m in MARGINS}:
        return None
    margin = int(margin_text)
    table: Table = {}
    for item in body[:-1].split(";"):
        key, sep, value = item.partition(">")
        if not sep or not _parse_value(value):
            return None
        if key == _DEFAULT:
            if value != _KEEP:
                return None
            table[key] = value
            continue
        size, colon, cells = key.partition(":")
        h_text, x, w_text = size.partition("x")
        if not (colon and x and h_text.isdigit() and w_text.isdigit()):
            return None
        h, w = int(h_text), int(w_text)
        if len(cells) != h * w or not all(c == _OFF or c.isdigit() for c in cells):
            return None
        if value != _KEEP and len(value) != (h + 2 * margin) * (w + 2 * margin):
            return None
        table[key] = value
    op = objmap_op(mode, kind, margin, table)
    return op if op.text == text else None


FITTER = Fitter(
    "objmap(",
    {
        f"objmap({mode},{kind},{margin})": OBJMAP_COST + margin / 2
        for mode in MODES
        for kind in KINDS
        for margin in MARGINS
    },
    fit_objmap,
    parse_objmap,
)
"""The fitter of per-object tables, for the ``wide`` catalogue."""


BYS = ("edge", "par", "half")
"""What places a cell within its object's box for `objcell`: whether it lies on the box's rim,
the parities of its row and column counted from the box's corner, or which third of the box
(upper half, middle row, lower half; and so across) it lies in."""

OBJCELL_COST = 3.5
"""The base cost of a cell table: a rule over a few places in a box, each change a quarter more."""

MAX_CELL_ENTRIES = 16
"""The most entries of a cell table."""


def _places(by: str, h: int, w: int) -> tuple[Array, Array]:
    """Per cell of an ``h x w`` box, its two place fields under ``by``."""
    dy, dx = np.indices((h, w))
    if by == "edge":
        rim = (dy == 0) | (dy == h - 1) | (dx == 0) | (dx == w - 1)
        return rim.astype(np.uint8), np.zeros((h, w), dtype=np.uint8)
    if by == "par":
        return (dy % 2).astype(np.uint8), (dx % 2).astype(np.uint8)
    # Upper half 0, the middle row of an odd height 1, lower half 2 (and so across).
    rows = np.where(dy < h // 2, 0, np.where(dy >= h - h // 2, 2, 1)).astype(np.uint8)
    cols = np.where(dx < w // 2, 0, np.where(dx >= w - w // 2, 2, 1)).astype(np.uint8)
    return rows, cols


def _cell_keys(a: Array, bg: int, mode: str, by: str) -> list[tuple[_Object, Array, Array]] | None:
    """Per object: the object, its box's cells that are its own or background, and their keys.

    A key is ``what.f1.f2``: ``what`` the cell's role in the object (``0`` its commonest colour)
    or ``b`` for a background cell of the box, then the two place fields.
    """
    cut = _cut(a, bg, mode, "r")
    if cut is None:
        return None
    found = []
    for obj in cut:
        cells = a[obj.box]
        h, w = obj.mask.shape
        own = obj.mask | (cells == bg)
        what = np.full(256, 10, dtype=np.intp)
        what[obj.colours] = np.arange(len(obj.colours))
        whats = np.where(obj.mask, what[cells], 10)
        f1, f2 = _places(by, h, w)
        codes = (whats * 9 + f1.astype(np.intp) * 3 + f2)[own]
        found.append((obj, own, codes))
    return found


def _cell_key_text(code: int) -> str:
    what, rest = divmod(code, 9)
    return f"{'b' if what == 10 else what}.{rest // 3}.{rest % 3}"


def _cell_key_code(text: str) -> int | None:
    fields = text.split(".")
    if len(fields) != 3 or not all(len(f) == 1 for f in fields):
        return None
    what, f1, f2 = fields
    if not (what == "b" or what.isdigit()) or f1 not in "012" or f2 not in "012":
        return None
    return (10 if what == "b" else int(what)) * 9 + int(f1) * 3 + int(f2)


def _identity(code: int) -> str:
    """The token that leaves a cell of this key as it is."""
    what = code // 9
    return _BG if what == 10 else _ROLE_LETTERS[what]


def _cell_paint(a: Array, bg: int, mode: str, by: str, table: dict[int, str]) -> Array | None:
    keyed = _cell_keys(a, bg, mode, by)
    if keyed is None:
        return None
    out = a.copy()
    painted = np.zeros(a.shape, dtype=bool)
    tokens = np.full(SENTINEL * 9 + 9, "", dtype=object)
    for code, token in table.items():
        tokens[code] = token
    for obj, own, codes in keyed:
        lookup = np.full(256, 255, dtype=np.int16)
        lookup[ord(_BG)] = bg
        lookup[48:58] = np.arange(10)
        for role, colour in enumerate(obj.colours):
            lookup[ord(_ROLE_LETTERS[role])] = colour
        got = tokens[codes]
        if (got == "").any():
            return None  # a cell the table cannot answer
        want = lookup[np.frombuffer("".join(got).encode(), dtype=np.uint8)]
        if (want == 255).any():
            return None
        region = out[obj.box]
        done = painted[obj.box]
        before = region[own]
        if (done[own] & (before != want)).any():
            return None
        region[own] = want
        done[own] = True
    return out


def _cell_text(mode: str, by: str, table: dict[int, str]) -> str:
    body = ";".join(f"{_cell_key_text(code)}>{token}" for code, token in sorted(table.items()))
    return f"objcell({mode},{by}){{{body}}}"


def objcell_op(mode: str, by: str, table: dict[int, str]) -> Op:
    """The step ``objcell(mode,by){what.f1.f2>token;...}`` for a fitted table."""
    changes = sum(token != _identity(code) for code, token in table.items())

    def prim(a: Array, ctx: Context) -> Array | None:
        return _cell_paint(a, ctx.bg, mode, by, table)

    step: Prim = prim
    return Op(_cell_text(mode, by, table), OBJCELL_COST + changes / 4, step, "same")


def _fit_cells(given: FitInput, mode: str, by: str) -> Op | None:
    if not _covered(given, mode, 0):
        return None
    table: dict[int, str] = {}
    for a, b, ctx in given.demos():
        keyed = _cell_keys(a, ctx.bg, mode, by)
        if keyed is None:
            return None
        for obj, own, codes in keyed:
            enc = np.full(256, 0, dtype=np.uint8)
            enc[:SENTINEL] = np.frombuffer(b"0123456789", dtype=np.uint8)
            for role, colour in enumerate(obj.colours):
                enc[colour] = ord(_ROLE_LETTERS[role])
            enc[ctx.bg] = ord(_BG)
            out = enc[b[obj.box][own]].tobytes().decode()
            for code, token in zip(codes.tolist(), out, strict=True):
                if table.setdefault(code, token) != token:
                    return None
    if len(table) > MAX_CELL_ENTRIES or all(token == _identity(code) for code, token in table.items()):
        return None
    return _checked(given, objcell_op(mode, by, table))


def fit_objcell(given: FitInput) -> list[Op]:
    """The cell tables the demonstrations fix, cheapest first, one per answer on the test input."""
    if not given.keeps_size:
        return []
    if not _same_ground(given):
        return []
    found = [op for mode in MODES for by in BYS if (op := _fit_cells(given, mode, by)) is not None]
    found.sort(key=lambda op: op.cost)
    return one_per_answer(given, found)


def parse_objcell(text: str) -> Op | None:
    """The cell table step written as ``text``, or ``None`` when it is malformed."""
    head, _, body = text.partition("){")
    mode, _, by = head.removeprefix("objcell(").partition(",")
    if mode not in MODES or by not in BYS or not body.endswith("}"):
        return None
    table: dict[int, str] = {}
    for item in body[:-1].split(";"):
        key, sep, token = item.partition(">")
        code = _cell_key_code(key)
        if code is None or not sep or len(token) != 1 or not _parse_value(token):
            return None
        if token == _KEEP:
            return None
        table[code] = token
    op = objcell_op(mode, by, table)
    return op if op.text == text else None


CELLS = Fitter(
    "objcell(",
    {f"objcell({mode},{by})": OBJCELL_COST for mode in MODES for by in BYS},
    fit_objcell,
    parse_objcell,
)
"""The fitter of per-object cell tables, for the ``wide`` catalogue."""

FITTERS: tuple[Fitter, ...] = (CELLS, FITTER)
"""This module's fitters in the order the search gets their steps: cell rules, then shape tables."""
