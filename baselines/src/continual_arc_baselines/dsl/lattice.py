"""Pattern completion by fitted translations: a masked pattern that repeats along any direction.

``tilefill`` (`tiling`) completes a pattern that repeats along rows and columns everywhere.
Many tasks draw a pattern that repeats along a slanted direction (stripes on the diagonals, a
staircase) or that leaves a frame around it that does not repeat. Here each translation
``(dy, dx)`` of a short range is scored on the cells that are not the hole colour: it fits when
nearly all pairs of known cells it relates agree (`MAX_DISAGREE`) and it relates a good share
of them (`MIN_SHARE`). The hole's cells then take the value most of their known partners
show, through every fitting translation, both ways, until none is left. When nothing fits the
whole grid, the translations are fitted on its core (the outer lines of at most two colours, a
frame, stripped off): the core's holes are filled so, and a hole on the frame takes its line's
commonest colour. ``latcrop`` answers with only the completed hole (its bounding box). Both act
on the program's input only (a first step), so they cost one fit per input.
"""

from __future__ import annotations

import numpy as np

from .family import Family
from .grid import Array
from .symmetry import input_completion

__all__ = ["FAMILIES", "MAX_DISAGREE", "MAX_SHIFT", "MIN_SHARE", "complete", "translations"]

MAX_SHIFT = 8
"""The longest translation tried along either axis (a pattern's period is rarely longer)."""

MAX_DISAGREE = 0.04
"""The largest share of related known pairs that may disagree: a frame or a stray cell may break
the repetition a little, a wrong translation breaks it a lot."""

MIN_SHARE = 0.3
"""The least share of the known cells a translation must relate to other known cells."""

_PASSES = 4
_VALUES = 16

_OUTSIDE = _VALUES - 1
"""The value a partner beyond the grid's edge holds while scoring (no input colour reaches it)."""

_SHIFTS = np.arange(-MAX_SHIFT, MAX_SHIFT + 1)


def translations(a: Array) -> dict[int, list[tuple[int, int]]]:
    """For each colour that could be the hole, the translations that fit with it unknown.

    A translation ``(dy, dx)`` relates cell ``(i, j)`` to ``(i + dy, j + dx)``; one of each
    opposite pair is scored (``dy > 0``, or ``dy == 0`` and ``dx > 0``), in reading order.
    """
    h, w = a.shape
    counts = np.bincount(a.ravel(), minlength=_VALUES)
    need = MIN_SHARE * (a.size - counts)
    wide = np.full((h, w + 2 * MAX_SHIFT), _OUTSIDE, dtype=np.intp)
    wide[:, MAX_SHIFT : MAX_SHIFT + w] = a
    found: dict[int, list[tuple[int, int]]] = {}
    for dy in range(min(MAX_SHIFT + 1, h)):
        x = a[: h - dy].astype(np.intp)
        # partners[k, i, j]: the cell (i + dy, j + dx) for the k-th shift dx, all shifts at once.
        partners = np.lib.stride_tricks.sliding_window_view(wide[dy:], w, axis=1).transpose(1, 0, 2)
        codes = (np.arange(len(_SHIFTS))[:, None, None] * _VALUES + x) * _VALUES + partners
        # table[k, u, v]: pairs of shift k whose cell holds u and whose partner holds v. For a
        # candidate hole c, the known pairs avoid row and column c; the bad ones also the diagonal.
        size = len(_SHIFTS) * _VALUES * _VALUES
        table = np.bincount(codes.ravel(), minlength=size).reshape(len(_SHIFTS), _VALUES, _VALUES)
        table[:, :, _OUTSIDE] = 0
        diagonal = table.diagonal(axis1=1, axis2=2)
        rows, cols = table.sum(axis=2), table.sum(axis=1)
        pairs = rows.sum(axis=1, keepdims=True)
        known = pairs - rows - cols + diagonal
        bad = (pairs - diagonal.sum(axis=1, keepdims=True)) - (rows - diagonal) - (cols - diagonal)
        fits = (counts > 0) & (known > 0) & (known >= need) & (bad <= MAX_DISAGREE * known)
        fits[: MAX_SHIFT + 1 if dy == 0 else 0] = False
        for k, c in np.argwhere(fits).tolist():
            found.setdefault(c, []).append((dy, int(_SHIFTS[k])))
    return found


