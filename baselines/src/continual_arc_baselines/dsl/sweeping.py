"""Sweeping: a figure grown line by line from one seed line, each new line read off one before it.

Some tasks seed one line (a row of coloured cells) and let it grow, as a one-dimensional cellular
automaton unrolled down the grid: every cell of the next line takes the colour a fitted table gives
for the cells above it. ``sweep(dir,gap,kind){key>value;...}`` does this:

* ``dir``: which way the figure grows (``down``, ``up``, ``right``, ``left``, or both ways:
  ``vert`` down and up, ``horiz`` right and left, one table read as if each side grew down) from
  its *seed*, the one line of the input holding foreground cells (a grid with more does not apply).
* ``gap``: ``1``, every line after the seed is made from the line just before it; ``2``, every
  second line is made from the line two before it, the lines between left as they are.
* ``kind``: what a cell's key reads on the line it is made from: ``lcr`` the cells up-left, up and
  up-right of it, ``lr`` the two diagonal ones only (the cell between them is not read).

Keys and values are literal colours (``x`` for beyond the grid's edge). The seed is kept, and so
are the lines a one-way sweep leaves behind it. The table is fitted from the demonstrations (every
made line of every output must agree with it, and every line the sweep does not make must equal
the input's). Only the entries that draw a colour are written: a key the table lacks makes the
grid's background, as the demonstrations' keys that make background do (a grown figure is
background wherever no rule draws). A key that makes background in one demonstration and draws
in another fits no table.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .catalogue import FitInput, Fitter, changing_answers
from .family import Op, Prim
from .grid import SENTINEL, Array, Context, bg_for

__all__ = ["DIRS", "FITTER", "GAPS", "KINDS", "SWEEP_COST", "fit_sweep", "parse_sweep", "sweep_op", "swept"]

DIRS = ("down", "up", "right", "left", "vert", "horiz")
"""Which way the figure grows from its seed line."""

GAPS = ("1", "2")
"""How many lines back a made line reads."""

KINDS = ("lcr", "lr")
"""What a key reads: the three cells above a cell, or only the two diagonal ones."""

SWEEP_COST = 4.0
"""The base cost of a sweep: a fitted table, dearer than the local rules (it is applied line by line)."""

_MAX_ENTRIES = 32
"""A table longer than this describes the demonstrations instead of a rule."""

_OUT = 10
"""The colour a key reads beyond the grid's edge (no colour is 10)."""

_BASE = 11
"""The radix a key's cells are packed in: ten colours and the edge."""

_BG = 10
"""A fitted value standing for the grid's background, whatever colour that is."""

_VALUES = 11
"""The radix a value is packed in beside its key: ten colours and the background."""

AnyGrid = npt.NDArray[Any]
"""A grid of any cell type (colours, a mask, wide integers): a turned view keeps it."""

_PARTS = {"vert": ("down", "up"), "horiz": ("right", "left")}
"""The two-way sweeps: the seed line grows to both sides by one table."""


def _parts(direction: str) -> tuple[str, ...]:
    """The one-way sweeps a direction makes."""
    return _PARTS.get(direction, (direction,))


def _oriented(a: AnyGrid, direction: str) -> AnyGrid:
    """A view of ``a`` turned so that the sweep runs down its rows (writes reach ``a``)."""
    if direction == "down":
        return a
    if direction == "up":
        return a[::-1]
    if direction == "right":
        return a.T
    return a.T[::-1]


def _keys(lines: Array, kind: str) -> Array:
    """Per cell of each of ``lines`` (one line a row), the packed key it gives the cell below."""
    n, w = lines.shape
    pad = np.full((n, w + 2), _OUT, dtype=np.int64)
    pad[:, 1:-1] = lines
    left, mid, right = pad[:, :-2], pad[:, 1:-1], pad[:, 2:]
    if kind == "lr":
        return left * _BASE + right
    return (left * _BASE + mid) * _BASE + right


def _seed(v: Array, bg: int) -> int | None:
    """The one row of ``v`` holding foreground cells, or ``None`` when none or several do.

    A figure grown from one line starts as that line alone: a grid with more drawn already is
    some other task, which a table would fit only by describing it.
    """
    rows = np.nonzero((v != bg).any(axis=1))[0]
    return int(rows[0]) if rows.size == 1 else None


