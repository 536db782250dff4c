"""Cell rules keyed by more than a neighbourhood: the wide catalogue's companion to `local`.

`local`'s tables key a cell by its colour role and what touches it. Many same-shape tasks key a
cell by something else: how many of its four neighbours are foreground (``c4``), whether it is
background cut off from the border (``en``), whether its row and column hold foreground (``rb``)
and which role (``rc``), the first foreground role met from the left and top (``fl``) or right
and bottom (``fr``), the role it lies between along its row and column (``bt``), its row and
column modulo 3 (``p3``) or their parity counted from the bottom-right (``pe``), and the piece it
belongs to: whether that piece is the largest or smallest (``ok``), which half of it the cell
lies in (``oh``), the parity of its offset from the piece's corner (``po``), or the role of the
piece whose box holds it (``bx``). Keys and values are written as in `local` (roles of the input
or literal colours): ``cellrule(p3){0.0.0>6;0.0.1>c0;...}``.

A richer key fits more by chance, so a table is offered with care: only when no core `local`
table already fits and answers the test input, only when it is short next to the demonstrations
(`MAX_SHARE`), only when every key of the test input was seen in two demonstrations, and only the
first kind of `KINDS` (simplest first) that passes.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from . import local
from .catalogue import FitInput, Fitter
from .colours import resolve, roles
from .family import Op, Prim
from .grid import SENTINEL, Array, Context, Mask
from .objects import label

__all__ = ["CELLRULE_COST", "FITTER", "KINDS", "MAX_SHARE", "cellrule_op", "features", "fit_cellrule"]

Features = npt.NDArray[np.int16]

KINDS = ("c4", "en", "rb", "p3", "pe", "bt", "rc", "fl", "fr", "ok", "oh", "po", "bx")
"""The keys a cell rule may read, simplest first; each key begins with the cell's role. After it:
``c4`` the count of foreground 4-neighbours; ``en`` 1 for background cut off from the border;
``rb`` whether its row, then its column, holds foreground; ``p3`` row and column modulo 3; ``pe``
the parity of the rows below it and the columns right of it; ``bt`` the role the rays from left and
right both meet, then from up and down (``x`` when they differ); ``rc`` the one foreground role
its row holds, then its column (``90`` for several); ``fl`` / ``fr`` the role of the first
foreground cell from the left / right of its row and from the top / bottom of its column; for
foreground cells, of their 4-connected one-colour piece: ``ok`` whether it is the largest (1), the
smallest (2), both (3) or neither (0); of their 8-connected piece: ``oh`` which half of it the row
and the column lie in (0 first, 1 middle, 2 second), ``po`` the row and column offset from its
top-left modulo 2; ``bx`` the role of the piece whose box holds the cell (``90`` for several)."""

_FIELDS = {
    **dict.fromkeys(("c4", "en", "ok", "bx"), 2),
    **dict.fromkeys(("rb", "p3", "pe", "bt", "rc", "fl", "fr", "oh", "po"), 3),
}

MAX_SHARE = 0.1
"""The most entries a table may have per demonstration cell: a table about as long as the
cells it was read from describes them rather than a rule."""

CELLRULE_COST = 4.5
"""The base cost of a cell rule: more than `local`'s, as its keys fit more by chance, so a step of
core that also fits (and carries over to new inputs better) is found first; much more and the
search's budget runs out before it reaches a rule with many entries."""

_OUT = -1
_MANY = 90
_SIDES = ((-1, 0), (1, 0), (0, -1), (0, 1))


def _coordinates(r: Features) -> tuple[Features, Features]:
    """Each cell's row and column."""
    grid: Features = np.indices(r.shape, dtype=np.int16)
    return grid[0], grid[1]


def _line_roles(r: Features, axis: int) -> Features:
    """Per cell, the one foreground role its row (axis 1) or column (axis 0) holds."""
    fg = np.where(r > 0, r, np.int16(0))
    hi = fg.max(axis=axis, keepdims=True)
    lo = np.where(r > 0, r, np.int16(999)).min(axis=axis, keepdims=True)
    one = np.where(hi == 0, np.int16(_OUT), np.where(hi == lo, hi, np.int16(_MANY)))
    return np.broadcast_to(one, r.shape).astype(np.int16)


def _first(r: Features, axis: int, last: bool) -> Features:
    """Per cell, the role of the first foreground cell of its row (axis 1) or column (axis 0)."""
    lines = r if axis == 1 else r.T
    if last:
        lines = lines[:, ::-1]
    fg = lines > 0
    pos = fg.argmax(axis=1)
    role = np.where(fg.any(axis=1), lines[np.arange(lines.shape[0]), pos], np.int16(_OUT))
    out = np.broadcast_to(role[:, None], lines.shape)
    return np.ascontiguousarray(out if axis == 1 else out.T).astype(np.int16)


