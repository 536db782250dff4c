"""Symmetry completion with fitted axes: a masked symmetric pattern that need not fill the grid.

``sym`` (`painting`) completes a symmetry about the grid's centre. Many tasks draw a
symmetric pattern whose axes sit off the centre (a 32-wide mosaic cut to 30), so here each
reflection's axis is fitted: a reflection is a view ``B`` of the grid (flipped left-right, up-down,
transposed or anti-transposed) laid over it at an offset, and it fits for a hole colour when every
overlapping pair of cells agrees unless one of them is the hole, and when most cells that are not
the hole overlap another such cell. The hole's cells then take their partners' values, through every
reflection found, until none is left. ``symcrop`` answers with only the completed hole (its
bounding box), as tasks that ask "what is under the mask" do. Both act on the program's input
only (a first step), which keeps their cost to one fit per input.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .family import Family, Prim
from .grid import Array, Context, key_of

__all__ = ["FAMILIES", "Reflection", "complete", "hole_colours", "input_completion", "reflections"]

_MIN_SHARE = 0.5
"""The least share of the known cells a reflection must pair with known cells: below it the
agreement is too thin to trust (an axis near a border pairs a few cells by chance)."""

_PASSES = 3
"""Rounds of filling: a cell may need two reflections in turn (a half-turn is two of them)."""

_VIEWS: dict[str, Callable[[npt.NDArray[Any]], npt.NDArray[Any]]] = {
    "h": lambda a: a[:, ::-1],
    "v": lambda a: a[::-1],
    "d": lambda a: a.T,
    "a": lambda a: a[::-1, ::-1].T,
}

_COMPLETED: dict[tuple[str, bytes], Array | None] = {}
_CACHE_LIMIT = 2048


@dataclass(frozen=True)
class Reflection:
    """Cell ``(i, j)`` of a grid mirrors cell ``(i + dy, j + dx)`` of the grid's ``view``."""

    view: str
    dy: int
    dx: int


