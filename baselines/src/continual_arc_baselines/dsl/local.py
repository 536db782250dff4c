"""Local rules: each cell's new colour read from a table keyed by what surrounds it.

A rule of kind ``b4`` keys a cell by its own colour and whether each of its four neighbours is
foreground; ``r4`` by its colour and the colours the nearest foreground cells up, down, left and
right would cast on it; and so on (`KINDS`). Colours in keys are *roles* of the grid (``0``
its most frequent colour, ``1`` the next), so a table fitted on one palette answers another, as
Re-ARC's recoloured pairs need; a table's value is a role (``c2``) or a literal colour (``5``).

The table is fitted from the demonstrations (`fit_local`) and written into the step's text,
``local(b4){0.1.0.0.1>c1;...}``, so the program runs on a new grid with no demonstrations. A cell
whose key the table lacks makes the step not apply: a rule answers only what it has seen.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
import numpy.typing as npt

from .colours import ROLES, resolve, roles
from .family import Op, Prim
from .grid import SENTINEL, Array, Context, ranked_colours
from .rays import ray

__all__ = [
    "KINDS",
    "LOCAL_COST",
    "MAX_RULES",
    "fit_local",
    "local_op",
    "local_ops",
    "parse_local",
    "parse_table",
    "tabulate",
]

Features = npt.NDArray[np.int16]

KINDS = ("b4", "b8", "c8", "n4", "n8", "r4", "rb4", "rx", "p2")
"""The keys a rule may read: neighbour foreground bits (4 or 8), the count of foreground
neighbours, the four or eight neighbours' roles, the roles of the rays arriving from the four
sides, whether rays arrive, the roles of the diagonal rays, and the parity of the cell's row and
column."""

_FIELDS = {"b4": 5, "b8": 9, "c8": 2, "n4": 5, "n8": 9, "r4": 5, "rb4": 5, "rx": 5, "p2": 3}
"""How many dot-joined fields a key of each kind has."""

MAX_RULES = 48
"""The most entries a table may have: a longer one describes the demonstrations, not a rule."""

LOCAL_COST = 3
"""The base cost of a local rule; each entry that changes a colour adds a quarter bit."""

_OUT = -1
_SIDES = ((-1, 0), (1, 0), (0, -1), (0, 1))
_CORNERS = ((-1, -1), (-1, 1), (1, -1), (1, 1))


def _role_grid(a: Array) -> Features:
    out: Features = _role_lookup(a)[a]
    return out


def _neighbours(r: Features, offsets: Sequence[tuple[int, int]]) -> list[Features]:
    p = np.pad(r, 1, constant_values=_OUT)
    h, w = r.shape
    return [p[1 + dy : 1 + dy + h, 1 + dx : 1 + dx + w] for dy, dx in offsets]


def _rays(a: Array, r: Features, directions: Sequence[str]) -> list[Features]:
    bg = ranked_colours(a)[0]
    table = np.concatenate([np.full(1, _OUT, dtype=np.int16), _role_lookup(a)])
    return [table[ray(a, bg, d).astype(np.intp) + 1] * (r == 0) + _OUT * (r != 0) for d in directions]


def _role_lookup(a: Array) -> Features:
    table = np.full(256, _OUT, dtype=np.int16)
    for rank, colour in enumerate(ranked_colours(a)):
        table[colour] = rank
    return table


def features(a: Array, kind: str) -> Features:
    """Each cell's key under ``kind``, as rows of a ``(cells, fields)`` array."""
    r = _role_grid(a)
    fg = [(n > 0).astype(np.int16) for n in _neighbours(r, (*_SIDES, *_CORNERS))]
    fields: list[Features]
    if kind == "b4":
        fields = [r, *fg[:4]]
    elif kind == "b8":
        fields = [r, *fg]
    elif kind == "c8":
        fields = [r, np.sum(fg, axis=0, dtype=np.int16)]
    elif kind == "n4":
        fields = [r, *_neighbours(r, _SIDES)]
    elif kind == "n8":
        fields = [r, *_neighbours(r, (*_SIDES, *_CORNERS))]
    elif kind == "p2":
        ys, xs = np.indices(r.shape, dtype=np.int16)
        fields = [r, np.asarray(ys % 2, dtype=np.int16), np.asarray(xs % 2, dtype=np.int16)]
    elif kind == "r4":
        fields = [r, *_rays(a, r, ("up", "down", "left", "right"))]
    elif kind == "rb4":
        fields = [r, *((x >= 0).astype(np.int16) for x in _rays(a, r, ("up", "down", "left", "right")))]
    else:
        fields = [r, *_rays(a, r, ("ul", "ur", "dl", "dr"))]
    return np.stack(fields, axis=-1).reshape(-1, len(fields))