def _enclosed(bg: Mask) -> Features:
    """Per cell, 1 where a background cell's 4-connected region does not touch the border."""
    labels = label(bg.astype(np.uint8), bg, eight=False, same_colour=False)
    edge = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
    out: Features = (bg & ~np.isin(labels, edge)).astype(np.int16)
    return out


def _pieces(a: Array, fg: Mask) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.intp]]:
    labels = label(a, fg, eight=False, same_colour=True)
    # At least one entry, so a grid with no foreground still indexes (every cell then reads 0).
    sizes = np.bincount(labels[fg].ravel(), minlength=max(int(labels.max()) + 1, 1))
    return labels, sizes


def _pieces8(a: Array, r: Features, fg: Mask, kind: str) -> list[Features]:
    """The fields of ``oh``, ``po`` or ``bx``, read off the grid's 8-connected pieces."""
    labels = label(a, fg, eight=True, same_colour=False)
    h, w = r.shape
    ys, xs = _coordinates(r)
    n = int(labels.max()) + 1
    # Each piece's box; background cells (label -1) read a box of their own, never used.
    tops, lefts = np.full(n + 1, h), np.full(n + 1, w)
    bottoms, rights = np.full(n + 1, -1), np.full(n + 1, -1)
    np.minimum.at(tops, labels[fg], ys[fg])
    np.minimum.at(lefts, labels[fg], xs[fg])
    np.maximum.at(bottoms, labels[fg], ys[fg])
    np.maximum.at(rights, labels[fg], xs[fg])
    top, left, bottom, right = tops[labels], lefts[labels], bottoms[labels], rights[labels]
    if kind == "oh":
        vy = np.sign((ys - top) - (bottom - ys)) + 1
        vx = np.sign((xs - left) - (right - xs)) + 1
        return [np.where(fg, vy, _OUT).astype(np.int16), np.where(fg, vx, _OUT).astype(np.int16)]
    if kind == "po":
        return [
            np.where(fg, (ys - top) % 2, _OUT).astype(np.int16),
            np.where(fg, (xs - left) % 2, _OUT).astype(np.int16),
        ]
    out = np.full(r.shape, _OUT, dtype=np.int16)
    for i in range(n):
        # The piece's role: its commonest (the lowest on a tie).
        role = int(np.bincount(r[labels == i]).argmax())
        box = out[tops[i] : bottoms[i] + 1, lefts[i] : rights[i] + 1]
        box[...] = np.where(box == _OUT, role, _MANY)
    return [out]


def features(a: Array, kind: str) -> Features:
    """Each cell's key under ``kind``, as rows of a ``(cells, fields)`` array."""
    r = local._role_grid(a)
    fg = r > 0
    fields: list[Features]
    if kind == "c4":
        near = local._neighbours(r, _SIDES)
        fields = [r, np.sum([(n > 0) for n in near], axis=0, dtype=np.int16)]
    elif kind == "en":
        fields = [r, _enclosed(~fg)]
    elif kind == "p3":
        ys, xs = _coordinates(r)
        fields = [r, ys % 3, xs % 3]
    elif kind == "rc":
        fields = [r, _line_roles(r, 1), _line_roles(r, 0)]
    elif kind == "rb":
        fields = [r, *((x >= 0).astype(np.int16) for x in (_line_roles(r, 1), _line_roles(r, 0)))]
    elif kind == "bt":
        up, down, left, right = local._rays(a, r, ("up", "down", "left", "right"))
        fields = [r, np.where(left == right, left, np.int16(_OUT)), np.where(up == down, up, np.int16(_OUT))]
    elif kind == "pe":
        ys, xs = _coordinates(r)
        fields = [r, (r.shape[0] - 1 - ys) % 2, (r.shape[1] - 1 - xs) % 2]
    elif kind in ("fl", "fr"):
        fields = [r, _first(r, 1, kind == "fr"), _first(r, 0, kind == "fr")]
    elif kind == "ok":
        labels, sizes = _pieces(a, fg)
        big, small = sizes == sizes.max(), sizes == sizes.min()
        rank = (big.astype(np.int16) + 2 * small.astype(np.int16))[np.maximum(labels, 0)]
        fields = [r, np.where(fg, rank, np.int16(_OUT))]
    else:
        fields = [r, *_pieces8(a, r, fg, kind)]
    return np.stack([np.asarray(f, dtype=np.int16) for f in fields], axis=-1).reshape(-1, len(fields))


