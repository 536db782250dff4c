"""Cell grids: a grid cut into cells by separator lines, read and rewritten cell by cell.

`parts` cuts at uniform lines of one colour other than the background. Many tasks draw the
layout more loosely: lines of several colours whose crossings break each other's uniformity
(the vertical line wins where it crosses a horizontal one), or lines of the background colour itself
laid out as a regular lattice (cells of equal size between them). `cell_layout` finds both, and
tells separators from cells that happen to hold a uniform line: a separator's colour is seen
nowhere off the lines (or, failing any such, least often), its lines stand apart, and a line on
the border counts only in a colour that also cuts inside. The cells' own background is the
commonest colour off the separators, and a cell's *count* is how many of its pixels are not that
colour.

The steps:

* ``lift(mode)``: one pixel per cell, by a rule on its content: its commonest colour (``main``),
  or a label (true or false; a fitted colour map names them) for whether it is non-empty (``any``),
  has the most or fewest coloured pixels of all cells (``most``, ``least``), or exactly one or two.
* ``zoom``: each pixel of a grid as small as the input's layout fills its cell of that layout,
  the separators kept. ``cellzoom(few|many)`` zooms the cell with the fewest (most) coloured pixels.
* ``cellfill``: the cells with the most coloured pixels filled with their colour, the others
  emptied.
* ``cellcopy(own|sep)``: the pattern of the busiest cell painted onto the background of every
  other cell, in its own colours or in the separators' colour.
* ``cellmove{marker}``: the cell holding the grid's one pixel of the marker colour (fitted)
  moves to the cell its position inside the cell names; every other cell is emptied.
* ``cellconnect``: a background pixel between two of one colour at the same place of the cells
  on either side in a row (then a column) of cells takes that colour (solid cells: the empty cells
  between two of one colour are filled).
* ``cellfold``: of two cells side by side (or one above the other), the second mirrored onto the
  first's background.
* ``cellturn``: of square cells with one not empty, each cell in reading order its predecessor
  turned a quarter clockwise.
* ``cellmirror``: of 2 x 2 cells with one not empty, its pattern in the separators' colour mirrored
  into all four, the separators gone.
* ``cellkey``: of 2 x 2 cells, the large pattern cell's marks coloured by the small key cell across
  from it, scaled up to it (each quarter of the pattern takes its key pixel's colour).
* ``cellpick(odd|few|many|asym)``: one cell: the one unlike all others, with the fewest or most
  coloured pixels, or the one square cell not symmetric about its diagonal (when no separator cuts
  the grid, its equal square blocks along its long side are the cells).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from .catalogue import FitInput, Fitter
from .family import Family, Op, Prim
from .grid import FALSE, SENTINEL, TRUE, Array, Context, Mask, background, bg_for, counts_without
from .parts import runs, square_blocks

__all__ = ["CELLMOVE", "CELLMOVE_COST", "FAMILIES", "LIFTS", "Layout", "cell_layout", "cellmove_op"]

LIFTS = ("main", "any", "most", "least", "n1", "n2")
"""The rules `lift` may read a cell by."""

_NONE = -1


@dataclass(frozen=True)
class Layout:
    """The cells of a grid cut by separator lines.

    Attributes:
        rows: the (start, stop) of each band of cells, top to bottom.
        cols: the (start, stop) of each column of cells, left to right.
        sep: the colour of the first separator line (for painting in it).
        bg: the cells' background: the commonest colour off the separators.
    """

    rows: tuple[tuple[int, int], ...]
    cols: tuple[tuple[int, int], ...]
    sep: int
    bg: int

    @property
    def shape(self) -> tuple[int, int]:
        """Cells down and across."""
        return len(self.rows), len(self.cols)

    def cells(self, a: Array) -> list[Array]:
        """The cells of ``a`` in reading order (views)."""
        return [a[r0:r1, c0:c1] for r0, r1 in self.rows for c0, c1 in self.cols]

    def boxes(self) -> list[tuple[slice, slice]]:
        """Each cell's slices in reading order."""
        return [(slice(r0, r1), slice(c0, c1)) for r0, r1 in self.rows for c0, c1 in self.cols]


