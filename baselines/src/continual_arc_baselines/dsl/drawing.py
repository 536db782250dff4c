"""Drawn lines: objects shoot straight lines whose directions, stopping rule and colour are fitted.

Each object (same colour, 8-connected) shoots a ray in each direction its *key* is given: from
every cell of the object that lies furthest that way (a bar shoots a band, a block's corner a
single diagonal), over background cells only. The key is the object's colour (``c``), the same for
all (``*``), or whether it is one cell or more (``s``, written ``p`` and ``o``), so a task whose
pairs recolour everything still fits. A ray's *mode* says where it ends and whether it is drawn:

* ``a``: up to the first foreground cell or the border, always drawn;
* ``h``: the same, drawn only if it ends at a foreground cell (toward a wall or a target);
* ``m``: the same, drawn only if it reaches the border (away from a wall);
* ``s``: drawn only if it ends at a cell of its own colour (joining pairs);
* ``j``: drawn only if a cell of its own colour lies ahead, up to it, past anything between;
* ``o``: drawn only if it ends at a cell of another colour (toward a target, not a twin);
* ``p``: drawn only from a cell that juts out that way (foreground behind it, none beside);
* ``t``: through everything to the border, painting the background it crosses.

A line takes its source's colour (``=``) or a fixed one. Lines are painted in the order written,
a later one over an earlier one where they cross, or the line from the nearer source winning
(``n``); a fitted crossing colour may paint every cell two lines of different colours share
(with ``n``: every cell equally near both). The whole table is fitted from the demonstrations (`fit`)
and written into the step's text, ``draw{c;1:ul.a.=,2:dr.a.=;1,2;-}`` (key kind; the rays; every
key the demonstrations show; ``n`` or not, then the crossing colour or ``-``), so a kept program runs with no
demonstrations. A key the table does not know makes the step not apply.

Fitting (`fit`, once per task): per key and direction, the widest mode whose lines land only on
cells the output paints; the fewest such rays that paint every such cell; a colour's rays only
when two demonstrations show that colour; a tip's or a twin-joiner's ray also in the directions
of its kind the demonstrations leave silent; then the painting order and crossing rule that give
every output exactly. Lines must average 1.5 cells and grids be mostly background, so a texture's
noise is not read as lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .catalogue import FitInput, Fitter
from .family import Op, Prim
from .grid import SENTINEL, Array, Context
from .objects import label

__all__ = ["DRAW", "DRAW_COST", "MAX_SHARE", "MAX_SOURCES", "MIN_LENGTH", "Ray", "draw_op", "parse_draw"]

DRAW_COST = 2.0
"""The base cost of a ``draw`` step; each ray adds a quarter bit, each key an eighth."""

MAX_SOURCES = 200
"""The most foreground cells a grid may hold for rays to be traced from them (a texture is no scene)."""

MAX_SHARE = 0.4
"""The largest share of a grid's cells that may be foreground."""

MIN_LENGTH = 1.5
"""The least mean length of the lines a fitted ray draws in the demonstrations."""

_DIRS: dict[str, tuple[int, int]] = {
    "u": (-1, 0),
    "d": (1, 0),
    "l": (0, -1),
    "r": (0, 1),
    "ul": (-1, -1),
    "ur": (-1, 1),
    "dl": (1, -1),
    "dr": (1, 1),
}
_MODES = ("a", "t", "s", "j", "o", "h", "m", "p")
_KINDS = ("c", "*", "s")
_OWN = -1


@dataclass(frozen=True)
class Ray:
    """One fitted ray: objects of ``key`` shoot toward ``way`` in ``mode``, painting ``colour`` (-1: own)."""

    key: str
    way: str
    mode: str
    colour: int


@dataclass(frozen=True)
class _Trace:
    """A ray traced from one source cell: the cells it stops at, those it crosses, how it ends."""

    stop: tuple[np.ndarray, np.ndarray]
    through: tuple[np.ndarray, np.ndarray]
    twin: tuple[np.ndarray, np.ndarray] | None
    hit: int
    colour: int
    origin: tuple[int, int]
    tip: bool


