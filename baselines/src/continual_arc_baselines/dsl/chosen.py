"""Chosen crops: cut out the region a property fitted from the demonstrations selects.

`extract`'s ``pick`` chooses an object by a property of its outline or place (`objects.CHOOSERS`).
Many crop tasks whose output size varies instead name the region by a colour the demonstrations
fix: the box of all cells of one colour (``box``; ``r`` is the grid's rarest colour), two parallel
lines of it with their end caps (``ends``), a one-colour rectangle outline with or without its
frame (``frame``, ``inside``; ``a``: of any colour), the objects that hold a marker colour
(``with``; ``mark`` drops the marker and crops to what it marks), or the one object with the
most or fewest cells of a colour (``most``, ``least``). Three more need no colour: the quarter
unlike the others about a middle cross (``odd``), the shape most one-colour objects share
(``common``) and the one square part not symmetric about its diagonal (``skew``). Each is a
fitted step ``chosen(kind){colour[,mode]}``: the fitter offers only the selectors whose crop has
every demonstration output's shape, those that reproduce the outputs first, so the search meets
a few steps that already make the right size.

`infer_size` reads the same selectors, core's object choices and a few cuts and counts as rules
for the output's size: when every rule that holds on all demonstrations gives the test input one
size, a candidate of another size is dropped (the ``outsize`` feature of the ``wide`` catalogue,
read in `fitting.Task`), even where the demonstrations' outputs share one shape.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from .catalogue import FitInput, Fitter
from .choosing import choose_by_content, content_keys
from .family import Op, Prim
from .grid import Array, Context, Mask, bg_for, colour_counts, counts_without
from .objects import CHOOSERS, choose, objects
from .parts import SPLITS, separator_layout, separator_parts, split, square_blocks

__all__ = [
    "CHOSEN_COST",
    "FITTER",
    "KINDS",
    "MAX_OFFERED",
    "chosen_op",
    "fit_chosen",
    "infer_size",
    "parse_chosen",
    "selector",
]

KINDS = ("box", "ends", "frame", "inside", "with", "mark", "most", "least", "odd", "common", "skew")
"""The selectors, in the order the fitter tries them. ``odd`` takes the quarter about a middle
row and column of one colour, even the background's (so no separator for ``part``); ``common``
cuts one-colour objects, as ``choosing``'s ``twin`` cuts multicolour ones, which merge shapes
touching at a corner; ``skew`` takes the one square part (of a grid cut into squares along its
long side, or between separators) that is not symmetric about its main diagonal."""

_FRAME_KINDS = ("frame", "inside")

_MODES = ("m4", "m8")
"""Object cuts the object selectors use: multicolour components, so a marker joins its object."""

_OBJECT_KINDS = ("with", "mark", "most", "least")

CHOSEN_COST = 2.5
"""The base cost of a chosen crop: above ``pick``'s 2, as its constants are fitted."""

MAX_OFFERED = 4
"""The most chosen crops one search is offered (those reproducing the outputs go first)."""

Slices = tuple[slice, slice]


def _colour_box(a: Array, colour: int) -> Slices | None:
    ys, xs = np.nonzero(a == colour)
    if len(ys) == 0:
        return None
    return slice(int(ys.min()), int(ys.max()) + 1), slice(int(xs.min()), int(xs.max()) + 1)


def _rarest(a: Array, bg: int) -> int | None:
    """The least frequent colour other than the background, if exactly one is least frequent."""
    counts = counts_without(a, bg)[:10]
    present = np.flatnonzero(counts)
    if len(present) < 2:
        return None  # with one foreground colour its box is just ``crop``
    low = counts[present].min()
    least = present[counts[present] == low]
    return int(least[0]) if len(least) == 1 else None


