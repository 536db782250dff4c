"""Objects that move relative to an anchor that stays, by a rule fitted from the demonstrations.

A mover is aligned with the anchor, centred on it, moved a step toward it, slid until it touches
it, snapped to the line of its colour, or dropped into the hole it fits.

A move rule splits a grid's foreground into an *anchor*, which stays, and *movers*: the objects
of everything else (cut as `objects.MODES` ``m8``, ``8``, ``4`` or ``c``, or into single cells
for ``mirror``), each moved as a whole to where its relation to the anchor puts it. The anchor is
named by:

* digits, ``12``: the cells of those colours (the colours the demonstrations never move);
* ``L``: the full lines, every row or column that one colour fills but for at most its two ends;
* ``H``: the single-colour objects with holes (of any colour);
* ``E``: the foreground colour whose cells span the largest box (a frame, brackets);
* ``F``: the most frequent foreground colour (the lowest on a tie);
* ``B``: the largest multicolour object;
* ``M``: all but the largest multicolour object, which alone moves (the anchor's colour may vary).

The kinds (`KINDS`): ``rows`` / ``cols`` move each mover along one axis until its box's centre is
level with the anchor's; ``centre`` does both; ``step`` moves it one cell toward the anchor's box
(diagonally when they share neither rows nor columns); ``touch`` slides it toward the nearest anchor
part (single-colour, 8-connected) it faces straight, else the nearest, until the next cell would
overlap that part; ``snap`` does the same toward the anchor parts of the mover's own colour and
deletes a mover whose colour has none; ``hole`` moves each mover into a hole of the anchor
(background enclosed by it) of exactly its shape, and leaves a mover that fits none where it was;
``mirror`` reflects it about the fullest line of the anchor part it faces (a bracket's base),
``flip`` reflects it and sets it against that part's far side; ``into`` moves it the least way that
puts its box inside the anchor's, over the anchor's cells (every other kind keeps the anchor as it
was).

The rules are fitted (`fit_moves`): every rule that turns each demonstration input into its
output, with the anchor's colours read from the demonstrations, becomes one step written
``move(kind){anchor;mode}`` (`parse_move` reads it back), so it costs the search one step and no
budget on a task it does not fit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .catalogue import FitInput, Fitter
from .family import Op
from .grid import SENTINEL, Array, Context, Mask, bg_for
from .objects import Objects, choose, filter_objects, label, objects

__all__ = [
    "FITTER",
    "KINDS",
    "MAX_MOVERS",
    "MOVER_MODES",
    "MOVE_COST",
    "NAMED",
    "Rule",
    "apply_rule",
    "fit_moves",
    "move_op",
    "parse_move",
]

KINDS = ("rows", "cols", "centre", "step", "touch", "snap", "hole", "mirror", "flip", "into")
"""How a mover goes, relative to the anchor (see the module's docstring)."""

MOVER_MODES = ("1", "m8", "8", "4", "c")
"""How the non-anchor cells are cut into movers: ``1`` makes each cell one (for ``mirror`` alone,
where it lets a piece between two brackets split between them), the rest are `objects.MODES`."""

_CELLWISE = ("mirror",)
"""The kinds a cut into single cells may take; any other kind moves objects whole."""

MOVE_COST = 4.0
"""The base cost of a fitted move; a step only reached when it reproduces every demonstration."""

NAMED = ("L", "H", "E", "F", "B", "M")
"""The anchors named by what they are rather than by colour (see the module's docstring)."""

MAX_MOVERS = 200
"""The most objects a rule moves; more is a texture, not a scene."""

MAX_FITTED = 2
"""The most move steps one task's fitting offers (the first that fit: by anchor, cut, kind)."""


@dataclass(frozen=True)
class Rule:
    """One move rule.

    Attributes:
        kind: one of `KINDS`.
        anchor: the anchor's name: colour digits (ascending) or one of `NAMED`.
        mode: how the movers are cut (`MOVER_MODES`).
    """

    kind: str
    anchor: str
    mode: str

    @property
    def text(self) -> str:
        """The step's canonical text, ``move(kind){anchor;mode}``."""
        return f"move({self.kind}){{{self.anchor};{self.mode}}}"


def _lines(a: Array, bg: int) -> Mask:
    """The cells of full lines: a row or column one colour fills but for at most two cells."""
    h, w = a.shape
    out = np.zeros_like(a, dtype=bool)
    if h < 3 or w < 3:
        return out
    for axis, side in ((1, w), (0, h)):  # rows (counted along axis 1), then columns
        for colour in np.unique(a).tolist():
            if colour == bg:
                continue
            cells = a == colour
            full = cells.sum(axis=axis) >= side - 2
            if axis == 1:
                out[full] |= cells[full]
            else:
                out[:, full] |= cells[:, full]
    return out


def _widest(a: Array, fg: Mask) -> int:
    """The foreground colour whose cells span the largest box (the lowest on a tie)."""
    best, area = -1, -1
    for colour in np.unique(a[fg]).tolist():
        ys, xs = np.nonzero(a == colour)
        size = (int(ys.max()) - int(ys.min()) + 1) * (int(xs.max()) - int(xs.min()) + 1)
        if size > area:
            best, area = colour, size
    return best


@dataclass
class _Scene:
    """A grid cut into anchor and movers (each mover's cells, box and main colour)."""

    anchor: Mask
    movers: list[tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]]
    boxes: list[tuple[int, int, int, int]]
    colours: list[int]