class _Scene:
    """One grid's objects, their keys and (lazily) their traced rays."""

    def __init__(self, a: Array, bg: int) -> None:
        self.a, self.bg = a, bg
        fg = a != bg
        # A grid mostly foreground is a texture, whose "lines" would be noise between its cells.
        count = int(fg.sum())
        self.ok = 0 < count <= min(MAX_SOURCES, a.size * MAX_SHARE) and int(a.max()) < SENTINEL
        self.labels = label(a, fg, True, True) if self.ok else np.full(a.shape, -1)
        n = int(self.labels.max()) + 1
        self.cells = [np.nonzero(self.labels == i) for i in range(n)]
        self.colours = [int(a[ys[0], xs[0]]) for ys, xs in self.cells]
        self._traces: dict[tuple[int, str], list[_Trace]] = {}
        self._groups: dict[str, dict[str, list[int]]] = {}

    def group(self, kind: str) -> dict[str, list[int]]:
        """The objects by their key under ``kind``, in reading order."""
        found = self._groups.get(kind)
        if found is None:
            found = self._groups[kind] = {}
            for i in range(len(self.cells)):
                found.setdefault(self.key(kind, i), []).append(i)
        return found

    def key(self, kind: str, i: int) -> str:
        """Object ``i``'s key under ``kind``."""
        if kind == "c":
            return str(self.colours[i])
        if kind == "s":
            return "p" if len(self.cells[i][0]) == 1 else "o"
        return "*"

    def traces(self, i: int, way: str) -> list[_Trace]:
        """The rays object ``i`` shoots toward ``way``, one per cell furthest that way."""
        found = self._traces.get((i, way))
        if found is None:
            found = self._traces[(i, way)] = self._trace(i, way)
        return found

    def _trace(self, i: int, way: str) -> list[_Trace]:
        dy, dx = _DIRS[way]
        ys, xs = self.cells[i]
        reach = ys * dy + xs * dx
        front = reach == reach.max()
        h, w = self.a.shape
        out = []
        for y0, x0 in zip(ys[front].tolist(), xs[front].tolist(), strict=True):
            # The whole line to the border at once; the first foreground cell on it ends a stopping ray.
            n = min(
                (h - 1 - y0) if dy > 0 else y0 if dy < 0 else h + w,
                (w - 1 - x0) if dx > 0 else x0 if dx < 0 else h + w,
            )
            steps = np.arange(1, n + 1)
            ly, lx = y0 + dy * steps, x0 + dx * steps
            values = self.a[ly, lx]
            free = values == self.bg
            blocked = np.flatnonzero(~free)
            end = int(blocked[0]) if len(blocked) else n
            hit = int(values[end]) if len(blocked) else -1
            # The background up to the next cell of the source's own colour, whatever lies between.
            same = np.flatnonzero(values == self.colours[i])
            twin = None
            if len(same):
                upto = free[: same[0]]
                twin = (ly[: same[0]][upto], lx[: same[0]][upto])
            tip = self._tip(y0, x0, dy, dx)
            stop = (ly[:end], lx[:end])
            out.append(_Trace(stop, (ly[free], lx[free]), twin, hit, self.colours[i], (y0, x0), tip))
        return out

    def _tip(self, y: int, x: int, dy: int, dx: int) -> bool:
        """Whether cell ``(y, x)`` juts out toward ``(dy, dx)``: foreground behind it, none beside.

        Behind is the cell one step back; beside are, for a diagonal, the two cells back along
        one axis only, and for a straight step the two cells either side of the one behind.
        """
        h, w = self.a.shape

        def fg(yy: int, xx: int) -> bool:
            return 0 <= yy < h and 0 <= xx < w and int(self.a[yy, xx]) != self.bg

        if not fg(y - dy, x - dx):
            return False
        if dy and dx:
            return not (fg(y - dy, x) or fg(y, x - dx))
        return not (fg(y - dy + dx, x - dx + dy) or fg(y - dy - dx, x - dx - dy))