def _fit_one(a: Array, b: Array, bg: int, direction: str, gap: int, kind: str) -> dict[int, int] | None:
    """The entries one demonstration fixes, or ``None`` when its output is no sweep of its input."""
    if a.shape != b.shape:
        return None
    made = np.zeros(a.shape, dtype=bool)
    seeds = []
    for part in _parts(direction):
        seed = _seed(_oriented(a, part), bg)
        if seed is None:
            return None
        _oriented(made, part)[seed + gap :: gap] = True
        seeds.append(seed)
    if not made.any() or not np.array_equal(a[~made], b[~made]):
        return None
    keys, values = [], []
    for part, seed in zip(_parts(direction), seeds, strict=True):
        u = _oriented(b, part)
        rows = np.arange(seed + gap, u.shape[0], gap)
        keys.append(_keys(u[rows - gap].astype(np.int64), kind).ravel())
        values.append(u[rows].astype(np.int64).ravel())
    key, value = np.concatenate(keys), np.concatenate(values)
    value[value == bg] = _BG  # the grid's own background, whatever colour it is
    pairs = np.unique(key * _VALUES + value)
    if np.unique(pairs // _VALUES).size != pairs.size:
        return None  # one key wants two colours
    return {int(p // _VALUES): int(p % _VALUES) for p in pairs}


def _key_text(key: int, kind: str) -> str:
    """A packed key written as its cells' colours (``x`` beyond the edge), joined by dots."""
    cells = []
    for _ in range(3 if kind == "lcr" else 2):
        key, cell = divmod(key, _BASE)
        cells.append("x" if cell == _OUT else str(cell))
    return ".".join(reversed(cells))


def swept(a: Array, bg: int, direction: str, gap: int, kind: str, table: dict[int, int]) -> Array | None:
    """``a`` grown from its seed line by ``table`` (see the module), or ``None`` without a seed.

    A key the table lacks makes background: a table lists only the keys that draw.
    """
    size = _BASE ** (3 if kind == "lcr" else 2)
    lookup = np.full(size, bg, dtype=np.int64)
    for key, value in table.items():
        lookup[key] = value
    out = a.astype(np.int64)
    for part in _parts(direction):
        seed = _seed(_oriented(a, part), bg)
        if seed is None:
            return None
        v = _oriented(out, part)  # a view: the lines made are written into ``out``
        for row in range(seed + gap, v.shape[0], gap):
            v[row] = lookup[_keys(v[row - gap][None, :], kind)[0]]
    return out.astype(a.dtype)


def _parse_entries(body: str, kind: str) -> dict[int, int] | None:
    """The packed table a text body ``key>value;...`` names, or ``None`` when it is malformed."""
    table: dict[int, int] = {}
    width = 3 if kind == "lcr" else 2
    for item in body.split(";"):
        key, sep, value = item.partition(">")
        cells = key.split(".")
        if not sep or len(cells) != width or not value.isdigit() or int(value) >= SENTINEL:
            return None
        packed = 0
        for cell in cells:
            if cell != "x" and not (cell.isdigit() and int(cell) < SENTINEL):
                return None
            packed = packed * _BASE + (_OUT if cell == "x" else int(cell))
        table[packed] = int(value)
    return table


def _apply(direction: str, gap: int, kind: str, table: dict[int, int]) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        if int(a.max()) >= SENTINEL:
            return None
        return swept(a, bg_for(a, ctx), direction, gap, kind, table)

    return prim


def sweep_op(direction: str, gap: str, kind: str, table: dict[int, int]) -> Op:
    """The step ``sweep(dir,gap,kind){key>value;...}`` for a fitted table."""
    body = ";".join(f"{_key_text(key, kind)}>{table[key]}" for key in sorted(table))
    cost = SWEEP_COST + len(table) / 16
    text = f"sweep({direction},{gap},{kind}){{{body}}}"
    return Op(text, cost, _apply(direction, int(gap), kind, table), "same")


def fit_sweep(given: FitInput) -> list[Op]:
    """The sweeps whose one table reproduces every demonstration and changes the test input."""
    if not given.keeps_size:
        return []
    pairs = [
        (a, b, bg_for(a, ctx))
        for a, b, ctx in zip(given.inputs[: given.n], given.outputs, given.contexts[: given.n], strict=True)
    ]
    if any(int(a.max()) >= SENTINEL or np.array_equal(a, b) for a, b, _ in pairs):
        return []
    found = []
    for direction in DIRS:
        for gap in GAPS:
            for kind in KINDS:
                table: dict[int, int] = {}
                for a, b, bg in pairs:
                    entries = _fit_one(a, b, bg, direction, int(gap), kind)
                    if entries is None or any(table.get(k, v) != v for k, v in entries.items()):
                        break
                    table.update(entries)
                else:
                    # Only the entries that draw are written: any other key makes background.
                    drawn = {key: value for key, value in table.items() if value != _BG}
                    if 0 < len(drawn) <= _MAX_ENTRIES:
                        found.append(sweep_op(direction, gap, kind, drawn))
    return changing_answers(given, found)


def parse_sweep(text: str) -> Op | None:
    """The sweep written as ``text``, or ``None`` when it is malformed."""
    head, sep, body = text.partition("){")
    args = head.removeprefix("sweep(").split(",")
    if not (text.startswith("sweep(") and sep and body.endswith("}")) or len(args) != 3:
        return None
    direction, gap, kind = args
    if direction not in DIRS or gap not in GAPS or kind not in KINDS:
        return None
    table = _parse_entries(body[:-1], kind)
    if table is None:
        return None
    op = sweep_op(direction, gap, kind, table)
    return op if op.text == text else None


FITTER = Fitter(
    "sweep(",
    {f"sweep({d},{g},{k})": SWEEP_COST for d in DIRS for g in GAPS for k in KINDS},
    fit_sweep,
    parse_sweep,
)
"""The fitter of sweeps (in ``wide``, the default)."""