def _lines(a: Array, ignore: Mask) -> npt.NDArray[np.int16]:
    """Per row, its colour when uniform outside the ``ignore`` columns, else ``_NONE``."""
    sub = a[:, ~ignore]
    if sub.shape[1] == 0:
        return np.full(a.shape[0], _NONE, dtype=np.int16)
    uniform = np.all(sub == sub[:, :1], axis=1)
    return np.where(uniform, sub[:, 0].astype(np.int16), np.int16(_NONE)).astype(np.int16)


def _lattice(lines: npt.NDArray[np.int16]) -> list[int] | None:
    """The lines of the finest regular lattice of one colour that cuts at least two equal cells.

    A lattice is every ``k``-th line from ``o`` on; the margins before its first line and after its
    last are empty or a whole cell of ``k - 1`` lines.
    """
    values: list[int] = lines.tolist()
    n = len(values)
    if all(v == _NONE for v in values):
        return None
    for k in range(2, n):
        # The margin before the first line is empty or one whole cell: it starts at 0 or k - 1.
        for o in sorted({0, k - 1}):
            colour = values[o]
            at = list(range(o, n, k))
            if colour == _NONE or any(values[p] != colour for p in at):
                continue
            tail = n - 1 - at[-1]
            if tail not in (0, k - 1):
                continue
            if len(at) - 1 + (o > 0) + (tail > 0) >= 2:
                return at
    return None


def _separators(lines: npt.NDArray[np.int16], bg: int) -> Mask:
    """Which lines of one axis cut it: the lines of another colour than the background.

    When they are of one colour and some of them form a regular lattice, only its lines do: a
    cell may hold a line of the separators' colour by chance (a mark down every cell of a column).
    """
    other = np.where(lines != bg, lines, np.int16(_NONE)).astype(np.int16)
    cut = other >= 0
    # Lines of several colours are all separators (each may be drawn in its own colour).
    at = _lattice(other) if cut.any() and len(np.unique(other[cut])) == 1 else None
    if at is not None:
        cut = np.zeros_like(cut)
        cut[at] = True
    return cut


def _adjacent(lines: Mask) -> bool:
    """Whether two neighbouring lines are both marked."""
    return bool(np.any(lines[1:] & lines[:-1]))


def _line_colours(
    a: Array, row_lines: npt.NDArray[np.int16], col_lines: npt.NDArray[np.int16], bg: int
) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int16]]:
    """The uniform lines with those of a colour that is not the separators' taken out.

    The separators' colours are those of the lines seen nowhere off them (each line may have its
    own); when every colour shows off the lines too, the one seen least there. A column of a cell
    that happens to be uniform is then no separator.
    """
    rows = (row_lines >= 0) & (row_lines != bg)
    cols = (col_lines >= 0) & (col_lines != bg)
    if not (rows.any() or cols.any()):
        return row_lines, col_lines
    # A line on the border cuts nothing: it counts only in a colour that also cuts inside.
    inner = {*row_lines[1:-1][rows[1:-1]].tolist(), *col_lines[1:-1][cols[1:-1]].tolist()}
    colours = sorted(inner)
    off = np.bincount(a[~(rows[:, None] | cols[None, :])], minlength=256)
    keep = [c for c in colours if off[c] == 0]
    # Adjacent lines of one colour are more likely a solid cell than separators: another colour
    # whose lines stand apart cuts instead.
    apart = [c for c in keep if not (_adjacent(row_lines == c) or _adjacent(col_lines == c))]
    keep = apart or keep
    if colours and not keep:
        keep = [min(colours, key=lambda c: (int(off[c]), c))]
    dropped = np.int16(_NONE)
    row_kept = np.where(np.isin(row_lines, keep) | (row_lines == bg), row_lines, dropped).astype(np.int16)
    col_kept = np.where(np.isin(col_lines, keep) | (col_lines == bg), col_lines, dropped).astype(np.int16)
    return row_kept, col_kept