def _key(row: Sequence[int]) -> str:
    return ".".join("x" if v < 0 else str(v) for v in row)


def _value_token(seen: list[tuple[int, dict[str, int]]]) -> str | None:
    for token in (*ROLES, *(str(c) for c in range(SENTINEL))):
        if all(resolve(token, named) == colour for colour, named in seen):
            return token
    return None


def fit_local(
    inputs: Sequence[Array], outputs: Sequence[Array], kind: str
) -> tuple[tuple[str, str], ...] | None:
    """The table of kind ``kind`` that turns every input into its output, if one does.

    ``None`` when two cells with one key want different colours, no single role or literal names
    a key's colour in every demonstration, the table has more than `MAX_RULES` entries, or
    it changes nothing.
    """
    wanted: dict[str, list[tuple[int, dict[str, int]]]] = {}
    for a, b in zip(inputs, outputs, strict=True):
        if a.shape != b.shape or int(a.max()) >= SENTINEL:
            return None
        named = roles(a)
        for row, colour in zip(features(a, kind).tolist(), b.ravel().tolist(), strict=True):
            wanted.setdefault(_key(row), []).append((colour, named))
            if len(wanted) > MAX_RULES:
                return None
    return tabulate(wanted)


def tabulate(wanted: Mapping[str, list[tuple[int, dict[str, int]]]]) -> tuple[tuple[str, str], ...] | None:
    """The table of one token per key for the colours each key wants (with the roles they were read in).

    ``None`` when a key wants no single token, or when no entry changes a cell's colour.
    """
    table = []
    for key in sorted(wanted):
        token = _value_token(wanted[key])
        if token is None:
            return None
        table.append((key, token))
    if all(token == f"c{key.split('.')[0]}" for key, token in table):
        return None
    return tuple(table)


def _apply(kind: str, table: dict[str, str]) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        if int(a.max()) >= SENTINEL:
            return None
        named = roles(a)
        out = []
        for row in features(a, kind).tolist():
            token = table.get(_key(row))
            colour = None if token is None else resolve(token, named)
            if colour is None:
                return None
            out.append(colour)
        return np.array(out, dtype=np.uint8).reshape(a.shape)

    return prim


def local_op(kind: str, table: tuple[tuple[str, str], ...]) -> Op:
    """The step ``local(kind){key>value;...}`` for a fitted table."""
    changes = sum(token != f"c{key.split('.')[0]}" for key, token in table)
    body = ";".join(f"{key}>{token}" for key, token in table)
    return Op(f"local({kind}){{{body}}}", LOCAL_COST + changes / 4, _apply(kind, dict(table)), "same")


def parse_local(text: str) -> Op | None:
    """The local-rule step written as ``text``, or ``None`` when it is malformed."""
    return parse_table(text, "local", _FIELDS, local_op)


def parse_table(
    text: str, name: str, fields: Mapping[str, int], make: Callable[[str, tuple[tuple[str, str], ...]], Op]
) -> Op | None:
    """The table step ``name(kind){key>token;...}`` written as ``text``, or ``None`` when it is malformed.

    ``fields`` gives each kind the step knows its keys' field count; ``make`` builds the step, whose
    text must read back as ``text``.
    """
    head, _, body = text.partition("){")
    kind = head.removeprefix(f"{name}(")
    if kind not in fields or not body.endswith("}"):
        return None
    table = []
    for item in body[:-1].split(";"):
        key, sep, token = item.partition(">")
        if not sep or not _valid_key(key, fields[kind]) or not _valid_token(token):
            return None
        table.append((key, token))
    op = make(kind, tuple(table))
    return op if op.text == text else None


def _valid_key(key: str, fields: int) -> bool:
    parts = key.split(".")
    return len(parts) == fields and all(p == "x" or (p.isdigit() and len(p) <= 2) for p in parts)


def _valid_token(token: str) -> bool:
    return token in ROLES or (token.isdigit() and int(token) < SENTINEL and token == str(int(token)))


def local_ops(inputs: Sequence[Array], outputs: Sequence[Array]) -> list[Op]:
    """The local rule of each kind in `KINDS` that turns every input into its output, in that order."""
    tables = ((kind, fit_local(inputs, outputs, kind)) for kind in KINDS)
    return [local_op(kind, table) for kind, table in tables if table is not None]