def _frame(a: Array, bg: int, colour: int | None) -> Slices | None:
    """The box of the largest one-colour rectangle outline (of ``colour``, or of any colour).

    An outline is a 4-connected one-colour component whose cells are exactly its box's border,
    at least 3 x 3; ``None`` when there is none or two share the largest size.
    """
    objs = objects(a, bg, "4")
    n = len(objs)
    if n == 0:
        return None
    ys, xs = np.nonzero(objs.labels >= 0)
    ls = objs.labels[ys, xs]
    on_edge = (
        (ys == objs.tops[ls])
        | (ys == objs.bottoms[ls] - 1)
        | (xs == objs.lefts[ls])
        | (xs == objs.rights[ls] - 1)
    )
    edge_cells = np.bincount(ls[on_edge], minlength=n)
    h, w = objs.bottoms - objs.tops, objs.rights - objs.lefts
    hollow = (h >= 3) & (w >= 3) & (objs.sizes == 2 * (h + w) - 4) & (edge_cells == objs.sizes)
    if colour is not None:
        hollow &= objs.colours == colour
    if not hollow.any():
        return None
    area = np.where(hollow, h * w, -1)
    best = np.flatnonzero(area == area.max())
    return objs.box(int(best[0])) if len(best) == 1 else None


def _capped(cells: Mask, ys: slice, xs: slice, shape: tuple[int, ...]) -> Slices | None:
    """A box whose first and last columns (or rows) are full, grown a cell at both ends of them.

    ``None`` when neither pair of opposite sides is full, or the grid has no room to grow.
    """
    h, w = cells.shape
    if min(h, w) >= 2 and cells[:, 0].all() and cells[:, -1].all() and not cells[0].all():
        if ys.start == 0 or ys.stop == shape[0]:
            return None
        return slice(ys.start - 1, ys.stop + 1), xs
    if min(h, w) >= 2 and cells[0].all() and cells[-1].all() and not cells[:, 0].all():
        if xs.start == 0 or xs.stop == shape[1]:
            return None
        return ys, slice(xs.start - 1, xs.stop + 1)
    return None


def _odd_quarter(a: Array) -> Array | None:
    """The quarter about a uniform middle cross whose content no other quarter shares."""
    h, w = a.shape
    if h % 2 == 0 or w % 2 == 0 or h < 3 or w < 3:
        return None
    my, mx = h // 2, w // 2
    cross = np.concatenate((a[my], a[:, mx]))
    if not np.all(cross == cross[0]):
        return None
    quarters = [a[:my, :mx], a[:my, mx + 1 :], a[my + 1 :, :mx], a[my + 1 :, mx + 1 :]]
    keys = [q.tobytes() for q in quarters]
    alone = [i for i, k in enumerate(keys) if keys.count(k) == 1]
    return quarters[alone[0]] if len(alone) == 1 else None


def _common(a: Array, bg: int, mode: str) -> Array | None:
    """The first of the objects whose content most objects share, if no other content ties it."""
    objs = objects(a, bg, mode)
    i = choose_by_content(content_keys(a, objs, bg), [0] * len(objs), "twin")
    return None if i is None else a[objs.box(i)]


def _skew(a: Array, bg: int) -> Array | None:
    """The one part, of square parts only, that differs from its transpose."""
    # Squares first: a uniform row inside a square part would read as a separator.
    parts = square_blocks(a) or separator_parts(a, bg)
    if not parts or len(parts) < 3 or any(p.shape[0] != p.shape[1] for p in parts):
        return None
    skewed = [i for i, p in enumerate(parts) if not np.array_equal(p, p.T)]
    return parts[skewed[0]] if len(skewed) == 1 else None


