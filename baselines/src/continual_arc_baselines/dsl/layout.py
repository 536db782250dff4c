"""Block layouts and continuations: outputs made of copies of the grid.

A layout is a grid of copies, each turned or reflected its own way.

When every output is ``R x C`` times its grid, each of its ``R * C`` blocks may be the grid under
one of the eight symmetries of the square, or blank (the background). The search fits the choice
per block from the demonstrations (`fit_blocks`) and writes it into the step's text,
``blocks(2x2){id,flip_h,flip_v,rot180}``, so one step covers every mirror-and-tile layout.

A continuation (``continue{10,10}``) carries the grid's repeating pattern on to a fixed size, for
outputs that all have one shape larger than their inputs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

import numpy as np

from .family import Op, Prim
from .geometry import TRANSFORMS
from .grid import Array, Context, bg_for
from .tiling import period

__all__ = [
    "BLOCKS_COST",
    "CHOICES",
    "CONTINUE_COST",
    "blocks_op",
    "continue_op",
    "fit_blocks",
    "parse_blocks",
    "parse_continue",
    "scaled_continue_op",
]

CONTINUE_COST = 2
"""The base cost of a continuation to a fixed size."""

BLOCKS_COST = 2
"""The base cost of a block layout; each block that is not a plain copy adds a quarter bit."""

_MAX_SIDE_BLOCKS = 5

_CHOICES: dict[str, Callable[[Array], Array]] = {"id": lambda a: a, **TRANSFORMS}
CHOICES = (*_CHOICES, "blank")
"""What a block may hold: the grid (``id``), one of its symmetries, or background (``blank``)."""


def _ratio(states: Sequence[Array], outputs: Sequence[Array]) -> tuple[int, int] | None:
    ratios = set()
    for s, o in zip(states, outputs, strict=True):
        (h, w), (oh, ow) = s.shape, o.shape
        if oh % h or ow % w:
            return None
        ratios.add((oh // h, ow // w))
    if len(ratios) != 1:
        return None
    r, c = ratios.pop()
    if r * c < 2 or r > _MAX_SIDE_BLOCKS or c > _MAX_SIDE_BLOCKS:
        return None
    return r, c


def _matches(name: str, state: Array, block: Array, bg: int) -> bool:
    if name == "blank":
        return bool(np.all(block == bg))
    made = _CHOICES[name](state)
    return made.shape == block.shape and bool(np.array_equal(made, block))


def fit_blocks(
    states: Sequence[Array], outputs: Sequence[Array], bgs: Sequence[int]
) -> tuple[int, int, tuple[str, ...]] | None:
    """The layout that makes every output from its state, if one does (the first choice per block)."""
    ratio = _ratio(states, outputs)
    if ratio is None:
        return None
    r, c = ratio
    chosen = []
    for i in range(r * c):
        y, x = divmod(i, c)
        for name in CHOICES:
            if all(
                _matches(
                    name,
                    s,
                    o[y * s.shape[0] : (y + 1) * s.shape[0], x * s.shape[1] : (x + 1) * s.shape[1]],
                    bg,
                )
                for s, o, bg in zip(states, outputs, bgs, strict=True)
            ):
                chosen.append(name)
                break
        else:
            return None
    return r, c, tuple(chosen)


def _layout(r: int, c: int, names: tuple[str, ...]) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        h, w = a.shape
        if h != w and any(name in ("rot90", "rot270", "transpose", "antitranspose") for name in names):
            return None
        bg = bg_for(a, ctx)
        out = np.full((r * h, c * w), bg, dtype=np.uint8)
        for i, name in enumerate(names):
            y, x = divmod(i, c)
            if name != "blank":
                out[y * h : (y + 1) * h, x * w : (x + 1) * w] = _CHOICES[name](a)
        return out

    return prim


def blocks_op(r: int, c: int, names: tuple[str, ...]) -> Op:
    """The step ``blocks(RxC){...}`` for a fitted layout."""
    extra = sum(name != "id" for name in names) / 4
    return Op(f"blocks({r}x{c}){{{','.join(names)}}}", BLOCKS_COST + extra, _layout(r, c, names), "grow")


def parse_blocks(text: str) -> Op | None:
    """The layout step written as ``text``, or ``None`` when it is malformed."""
    head, _, body = text.partition("){")
    rows, _, cols = head.removeprefix("blocks(").partition("x")
    if not (rows.isdigit() and cols.isdigit() and body.endswith("}")):
        return None
    r, c = int(rows), int(cols)
    names = tuple(body[:-1].split(","))
    if not (0 < r <= _MAX_SIDE_BLOCKS and 0 < c <= _MAX_SIDE_BLOCKS) or len(names) != r * c:
        return None
    if any(name not in CHOICES for name in names):
        return None
    op = blocks_op(r, c, names)
    return op if op.text == text else None


def _continued(height: int | Fraction, width: int | Fraction, scaled: bool = False) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        h, w = a.shape
        if scaled:
            tall, wide = h * Fraction(height), w * Fraction(width)
            if tall.denominator != 1 or wide.denominator != 1 or tall > 30 or wide > 30:
                return None
            return _carry(a, int(tall), int(wide))
        return _carry(a, int(height), int(width))

    return prim


def _carry(a: Array, height: int, width: int) -> Array | None:
    """The grid's repeating pattern carried on to ``height`` x ``width`` (never smaller)."""
    h, w = a.shape
    if height < h or width < w or (height, width) == (h, w):
        return None
    py, px = period(a), period(a.T)
    ys, xs = np.indices((height, width))
    out: Array = a[ys % py, xs % px]
    return out


def continue_op(height: int, width: int) -> Op:
    """The step ``continue{height,width}``: the grid's repeating pattern carried on to that size."""
    return Op(f"continue{{{height},{width}}}", CONTINUE_COST, _continued(height, width), "grow")


def scaled_continue_op(fy: Fraction, fx: Fraction) -> Op:
    """The step ``continue{x3/2,x1}``: the pattern carried on to the grid's size times factors."""
    return Op(f"continue{{x{fy},x{fx}}}", CONTINUE_COST, _continued(fy, fx, scaled=True), "grow")


def parse_continue(text: str) -> Op | None:
    """The continuation step written as ``text``, or ``None`` when it is malformed."""
    height, _, width = text.removeprefix("continue{").removesuffix("}").partition(",")
    if height.startswith("x") and width.startswith("x"):
        try:
            fy, fx = Fraction(height[1:]), Fraction(width[1:])
        except (ValueError, ZeroDivisionError):
            return None
        op = scaled_continue_op(fy, fx)
        return op if 1 <= fy <= 30 and 1 <= fx <= 30 and op.text == text else None
    if not (height.isdigit() and width.isdigit()):
        return None
    op = continue_op(int(height), int(width))
    valid = 0 < int(height) <= 30 and 0 < int(width) <= 30
    return op if valid and op.text == text else None