def _box(ys: npt.NDArray[np.intp], xs: npt.NDArray[np.intp]) -> tuple[int, int, int, int]:
    """Top, left, bottom and right (exclusive) of some cells."""
    return int(ys.min()), int(xs.min()), int(ys.max()) + 1, int(xs.max()) + 1


def _cells(objs: Objects, keep: list[int]) -> list[tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]]:
    """The cells of objects ``keep``, grouped with one sort rather than a pass over the grid each."""
    ys, xs = np.nonzero(objs.labels >= 0)
    owner = objs.labels[ys, xs]
    order = np.argsort(owner, kind="stable")
    ys, xs, owner = ys[order], xs[order], owner[order]
    ends = np.searchsorted(owner, np.arange(len(objs) + 1))
    return [(ys[ends[i] : ends[i + 1]], xs[ends[i] : ends[i + 1]]) for i in keep]


def _scene(objs: Objects, anchor: Mask, keep: list[int]) -> _Scene:
    boxes = list(
        zip(
            objs.tops[keep].tolist(),
            objs.lefts[keep].tolist(),
            objs.bottoms[keep].tolist(),
            objs.rights[keep].tolist(),
            strict=True,
        )
    )
    return _Scene(anchor, _cells(objs, keep), boxes, objs.colours[keep].tolist())


def _split(a: Array, bg: int, rule: Rule) -> _Scene | None:
    """The anchor and the movers of ``a`` under ``rule``; ``None`` when there is no anchor or no mover."""
    fg = a != bg
    if rule.anchor == "M":
        objs = objects(a, bg, "m8")
        if not 1 < len(objs) <= MAX_MOVERS:
            return None
        big = choose(a, objs, "big")
        if big is None:
            return None
        return _scene(objs, fg & (objs.labels != big), [big])
    if rule.anchor == "B":
        whole = objects(a, bg, "m8")
        big = choose(a, whole, "big") if len(whole) > 1 else None
        if big is None:
            return None
        anchor = whole.labels == big
    elif rule.anchor == "H":
        whole = objects(a, bg, "8")
        anchor = np.isin(whole.labels, np.flatnonzero(filter_objects(a, whole, "holes")))
    elif rule.anchor == "L":
        anchor = _lines(a, bg)
    elif rule.anchor == "E":
        anchor = fg & (a == _widest(a, fg))
    elif rule.anchor == "F":
        counts = np.bincount(a[fg], minlength=SENTINEL)
        anchor = fg & (a == int(np.argmax(counts))) if counts.max() > 0 else fg & False
    else:
        anchor = np.isin(a, [int(c) for c in rule.anchor]) & fg
    if not anchor.any():
        return None
    rest = np.where(anchor, np.uint8(bg), a).astype(np.uint8)
    if rule.mode == "1":
        ys, xs = np.nonzero(rest != bg)
        if not 0 < len(ys) <= MAX_MOVERS:
            return None
        boxes = list(zip(ys.tolist(), xs.tolist(), (ys + 1).tolist(), (xs + 1).tolist(), strict=True))
        return _Scene(
            anchor, [(ys[i : i + 1], xs[i : i + 1]) for i in range(len(ys))], boxes, rest[ys, xs].tolist()
        )
    objs = objects(rest, bg, rule.mode)
    if not 0 < len(objs) <= MAX_MOVERS:
        return None
    return _scene(objs, anchor, list(range(len(objs))))


