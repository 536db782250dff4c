"""Outputs whose size or content a count decides, fitted from the demonstrations.

One fitted step, ``count(KIND,LAYOUT){...}``, reads a number or a colour off its grid and lays it
out as the demonstrations' outputs do. The fitter (`FITTER`) first reads from the outputs alone
what each must say (a row of 4 cells: the number 4 in that colour), then looks for the first
`KINDS` entry whose value on every demonstration input is that number, and writes the colours as
roles of the program's input where it can (`colours.ROLES`; ``k`` is the colour counted), so
``count(o8,diag){c1,c0}`` runs on a new grid with no demonstrations.

Numbers (`KINDS`): objects (``o8``, ``o4``: single-colour components; ``m8``, ``m4``:
multicolour), foreground ``cells``, foreground ``colours``, and the objects or cells of one colour
(``o8@c2``, ``cells@3``; ``p8@1``: its objects of more than one cell). Layouts of a number ``N``:
``row`` (1 x N), ``col`` (N x 1), ``square`` (N x N), ``diag`` (N x N, the diagonal painted),
``first`` (a fixed shape whose first N cells in reading order are painted) and ``table`` (a fixed
grid for each number the demonstrations show, ``count(o4,table){3x3,1:100000000,2:101000000}``; a
number they never show makes it not apply, and a table is fitted only when the demonstrations
repeat their numbers twice over).

Layouts of colours, chosen by counting: ``solid`` (a fixed shape of one colour: the colour of the
largest object ``big8``, of the largest box ``box8``, of the most or fewest objects
``most8``/``few8``, or a role);
``rank`` (the foreground colours by their count of cells, the commonest first, less the first K),
``cols``/``rows`` (a histogram: one bar per colour, as long as its count of cells), ``sizes`` (a
column of one cell per object in its colour, the largest first: ``tallysize`` stood up) and
``bars`` (one column per largest object, in its colour, as tall as it is large, left to right).

The number must differ between demonstrations (a count that never changes says nothing), and a
colour chosen by counting must too, so the step is fitted only where counting is what the
demonstrations show.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from .catalogue import FitInput, Fitter
from .colours import ROLES, roles
from .family import Op
from .grid import SENTINEL, Array, Context, bg_for, colour_counts, counts_without, ranked_colours
from .objects import choose, objects

__all__ = [
    "COUNT_COST",
    "FITTER",
    "KINDS",
    "LAYOUTS",
    "SELECTORS",
    "colour_token",
    "count_op",
    "fit_count",
    "parse_count",
]

COUNT_COST = 3.0
"""The base cost of a counting step; each literal colour it writes adds half a bit."""

_OBJECT_COUNTS = ("o8", "o4", "m8", "m4")
_TOTALS = (*_OBJECT_COUNTS, "cells", "colours")
_KEYS = (*ROLES[1:], *(str(c) for c in range(SENTINEL)))
"""The colours a count may be restricted to: a role of the program's input (not the background
``c0``), or a literal colour."""

KINDS: tuple[str, ...] = (*_TOTALS, *(f"{k}@{r}" for k in ("o8", "o4", "cells", "p8", "p4") for r in _KEYS))
"""What a count counts, in the order the fitter prefers them."""

_TABLE_KEYS = (*KINDS, "main")
"""What a table may be keyed by: a count, or the main foreground colour (a case per colour)."""

LAYOUTS = ("row", "col", "square", "diag", "first")
"""How a number is laid out."""

_CHOSEN = ("small", "holes", "odd", "rare", "sym", "asym")
_SELECTED: dict[str, tuple[str, str]] = {
    **{f"{what}{mode}": (what, mode) for what in ("big", "box", "most", "few") for mode in ("8", "4")},
    **{f"{prop}{mode}": (prop, mode) for prop in _CHOSEN for mode in ("8", "4")},
    "manym8": ("many", "m8"),
    "manym4": ("many", "m4"),
}
SELECTORS = tuple(_SELECTED)
"""Colours chosen by counting: of the one largest object (by cells, or by bounding box), of the
most objects, of the fewest; then the colour of the one object `objects.choose` picks (the
smallest, the one with holes, the odd shape out, ...; ``many``: of the most colours)."""

_PER_LAYOUT = 2
"""The most kinds fitted per layout: more would be coincidences of small numbers."""

Number = tuple[int, int]
"""A count and the colour it counted (the main foreground colour for a count of every colour)."""


def _resolve(token: str, ctx: Context) -> int | None:
    if token[0] == "c":
        return roles(ctx.original).get(token)
    return int(token)


def number(kind: str, a: Array, ctx: Context) -> Number | None:
    """The value of count ``kind`` on grid ``a`` and the colour it counted (``None``: no such colour)."""
    bg = bg_for(a, ctx)
    fg = counts_without(a, bg)
    main = int(np.argmax(fg))
    what, _, key = kind.partition("@")
    if not key:
        if what == "cells":
            return int(fg.sum()), main
        if what == "colours":
            return int(np.count_nonzero(fg)), main
        if what == "main":
            return (main, main) if fg.any() else None
        return len(objects(a, bg, what)), main
    colour = _resolve(key, ctx)
    if colour is None:
        return None
    if what == "cells":
        return int(np.count_nonzero(a == colour)), colour
    objs = objects(a, bg, what[1:])
    mine = objs.colours == colour
    if what[0] == "p":  # only the objects of more than one cell: blocks among specks
        mine &= objs.sizes > 1
    return int(np.count_nonzero(mine)), colour


def _lay(layout: str, n: int, f: int, b: int, shape: tuple[int, int]) -> Array | None:
    """The grid a layout makes of the number ``n`` in colour ``f`` on ``b``."""
    if layout == "first":
        h, w = shape
        if not 0 <= n <= h * w:
            return None
        flat = np.full(h * w, b, dtype=np.uint8)
        flat[:n] = f
        return flat.reshape(h, w)
    if not 0 < n <= 30:
        return None
    if layout == "row":
        return np.full((1, n), f, dtype=np.uint8)
    if layout == "col":
        return np.full((n, 1), f, dtype=np.uint8)
    if layout == "square":
        return np.full((n, n), f, dtype=np.uint8)
    return np.where(np.eye(n, dtype=bool), np.uint8(f), np.uint8(b)).astype(np.uint8)


def _paint(token: str, ctx: Context, counted: int) -> int | None:
    return counted if token == "k" else _resolve(token, ctx)


def _select(selector: str, a: Array, ctx: Context) -> int | None:
    """The colour a selector chooses on ``a``, or ``None`` when no one colour is chosen."""
    if selector[0] == "c" or selector.isdigit():
        return _resolve(selector, ctx)
    prop, mode = _SELECTED[selector]
    objs = objects(a, bg_for(a, ctx), mode)
    if len(objs) == 0:
        return None
    if prop in (*_CHOSEN, "many"):
        chosen = choose(a, objs, prop)
        return None if chosen is None else int(objs.colours[chosen])
    if prop in ("big", "box"):
        sizes = objs.sizes if prop == "big" else (objs.bottoms - objs.tops) * (objs.rights - objs.lefts)
        top = np.flatnonzero(sizes == sizes.max())
        colours = np.unique(objs.colours[top])
        return int(colours[0]) if len(colours) == 1 else None
    per = np.bincount(objs.colours, minlength=SENTINEL)
    present = np.flatnonzero(per)
    values = per[present] if prop == "most" else -per[present]
    best = present[values == values.max()]
    return int(best[0]) if len(best) == 1 else None


def _ranked(a: Array, ctx: Context, everything: bool) -> list[tuple[int, int]]:
    """The colours by their count of cells, the commonest first (ties: the lower colour)."""
    bg = bg_for(a, ctx)
    counts = colour_counts(a)
    return [(c, int(counts[c])) for c in ranked_colours(a) if everything or c != bg]


def _histogram(a: Array, ctx: Context, everything: bool, fill: int, rows: bool) -> Array | None:
    ranked = _ranked(a, ctx, everything)
    if not ranked or ranked[0][1] > 30:
        return None
    out = np.full((ranked[0][1], len(ranked)), fill, dtype=np.uint8)
    for j, (colour, n) in enumerate(ranked):
        out[:n, j] = colour
    return out.T if rows else out


def _bars(a: Array, ctx: Context, mode: str) -> Array | None:
    objs = objects(a, bg_for(a, ctx), mode)
    if len(objs) == 0:
        return None
    top = np.flatnonzero(objs.sizes == objs.sizes.max())
    top = top[np.argsort(objs.lefts[top], kind="stable")]
    return np.tile(objs.colours[top].astype(np.uint8), (int(objs.sizes.max()), 1))


def _sizes_column(a: Array, ctx: Context, mode: str) -> Array | None:
    objs = objects(a, bg_for(a, ctx), mode)
    if not 0 < len(objs) <= 30:
        return None
    order = np.argsort(-objs.sizes, kind="stable")  # the largest first; equal sizes in reading order
    return objs.colours[order].astype(np.uint8).reshape(-1, 1)


def _rank(a: Array, ctx: Context, skip: int, rows: bool) -> Array | None:
    colours = [c for c, _ in _ranked(a, ctx, everything=False)][skip:]
    if not colours:
        return None
    column = np.array([colours], dtype=np.uint8)
    return column if rows else column.T


def _cost(kind: str, layout: str, constants: Sequence[str]) -> float:
    # A colour literal transfers worse than a role, and a count kept to one colour says more than
    # a count of everything; a colour chosen whole (``solid``) says less than a number laid out.
    literal = () if layout in ("solid", "rank", "rankrow") else constants[:2]
    restricted = 0.5 if "@" in kind else 0.0
    whole = -0.5 if layout == "solid" else 0.0
    return COUNT_COST + 0.5 * sum(c.isdigit() for c in literal) + restricted + whole


def count_op(kind: str, layout: str, constants: Sequence[str], kept: bool = False) -> Op | None:
    """The step ``count(kind,layout){constants}``; ``None`` when the parts do not make one.

    ``kept``: the demonstrations it was fitted on keep their grids' shape, so the search should try
    it where it tries shape-keeping steps (a fixed shape is the input's there); the text is the same.
    """
    text = f"count({kind},{layout}){{{','.join(constants)}}}"
    prim: Callable[[Array, Context], Array | None]
    if layout in LAYOUTS:
        sized = layout == "first"
        if kind not in KINDS or len(constants) != (4 if sized else 2 if layout == "diag" else 1):
            return None
        paint, ground = constants[0], constants[1] if len(constants) > 1 else "c0"
        if not _valid_colour(paint, True) or not _valid_colour(ground, False):
            return None
        shape = (int(constants[2]), int(constants[3])) if sized and _sizes(constants[2:]) else (0, 0)
        if sized and shape == (0, 0):
            return None

        def numbered(a: Array, ctx: Context) -> Array | None:
            counted = number(kind, a, ctx)
            if counted is None:
                return None
            f, b = _paint(paint, ctx, counted[1]), _resolve(ground, ctx)
            return None if f is None or b is None else _lay(layout, counted[0], f, b, shape)

        prim = numbered
    elif layout == "table":
        table = _table(kind, constants)
        if table is None:
            return None
        shape, grids = table

        def lookup(a: Array, ctx: Context) -> Array | None:
            counted = number(kind, a, ctx)
            return None if counted is None else grids.get(counted[0])

        # Priced as one idea, however many entries: a dearer table is never reached within the budget.
        return Op(text, COUNT_COST + 1, lookup, "same" if kept else "other")
    elif layout == "solid":
        if kind not in (*SELECTORS, *ROLES) or len(constants) != 2 or not _sizes(constants):
            return None
        h, w = int(constants[0]), int(constants[1])

        def solid(a: Array, ctx: Context) -> Array | None:
            colour = _select(kind, a, ctx)
            return None if colour is None else np.full((h, w), colour, dtype=np.uint8)

        prim = solid
    elif layout in ("cols", "rows") and kind in ("all", "fg"):
        if len(constants) != 1 or not _valid_colour(constants[0], False):
            return None
        fill_token, everything, rows = constants[0], kind == "all", layout == "rows"

        def histogram(a: Array, ctx: Context) -> Array | None:
            fill = _resolve(fill_token, ctx)
            return None if fill is None else _histogram(a, ctx, everything, fill, rows)

        prim = histogram
    elif layout in ("rank", "rankrow") and kind == "cells":
        if list(constants) not in (["1"], ["2"]):
            return None
        skip, rows = int(constants[0]), layout == "rankrow"
        prim = lambda a, ctx: _rank(a, ctx, skip, rows)  # noqa: E731
    elif layout == "sizes" and kind in _OBJECT_COUNTS:
        if constants:
            return None
        mode = kind[1:] if kind[0] == "o" else kind
        prim = lambda a, ctx: _sizes_column(a, ctx, mode)  # noqa: E731
    elif layout == "bars" and kind in ("big8", "big4"):
        if constants:
            return None
        mode = kind[-1]
        prim = lambda a, ctx: _bars(a, ctx, mode)  # noqa: E731
    else:
        return None
    return Op(text, _cost(kind, layout, constants), prim, "same" if kept else "other")


def _table(kind: str, constants: Sequence[str]) -> tuple[tuple[int, int], dict[int, Array]] | None:
    """A table's shape and its grid per number, read from its constants (``None``: malformed)."""
    if kind not in _TABLE_KEYS or len(constants) < 2:
        return None
    h, _, w = constants[0].partition("x")
    if not _sizes((h, w)):
        return None
    shape = (int(h), int(w))
    grids: dict[int, Array] = {}
    for entry in constants[1:]:
        key, _, cells = entry.partition(":")
        if not key.isdigit() or len(cells) != shape[0] * shape[1] or not cells.isdigit():
            return None
        grids[int(key)] = np.array([int(c) for c in cells], dtype=np.uint8).reshape(shape)
    if len(grids) != len(constants) - 1:
        return None
    return shape, grids


def _fit_table(given: FitInput, numbers: dict[str, list[Number | None]]) -> list[Op]:
    """The first count whose value names each output, with two repeats at least, and the test's seen.

    Two repeats: on three demonstrations a table would be a guess (one repeat is a coincidence of
    small numbers as often as not), so it waits for tasks that show their cases again and again.
    """
    outputs, n = given.outputs, given.n
    if len({o.shape for o in outputs}) != 1 or len({o.tobytes() for o in outputs}) < 2:
        return []
    for kind in _TABLE_KEYS:
        values = _numbers(kind, given, numbers)
        if any(v is None for v in values):
            continue
        keys = [v[0] for v in values if v is not None]
        table: dict[int, bytes] = {}
        if any(table.setdefault(k, o.tobytes()) != o.tobytes() for k, o in zip(keys, outputs, strict=False)):
            continue
        if n - len(table) < 2 or keys[n] not in table or len(table) < 2:
            continue  # values seen twice, twice over, are evidence; an unseen test value has no answer
        h, w = outputs[0].shape
        first = {k: o for k, o in zip(keys, outputs, strict=False)}
        entries = [f"{k}:{''.join(str(int(c)) for c in first[k].ravel())}" for k in sorted(first)]
        op = count_op(kind, "table", [f"{h}x{w}", *entries], _kept(given))
        if op is not None:
            return [op]
    return []


def _valid_colour(token: str, paint: bool) -> bool:
    return token in ROLES or (token.isdigit() and int(token) < SENTINEL) or (paint and token == "k")


def _sizes(tokens: Sequence[str]) -> bool:
    return all(t.isdigit() and 0 < int(t) <= 30 for t in tokens)


def colour_token(wanted: Sequence[int], ctxs: Sequence[Context], counted: Sequence[int] | None) -> str | None:
    """The first token naming colour ``wanted[i]`` in every demonstration: ``k``, a role, a literal."""
    if not wanted:
        return "c0"  # nothing shows the colour: the background, which it most often is
    if counted is not None and list(counted) == list(wanted):
        return "k"
    named = [roles(c.original) for c in ctxs]
    for role in ROLES:
        if all(n.get(role) == w for n, w in zip(named, wanted, strict=True)):
            return role
    return str(wanted[0]) if len(set(wanted)) == 1 else None


def _read(layout: str, out: Array) -> tuple[int, int, int | None] | None:
    """What an output says under a layout: its number, its painted colour, its ground (if any)."""
    h, w = out.shape
    values = np.unique(out)
    if layout in ("row", "col", "square"):
        fits = {"row": h == 1, "col": w == 1, "square": h == w}[layout]
        return (w if layout == "row" else h, int(values[0]), None) if fits and len(values) == 1 else None
    if layout == "diag":
        if h != w:
            return None
        if h == 1:
            return 1, int(out[0, 0]), None
        eye = np.eye(h, dtype=bool)
        on, off = np.unique(out[eye]), np.unique(out[~eye])
        if len(on) != 1 or len(off) != 1 or on[0] == off[0]:
            return None
        return h, int(on[0]), int(off[0])
    return None


def _fit_numbers(given: FitInput, numbers: dict[str, list[Number | None]]) -> list[Op]:
    ctxs, outputs, n = given.contexts, given.outputs, given.n
    found: list[Op] = []
    for layout in ("row", "col", "square", "diag"):
        said = [_read(layout, o) for o in outputs]
        if any(s is None for s in said):
            continue
        read = [s for s in said if s is not None]
        if len({s[0] for s in read}) < 2:
            continue  # a number that never changes is not a count
        fitted = 0
        for kind in KINDS:
            values = _numbers(kind, given, numbers)
            if (
                any(v is None or v[0] != s[0] for v, s in zip(values[:n], read, strict=True))
                or values[n] is None
            ):
                continue
            counted = [v[1] for v in values[:n] if v is not None]
            paint = colour_token([s[1] for s in read], ctxs[:n], counted)
            grounds = [s[2] for s in read]
            ground = "c0"
            if layout == "diag":
                known = [(g, c) for g, c in zip(grounds, ctxs, strict=False) if g is not None]
                ground_token = colour_token([g for g, _ in known], [c for _, c in known], None)
                if ground_token is None:
                    continue
                ground = ground_token
            if paint is None:
                continue
            constants = [paint]
            if layout == "diag":
                constants.append(ground)
            op = count_op(kind, layout, constants)
            if op is not None and _reproduces(op, given):
                found.append(op)
                fitted += 1
                if fitted == _PER_LAYOUT:
                    break
    return found + _fit_first(given, numbers)


def _fit_first(given: FitInput, numbers: dict[str, list[Number | None]]) -> list[Op]:
    """Fixed-shape outputs whose first N cells in reading order are painted, N a count.

    Read per count, not from the outputs alone: an output of one colour is all painted or all
    ground, and only the count says which.
    """
    ctxs, outputs, n = given.contexts, given.outputs, given.n
    if len({o.shape for o in outputs}) != 1 or outputs[0].size < 2:
        return []
    h, w = outputs[0].shape
    flats = [o.ravel() for o in outputs]
    found: list[Op] = []
    for kind in KINDS:
        values = _numbers(kind, given, numbers)
        if any(v is None or not 0 <= v[0] <= h * w for v in values):
            continue
        counts = [v[0] for v in values if v is not None]
        if len(set(counts[:n])) < 2:
            continue
        paints: list[tuple[int, int, Context]] = []  # (painted colour, counted colour, context)
        grounds: list[tuple[int, Context]] = []
        for flat, count, value, ctx in zip(flats, counts, values, ctxs, strict=False):
            head, tail = np.unique(flat[:count]), np.unique(flat[count:])
            if len(head) > 1 or len(tail) > 1 or (len(head) and len(tail) and head[0] == tail[0]):
                break
            if len(head):
                paints.append((int(head[0]), value[1] if value else -1, ctx))
            if len(tail):
                grounds.append((int(tail[0]), ctx))
        else:
            paint = colour_token(
                [p for p, _, _ in paints], [c for _, _, c in paints], [k for _, k, _ in paints]
            )
            ground = colour_token([g for g, _ in grounds], [c for _, c in grounds], None)
            op = (
                None
                if paint is None or ground is None
                else count_op(kind, "first", [paint, ground, str(h), str(w)])
            )
            if op is not None and _reproduces(op, given):
                found.append(op)
                if len(found) == _PER_LAYOUT:
                    break
    return found


def _numbers(kind: str, given: FitInput, numbers: dict[str, list[Number | None]]) -> list[Number | None]:
    """A count's values on every input (memoised in ``numbers``); none where its role is steady.

    A role that names one colour in every demonstration is the literal colour as far as they show,
    and most likely it is the literal the task fixed (Re-ARC draws the colours it varies afresh
    per pair), so the literal's kind, later in `KINDS`, is left to answer.
    """
    if kind not in numbers:
        values = [number(kind, a, c) for a, c in zip(given.inputs, given.contexts, strict=True)]
        key = kind.partition("@")[2]
        shown = {v[1] if v else None for v in values[: given.n]}
        if key[:1] == "c" and len(shown) == 1:
            values = [None] * len(values)
        numbers[kind] = values
    return numbers[kind]


def _reproduces(op: Op, given: FitInput) -> bool:
    """Whether ``op`` answers the test input and turns every demonstration into its output."""
    if op(given.inputs[given.n], given.contexts[given.n]) is None:
        return False
    return given.reproduced_by(op)


def _kept(given: FitInput) -> bool:
    return all(a.shape == o.shape for a, o in zip(given.inputs, given.outputs, strict=False))


def _fit_solid(given: FitInput) -> list[Op]:
    shapes = {o.shape for o in given.outputs}
    if len(shapes) != 1 or any(len(np.unique(o)) != 1 for o in given.outputs):
        return []
    if len({int(o[0, 0]) for o in given.outputs}) < 2:
        return []  # one colour throughout: a constant, not a choice
    h, w = shapes.pop()
    found: list[Op] = []
    for selector in (*SELECTORS, *ROLES):
        op = count_op(selector, "solid", [str(h), str(w)], _kept(given))
        if op is not None and _reproduces(op, given):
            found.append(op)
            if len(found) == _PER_LAYOUT:
                break
    return found


def _fit_colours(given: FitInput) -> list[Op]:
    """Histograms, rankings and bars: tried only on outputs that are not the inputs' shape."""
    found: list[Op] = []
    for kind, layout, constants in (
        ("cells", "rank", ["1"]),
        ("cells", "rankrow", ["1"]),
        ("cells", "rank", ["2"]),
        ("cells", "rankrow", ["2"]),
        ("big8", "bars", []),
        ("big4", "bars", []),
        *((kind, "sizes", []) for kind in _OBJECT_COUNTS),
    ):
        op = count_op(kind, layout, constants)
        if op is not None and _reproduces(op, given):
            found.append(op)
    for kind in ("all", "fg"):
        for layout in ("cols", "rows"):
            fill = _histogram_fill(given, kind == "all", layout == "rows")
            op = None if fill is None else count_op(kind, layout, [fill])
            if op is not None and _reproduces(op, given):
                found.append(op)
    return found


def _histogram_fill(given: FitInput, everything: bool, rows: bool) -> str | None:
    """The fill token of a histogram that makes every demonstration output, if one does."""
    fills = []
    ctxs = given.contexts[: given.n]
    for a, ctx, out in zip(given.inputs, ctxs, given.outputs, strict=False):
        made = _histogram(a, ctx, everything, SENTINEL, rows)
        if made is None or made.shape != out.shape:
            return None
        free = made == SENTINEL
        if np.any(made[~free] != out[~free]) or len(np.unique(out[free])) > 1:
            return None
        fills.append(int(out[free][0]) if free.any() else None)
    known = [(f, c) for f, c in zip(fills, ctxs, strict=True) if f is not None]
    if not known:
        return "c0"
    return colour_token([f for f, _ in known], [c for _, c in known], None)


def fit_count(given: FitInput) -> list[Op]:
    """Every counting step the demonstrations fix, in the order the search should try them."""
    if any(o.size > 900 for o in given.outputs):
        return []
    if _kept(given):
        # A grid kept in shape is painted, not counted: only a chosen colour or a table fills it.
        return [*_fit_solid(given), *_fit_table(given, {})]
    numbers: dict[str, list[Number | None]] = {}
    return [
        *_fit_numbers(given, numbers),
        *_fit_solid(given),
        *_fit_colours(given),
        *_fit_table(given, numbers),
    ]


def parse_count(text: str) -> Op | None:
    """The counting step written as ``text``, or ``None`` when it is malformed."""
    head, _, body = text.partition("){")
    kind, _, layout = head.removeprefix("count(").partition(",")
    if not body.endswith("}"):
        return None
    inner = body[:-1]
    op = count_op(kind, layout, inner.split(",") if inner else [])
    return op if op is not None and op.text == text else None


def _tokens() -> dict[str, float]:
    tokens = {f"count({k},{layout})": COUNT_COST for k in KINDS for layout in LAYOUTS}
    tokens.update({f"count({k},table)": COUNT_COST + 1 for k in _TABLE_KEYS})
    tokens.update({f"count({s},solid)": COUNT_COST for s in (*SELECTORS, *ROLES)})
    tokens.update({f"count({k},{lay})": COUNT_COST for k in ("all", "fg") for lay in ("cols", "rows")})
    tokens.update({"count(cells,rank)": COUNT_COST, "count(cells,rankrow)": COUNT_COST})
    tokens.update({f"count({k},bars)": COUNT_COST for k in ("big8", "big4")})
    tokens.update({f"count({k},sizes)": COUNT_COST for k in _OBJECT_COUNTS})
    return tokens


FITTER = Fitter("count(", _tokens(), fit_count, parse_count)
"""The fitter of counting steps, for the ``wide`` catalogue."""
