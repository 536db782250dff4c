"""Boxing: inside the bounding box of each shape of one colour, the other cells turn one colour.

A frame colour's shapes mark regions by their boxes: "inside the box of each yellow shape, the
background turns orange", "wherever the grey scaffold spans, the blue cells turn green". The
step is written ``boxpaint(mode,which){frame>paint}``:

* ``mode`` (`MODES`): the frame's shapes are its 4- or 8-connected components of more than one
  cell (``4``, ``8``), or all its cells together (``c``: one box around the whole colour);
* ``which`` (`WHICH`): the cells in a box that turn: the background (``bg``), the colours other
  than the background and the frame (``fg``), or both (``all``); the frame's own cells stay;
* ``frame`` and ``paint``: a literal colour, or a role (`colours.ROLES`) when no literal names
  it in every demonstration (Re-ARC draws colours afresh).

The fitter offers a step only when the cells it would change are exactly the cells every
demonstration changes, all to one colour, and it changes the test input; of the steps giving
the test input one answer, it keeps the cheapest.
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter, changing_answers
from .colours import ROLES, resolve, roles
from .family import Op, Prim
from .grid import SENTINEL, Array, Context, Mask, bg_for
from .objects import objects

__all__ = ["BOXPAINT_COST", "FITTER", "MODES", "WHICH", "boxpaint_op", "fit_boxpaint", "parse_boxpaint"]

MODES = ("c", "8", "4")
"""What a frame shape is: the whole colour, or one of its 8- or 4-connected components (when both
fit, the coarser cut, whose shapes join across corners, is tried first)."""

WHICH = ("bg", "fg", "all")
"""Which cells inside a frame's box turn: background, other colours, or both."""

BOXPAINT_COST = 4.0
"""The base cost of a box paint: two fitted colours, a cut and a choice of cells."""

_LITERALS = tuple(str(c) for c in range(SENTINEL))


def _boxes(a: Array, frame: int, mode: str) -> Mask | None:
    """The cells inside the boxes of the frame colour's shapes (``None`` when it has none)."""
    own = a == frame
    if not own.any():
        return None
    inside = np.zeros(a.shape, dtype=bool)
    if mode == "c":
        ys, xs = np.nonzero(own)
        inside[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1] = True
        return inside
    # Cut the frame colour alone: every other cell is one stand-in background.
    other = np.uint8((frame + 1) % SENTINEL)
    objs = objects(np.where(own, np.uint8(frame), other).astype(np.uint8), int(other), mode)
    for i in range(len(objs)):
        if objs.sizes[i] > 1:  # a lone cell spans no region
            inside[objs.box(i)] = True
    return inside


def _targets(a: Array, bg: int, frame: int, mode: str, which: str) -> Mask | None:
    """The cells a box paint changes on ``a``."""
    if frame == bg:
        return None
    inside = _boxes(a, frame, mode)
    if inside is None:
        return None
    inside &= a != frame
    if which == "bg":
        inside &= a == bg
    elif which == "fg":
        inside &= a != bg
    return inside


def boxpaint_op(mode: str, which: str, frame: str, paint: str) -> Op:
    """The step ``boxpaint(mode,which){frame>paint}``."""

    def prim(a: Array, ctx: Context) -> Array | None:
        named = roles(ctx.original)
        f, p = resolve(frame, named), resolve(paint, named)
        if f is None or p is None or int(a.max()) >= SENTINEL:
            return None
        cells = _targets(a, bg_for(a, ctx), f, mode, which)
        if cells is None:
            return None
        return np.where(cells, np.uint8(p), a).astype(np.uint8)

    step: Prim = prim
    cost = BOXPAINT_COST + (frame[0] == "c") / 4 + (paint[0] == "c") / 4
    return Op(f"boxpaint({mode},{which}){{{frame}>{paint}}}", cost, step, "same")


def _names(values: list[int], named: list[dict[str, int]]) -> list[str]:
    """The tokens naming ``values[d]`` in every demonstration ``d``: a literal first, else one role."""
    if len(set(values)) == 1:
        return [str(values[0])]
    return [r for r in ROLES if all(n.get(r) == v for n, v in zip(named, values, strict=True))][:1]


def fit_boxpaint(given: FitInput) -> list[Op]:
    """The box paints that reproduce every demonstration and change the test input, cheapest first."""
    if not given.keeps_size:
        return []
    demos = given.demos()
    paints: list[int] = []
    for a, b, _ in demos:
        changed = np.unique(b[a != b]).tolist()
        if len(changed) != 1:
            return []  # every demonstration shows the rule, with one new colour
        paints.append(changed[0])
    named = [roles(a) for a, _, _ in demos]
    paint_tokens = _names(paints, named)
    if not paint_tokens:
        return []
    # A frame colour is one no demonstration changes and every one holds.
    frames = [
        c
        for c in range(SENTINEL)
        if all((a == c).any() and not ((a == c) & (a != b)).any() and c != ctx.bg for a, b, ctx in demos)
    ]
    frame_tokens = [str(c) for c in frames]
    if not frame_tokens:
        # Re-ARC: the frame's colour differs between demonstrations; a role may name it.
        frame_tokens = [
            r
            for r in ROLES
            if all(
                (f := n_.get(r)) is not None and f != ctx.bg and not ((a == f) & (a != b)).any()
                for n_, (a, b, ctx) in zip(named, demos, strict=True)
            )
        ]
    found: list[Op] = []
    for frame in frame_tokens:
        for mode in MODES:
            for which in WHICH:
                if _fits(demos, named, frame, mode, which):
                    for paint in paint_tokens:
                        found.append(boxpaint_op(mode, which, frame, paint))
    found.sort(key=lambda op: op.cost)  # stable: ties keep the order tried
    return changing_answers(given, found)


def _fits(
    demos: list[tuple[Array, Array, Context]], named: list[dict[str, int]], frame: str, mode: str, which: str
) -> bool:
    """Whether the cells the rule would change are exactly those each demonstration changes."""
    for (a, b, ctx), names in zip(demos, named, strict=True):
        f = resolve(frame, names)
        if f is None:
            return False
        cells = _targets(a, bg_for(a, ctx), f, mode, which)
        if cells is None or not np.array_equal(cells, a != b):
            return False
    return True


def parse_boxpaint(text: str) -> Op | None:
    """The box paint written as ``text``, or ``None`` when it is malformed."""
    head, sep, body = text.partition("){")
    mode, _, which = head.removeprefix("boxpaint(").partition(",")
    frame, arrow, paint = body.removesuffix("}").partition(">")
    if not (sep and arrow and body.endswith("}")) or mode not in MODES or which not in WHICH:
        return None
    if frame not in (*ROLES, *_LITERALS) or paint not in (*ROLES, *_LITERALS):
        return None
    op = boxpaint_op(mode, which, frame, paint)
    return op if op.text == text else None


FITTER = Fitter(
    "boxpaint(",
    {f"boxpaint({mode},{which})": BOXPAINT_COST for mode in MODES for which in WHICH},
    fit_boxpaint,
    parse_boxpaint,
)
"""The fitter of box paints."""