def _toward(mover: tuple[int, int, int, int], target: tuple[int, int, int, int]) -> tuple[int, int]:
    """The unit step from one box toward another: straight where they share rows or columns."""
    top, left, bottom, right = mover
    t_top, t_left, t_bottom, t_right = target
    dy = 1 if bottom <= t_top else -1 if top >= t_bottom else 0
    dx = 1 if right <= t_left else -1 if left >= t_right else 0
    return dy, dx


def _gap(mover: tuple[int, int, int, int], target: tuple[int, int, int, int]) -> int:
    """Rows plus columns of space between two boxes."""
    rows = max(target[0] - mover[2], mover[0] - target[2], 0)
    cols = max(target[1] - mover[3], mover[1] - target[3], 0)
    return rows + cols


def _slide(anchor: Mask, ys: npt.NDArray[np.intp], xs: npt.NDArray[np.intp], dy: int, dx: int) -> int | None:
    """How far cells go by ``(dy, dx)`` before the next step would overlap the anchor.

    ``None`` when they would leave the grid first: the mover passes the anchor by.
    """
    h, w = anchor.shape
    steps = np.arange(1, max(h, w) + 1)[:, None]
    ny, nx = ys[None, :] + steps * dy, xs[None, :] + steps * dx
    inside = (ny >= 0) & (ny < h) & (nx >= 0) & (nx < w)
    hit = np.zeros_like(inside)
    hit[inside] = anchor[ny[inside], nx[inside]]
    stop = np.flatnonzero(hit.any(axis=1) | ~inside.all(axis=1))
    if not len(stop) or not hit[stop[0]].any():
        return None
    return int(stop[0])


def _parts(anchor: Mask, a: Array) -> tuple[list[tuple[int, int, int, int]], list[int], list[Mask]]:
    """The anchor's single-colour parts (8-connected): their boxes, colours and cells."""
    labels = label(a, anchor, True, True)
    boxes, colours, cells = [], [], []
    for i in range(int(labels.max()) + 1):
        part = labels == i
        ys, xs = np.nonzero(part)
        boxes.append(_box(ys, xs))
        colours.append(int(a[ys[0], xs[0]]))
        cells.append(part)
    return boxes, colours, cells


def _holes(anchor: Mask) -> list[tuple[tuple[int, int], bytes]]:
    """The anchor's holes (4-connected non-anchor regions off the border): top-left and shape key."""
    free = ~anchor
    labels = label(free.astype(np.uint8), free, False, False)
    edge = np.unique(np.concatenate((labels[0], labels[-1], labels[:, 0], labels[:, -1])))
    found = []
    for i in range(int(labels.max()) + 1):
        if i in edge:
            continue
        ys, xs = np.nonzero(labels == i)
        top, left, bottom, right = _box(ys, xs)
        key = bytes((bottom - top, right - left)) + (labels[top:bottom, left:right] == i).tobytes()
        found.append(((top, left), key))
    return found


def _shape_key(ys: npt.NDArray[np.intp], xs: npt.NDArray[np.intp]) -> bytes:
    top, left, bottom, right = _box(ys, xs)
    box = np.zeros((bottom - top, right - left), dtype=bool)
    box[ys - top, xs - left] = True
    return bytes(box.shape) + box.tobytes()


Cells = tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]


def _reflect(
    ys: npt.NDArray[np.intp],
    xs: npt.NDArray[np.intp],
    box: tuple[int, int, int, int],
    part: tuple[int, int, int, int],
    cells: Mask,
    kind: str,
) -> Cells | None:
    """A mover's cells mirrored across an anchor part it faces straight (``mirror``, ``flip``).

    ``mirror`` reflects them about the part's fullest row or column on that axis (a bracket's
    base); ``flip`` reflects them in place and sets them against the part's far side.
    """
    dy, dx = _toward(box, part)
    if (dy == 0) == (dx == 0):
        return None  # diagonal to the part, or inside its box: no axis to mirror on
    if dy:
        if kind == "mirror":
            axis = part[0] + int(np.argmax(cells[part[0] : part[2]].sum(axis=1)))
            return 2 * axis - ys, xs
        flipped = box[0] + box[2] - 1 - ys
        return (flipped - box[0] + part[2] if dy > 0 else flipped + part[0] - box[2]), xs
    if kind == "mirror":
        axis = part[1] + int(np.argmax(cells[:, part[1] : part[3]].sum(axis=0)))
        return ys, 2 * axis - xs
    flipped = box[1] + box[3] - 1 - xs
    return ys, (flipped - box[1] + part[3] if dx > 0 else flipped + part[1] - box[3])