def _drawn(t: _Trace, mode: str) -> tuple[np.ndarray, np.ndarray] | None:
    """The cells a traced ray paints in ``mode``, or ``None`` when it is not drawn."""
    if mode == "t":
        return t.through
    if mode == "j":
        return t.twin
    if mode == "p":
        return t.stop if t.tip else None
    if mode == "a" or (mode == "h" and t.hit >= 0) or (mode == "m" and t.hit < 0):
        return t.stop
    if (mode == "s" and t.hit == t.colour) or (mode == "o" and t.hit >= 0 and t.hit != t.colour):
        return t.stop
    return None


def _paint(
    scene: _Scene, kind: str, rays: Sequence[Ray], keys: frozenset[str], cross: int, near: bool
) -> Array | None:
    """The grid with every ray of the table drawn, or ``None`` when a key is unknown.

    Where lines of two colours meet, the later one wins, or (``near``) the one whose source is
    nearer; ``cross`` (if not -1) paints the cells they share (``near``: those equally near both).
    """
    if not scene.ok:
        return None
    groups = scene.group(kind)
    if any(k not in keys for k in groups):
        return None
    out = scene.a.astype(np.int16)
    painted = np.full(out.shape, -1, dtype=np.int16)
    far = np.full(out.shape, 1 << 12, dtype=np.int16)
    for r in rays:
        for i in groups.get(r.key, ()):
            for t in scene.traces(i, r.way):
                cells = _drawn(t, r.mode)
                if cells is None:
                    continue
                colour = t.colour if r.colour == _OWN else r.colour
                old = painted[cells]
                clash = (old >= 0) & (old != colour)
                if near:
                    ys, xs = cells
                    gap = np.maximum(np.abs(ys - t.origin[0]), np.abs(xs - t.origin[1])).astype(np.int16)
                    before = far[cells]
                    new = np.where(gap < before, colour, old)
                    if cross >= 0:
                        new = np.where(clash & (gap == before), cross, new)
                    painted[cells] = new
                    far[cells] = np.minimum(gap, before)
                else:
                    painted[cells] = np.where(clash, cross, colour) if cross >= 0 else colour
    out = np.where(painted >= 0, painted, out)
    return out.astype(np.uint8)


def _cross_text(cross: int, near: bool) -> str:
    return ("n" if near else "") + ("-" if cross < 0 else str(cross))


def _text(kind: str, rays: Sequence[Ray], keys: frozenset[str], cross: int, near: bool) -> str:
    body = ",".join(f"{r.key}:{r.way}.{r.mode}.{'=' if r.colour == _OWN else r.colour}" for r in rays)
    known = ",".join(sorted(keys))
    return f"draw{{{kind};{body};{known};{_cross_text(cross, near)}}}"


def draw_op(kind: str, rays: Sequence[Ray], keys: frozenset[str], cross: int = -1, near: bool = False) -> Op:
    """The step ``draw{kind;rays;keys;cross}`` for a fitted table of rays."""
    fixed = tuple(rays)

    def prim(a: Array, ctx: Context) -> Array | None:
        out = _paint(_Scene(a, ctx.bg), kind, fixed, keys, cross, near)
        return None if out is None or np.array_equal(out, a) else out

    step: Prim = prim
    # Priced by what the table says: a quarter bit a ray, an eighth a key it knows (a table of
    # colours that works only for the colours seen is dearer than one rule for every object).
    # Cheap enough to be tried within the budget: the step exists only when it fits every pair.
    cost = DRAW_COST + len(fixed) / 4 + len(keys) / 8
    return Op(_text(kind, fixed, keys, cross, near), cost, step, "same")


