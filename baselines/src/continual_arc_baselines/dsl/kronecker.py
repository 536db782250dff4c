"""Kronecker layouts: a grid of copies of one pattern, placed where a mask says.

`sizing`'s ``fractal`` puts a copy of the grid in every block whose cell is foreground (or
background). Many tasks key the copies by one colour instead: a copy where the grid shows its
commonest colour, or colour 2, the other blocks left blank. ``kron{mask,fill}`` is that step,
fitted: the mask colour is a role of the program's input (`colours.ROLES`: ``c0`` its commonest
colour, ``cz`` its rarest) or a literal colour, and the blank blocks' colour (``fill``) a role or
a literal too, so ``kron{c0,0}`` runs on a new grid with no demonstrations. The fitter offers only
steps that reproduce every demonstration, roles before literals.

``stencil`` reads the two halves of a grid (left and right, or top and bottom: the one cut that
gives such a pair): one shape drawn in one colour, and a pattern of several colours; every cell
of the pattern becomes a copy of the shape in that cell's colour (background cells stay blank).
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter, one_per_answer
from .colours import ROLES, resolve, roles
from .family import Family, Op, Prim
from .grid import Array, Context, bg_for, colour_counts
from .parts import split

__all__ = ["FAMILIES", "FITTER", "KRON_COST", "kron", "kron_op", "parse_kron"]

KRON_COST = 2.5
"""The base cost of ``kron{mask,fill}``: above ``fractal``'s 2, as its colours are fitted."""

_TOKENS = (*ROLES, *(str(c) for c in range(10)))
"""What a mask or fill colour may be written as: a role of the input first, then a literal."""

_MAX_OFFERED = 2
"""The most kron steps one search is offered."""


def kron(a: Array, mask: np.ndarray, fill: int) -> Array:
    """A copy of ``a`` in every block whose ``mask`` cell is set; the other blocks all ``fill``."""
    big = np.kron(mask.astype(np.uint8), a)
    block = np.kron(mask, np.ones(a.shape, dtype=bool))
    return np.where(block, big, np.uint8(fill)).astype(np.uint8)


def _kron_prim(mask_token: str, fill_token: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        named = roles(ctx.original)
        colour, fill = resolve(mask_token, named), resolve(fill_token, named)
        if colour is None or fill is None:
            return None
        mask = a == colour
        # No copy at all says nothing of the pattern (a grid of one colour keys a plain tile).
        if not mask.any():
            return None
        return kron(a, mask, fill)

    return prim


def kron_op(mask_token: str, fill_token: str) -> Op:
    """The step ``kron{mask,fill}``."""
    return Op(f"kron{{{mask_token},{fill_token}}}", KRON_COST, _kron_prim(mask_token, fill_token), "grow")


def parse_kron(text: str) -> Op | None:
    """The step a ``kron{mask,fill}`` text names, or ``None`` when it names none."""
    body = text.removeprefix("kron{").removesuffix("}")
    mask_token, _, fill_token = body.partition(",")
    if mask_token not in _TOKENS or fill_token not in _TOKENS:
        return None
    op = kron_op(mask_token, fill_token)
    return op if op.text == text else None


def _fill_tokens(given: FitInput) -> list[str]:
    """The tokens naming, in every demonstration, the colour of the output's blank blocks.

    A demonstration whose output is ``k`` times its input on both sides, and whose blocks are
    each either a copy of the input or one colour, says what that colour is; the tokens naming
    it in all of them (all tokens when none shows a blank block), roles first.
    """
    tokens = list(_TOKENS)
    for a, out, ctx in zip(given.inputs, given.outputs, given.contexts, strict=False):
        h, w = a.shape
        if out.shape != (h * h, w * w):
            return []
        blocks = out.reshape(h, h, w, w).transpose(0, 2, 1, 3)
        named = roles(ctx.original)
        for y in range(h):
            for x in range(w):
                block = blocks[y, x]
                if np.array_equal(block, a) or not (block == block.flat[0]).all():
                    continue
                value = int(block.flat[0])
                tokens = [t for t in tokens if resolve(t, named) == value]
    return tokens


def fit_kron(given: FitInput) -> list[Op]:
    """The kron steps that reproduce every demonstration, roles before literals, at most two."""
    fills = _fill_tokens(given)
    if not fills:
        return []
    fill = fills[0]
    found = []
    for mask_token in _TOKENS:
        op = kron_op(mask_token, fill)
        if given.reproduced_by(op):
            found.append(op)
    return one_per_answer(given, found)[:_MAX_OFFERED]


FITTER = Fitter("kron{", {"kron": KRON_COST}, fit_kron, parse_kron)
"""The fitter of colour-keyed Kronecker layouts."""


def _stencil_parts(a: Array, bg: int) -> tuple[Array, Array] | None:
    """The shape and the pattern of a grid cut in two, if exactly one cut gives such a pair."""
    found = []
    for how in ("h", "v"):
        parts = split(a, bg, how)
        if parts is None or len(parts) != 2:
            continue
        # The shape is the part drawn in one colour; the pattern has at least two.
        kinds = [int(np.count_nonzero(colour_counts(p)[:10])) - int((p == bg).any()) for p in parts]
        if sorted(kinds)[0] == 1 and sorted(kinds)[1] >= 2:
            found.append((parts[0], parts[1]) if kinds[0] == 1 else (parts[1], parts[0]))
    return found[0] if len(found) == 1 else None


def _stencil() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        pair = _stencil_parts(a, bg)
        if pair is None:
            return None
        shape, pattern = pair
        big = np.kron(pattern, np.ones(shape.shape, dtype=np.uint8))
        keep = np.tile(shape != bg, pattern.shape) & (big != bg)
        return np.where(keep, big, np.uint8(bg)).astype(np.uint8)

    return prim


FAMILIES = (
    Family(
        "stencil",
        (),
        3,
        _stencil,
        "of two halves, each cell of the pattern becomes the other's shape in the cell's colour",
        shape="grow",
    ),
)
"""The fixed families of Kronecker layouts."""