def complete(a: Array, hole: int, found: list[tuple[int, int]]) -> Array | None:
    """``a`` with every cell of colour ``hole`` filled by its partners' commonest value, if all get filled."""
    out = a.copy()
    h, w = a.shape
    for _ in range(_PASSES if found else 0):
        votes = np.zeros((h, w, _VALUES), dtype=np.int32)
        for dy, dx in found:
            for sy, sx in ((dy, dx), (-dy, -dx)):
                # Cell (i, j) is voted for by (i + sy, j + sx) when that cell is known.
                ys = slice(max(0, -sy), h - max(0, sy))
                xs = slice(max(0, -sx), w - max(0, sx))
                src = out[max(0, sy) : h + min(0, sy), max(0, sx) : w + min(0, sx)]
                view = votes[ys, xs]
                ii, jj = np.nonzero(src != hole)
                np.add.at(view, (ii, jj, src[ii, jj]), 1)
        todo = (out == hole) & (votes.sum(axis=2) > 0)
        if not todo.any():
            return None
        out[todo] = np.argmax(votes[todo], axis=1).astype(np.uint8)
        if not np.any(out == hole):
            return out
    return None


def _core(a: Array) -> tuple[slice, slice]:
    """The box left when outer rows and columns of at most two colours (a frame) are stripped."""
    top, bottom, left, right = 0, a.shape[0], 0, a.shape[1]
    changed = True
    while changed and bottom - top > a.shape[0] // 2 and right - left > a.shape[1] // 2:
        changed = False
        for side in range(4):
            line = (
                a[top, left:right],
                a[bottom - 1, left:right],
                a[top:bottom, left],
                a[top:bottom, right - 1],
            )[side]
            if len(np.unique(line)) <= 2:
                top, bottom, left, right = (
                    (top + 1, bottom, left, right),
                    (top, bottom - 1, left, right),
                    (top, bottom, left + 1, right),
                    (top, bottom, left, right - 1),
                )[side]
                changed = True
                break
    return slice(top, bottom), slice(left, right)


def _frame_fill(a: Array, core: tuple[slice, slice], hole: int) -> Array | None:
    """``a`` with each hole outside the core given the commonest other colour of its frame line."""
    out = a.copy()
    inside = np.zeros(a.shape, dtype=bool)
    inside[core] = True
    for i, j in np.argwhere((a == hole) & ~inside).tolist():
        # A cell beside the core's rows lies on a stripped column; any other on a stripped row.
        line = a[:, j] if core[0].start <= i < core[0].stop else a[i]
        counts = np.bincount(line, minlength=_VALUES)
        counts[hole] = 0
        if not counts.any():
            return None
        out[i, j] = int(np.argmax(counts))
    return out


def _fill(a: Array, box: tuple[slice, slice], hole: int, found: list[tuple[int, int]]) -> Array | None:
    """``a`` with its holes in ``box`` completed by translations fitted there, and its frame's by line."""
    inner = np.ascontiguousarray(a[box])
    filled = complete(inner, hole, found) if np.any(inner == hole) else None
    done = _frame_fill(a, box, hole) if filled is not None else None
    if done is not None and filled is not None:
        done[box] = filled
    return done


def _first_completion(a: Array) -> Array | None:
    whole = (slice(0, a.shape[0]), slice(0, a.shape[1]))
    core = _core(a)
    # The whole grid first; then its core, for a pattern inside a frame that does not repeat.
    boxes = [whole] if core == whole else [whole, core]
    fits: list[dict[int, list[tuple[int, int]]]] = []
    counts = np.bincount(a.ravel(), minlength=_VALUES)
    done = None
    # The hole colour is unknown; rarer colours are likelier holes (ties: the lower colour).
    for hole in sorted(np.flatnonzero(counts).tolist(), key=lambda c: (int(counts[c]), c)):
        for n, box in enumerate(boxes):
            if n == len(fits):
                fits.append(translations(np.ascontiguousarray(a[box])))
            if hole in fits[n]:
                done = _fill(a, box, hole, fits[n][hole])
            if done is not None:
                break
        if done is not None:
            break
    return done


FAMILIES = (
    Family(
        "latfill",
        (),
        2,
        lambda: input_completion(_first_completion, False),
        "complete a pattern that repeats along fitted shifts",
        "same",
    ),
    Family(
        "latcrop",
        (),
        2,
        lambda: input_completion(_first_completion, True),
        "the cells under a mask, completed by repetition",
        "shrink",
    ),
)