def parse_draw(text: str) -> Op | None:
    """The ``draw`` step written as ``text``, or ``None`` when it is malformed."""
    if not (text.startswith("draw{") and text.endswith("}")):
        return None
    parts = text[5:-1].split(";")
    if len(parts) != 4 or parts[0] not in _KINDS:
        return None
    kind, body, known, cross_text = parts
    rays = []
    for item in body.split(",") if body else []:
        key, _, spec = item.partition(":")
        bits = spec.split(".")
        if len(bits) != 3 or bits[0] not in _DIRS or bits[1] not in _MODES:
            return None
        if bits[2] != "=" and not (bits[2].isdigit() and int(bits[2]) < SENTINEL):
            return None
        rays.append(Ray(key, bits[0], bits[1], _OWN if bits[2] == "=" else int(bits[2])))
    near = cross_text.startswith("n")
    cross_text = cross_text.removeprefix("n")
    if cross_text != "-" and not (cross_text.isdigit() and int(cross_text) < SENTINEL):
        return None
    keys = frozenset(known.split(",")) if known else frozenset()
    op = draw_op(kind, rays, keys, -1 if cross_text == "-" else int(cross_text), near)
    return op if op.text == text else None


_Masks = dict[Ray, list[np.ndarray]]
"""Per ray, the cells it paints in each demonstration."""


def _candidates(
    scenes: Sequence[_Scene], outputs: Sequence[Array], changed: Sequence[np.ndarray], kind: str
) -> tuple[list[tuple[Ray, int]], _Masks, dict[Ray, int], frozenset[tuple[str, str, str]]]:
    """Per key and direction, the widest mode whose lines all land on painted cells, with its reach.

    Also the cells each such ray paints in every demonstration, how many lines it draws, and the
    rays that would fit by drawing nothing at all.
    """
    keys = sorted({k for s in scenes for k in s.group(kind)})
    found: list[tuple[Ray, int]] = []
    masks: _Masks = {}
    counts: dict[Ray, int] = {}
    silent: set[tuple[str, str, str]] = set()
    for key in keys:
        # A colour's rays need two demonstrations to show them: one alone is an anecdote.
        if kind == "c" and len(scenes) > 1 and sum(key in s.group(kind) for s in scenes) < 2:
            continue
        for way in _DIRS:
            best: tuple[Ray, int] | None = None
            for mode in _MODES:
                size, lines, agree, fixed = 0, 0, 0, np.zeros(SENTINEL, dtype=np.int64)
                drawn = [np.zeros(s.a.shape, dtype=bool) for s in scenes]
                fits = True
                for s, b, ch, mask in zip(scenes, outputs, changed, drawn, strict=True):
                    for i in s.group(kind).get(key, ()):
                        for t in s.traces(i, way):
                            cells = _drawn(t, mode)
                            if cells is None or len(cells[0]) == 0:
                                continue
                            if not ch[cells].all():
                                fits = False
                                break
                            got = b[cells]
                            mask[cells] = True
                            size += len(got)
                            lines += 1
                            agree += int((got == t.colour).sum())
                            fixed += np.bincount(got, minlength=SENTINEL)[:SENTINEL]
                        if not fits:
                            break
                    if not fits:
                        break
                if fits and lines == 0:
                    silent.add((key, way, mode))
                if not fits or lines == 0 or (best is not None and size <= best[1]):
                    continue
                # A line's colour: its source's unless one other colour is commoner on its cells;
                # crossings may break either, and the final check judges.
                colour = _OWN if agree >= int(fixed.max()) else int(fixed.argmax())
                best = (Ray(key, way, mode, colour), size)
                masks[best[0]] = drawn
                counts[best[0]] = lines
            if best is not None:
                found.append(best)
    return found, masks, counts, frozenset(silent)


def _covers(masks: _Masks, rays: Sequence[Ray], changed: Sequence[np.ndarray]) -> bool:
    """Whether the rays together paint exactly the changed cells of every demonstration."""
    for d, ch in enumerate(changed):
        mask = np.zeros(ch.shape, dtype=bool)
        for r in rays:
            mask |= masks[r][d]
        if not np.array_equal(mask, ch):
            return False
    return True


def _orders(rays: list[Ray]) -> list[list[Ray]]:
    """The painting orders worth trying: as found, reversed, vertical lines last, horizontal last."""
    vertical = [r for r in rays if r.way in ("u", "d")]
    horizontal = [r for r in rays if r.way in ("l", "r")]
    other = [r for r in rays if r.way not in ("u", "d", "l", "r")]
    return [rays, rays[::-1], other + horizontal + vertical, other + vertical + horizontal]