def _offsets(view: str, h: int, w: int) -> list[tuple[int, int]]:
    """Offsets whose overlap could hold half the grid, nearest the centre first."""
    if view == "h":
        return [(0, dx) for dx in sorted(range(-(w // 2), w // 2 + 1), key=lambda x: (abs(x), x))]
    if view == "v":
        return [(dy, 0) for dy in sorted(range(-(h // 2), h // 2 + 1), key=lambda y: (abs(y), y))]
    if view == "d":
        # Transposing: (i, j) pairs with (j - d, i + d), which is the view's (i + d, j - d).
        span = max(h, w) // 2
        return [(d, -d) for d in sorted(range(-span, span + 1), key=lambda x: (abs(x), x))]
    span = max(h, w) // 2
    # Anti-transposing about i + j = e: the view's offsets (w - 1 - e, h - 1 - e).
    centre = (h + w - 2) // 2
    es = sorted(range(centre - span, centre + span + 1), key=lambda e: (abs(e - centre), e))
    return [(w - 1 - e, h - 1 - e) for e in es]


def _overlap(a: Array, b: Array, dy: int, dx: int) -> tuple[slice, slice, slice, slice] | None:
    """The slices of ``a`` and of ``b`` that face each other when ``b`` is shifted by the offset."""
    r0, r1 = max(0, -dy), min(a.shape[0], b.shape[0] - dy)
    c0, c1 = max(0, -dx), min(a.shape[1], b.shape[1] - dx)
    if r0 >= r1 or c0 >= c1:
        return None
    return slice(r0, r1), slice(c0, c1), slice(r0 + dy, r1 + dy), slice(c0 + dx, c1 + dx)


def hole_colours(x: Array, y: Array, colours: list[int]) -> list[int]:
    """Of ``colours``, those that may be the hole where ``x`` faces ``y`` (all when they agree).

    Every disagreeing pair must hold the hole: only the first pair's colours can be it.
    """
    differ = x != y
    if not differ.any():
        return colours
    first = int(np.argmax(differ))
    pair = [int(x.flat[first]), int(y.flat[first])]
    return [c for c in pair if c in colours and np.all((x[differ] == c) | (y[differ] == c))]


def reflections(a: Array) -> dict[int, list[Reflection]]:
    """For each colour that could be the hole, the reflections that fit with it unknown.

    One per view at most: the fitting offset nearest the centre (ties: the lower), so the choice
    is a pure function of the grid.
    """
    counts = np.bincount(a.ravel(), minlength=16)
    colours = np.flatnonzero(counts).tolist()
    found: dict[int, list[Reflection]] = {}
    cells = np.arange(a.size).reshape(a.shape)
    for view, make in _VIEWS.items():
        b, partner = make(a), make(cells)
        done: set[int] = set()
        for dy, dx in _offsets(view, *a.shape):
            cut = _overlap(a, b, dy, dx)
            if cut is None:
                continue
            x, y = a[cut[0], cut[1]], b[cut[2], cut[3]]
            # A cell on the axis faces itself: it agrees trivially, so it must not count.
            other = cells[cut[0], cut[1]] != partner[cut[2], cut[3]]
            for c in hole_colours(x, y, colours):
                need = _MIN_SHARE * (a.size - int(counts[c]))
                if c not in done and np.count_nonzero((x != c) & (y != c) & other) >= need:
                    found.setdefault(c, []).append(Reflection(view, dy, dx))
                    done.add(c)
    return found


def complete(a: Array, hole: int, found: list[Reflection]) -> Array | None:
    """``a`` with every cell of colour ``hole`` filled through reflections, if all get filled."""
    out = a.copy()
    for _ in range(_PASSES if found else 0):
        for r in found:
            b = _VIEWS[r.view](out)
            cut = _overlap(out, b, r.dy, r.dx)
            if cut is None:
                continue
            x, y = out[cut[0], cut[1]], b[cut[2], cut[3]]
            x[...] = np.where((x == hole) & (y != hole), y, x)
        if not np.any(out == hole):
            return out
    return None


def _first_completion(a: Array) -> Array | None:
    counts = np.bincount(a.ravel(), minlength=16)
    fitting = reflections(a)
    done = None
    # The hole colour is unknown; rarer colours are likelier holes (ties: the lower colour).
    for hole in sorted(fitting, key=lambda c: (int(counts[c]), c)):
        done = complete(a, hole, fitting[hole])
        if done is not None:
            break
    return done


def input_completion(completion: Callable[[Array], Array | None], crop: bool) -> Prim:
    """A step that completes the program's input with ``completion``; with ``crop``, only what it filled.

    Only the program's input: fitting costs milliseconds, and a masked pattern is what a task
    shows, not what an earlier step makes.
    """

    def prim(a: Array, ctx: Context) -> Array | None:
        if a.shape != ctx.original.shape or not np.array_equal(a, ctx.original):
            return None
        key = (f"{completion.__module__}.{completion.__qualname__}", key_of(a))
        if key not in _COMPLETED:
            # One fit per input grid, shared by the filling and the cropping step.
            if len(_COMPLETED) >= _CACHE_LIMIT:
                _COMPLETED.clear()
            _COMPLETED[key] = completion(a)
        done = _COMPLETED[key]
        if done is None or not crop:
            return done
        rows, cols = np.nonzero(done != a)
        if rows.size == 0:
            return None
        return np.ascontiguousarray(done[rows.min() : rows.max() + 1, cols.min() : cols.max() + 1])

    return prim


FAMILIES = (
    Family(
        "symfill",
        (),
        2,
        lambda: input_completion(_first_completion, False),
        "complete a symmetry whose axes are fitted",
        "same",
    ),
    Family(
        "symcrop",
        (),
        2,
        lambda: input_completion(_first_completion, True),
        "the cells under a mask, completed by symmetry",
        "shrink",
    ),
)
