"""Rays that step aside: lines shot across the grid from one edge, shifting sideways on the way.

The cells of the ray colour ``p`` on one edge of the grid are *sources*; each shoots a ray of
``p`` across the grid, away from that edge (``t`` names the way it travels: ``u``, ``d``, ``l``,
``r``). The ray paints background cells only, and steps aside in one of two ways:

* ``detour(t,s){p}``: when the cell ahead is not background (an obstacle), the ray steps one cell
  sideways (``s``: ``+`` or ``-``, the side in the frame turned so that the ray travels down,
  ``+`` towards increasing columns) and goes on from there; it stops at the grid's edge, or when
  the cell beside it is not background either.
* ``jog(t){p}``: *markers* (cells of another foreground colour on the two edges the rays run
  along) shift every ray one cell away from their edge from the marker's line on, so a ray moves
  over by one at each marker it passes (a ray shifted off the grid ends).

``t`` may also be ``a``: the rays leave whichever edge holds sources (for ``jog``, sources with
markers beside them), when exactly one edge does, so the edge may differ between grids. ``p`` is a
literal colour, or a role (`colours.ROLES`) when no literal names it in every demonstration;
``detour(a,s){*}`` shoots from the one edge holding foreground, all of one colour, in that colour
(Re-ARC recolours every grid). A grid with no source (or, for ``jog``, no marker) gives ``None``.
The fitter offers a step only when it reproduces every demonstration and changes the test input.
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter, changing_answers
from .colours import ROLES, resolve, roles
from .drawn import painted_tokens
from .family import Op, Prim
from .geometry import one_turn
from .grid import SENTINEL, Array, Context, bg_for

__all__ = [
    "DETOUR",
    "DETOUR_COST",
    "JOG",
    "JOG_COST",
    "JOG_TRAVELS",
    "TRAVELS",
    "detour_op",
    "detoured",
    "fit_detour",
    "fit_jog",
    "jog_op",
    "jogged",
    "parse_detour",
    "parse_jog",
]

TRAVELS = ("u", "d", "l", "r")
"""The ways a ray may travel: up, down, left, right."""

JOG_TRAVELS = (*TRAVELS, "a")
"""The ways a jogging ray may travel: a fixed way, or ``a`` (away from the one edge holding sources
with markers beside it, which may differ between grids)."""

_TURNS = {"d": 0, "u": 2, "l": 1, "r": 3}
"""Quarter turns (``np.rot90``'s, anticlockwise) that make each way of travel point down."""

DETOUR_COST = 3.5
"""The base cost of a detouring ray: one fitted colour, a way of travel and a side."""

JOG_COST = 3.0
"""The base cost of a jogging ray: one fitted colour and a way of travel."""

_LITERALS = tuple(str(c) for c in range(SENTINEL))


def detoured(a: Array, bg: int, p: int, side: int) -> Array | None:
    """``a`` (turned so the rays travel down) with its detouring rays drawn, or ``None``."""
    h, w = a.shape
    sources = np.flatnonzero(a[0] == p)
    if not len(sources) or bg == p:
        return None
    out = a.copy()
    for x0 in sources.tolist():
        y, x = 0, x0
        while y + 1 < h:
            if a[y + 1, x] == bg:
                y += 1
            else:
                x += side
                if not 0 <= x < w or a[y, x] != bg:
                    break
            out[y, x] = p
    return out


def jogged(a: Array, bg: int, p: int) -> Array | None:
    """``a`` (turned so the rays travel down) with its jogging rays drawn, or ``None``."""
    h, w = a.shape
    sources = np.flatnonzero(a[0] == p)
    if not len(sources) or bg == p or w < 2:
        return None
    left = (a[1:, 0] != bg) & (a[1:, 0] != p)
    right = (a[1:, -1] != bg) & (a[1:, -1] != p)
    if not (left.any() or right.any()):
        return None
    # The shift every ray has taken by each row: +1 past each left marker, -1 past each right one.
    shift = np.concatenate(([0], np.cumsum(left.astype(int) - right.astype(int))))
    out = a.copy()
    ys = np.arange(h)
    for x0 in sources.tolist():
        xs = x0 + shift
        ok = (xs >= 0) & (xs < w)
        ry, rx = ys[ok], xs[ok]
        free = a[ry, rx] == bg
        out[ry[free], rx[free]] = p
    return out


def _auto_jog(a: Array, bg: int, p: int) -> Array | None:
    """``a`` with its jogging rays drawn from the one edge that holds sources and markers."""
    return one_turn(a, lambda g: jogged(g, bg, p))  # two edges that could shoot: no way to choose


def _auto_detour(a: Array, bg: int, p: int | None, side: int) -> Array | None:
    """``a`` with its detouring rays drawn from the one edge holding sources, or ``None``.

    With ``p`` ``None`` the sources are the foreground of the one edge holding any, all of one colour.
    """
    found: tuple[int, int] | None = None
    for k in range(4):
        edge = np.rot90(a, k)[0]
        held = np.unique(edge[edge != bg]).tolist() if p is None else [p] * bool((edge == p).any())
        if not held:
            continue
        if found is not None or len(held) != 1:
            return None  # sources on two edges, or two colours on one: no way to choose
        found = (k, int(held[0]))
    if found is None:
        return None
    k, colour = found
    drawn = detoured(np.ascontiguousarray(np.rot90(a, k)), bg, colour, side)
    return None if drawn is None else np.ascontiguousarray(np.rot90(drawn, -k))


def _turned(kind: str, travel: str, side: int, colour: str) -> Prim:
    """The primitive drawing ``kind``'s rays travelling ``travel`` in ``colour``."""
    k = _TURNS.get(travel, 0)

    def prim(a: Array, ctx: Context) -> Array | None:
        p = None if colour == "*" else resolve(colour, roles(ctx.original))
        if (p is None and colour != "*") or int(a.max()) >= SENTINEL:
            return None
        bg = bg_for(a, ctx)
        if travel == "a":
            return _auto_jog(a, bg, p) if kind == "jog" and p is not None else _auto_detour(a, bg, p, side)
        if p is None:
            return None
        turned = np.ascontiguousarray(np.rot90(a, k))
        drawn = detoured(turned, bg, p, side) if kind == "detour" else jogged(turned, bg, p)
        if drawn is None:
            return None
        return np.ascontiguousarray(np.rot90(drawn, -k))

    return prim


def detour_op(travel: str, side: str, colour: str) -> Op:
    """The step ``detour(travel,side){colour}``."""
    prim = _turned("detour", travel, 1 if side == "+" else -1, colour)
    cost = DETOUR_COST + (colour[0] in "c*") / 4 + (travel == "a") / 4
    return Op(f"detour({travel},{side}){{{colour}}}", cost, prim, "same")


def jog_op(travel: str, colour: str) -> Op:
    """The step ``jog(travel){colour}``."""
    prim = _turned("jog", travel, 0, colour)
    cost = JOG_COST + (colour[0] == "c") / 4 + (travel == "a") / 4
    return Op(f"jog({travel}){{{colour}}}", cost, prim, "same")


def fit_detour(given: FitInput) -> list[Op]:
    """The detouring rays that reproduce every demonstration and change the test input."""
    tokens = painted_tokens(given)
    if tokens is None:
        return []
    ops = [detour_op(t, s, c) for c in tokens for t in JOG_TRAVELS for s in "+-"]
    # The sources' own colour, read from the one edge holding foreground: Re-ARC recolours.
    return changing_answers(given, [*ops, *(detour_op("a", s, "*") for s in "+-")])


def fit_jog(given: FitInput) -> list[Op]:
    """The jogging rays that reproduce every demonstration and change the test input."""
    tokens = painted_tokens(given)
    return changing_answers(given, [jog_op(t, c) for c in tokens or () for t in JOG_TRAVELS])


def _colour(body: str) -> str | None:
    """The colour token of a step's ``{...}`` text, or ``None``."""
    if not body.endswith("}"):
        return None
    colour = body[:-1]
    return colour if colour in (*ROLES, *_LITERALS) else None


def parse_detour(text: str) -> Op | None:
    """The detouring ray written as ``text``, or ``None`` when it is malformed."""
    head, sep, body = text.partition("){")
    travel, _, side = head.removeprefix("detour(").partition(",")
    colour = _colour(body)
    if (
        not (sep and head.startswith("detour("))
        or travel not in JOG_TRAVELS
        or side not in ("+", "-")
        or (colour is None and body != "*}")
        or (body == "*}" and travel != "a")
    ):
        return None
    op = detour_op(travel, side, body[:-1])
    return op if op.text == text else None


def parse_jog(text: str) -> Op | None:
    """The jogging ray written as ``text``, or ``None`` when it is malformed."""
    head, sep, body = text.partition("){")
    travel = head.removeprefix("jog(")
    colour = _colour(body)
    if not (sep and head.startswith("jog(")) or travel not in JOG_TRAVELS or colour is None:
        return None
    op = jog_op(travel, colour)
    return op if op.text == text else None


DETOUR = Fitter(
    "detour(", {f"detour({t},{s})": DETOUR_COST for t in JOG_TRAVELS for s in "+-"}, fit_detour, parse_detour
)
"""The fitter of detouring rays."""

JOG = Fitter("jog(", {f"jog({t})": JOG_COST for t in JOG_TRAVELS}, fit_jog, parse_jog)
"""The fitter of jogging rays."""