_DIAGONAL = ("ul", "ur", "dl", "dr")
_STRAIGHT = ("u", "d", "l", "r")


def _complete(rays: list[Ray], silent: frozenset[tuple[str, str, str]]) -> list[Ray]:
    """The rays, each structural one (a tip's, a twin-joining one) given its silent siblings.

    A sibling is a direction of the same kind (diagonal or straight) that draws nothing in the
    demonstrations. A tip shoots the way it juts, whichever way that is; the demonstrations may
    just not show every way (the test's tip may point elsewhere).
    """
    out = list(rays)
    for r in rays:
        if r.mode not in ("p", "s", "j"):
            continue
        for way in _DIAGONAL if r.way in _DIAGONAL else _STRAIGHT:
            if (r.key, way, r.mode) in silent and not any(x.key == r.key and x.way == way for x in out):
                out.append(Ray(r.key, way, r.mode, r.colour))
    return out


def _fit_kind(given: FitInput, scenes: list[_Scene], changed: list[np.ndarray], kind: str) -> Op | None:
    outputs = given.outputs
    demos = scenes[: given.n]
    found, masks, counts, silent = _candidates(demos, outputs, changed, kind)
    rays = [r for r, _ in found]
    if not rays or not _covers(masks, rays, changed):
        return None
    # The fewest rays that still reach every painted cell (drop the narrowest first), else all of
    # them: where lines meet, the rule may need both.
    fewest = list(rays)
    for r, _ in sorted(found, key=lambda item: item[1]):
        rest = [x for x in fewest if x != r]
        if rest and _covers(masks, rest, changed):
            fewest = rest
    keys = frozenset(s.key(kind, i) for s in demos for i in range(len(s.cells)))
    for chosen in [fewest] if fewest == rays else [fewest, rays]:
        # Lines, not dots: rays a cell or so long are a texture's noise, which no table explains
        # (but a line joining twins is a structure at any length).
        size = dict(found)
        loose = [r for r in chosen if r.mode not in ("s", "j")]
        if sum(size[r] for r in loose) < MIN_LENGTH * sum(counts[r] for r in loose):
            continue
        chosen = _complete(chosen, silent)
        # No crossing colour first, then each one, each with every painting order, then the
        # nearer line winning.
        tries = [(cross, False, order) for cross in (-1, *range(SENTINEL)) for order in _orders(chosen)]
        tries += [(cross, True, chosen) for cross in (-1, *range(SENTINEL))]
        for cross, near, order in tries:
            made = (_paint(s, kind, order, keys, cross, near) for s in demos)
            if all(_same(m, b) for m, b in zip(made, outputs, strict=True)):
                test = _paint(scenes[-1], kind, order, keys, cross, near)
                return draw_op(kind, order, keys, cross, near) if test is not None else None
    return None


def _same(made: Array | None, wanted: Array) -> bool:
    return made is not None and np.array_equal(made, wanted)


def fit(given: FitInput) -> list[Op]:
    """The ``draw`` steps that turn every demonstration input into its output (at most one per key kind)."""
    changed = []
    for a, b, ctx in zip(given.inputs, given.outputs, given.contexts, strict=False):
        if a.shape != b.shape:
            return []
        ch = a != b
        # Lines are drawn over the background only, and every pair draws some.
        if not ch.any() or np.any(a[ch] != ctx.bg):
            return []
        changed.append(ch)
    scenes = [_Scene(a, ctx.bg) for a, ctx in zip(given.inputs, given.contexts, strict=True)]
    if not all(s.ok for s in scenes):
        return []
    ops = []
    for kind in _KINDS:
        op = _fit_kind(given, scenes, changed, kind)
        if op is not None:
            ops.append(op)
    return ops


DRAW = Fitter("draw{", {"draw": DRAW_COST}, fit, parse_draw)
"""The fitter of ``draw{...}``: lines shot from objects by a fitted table of directions."""