def _object_crop(kind: str, colour: int | None, mode: str, a: Array, bg: int) -> Array | None:
    if colour is None or colour == bg:
        return None
    objs = objects(a, bg, mode)
    n = len(objs)
    if n == 0:
        return None
    hit = (a == colour) & (objs.labels >= 0)
    # Per object, its cells of the colour: one bincount over the labels, no loop over objects.
    held = np.bincount(objs.labels[hit], minlength=n)
    if kind in ("with", "mark"):
        chosen = held > 0
        if not chosen.any() or (kind == "with" and chosen.all()):
            return None  # every object holds it: that is ``crop``, the colour chooses nothing
        cells = np.isin(objs.labels, np.flatnonzero(chosen))
        if kind == "mark":
            cells &= a != colour
        ys, xs = np.nonzero(cells)
        if len(ys) == 0:
            return None
        box = slice(int(ys.min()), int(ys.max()) + 1), slice(int(xs.min()), int(xs.max()) + 1)
        if kind == "with":
            return a[box]
        return np.where(a[box] == colour, np.uint8(bg), a[box]).astype(np.uint8)
    if n < 2:
        return None
    target = held.max() if kind == "most" else held.min()
    if kind == "most" and target == 0:
        return None
    hits = np.flatnonzero(held == target)
    return a[objs.box(int(hits[0]))] if len(hits) == 1 else None


def selector(kind: str, colour: str, mode: str = "") -> Prim:
    """The primitive of ``chosen(kind){colour[,mode]}``: the crop the selector names.

    Args:
        kind: one of `KINDS`.
        colour: a colour ``"0"``-``"9"``, ``"r"`` (the grid's rarest foreground colour), or ``"a"``
            (any colour: ``frame``, ``inside``; ``odd``, ``common`` and ``skew`` take only it).
        mode: the object cut (``m4``, ``m8``) of the object selectors, (``4``, ``8``) of
            ``common``; empty for the others.
    """

    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        if kind == "odd":
            return _odd_quarter(a)
        if kind == "common":
            return _common(a, bg, mode)
        if kind == "skew":
            return _skew(a, bg)
        if kind in _OBJECT_KINDS:
            return _object_crop(kind, _rarest(a, bg) if colour == "r" else int(colour), mode, a, bg)
        c = None if colour == "a" else _rarest(a, bg) if colour == "r" else int(colour)
        if c == bg or (c is None and colour != "a"):
            return None
        box = _frame(a, bg, c) if kind in _FRAME_KINDS else _colour_box(a, c) if c is not None else None
        if box is None:
            return None
        ys, xs = box
        if kind == "inside":
            ys, xs = slice(ys.start + 1, ys.stop - 1), slice(xs.start + 1, xs.stop - 1)
        elif kind == "ends":
            grown = _capped(a[ys, xs] == c, ys, xs, a.shape)
            if grown is None:
                return None
            ys, xs = grown
        out = a[ys, xs]
        return None if out.shape == a.shape else out

    return prim


def _text(kind: str, colour: str, mode: str) -> str:
    return f"chosen({kind}){{{colour},{mode}}}" if mode else f"chosen({kind}){{{colour}}}"


def chosen_op(kind: str, colour: str, mode: str = "") -> Op:
    """The fitted step ``chosen(kind){colour[,mode]}``."""
    return Op(_text(kind, colour, mode), CHOSEN_COST, selector(kind, colour, mode), "shrink")


def parse_chosen(text: str) -> Op | None:
    """The step a ``chosen(...){...}`` text names, or ``None`` when it names none."""
    head, _, body = text.partition("){")
    kind = head.removeprefix("chosen(")
    colour, _, mode = body.removesuffix("}").partition(",")
    if kind not in KINDS:
        return None
    if kind in _OBJECT_KINDS:
        if mode not in _MODES or colour not in (*"0123456789", "r"):
            return None
    elif kind in ("odd", "skew"):
        if mode or colour != "a":
            return None
    elif kind == "common":
        if mode not in ("4", "8") or colour != "a":
            return None
    elif mode or colour not in (*"0123456789", "r", *("a" if kind in _FRAME_KINDS else "")):
        return None
    op = chosen_op(kind, colour, mode)
    return op if op.text == text else None