@lru_cache(maxsize=512)
def _cached_layout(data: bytes, h: int, w: int, bg: int) -> Layout | None:
    a = np.frombuffer(data, dtype=np.uint8).reshape(h, w)
    if h < 2 or w < 2:
        return None
    # Strictly uniform lines of a colour other than the background are separators for certain;
    # the other axis's lines may cross them, so they are read with those crossings ignored.
    strict_rows = np.all(a == a[:, :1], axis=1) & (a[:, 0] != bg)
    strict_cols = np.all(a == a[:1, :], axis=0) & (a[0, :] != bg)
    row_lines, col_lines = _line_colours(a, _lines(a, strict_cols), _lines(a.T, strict_rows), bg)
    rows, cols = _separators(row_lines, bg), _separators(col_lines, bg)
    if not rows.any() and not cols.any():
        # No line of another colour: the background's own lines, only as a lattice both ways.
        at_r, at_c = _lattice(row_lines), _lattice(col_lines)
        if at_r is None or at_c is None:
            return None
        rows[at_r] = True
        cols[at_c] = True
    row_runs, col_runs = runs(rows), runs(cols)
    if len(row_runs) * len(col_runs) < 2:
        return None
    sep = int(row_lines[rows][0]) if rows.any() else int(col_lines[cols][0])
    off = ~(rows[:, None] | cols[None, :])
    return Layout(tuple(row_runs), tuple(col_runs), sep, background(a[off]))


def cell_layout(a: Array, bg: int) -> Layout | None:
    """The cells of ``a`` between separator lines, or ``None`` when they are fewer than two."""
    return _cached_layout(a.tobytes(), a.shape[0], a.shape[1], bg)


def _layout(a: Array, ctx: Context) -> Layout | None:
    return cell_layout(a, bg_for(a, ctx))


def _even_cells(a: Array, ctx: Context) -> tuple[Layout, list[Array]] | None:
    """The layout of ``a`` and its cells, or ``None`` when it has none or they differ in shape."""
    lay = _layout(a, ctx)
    if lay is None:
        return None
    cells = lay.cells(a)
    if any(c.shape != cells[0].shape for c in cells):
        return None
    return lay, cells


def _counts(cells: list[Array], bg: int) -> list[int]:
    return [int(np.count_nonzero(c != bg)) for c in cells]


def _lone_busy(cells: list[Array], bg: int) -> int | None:
    """The index of the one cell not empty, ``None`` when there are none or several."""
    busy = [i for i, n in enumerate(_counts(cells, bg)) if n]
    return busy[0] if len(busy) == 1 else None


def _main(cell: Array, bg: int) -> int:
    # Labels of 10 and up may stand in a grid: the background may be one the cell lacks.
    counts = counts_without(cell, bg)
    return int(np.argmax(counts)) if counts.any() else bg


def _unique(values: list[int], low: bool) -> int | None:
    """The index of the one extreme value, ``None`` when it is shared."""
    best = min(values) if low else max(values)
    return values.index(best) if values.count(best) == 1 else None