def _targets(a: Array, scene: _Scene, kind: str) -> list[Cells | None] | None:
    """Per mover, the cells it goes to (``None``: it is deleted); ``None`` when the rule does not apply."""
    anchor = scene.anchor
    ays, axs = np.nonzero(anchor)
    whole = _box(ays, axs)
    targets: list[Cells | None] = []
    if kind in ("touch", "snap", "mirror", "flip"):
        boxes, colours, cells = _parts(anchor, a)
    if kind == "hole":
        holes = _holes(anchor)
        used: set[int] = set()
    for (ys, xs), box, colour in zip(scene.movers, scene.boxes, scene.colours, strict=True):
        if kind in ("rows", "cols", "centre"):
            twice_dy = whole[0] + whole[2] - box[0] - box[2]
            twice_dx = whole[1] + whole[3] - box[1] - box[3]
            dy = twice_dy // 2 if kind != "cols" else 0
            dx = twice_dx // 2 if kind != "rows" else 0
            if (kind != "cols" and twice_dy % 2) or (kind != "rows" and twice_dx % 2):
                return None  # no cell is the centre: the rule cannot say where
            targets.append((ys + dy, xs + dx))
        elif kind == "step":
            dy, dx = _toward(box, whole)
            targets.append((ys + dy, xs + dx))
        elif kind == "into":
            if box[2] - box[0] > whole[2] - whole[0] or box[3] - box[1] > whole[3] - whole[1]:
                return None  # larger than the anchor: it cannot go inside
            dy = max(whole[0] - box[0], 0) + min(whole[2] - box[2], 0)
            dx = max(whole[1] - box[1], 0) + min(whole[3] - box[3], 0)
            targets.append((ys + dy, xs + dx))
        elif kind == "hole":
            key = _shape_key(ys, xs)
            spot = next((k for k, (_, hk) in enumerate(holes) if hk == key and k not in used), None)
            if spot is None:
                targets.append((ys, xs))
                continue
            used.add(spot)
            (top, left), _ = holes[spot]
            targets.append((ys + top - box[0], xs + left - box[1]))
        else:
            candidates = [k for k in range(len(boxes)) if kind != "snap" or colours[k] == colour]
            if not candidates:
                targets.append(None)
                continue
            # The nearest part it faces straight, else the nearest; on a tie the first in reading
            # order, so the choice is fixed.
            near = min(candidates, key=lambda k: (0 not in _toward(box, boxes[k]), _gap(box, boxes[k]), k))
            if kind in ("mirror", "flip"):
                moved = _reflect(ys, xs, box, boxes[near], cells[near], kind)
                if moved is None:
                    return None
                targets.append(moved)
                continue
            dy, dx = _toward(box, boxes[near])
            if dy == dx == 0:
                return None  # inside the part's box: no way toward it
            far = _slide(cells[near], ys, xs, dy, dx)
            if far is None:
                return None
            targets.append((ys + far * dy, xs + far * dx))
    return targets


def _paint(a: Array, bg: int, scene: _Scene, kind: str) -> Array | None:
    """The grid ``scene`` makes of ``a`` once its movers have gone as ``kind`` says."""
    targets = _targets(a, scene, kind)
    if targets is None:
        return None
    h, w = a.shape
    out = np.where(scene.anchor, a, np.uint8(bg)).astype(np.uint8)
    for (ys, xs), target in zip(scene.movers, targets, strict=True):
        if target is None:
            continue
        ny, nx = target
        if ny.min() < 0 or nx.min() < 0 or ny.max() >= h or nx.max() >= w:
            return None  # a mover would leave the grid: the rule is not this task's
        out[ny, nx] = a[ys, xs]
    return None if np.array_equal(out, a) else out


def apply_rule(a: Array, bg: int, rule: Rule) -> Array | None:
    """``a`` with its movers moved by ``rule``; ``None`` when it does not apply or changes nothing."""
    if int(a.max()) >= SENTINEL:
        return None
    scene = _split(a, bg, rule)
    return None if scene is None else _paint(a, bg, scene, rule.kind)