def _table(
    inputs: Sequence[Array], outputs: Sequence[Array], kind: str, limit: int
) -> tuple[tuple[str, str], ...] | None:
    wanted: dict[str, list[tuple[int, dict[str, int]]]] = {}
    for a, b in zip(inputs, outputs, strict=True):
        named = roles(a)
        for row, colour in zip(features(a, kind).tolist(), b.ravel().tolist(), strict=True):
            wanted.setdefault(local._key(row), []).append((colour, named))
            if len(wanted) > limit:
                return None
    return local.tabulate(wanted)


def _plausible(keys: Features, output: Array, limit: int) -> bool:
    """A fast necessary check on one demonstration: few keys, each wanting one colour there."""
    # Fields lie in -1..99: pack a key into one integer to compare keys at NumPy speed.
    codes = np.zeros(len(keys), dtype=np.int64)
    for column in keys.T:
        codes = codes * 128 + (column.astype(np.int64) + 1)
    distinct = np.unique(codes)
    if len(distinct) > limit:
        return False
    return len(np.unique(codes * 16 + output.ravel())) == len(distinct)


def fit_cellrule(
    inputs: Sequence[Array], outputs: Sequence[Array], test: Array, kind: str
) -> tuple[tuple[str, str], ...] | None:
    """The table of kind ``kind`` that turns every input into its output and knows every test key.

    ``None`` when shapes differ, two cells with one key want different colours, no role or literal
    names a key's colour everywhere, the table is long next to the demonstrations (`MAX_SHARE`,
    `local.MAX_RULES`), it changes nothing, or the test input holds a key it lacks.
    """
    if any(a.shape != b.shape or int(a.max()) >= SENTINEL for a, b in zip(inputs, outputs, strict=True)):
        return None
    cells = sum(a.size for a in inputs)
    limit = min(local.MAX_RULES, int(cells * MAX_SHARE))
    if not all(_plausible(features(a, kind), b, limit) for a, b in zip(inputs, outputs, strict=True)):
        return None
    table = _table(inputs, outputs, kind, limit)
    if table is None or int(test.max()) >= SENTINEL:
        return None
    # Every key of the test input must have been seen in two demonstrations (or the one there
    # is): a key one demonstration alone shows may be what sets that demonstration apart.
    seen = [{local._key(row) for row in np.unique(features(a, kind), axis=0).tolist()} for a in inputs]
    wanted = min(2, len(inputs))
    for row in np.unique(features(test, kind), axis=0).tolist():
        key = local._key(row)
        if sum(key in keys for keys in seen) < wanted:
            return None
    return table


def _apply(kind: str, table: dict[str, str]) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        if int(a.max()) >= SENTINEL:
            return None
        named = roles(a)
        # Look each distinct key up once: a grid has far fewer keys than cells.
        keys, inverse = np.unique(features(a, kind), axis=0, return_inverse=True)
        colours = []
        for row in keys.tolist():
            token = table.get(local._key(row))
            colour = None if token is None else resolve(token, named)
            if colour is None:
                return None
            colours.append(colour)
        return np.array(colours, dtype=np.uint8)[inverse.ravel()].reshape(a.shape)

    return prim


def cellrule_op(kind: str, table: tuple[tuple[str, str], ...]) -> Op:
    """The step ``cellrule(kind){key>value;...}`` for a fitted table."""
    changes = sum(token != f"c{key.split('.')[0]}" for key, token in table)
    body = ";".join(f"{key}>{token}" for key, token in table)
    return Op(f"cellrule({kind}){{{body}}}", CELLRULE_COST + changes / 4, _apply(kind, dict(table)), "same")


def _core_answers(given: FitInput) -> bool:
    """Whether a core `local` table already fits the demonstrations and knows the test input."""
    demos = given.inputs[: given.n]
    test = given.inputs[given.n]
    for kind in local.KINDS:
        table = local.fit_local(demos, given.outputs, kind)
        if table is not None and local.local_op(kind, table)(test, given.contexts[given.n]) is not None:
            return True
    return False


def _fit(given: FitInput) -> Sequence[Op]:
    demos = given.inputs[: given.n]
    if any(a.shape != b.shape for a, b in zip(demos, given.outputs, strict=True)):
        return []
    for kind in KINDS:
        table = fit_cellrule(demos, given.outputs, given.inputs[given.n], kind)
        if table is not None:
            # Checked last as it costs most: a core table that answers says it more simply.
            return [] if _core_answers(given) else [cellrule_op(kind, table)]
    return []


def parse_cellrule(text: str) -> Op | None:
    """The cell-rule step written as ``text``, or ``None`` when it is malformed."""
    return local.parse_table(text, "cellrule", _FIELDS, cellrule_op)


FITTER = Fitter(
    "cellrule(",
    {f"cellrule({kind})": CELLRULE_COST for kind in KINDS},
    _fit,
    parse_cellrule,
)
"""The wide catalogue's cell rules (`KINDS`), fitted from the demonstrations."""