def _selectors(colours: Sequence[int]) -> list[tuple[str, str, str]]:
    """Every selector over the given colours, in the order the fitter prefers them."""
    found: list[tuple[str, str, str]] = []
    for kind in KINDS:
        if kind in ("odd", "skew"):
            found.append((kind, "a", ""))
        elif kind == "common":
            found.extend((kind, "a", mode) for mode in ("8", "4"))
        elif kind in _OBJECT_KINDS:
            found.extend((kind, str(c), mode) for mode in _MODES for c in (*colours, "r"))
        else:
            extra = ("r", "a") if kind in _FRAME_KINDS else ("r",)
            found.extend((kind, str(c), "") for c in (*colours, *extra))
    return found


def _shared_colours(inputs: Sequence[Array]) -> list[int]:
    """The colours every grid holds (a selector's colour must be in the test input too)."""
    present = np.ones(16, dtype=bool)
    for a in inputs:
        present &= colour_counts(a) > 0
    return [int(c) for c in np.flatnonzero(present[:10])]


def _roots(given: FitInput) -> list[tuple[Context, ...]]:
    """The contexts of the search's roots: the plain one, and ``bg0``'s when the search makes it.

    The fitter sees only the plain root's contexts, but the search also applies a fitted step
    under the ``bg0`` root, whose background is colour 0 (`fitting.Task`).
    """
    roots = [given.contexts]
    if any(c.bg > 0 and np.any(c.original == 0) for c in given.contexts):
        zero = tuple(Context(a) for a in given.inputs)
        for c in zero:
            c.bg = 0 if np.any(c.original == 0) else c.bg
        roots.append(zero)
    return roots


def fit_chosen(given: FitInput) -> list[Op]:
    """The chosen crops whose crop of every demonstration input has its output's shape.

    Those that reproduce every output come first; selectors that crop every grid alike are kept
    once. None when the outputs are not all smaller than their inputs.
    """
    n = given.n
    pairs = list(zip(given.inputs[:n], given.outputs, strict=True))
    if n == 0 or not all(o.shape[0] <= i.shape[0] and o.shape[1] <= i.shape[1] for i, o in pairs):
        return []
    if all(i.shape == o.shape for i, o in pairs):
        return []
    exact: list[Op] = []
    sized: list[Op] = []
    seen: set[bytes] = set()
    roots = _roots(given)
    for kind, colour, mode in _selectors(_shared_colours(given.inputs)):
        prim = selector(kind, colour, mode)
        verdicts = [_crops(prim, given, contexts, seen) for contexts in roots]
        if any(v is not None for v in verdicts):
            (exact if any(verdicts) else sized).append(chosen_op(kind, colour, mode))
    return [*exact, *sized][:MAX_OFFERED]


def _crops(prim: Prim, given: FitInput, contexts: Sequence[Context], seen: set[bytes]) -> bool | None:
    """Whether a selector reproduces every output under these contexts; ``None``: wrong shapes.

    ``None`` also when another selector already cropped every grid alike (recorded in ``seen``).
    """
    crops = []
    for a, ctx, o in zip(given.inputs, contexts, (*given.outputs, None), strict=True):
        crop = prim(a, ctx)
        if crop is None or (o is not None and crop.shape != o.shape):
            return None
        crops.append(crop)
    key = b"|".join(bytes(c.shape) + c.tobytes() for c in crops)
    if key in seen:
        return None
    seen.add(key)
    return all(np.array_equal(c, o) for c, o in zip(crops, given.outputs, strict=False))


FITTER = Fitter(
    "chosen(",
    {f"chosen({kind})": CHOSEN_COST for kind in KINDS},
    fit_chosen,
    parse_chosen,
)
"""The fitter of chosen crops, for the ``wide`` catalogue."""


SizeRule = Callable[[Array, Context], tuple[int, int] | None]


def _shape_of(prim: Prim) -> SizeRule:
    def rule(a: Array, ctx: Context) -> tuple[int, int] | None:
        out = prim(a, ctx)
        return None if out is None else (int(out.shape[0]), int(out.shape[1]))

    return rule


def _pick_shape(mode: str, prop: str) -> SizeRule:
    def rule(a: Array, ctx: Context) -> tuple[int, int] | None:
        objs = objects(a, bg_for(a, ctx), mode)
        i = choose(a, objs, prop)
        if i is None:
            return None
        return int(objs.bottoms[i] - objs.tops[i]), int(objs.rights[i] - objs.lefts[i])

    return rule