def move_op(rule: Rule) -> Op:
    """The step for one move rule."""

    def prim(a: Array, ctx: Context) -> Array | None:
        return apply_rule(a, bg_for(a, ctx), rule)

    return Op(rule.text, MOVE_COST, prim, "same")


def _anchors(given: FitInput) -> list[str]:
    """The anchors to try: the colours no demonstration moves (all, then each), then L, H, E, F, B, M."""
    inputs, outputs = given.inputs[: given.n], given.outputs
    bgs = [c.bg for c in given.contexts]
    present: set[int] | None = None
    for i, (a, b) in enumerate(zip(inputs, outputs, strict=True)):
        colours = {c for c in np.unique(a).tolist() if c != bgs[i] and np.array_equal(a == c, b == c)}
        present = colours if present is None else present & colours
    test = given.inputs[given.n]
    still = sorted(c for c in (present or set()) if np.any(test == c) and c != bgs[given.n])
    names = ["".join(str(c) for c in still)] if still else []
    if len(still) > 1:
        names.extend(str(c) for c in still)
    return [*names, *NAMED]


def _scenes(
    rule: Rule, inputs: Sequence[Array], outputs: Sequence[Array], bgs: Sequence[int]
) -> tuple[list[_Scene], bool] | None:
    """Each demonstration's scene under ``rule``'s anchor and cut, and whether the outputs keep it.

    ``None`` when some grid has no such scene (no anchor, no mover, too many movers).
    """
    scenes, kept = [], True
    for a, b, bg in zip(inputs, outputs, bgs, strict=True):
        scene = _split(a, bg, rule)
        if scene is None:
            return None
        kept = kept and np.array_equal(a[scene.anchor], b[scene.anchor])
        scenes.append(scene)
    return scenes, kept


def fit_moves(given: FitInput) -> list[Op]:
    """The move steps that turn every demonstration input into its output (at most `MAX_FITTED`)."""
    inputs, outputs = given.inputs[: given.n], given.outputs
    if not all(a.shape == b.shape and not np.array_equal(a, b) for a, b in zip(inputs, outputs, strict=True)):
        return []
    bgs = [c.bg for c in given.contexts[: given.n]]
    # A move keeps the background and adds no cell of any colour (movers may overlap or vanish).
    for a, b, bg in zip(inputs, outputs, bgs, strict=True):
        if int(a.max()) >= SENTINEL:
            return []
        more = np.bincount(b.ravel(), minlength=16) > np.bincount(a.ravel(), minlength=16)
        more[bg] = False
        if more.any():
            return []
    found: list[Op] = []
    for anchor in _anchors(given):
        fitted: set[str] = set()
        for mode in ("m8",) if anchor == "M" else MOVER_MODES:
            split = _scenes(Rule("", anchor, mode), inputs, outputs, bgs)
            if split is None:
                if mode == "m8":
                    break  # the cut with the fewest movers has too many: so has every other
                continue
            scenes, kept = split
            kinds = KINDS if kept else ("into",)  # only ``into`` paints over the anchor
            for kind in kinds if mode != "1" else [k for k in kinds if k in _CELLWISE]:
                if kind in fitted:
                    continue  # another cut of the same move says the same
                made = (_paint(a, bg, sc, kind) for a, bg, sc in zip(inputs, bgs, scenes, strict=True))
                if all(m is not None and np.array_equal(m, b) for m, b in zip(made, outputs, strict=True)):
                    fitted.add(kind)
                    found.append(move_op(Rule(kind, anchor, mode)))
                    if len(found) == MAX_FITTED:
                        return found
    return found


def parse_move(text: str) -> Op | None:
    """The move step written as ``text``, or ``None`` when it is malformed."""
    head, _, body = text.partition("){")
    kind = head.removeprefix("move(")
    anchor, _, mode = body.removesuffix("}").partition(";")
    if kind not in KINDS or mode not in MOVER_MODES or not body.endswith("}"):
        return None
    if anchor not in NAMED and not (anchor.isdigit() and list(anchor) == sorted(set(anchor))):
        return None
    if (anchor == "M" and mode != "m8") or (mode == "1" and kind not in _CELLWISE):
        return None
    op = move_op(Rule(kind, anchor, mode))
    return op if op.text == text else None


FITTER = Fitter("move(", {f"move({kind})": MOVE_COST for kind in KINDS}, fit_moves, parse_move)
"""The fitter of move steps (`catalogue.Fitter`)."""