def _lift(mode: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        lay = _layout(a, ctx)
        if lay is None:
            return None
        cells = lay.cells(a)
        if mode == "main":
            return np.array([_main(c, lay.bg) for c in cells], dtype=np.uint8).reshape(lay.shape)
        counts = np.array(_counts(cells, lay.bg))
        if mode == "any":
            hit = counts > 0
        elif mode == "most":
            hit = counts == counts.max()
        elif mode == "least":
            hit = counts == counts.min()
        else:
            hit = counts == int(mode[1:])
        # A rule true of every cell or of none says nothing about them.
        if hit.all() or not hit.any():
            return None
        return np.where(hit, np.uint8(TRUE), np.uint8(FALSE)).astype(np.uint8).reshape(lay.shape)

    return prim


def _paint_cells(a: Array, lay: Layout, values: Array) -> Array:
    """``a`` with each cell filled by its value in ``values`` (a grid of the layout's shape)."""
    out = a.copy()
    for (rows, cols), value in zip(lay.boxes(), values.ravel().tolist(), strict=True):
        out[rows, cols] = value
    return out


def _zoom() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        lay = cell_layout(ctx.original, ctx.bg)
        if lay is None or a.shape != lay.shape:
            return None
        return _paint_cells(ctx.original, lay, a)

    return prim


def _cellzoom(which: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        lay = _layout(a, ctx)
        if lay is None:
            return None
        cells = lay.cells(a)
        chosen = _unique(_counts(cells, lay.bg), low=which == "few")
        if chosen is None or cells[chosen].shape != lay.shape:
            return None
        return _paint_cells(a, lay, cells[chosen])

    return prim


def _cellfill() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        lay = _layout(a, ctx)
        if lay is None:
            return None
        cells = lay.cells(a)
        counts = _counts(cells, lay.bg)
        top = max(counts)
        if top == 0 or counts.count(top) == len(counts):
            return None
        values = [_main(c, lay.bg) if n == top else lay.bg for c, n in zip(cells, counts, strict=True)]
        return _paint_cells(a, lay, np.array(values, dtype=np.uint8))

    return prim


def _cellcopy(colour: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        found = _even_cells(a, ctx)
        if found is None:
            return None
        lay, cells = found
        counts = _counts(cells, lay.bg)
        top = max(counts)
        # The busiest cells must agree: then any of them is the pattern.
        busiest = [c for c, n in zip(cells, counts, strict=True) if n == top]
        pattern = busiest[0]
        if top == 0 or any(not np.array_equal(c, pattern) for c in busiest[1:]):
            return None
        mark = pattern != lay.bg
        paint = pattern if colour == "own" else np.full_like(pattern, lay.sep)
        out = a.copy()
        for rows, cols in lay.boxes():
            cell = out[rows, cols]
            out[rows, cols] = np.where(mark & (cell == lay.bg), paint, cell)
        return None if np.array_equal(out, a) else out

    return prim


def _move(a: Array, lay: Layout, marker: int) -> Array | None:
    boxes = lay.boxes()
    owner = np.full(a.shape, _NONE, dtype=np.int16)
    for i, (rows, cols) in enumerate(boxes):
        owner[rows, cols] = i
    ys, xs = np.nonzero((a == marker) & (owner >= 0))
    if len(ys) != 1 or marker == lay.bg:
        return None
    source = int(owner[ys[0], xs[0]])
    rows, cols = boxes[source]
    # The mark's place inside its cell names the cell of the layout it moves to.
    y, x = int(ys[0]) - rows.start, int(xs[0]) - cols.start
    if y >= lay.shape[0] or x >= lay.shape[1]:
        return None
    t_rows, t_cols = boxes[y * lay.shape[1] + x]
    if a[t_rows, t_cols].shape != a[rows, cols].shape:
        return None
    out = np.where(owner >= 0, np.uint8(lay.bg), a).astype(np.uint8)
    # Pixels of the separators' colour inside a cell are not its content: they stay behind.
    cell = a[rows, cols]
    out[t_rows, t_cols] = np.where(cell == lay.sep, np.uint8(lay.bg), cell)
    return out


def cellmove_op(marker: int) -> Op:
    """The step ``cellmove{marker}``: the cell holding the one ``marker`` pixel moves where it points."""

    def prim(a: Array, ctx: Context) -> Array | None:
        lay = _layout(a, ctx)
        return None if lay is None else _move(a, lay, marker)

    return Op(f"cellmove{{{marker}}}", CELLMOVE_COST, prim, "same")


def _fit_cellmove(given: FitInput) -> Sequence[Op]:
    """The one marker colour, if any, whose cell moving turns every demonstration into its output."""
    if not given.keeps_size:
        return []
    for marker in range(SENTINEL):
        op = cellmove_op(marker)
        if given.reproduced_by(op):
            return [op]
    return []


def _parse_cellmove(text: str) -> Op | None:
    body = text.removeprefix("cellmove{").removesuffix("}")
    if not (len(body) == 1 and body.isdigit()):
        return None
    return cellmove_op(int(body))


def _cellpick(which: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        lay = _layout(a, ctx)
        cells = [] if lay is None else lay.cells(a)
        if lay is not None and all(c.shape == cells[0].shape for c in cells):
            bg = lay.bg
        else:
            # Unequal cells are more likely lines met by chance than a layout: try square blocks.
            blocks = square_blocks(a)
            if blocks is None:
                return None
            cells, bg = blocks, bg_for(a, ctx)
        if len(cells) < 3 and which in ("odd", "asym"):
            return None
        if which == "odd":
            tally = Counter(c.tobytes() + bytes(c.shape) for c in cells)
            alone = [i for i, c in enumerate(cells) if tally[c.tobytes() + bytes(c.shape)] == 1]
            chosen = alone[0] if len(alone) == 1 else None
        elif which == "asym":
            odd = [i for i, c in enumerate(cells) if c.shape[0] != c.shape[1] or not np.array_equal(c, c.T)]
            chosen = odd[0] if len(odd) == 1 else None
        else:
            chosen = _unique(_counts(cells, bg), low=which == "few")
        return None if chosen is None else cells[chosen].copy()

    return prim


def _cellfold() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        lay = _layout(a, ctx)
        if lay is None or sorted(lay.shape) != [1, 2]:
            return None
        first, second = lay.cells(a)
        if first.shape != second.shape:
            return None
        # The second cell folds onto the first about the separator between them.
        mirrored = second[:, ::-1] if lay.shape == (1, 2) else second[::-1]
        return np.where(first != lay.bg, first, mirrored).astype(np.uint8)

    return prim


def _cellkey() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        lay = _layout(a, ctx)
        if lay is None or lay.shape != (2, 2):
            return None
        cells = lay.cells(a)
        areas = [c.size for c in cells]
        small, large = areas.index(min(areas)), areas.index(max(areas))
        # The key sits diagonally across from the pattern, and is far smaller.
        if small + large != 3 or areas.count(min(areas)) != 1 or areas.count(max(areas)) != 1:
            return None
        key, pattern = cells[small], cells[large]
        (kh, kw), (ph, pw) = key.shape, pattern.shape
        if ph % kh or pw % kw or ph == kh:
            return None
        paint = np.repeat(np.repeat(key, ph // kh, axis=0), pw // kw, axis=1)
        return np.where(pattern != lay.bg, paint, pattern).astype(np.uint8)

    return prim


def _nearest(values: npt.NDArray[np.int16], bg: int, reverse: bool) -> npt.NDArray[np.int16]:
    """Along axis 1, the value of the nearest non-background entry at or before each (-1: none)."""
    out = np.full_like(values, _NONE)
    current = np.full((values.shape[0], values.shape[2]), _NONE, dtype=np.int16)
    order = range(values.shape[1] - 1, -1, -1) if reverse else range(values.shape[1])
    for i in order:
        current = np.where(values[:, i] != bg, values[:, i], current)
        out[:, i] = current
    return out


def _joined(cells: npt.NDArray[np.int16], bg: int) -> npt.NDArray[np.int16]:
    """Cells stacked ``(rows, cols, pixels)``, joined across cells.

    Each background pixel between two of one colour at the same place of the cells on either side
    in a row of cells, then in a column, takes that colour.
    """
    out = cells.copy()
    for stack in (cells, cells.transpose(1, 0, 2)):
        first, second = _nearest(stack, bg, False), _nearest(stack, bg, True)
        hit = (first >= 0) & (first == second)
        if stack is not cells:
            first, hit = first.transpose(1, 0, 2), hit.transpose(1, 0, 2)
        out = np.where((out == bg) & hit, first, out)
    return out


def _cellconnect() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        found = _even_cells(a, ctx)
        if found is None:
            return None
        lay, cells = found
        rows, cols = lay.shape
        stacked = np.stack([c.ravel() for c in cells]).astype(np.int16).reshape(rows, cols, -1)
        joined = _joined(stacked, lay.bg)
        if np.array_equal(joined, stacked):
            return None
        out = a.copy()
        shape = cells[0].shape
        for (r, c), (box_rows, box_cols) in zip(np.ndindex(rows, cols), lay.boxes(), strict=True):
            out[box_rows, box_cols] = joined[r, c].reshape(shape)
        return out

    return prim


def _cellmirror() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        found = _even_cells(a, ctx)
        if found is None or found[0].shape != (2, 2):
            return None
        lay, cells = found
        busy = _lone_busy(cells, lay.bg)
        if busy is None:
            return None
        source = cells[busy]
        pattern = np.where(source != lay.bg, np.uint8(lay.sep), source).astype(np.uint8)
        # Turn the pattern as it would stand in the top-left cell, then mirror it into the others.
        if busy % 2:
            pattern = pattern[:, ::-1]
        if busy // 2:
            pattern = pattern[::-1]
        top = np.concatenate([pattern, pattern[:, ::-1]], axis=1)
        return np.concatenate([top, top[::-1]], axis=0).astype(np.uint8)

    return prim


def _cellturn() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        lay = _layout(a, ctx)
        if lay is None:
            return None
        cells = lay.cells(a)
        side = cells[0].shape[0]
        if any(c.shape != (side, side) for c in cells):
            return None
        busy = _lone_busy(cells, lay.bg)
        if busy is None:
            return None
        source = cells[busy]
        out = a.copy()
        # Each cell in reading order is the one before it turned a quarter clockwise.
        for i, (rows, cols) in enumerate(lay.boxes()):
            out[rows, cols] = np.rot90(source, busy - i)
        return out

    return prim


_COST = 3
"""The cost of every cell step but ``lift(main)``: tried after the core's steps of cost 2, whose
budget it must not eat."""

FAMILIES = (
    # Each cell's main colour is the cells' plain reading (core's ``cells``, on more layouts): as
    # cheap as core's steps; the rules that label cells come later.
    Family("lift", (LIFTS[:1],), 1.5, _lift, "one pixel per cell: its main colour", "shrink"),
    Family(
        "lift", (LIFTS[1:],), _COST, _lift, "one label per cell of a separator layout, by a rule", "shrink"
    ),
    Family("zoom", (), _COST, _zoom, "fill each cell of the input's layout with one pixel of the grid"),
    Family(
        "cellzoom", (("few", "many"),), _COST, _cellzoom, "zoom the cell with fewest or most pixels", "same"
    ),
    Family("cellfill", (), _COST, _cellfill, "fill the busiest cells, empty the others", "same"),
    Family(
        "cellcopy",
        (("own", "sep"),),
        _COST,
        _cellcopy,
        "paint the busiest cell's pattern in every cell",
        "same",
    ),
    Family("cellconnect", (), _COST, _cellconnect, "join cells of one colour in a row or column", "same"),
    Family("cellfold", (), _COST, _cellfold, "fold the second of two cells onto the first", "shrink"),
    Family("cellturn", (), _COST, _cellturn, "each cell the one before it turned clockwise", "same"),
    Family("cellmirror", (), _COST, _cellmirror, "the one full cell mirrored into all four", "shrink"),
    Family("cellkey", (), _COST, _cellkey, "colour the pattern cell by the key cell, scaled", "shrink"),
    Family(
        "cellpick",
        (("odd", "few", "many", "asym"),),
        _COST,
        _cellpick,
        "one cell, chosen by its content",
        "shrink",
    ),
)
"""The cell-grid families, in the order the search tries them."""

CELLMOVE_COST = _COST
"""The cost of ``cellmove{marker}``."""

CELLMOVE = Fitter("cellmove{", {"cellmove": CELLMOVE_COST}, _fit_cellmove, _parse_cellmove)
"""The fitter of ``cellmove{marker}``: the marker colour comes from the demonstrations."""
