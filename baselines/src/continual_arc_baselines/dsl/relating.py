"""Relating: recolour, keep or erase each object by a property or a relation, by a fitted table.

`objectops.relabel` paints every object with a label of one property and leaves the colours to
the fitted map, which cannot say "keep the object's own colour" for some objects and "take the
colour of the object it touches" for others, nor key an object by two things at once. Here each
object is keyed by a property, or two (`KEYS`: its size, its size's rank, whether it touches the
border, encloses holes, sits inside another object's box, shares its shape with an object of
another colour, how many bends it has, which colour touches it, its own colour, ...), and a
table fitted from the demonstrations names what the object becomes (`VALUES`): ``k`` (it keeps
its colours), a role of the grid (``c0`` the background, so the object is erased), a literal
colour, a relation: ``m`` the colour of the object of its shape and another colour, ``t`` the
colour touching it, ``u``/``d``/``l``/``r`` the first colour other than its own met looking up,
down, left or right from it (an object a relation names no single colour for keeps its colours),
or an inner fill (``i2``: its cells whose eight neighbours are all of it turn red, its rim stays).

The step is written ``relate(mode,key){value>token;...}``, a key's fields joined by dots, and
reads back from its text, so a kept program runs with no demonstrations. An object whose key the
table lacks, or a role the grid lacks, makes the step not apply. A fit needs every demonstration
to change nothing off the objects and each object to keep its colours, take one, or fill its
inside with one; and the test input to have the demonstrations' background when they share one.
The fitter offers a table only when it has fewer entries than the demonstrations have objects
(and at most `MAX_ENTRIES`) and answers every object of the test input, and only the cheapest
table of those that give the test input one answer.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from .catalogue import FitInput, Fitter, one_per_answer
from .colours import ROLES, resolve, roles
from .family import Op, Prim
from .grid import SENTINEL, Array, Context, Mask, bg_for, ranked_colours
from .objects import Objects, filter_objects, label, objects, shape_keys
from .rays import ray

__all__ = ["FITTER", "KEYS", "MODES", "RELATE_COST", "VALUES", "fit_relate", "parse_relate", "relate_op"]

Ints = npt.NDArray[np.intp]

MODES = ("4", "8", "m4")
"""How the grid is cut into objects (`objects.MODES`): single-colour 4- or 8-connected, or
multicolour 4-connected (an object's colour is then its commonest)."""

PROPS = (
    "all",
    "dot",
    "size",
    "rank",
    "border",
    "holes",
    "nholes",
    "height",
    "width",
    "bends",
    "twin",
    "mate",
    "inside",
    "touch",
    "colour",
    "hue",
    "near",
    "nrole",
)
"""What an object may be keyed by:

* ``all`` nothing (every object alike); ``dot`` whether it is one cell; ``size`` its cell count;
  ``rank`` its size's dense rank (the largest 0);
* ``border`` whether it touches the grid's border; ``holes`` whether it encloses a hole;
  ``nholes`` how many; ``height``, ``width`` its box's; ``bends`` how many of its cells turn a
  corner (a line 0, an L 1, a U 2);
* ``twin`` whether another object has its shape; ``mate`` whether one of another colour does;
  ``inside`` whether its box lies inside a larger object's box; ``touch`` how many colours share
  an edge with it (0, 1, 2 for more);
* ``colour`` its colour's role (0 the commonest colour of the grid); ``hue`` its colour itself (a
  literal: ARC's own tasks keep their colours, Re-ARC's draw them afresh); ``near`` and ``nrole``
  the one colour sharing an edge with it, as a literal or a role (-1 where none or several do).
"""

KEYS = (
    # Every property alone up to ``colour``: ``hue``, ``near`` and ``nrole`` only pair with another.
    *PROPS[: PROPS.index("colour") + 1],
    "inside+mate",
    "colour+size",
    "colour+border",
    "colour+twin",
    "colour+touch",
    "colour+inside",
    "hue+touch",
    "hue+border",
    "hue+inside",
    "hue+size",
    "hue+near",
    "colour+nrole",
)
"""The keys a table may be fitted on: one property, or two joined by ``+``."""

RELATIONS = ("m", "t", "u", "d", "l", "r")
"""Values naming another object's colour: the other object of the same shape (``m``), the one
touching it (``t``), or the first met looking up, down, left or right (``u``, ``d``, ``l``, ``r``)."""

_COLOURS = (*ROLES, *(str(c) for c in range(SENTINEL)))

INNER = tuple(f"i{token}" for token in _COLOURS)
"""Values that paint only an object's inner cells (those whose eight neighbours are all of it) a
role or literal colour, its rim kept: ``i2`` fills a hollow-less square's inside with red."""

VALUES = ("k", *ROLES, *RELATIONS, *(str(c) for c in range(SENTINEL)), *INNER)
"""What a table may say an object becomes, in the order a fit prefers them: unchanged, a role of
the grid, a relation, a literal colour, an inner fill."""

RELATE_COST = 4
"""The base cost of a fitted relation; each entry that changes objects adds a quarter bit, a key
of two properties one bit more."""

MAX_ENTRIES = 12
"""The most entries a table may have: a longer one lists the demonstrations, not a rule."""

MAX_OBJECTS = 120
"""The most objects a grid may hold for the step to apply: keeps it bounded on noisy grids."""

_PAIR_COST = 1.0
_SIDES = ((-1, 0), (1, 0), (0, -1), (0, 1))
_LOOK = {"u": ("down", -1, 0), "d": ("up", 1, 0), "l": ("right", 0, -1), "r": ("left", 0, 1)}
"""Per looking direction: the ray direction that arrives from that side, and the step to it."""


class _View:
    """One grid cut into objects, with each property and relation computed once when first asked."""

    def __init__(self, a: Array, bg: int, mode: str) -> None:
        self.a = a
        self.bg = bg
        self.objs: Objects = objects(a, bg, mode)
        self.n = len(self.objs)
        self._props: dict[str, Ints] = {}
        self._relations: dict[str, Ints] = {}
        self._touching: tuple[Ints, Ints] | None = None
        self._shapes: Ints | None = None
        self._inner: Mask | None = None

    def touching(self) -> tuple[Ints, Ints]:
        """Every distinct (object, colour) pair where a cell of that colour, off the object, touches it."""
        if self._touching is None:
            labels, a = self.objs.labels, self.a
            h, w = a.shape
            lab = np.pad(labels, 1, constant_values=-1)
            col = np.pad(a.astype(np.intp), 1, constant_values=-1)
            codes = []
            for dy, dx in _SIDES:
                other = lab[1 + dy : 1 + dy + h, 1 + dx : 1 + dx + w]
                colour = col[1 + dy : 1 + dy + h, 1 + dx : 1 + dx + w]
                hit = (labels >= 0) & (other >= 0) & (other != labels)
                codes.append(labels[hit].astype(np.intp) * 16 + colour[hit])
            pairs = np.unique(np.concatenate(codes))
            self._touching = (pairs // 16, pairs % 16)
        return self._touching

    def shapes(self) -> Ints:
        """Per object, an index naming its shape (objects of one shape share it)."""
        if self._shapes is None:
            keys = shape_keys(self.a, self.objs)
            index = {k: i for i, k in enumerate(dict.fromkeys(keys))}
            self._shapes = np.array([index[k] for k in keys], dtype=np.intp)
        return self._shapes

    def prop(self, name: str) -> Ints:
        """Per object, the value of property ``name`` (one of `PROPS`)."""
        if name not in self._props:
            self._props[name] = self._prop(name)
        return self._props[name]

    def _prop(self, name: str) -> Ints:
        objs, n = self.objs, self.n
        if name == "all":
            return np.zeros(n, dtype=np.intp)
        if name == "dot":
            return np.asarray(objs.sizes == 1, dtype=np.intp)
        if name == "size":
            return objs.sizes
        if name == "rank":
            sizes = np.unique(objs.sizes)[::-1]
            return np.asarray(np.searchsorted(-sizes, -objs.sizes), dtype=np.intp)
        if name in ("border", "holes"):
            return filter_objects(self.a, objs, name).astype(np.intp)
        if name == "nholes":
            return np.array([self._holes(i) for i in range(n)], dtype=np.intp)
        if name == "height":
            return np.asarray(objs.bottoms - objs.tops, dtype=np.intp)
        if name == "width":
            return np.asarray(objs.rights - objs.lefts, dtype=np.intp)
        if name == "bends":
            return self._bends()
        if name == "twin":
            shapes = self.shapes()
            return np.asarray(np.bincount(shapes)[shapes] > 1, dtype=np.intp)
        if name == "mate":
            return np.asarray(self._mates().any(axis=1), dtype=np.intp)
        if name == "inside":
            t, b, le, r = objs.tops, objs.bottoms, objs.lefts, objs.rights
            # Object i lies inside j's box when j's box holds i's and is larger.
            holds = (t[None, :] <= t[:, None]) & (b[None, :] >= b[:, None])
            holds &= (le[None, :] <= le[:, None]) & (r[None, :] >= r[:, None])
            area = (b - t) * (r - le)
            holds &= area[None, :] > area[:, None]
            return np.asarray(holds.any(axis=1), dtype=np.intp)
        if name == "touch":
            owners, _ = self.touching()
            return np.minimum(np.bincount(owners, minlength=n), 2).astype(np.intp)
        if name == "hue":
            return np.asarray(objs.colours, dtype=np.intp)
        if name == "near":
            return self.relation("t")
        rank = np.full(257, -1, dtype=np.intp)  # the last entry: no colour stays no role
        ranked = ranked_colours(self.a)
        rank[ranked] = np.arange(len(ranked))
        if name == "nrole":
            return rank[self.relation("t")]
        return rank[objs.colours]

    def _mates(self) -> Mask:
        """Which pairs of objects share a shape but not a colour."""
        shapes, colours = self.shapes(), self.objs.colours
        same: Mask = (shapes[:, None] == shapes[None, :]) & (colours[:, None] != colours[None, :])
        return same

    def _holes(self, i: int) -> int:
        """How many separate regions of other cells object ``i`` encloses within its box."""
        box = self.objs.box(i)
        free = self.objs.labels[box] != i
        if not free[1:-1, 1:-1].any():
            return 0
        regions = label(free.astype(np.uint8), free, False, False)
        edge = np.concatenate([regions[0], regions[-1], regions[:, 0], regions[:, -1]])
        return len(np.setdiff1d(regions[regions >= 0], edge))

    def inner(self) -> Mask:
        """Which cells belong to an object together with their eight neighbours."""
        if self._inner is None:
            labels = self.objs.labels
            h, w = labels.shape
            lab = np.pad(labels, 1, constant_values=-1)
            inside = labels >= 0
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    inside &= lab[1 + dy : 1 + dy + h, 1 + dx : 1 + dx + w] == labels
            self._inner = inside
        return self._inner

    def _bends(self) -> Ints:
        labels = self.objs.labels
        lab = np.pad(labels, 1, constant_values=-1)
        h, w = labels.shape
        same = [lab[1 + dy : 1 + dy + h, 1 + dx : 1 + dx + w] == labels for dy, dx in _SIDES]
        corner = (same[0] | same[1]) & (same[2] | same[3]) & (labels >= 0)
        return np.bincount(labels[corner], minlength=self.n).astype(np.intp)

    def relation(self, name: str) -> Ints:
        """Per object, the colour relation ``name`` (of `RELATIONS`) names; -1 where none is single."""
        if name not in self._relations:
            self._relations[name] = self._relation(name)
        return self._relations[name]

    def _relation(self, name: str) -> Ints:
        n, objs = self.n, self.objs
        if name == "m":
            owners, colours = np.nonzero(self._mates())
            return _single(owners, objs.colours[colours], n)
        if name == "t":
            owners, colours = self.touching()
            return _single(owners, colours, n)
        direction, dy, dx = _LOOK[name]
        a, labels = self.a, self.objs.labels
        h, w = labels.shape
        lab = np.pad(labels, 1, constant_values=-1)
        step = lab[1 + dy : 1 + dy + h, 1 + dx : 1 + dx + w]
        edge = (labels >= 0) & (step != labels)
        met_owners: list[Ints] = []
        met_colours: list[Ints] = []
        for own in np.unique(objs.colours).tolist():
            # Looking past cells of the object's own colour: another object of it is no marker.
            seen = ray(np.where(a == own, np.uint8(self.bg), a), self.bg, direction).astype(np.intp)
            seen = np.pad(seen, 1, constant_values=-1)[1 + dy : 1 + dy + h, 1 + dx : 1 + dx + w]
            # From each object cell whose neighbour that way is off the object, the colour first met.
            hit = edge & (seen >= 0) & (objs.colours[np.maximum(labels, 0)] == own)
            met_owners.append(labels[hit].astype(np.intp))
            met_colours.append(seen[hit])
        return _single(np.concatenate(met_owners), np.concatenate(met_colours), n)

    def keys(self, key: str) -> list[str]:
        """Per object, its key under ``key`` (one of `KEYS`), as text."""
        fields = [self.prop(p).tolist() for p in key.split("+")]
        return [".".join(str(v) for v in row) for row in zip(*fields, strict=True)]


def _single(owners: Ints, colours: Ints, n: int) -> Ints:
    """Per object, the one colour paired with it, or -1 where it has none or several."""
    out = np.full(n, -1, dtype=np.intp)
    if len(owners) == 0:
        return out
    pairs = np.unique(owners * 16 + colours)
    who, what = pairs // 16, pairs % 16
    count = np.bincount(who, minlength=n)
    out[who] = what
    out[count != 1] = -1
    return out


def _view(a: Array, ctx: Context, mode: str) -> _View | None:
    if int(a.max()) >= SENTINEL:
        return None
    view = _View(a, bg_for(a, ctx), mode)
    return view if 0 < view.n <= MAX_OBJECTS else None


def _apply(mode: str, key: str, table: dict[str, str]) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        view = _view(a, ctx, mode)
        if view is None:
            return None
        named = roles(a)
        tokens = []
        for k in view.keys(key):
            token = table.get(k)
            if token is None:
                return None
            tokens.append(token)
        paint = np.full(view.n + 1, -1, dtype=np.intp)  # the last entry: off every object
        fill = np.full(view.n + 1, -1, dtype=np.intp)
        for i, token in enumerate(tokens):
            if token == "k":
                continue
            if token in RELATIONS:
                paint[i] = view.relation(token)[i]  # -1, so kept, where no single colour is related
                continue
            colour = resolve(token[1:] if token[0] == "i" else token, named)
            if colour is None:
                return None
            (fill if token[0] == "i" else paint)[i] = colour
        labels = view.objs.labels
        new = np.where(view.inner(), fill[labels], -1)
        new = np.where(new >= 0, new, paint[labels])
        # A grid whose objects all keep their colours comes back as it was: a demonstration may
        # show no object the rule changes.
        return np.where(new >= 0, new, a).astype(np.uint8)

    return prim


def relate_op(mode: str, key: str, table: Sequence[tuple[str, str]]) -> Op:
    """The step ``relate(mode,key){value>token;...}`` for a fitted table."""
    changes = sum(token != "k" for _, token in table)
    cost = RELATE_COST + changes / 4 + (_PAIR_COST if "+" in key else 0.0)
    body = ";".join(f"{k}>{token}" for k, token in table)
    return Op(f"relate({mode},{key}){{{body}}}", cost, _apply(mode, key, dict(table)), "same")


def _outcomes(a: Array, b: Array, view: _View) -> Mask | None:
    """Per object and value of `VALUES`, whether that value says what the object becomes.

    ``None`` when a cell off every object changes, or an object neither keeps its colours, nor
    takes a single one, nor keeps its rim and takes a single one inside.
    """
    labels = view.objs.labels
    off = labels < 0
    if not np.array_equal(a[off], b[off]):
        return None
    n = view.n
    flat, out, inp = labels[~off], b[~off].astype(np.intp), a[~off]
    low = np.full(n, 99, dtype=np.intp)
    high = np.full(n, -1, dtype=np.intp)
    np.minimum.at(low, flat, out)
    np.maximum.at(high, flat, out)
    kept = np.ones(n, dtype=bool)
    kept[flat[inp != out]] = False
    uniform = low == high
    inner = view.inner()[~off]
    rim = np.ones(n, dtype=bool)
    rim[flat[~inner & (inp != out)]] = False
    low_in = np.full(n, 99, dtype=np.intp)
    high_in = np.full(n, -1, dtype=np.intp)
    np.minimum.at(low_in, flat[inner], out[inner])
    np.maximum.at(high_in, flat[inner], out[inner])
    filled = rim & (low_in == high_in)
    if not np.all(kept | uniform | filled):
        return None
    named = roles(a)
    table = np.zeros((n, len(VALUES)), dtype=bool)
    table[:, 0] = kept
    for j, token in enumerate(VALUES[1:], start=1):
        if token in RELATIONS:
            colour = view.relation(token)
            table[:, j] = (uniform & (colour == low)) | (kept & (colour < 0))
        elif token[0] == "i":
            target = resolve(token[1:], named)
            if target is not None:
                table[:, j] = filled & (low_in == target)
        else:
            target = resolve(token, named)
            if target is not None:
                table[:, j] = uniform & (low == target)
    return table


def fit_relate(given: FitInput) -> list[Op]:
    """The relation steps the demonstrations fix, cheapest first, one per answer they give the test input."""
    n = given.n
    if not given.keeps_size:
        return []
    bgs = {c.bg for c in given.contexts[:n]}
    if len(bgs) == 1 and given.contexts[n].bg not in bgs:
        # Every demonstration has one background and the test input's commonest colour is another:
        # its objects would be cut against the wrong colour.
        return []
    found: list[tuple[float, int, Op]] = []
    for mode in MODES:
        views = [_view(a, c, mode) for a, c in zip(given.inputs, given.contexts, strict=True)]
        if any(v is None for v in views):
            continue
        ready = [v for v in views if v is not None]
        outcomes = []
        for a, b, view in zip(given.inputs[:n], given.outputs, ready, strict=False):
            table = _outcomes(a, b, view)
            if table is None:
                break
            outcomes.append(table)
        else:
            allowed = np.concatenate(outcomes)
            for key in KEYS:
                op = _fit_key(mode, key, ready, allowed)
                if op is not None:
                    found.append((op.cost, len(found), op))
    found.sort(key=lambda item: (item[0], item[1]))
    # Keep one step per answer on the test input: the cheapest says it best.
    return one_per_answer(given, [op for _, _, op in found])


def _fit_key(mode: str, key: str, views: Sequence[_View], allowed: Mask) -> Op | None:
    demo_keys = [k for v in views[:-1] for k in v.keys(key)]
    values = sorted(set(demo_keys))
    if len(values) > MAX_ENTRIES or len(values) >= len(demo_keys):
        return None  # more entries than the objects repeat: a list, not a rule
    if not set(views[-1].keys(key)) <= set(values):
        return None  # the test input holds an object the table cannot answer
    index = {k: i for i, k in enumerate(values)}
    groups = np.array([index[k] for k in demo_keys], dtype=np.intp)
    table = []
    for i, k in enumerate(values):
        common = allowed[groups == i].all(axis=0)
        if not common.any():
            return None
        table.append((k, VALUES[int(np.argmax(common))]))
    if all(token == "k" for _, token in table):
        return None
    return relate_op(mode, key, table)


def parse_relate(text: str) -> Op | None:
    """The relation step written as ``text``, or ``None`` when it is malformed."""
    head, _, body = text.partition("){")
    mode, _, key = head.removeprefix("relate(").partition(",")
    if mode not in MODES or key not in KEYS or not body.endswith("}"):
        return None
    table = []
    width = len(key.split("+"))
    for item in body[:-1].split(";"):
        k, sep, token = item.partition(">")
        fields = k.split(".")
        if not sep or token not in VALUES or len(fields) != width:
            return None
        if not all(f.isdigit() or (f.startswith("-") and f[1:].isdigit()) for f in fields):
            return None
        table.append((k, token))
    op = relate_op(mode, key, table)
    return op if op.text == text else None


FITTER = Fitter(
    "relate(",
    {
        f"relate({mode},{key})": RELATE_COST + (_PAIR_COST if "+" in key else 0.0)
        for mode in MODES
        for key in KEYS
    },
    fit_relate,
    parse_relate,
)
"""The fitter of relation steps, for the ``wide`` catalogue."""