def _counted(what: str, form: str) -> SizeRule:
    def rule(a: Array, ctx: Context) -> tuple[int, int] | None:
        bg = bg_for(a, ctx)
        k = int(np.count_nonzero(counts_without(a, bg))) if what == "colours" else len(objects(a, bg, what))
        if not 0 < k <= 30:
            return None
        return {"row": (1, k), "column": (k, 1), "square": (k, k)}[form]

    return rule


def _border(k: int) -> SizeRule:
    def rule(a: Array, ctx: Context) -> tuple[int, int] | None:
        h, w = a.shape
        return (h - 2 * k, w - 2 * k) if h > 2 * k and w > 2 * k else None

    return rule


def _crop_shape(a: Array, ctx: Context) -> tuple[int, int] | None:
    ys, xs = np.nonzero(a != bg_for(a, ctx))
    if len(ys) == 0:
        return None
    return int(ys.max() - ys.min() + 1), int(xs.max() - xs.min() + 1)


def _part_shape(how: str) -> SizeRule:
    def rule(a: Array, ctx: Context) -> tuple[int, int] | None:
        parts = split(a, bg_for(a, ctx), how)
        return None if not parts else (int(parts[0].shape[0]), int(parts[0].shape[1]))

    return rule


def _layout_count(a: Array, ctx: Context) -> tuple[int, int] | None:
    layout = separator_layout(a, bg_for(a, ctx))
    return None if layout is None else (len(layout), len(layout[0]))


def _size_rules(colours: Sequence[int], fixed: bool) -> list[SizeRule]:
    """The size rules, regions first; with outputs of one shape, only the regions.

    The more true rules there are, the likelier a coincidental one meets one that disagrees and
    the size is left open: so the cuts the core steps make (halves, parts, cells) are rules too.
    Outputs of one shape are met by chance by small counts, so there only a region (an object's
    or a frame's box) may move the size off the demonstrations' one.
    """
    rules: list[SizeRule] = [_crop_shape]
    rules.extend(_pick_shape(mode, prop) for mode in ("8", "m8", "m4") for prop in CHOOSERS)
    rules.extend(_shape_of(selector(*s)) for s in _selectors(colours))
    if fixed:
        return rules
    rules.extend((*(_border(k) for k in (1, 2, 3)), *(_part_shape(h) for h in SPLITS), _layout_count))
    rules.extend(
        _counted(what, form) for what in ("colours", "m8", "8") for form in ("row", "column", "square")
    )
    return rules


def infer_size(given: FitInput) -> tuple[int, int] | None:
    """The test output's size, when every size rule that holds on all demonstrations agrees on it.

    A rule holds when it gives every demonstration input its output's size. ``None`` when no rule
    holds, when rules that hold disagree on the test input, or when some output is not smaller
    than its input (a crop rule says nothing there). Outputs of one shape are no rule of their
    own: a region that holds may give the test input another size (a frame of another size).
    """
    n = given.n
    pairs = list(zip(given.inputs[:n], given.outputs, strict=True))
    if n < 2:
        return None
    if not all(o.shape[0] <= i.shape[0] and o.shape[1] <= i.shape[1] and o.size < i.size for i, o in pairs):
        return None
    wanted = [(int(o.shape[0]), int(o.shape[1])) for o in given.outputs]
    answers: set[tuple[int, int]] = set()
    for rule in _size_rules(_shared_colours(given.inputs), len(set(wanted)) == 1):
        for contexts in _roots(given):
            if not all(
                rule(a, c) == want for a, c, want in zip(given.inputs, contexts, wanted, strict=False)
            ):
                continue
            size = rule(given.inputs[n], contexts[n])
            if size is None:
                continue
            answers.add(size)
            if len(answers) > 1:
                return None
    return next(iter(answers)) if answers else None
