"""The registry of primitives: every family of every module, expanded in search order, in catalogues.

``WIDE``, the default (`DEFAULT`), holds every family but those still being measured; ``CORE``
holds the first ones only, the steps the search had before the wide families were added, kept to
measure against (`catalogue`); ``NEXT`` adds to ``wide`` the steps still being measured. `lookup`
reads the steps of any of them, so a program found with any catalogue runs again.

Besides these fixed primitives there are *fitted* steps, whose constants the search fits from the
demonstrations and writes into the step's text in braces: ``window(tl){3,4}`` (a block of fitted
size at a corner), ``local(b4){...}`` (a table of local rules, `local`), ``halo(1){...}``
(a pattern each colour paints around its cells, `halo`) and ``blocks(2x2){...}`` (a layout of
reflected copies, `layout`).
"""

from __future__ import annotations

from collections.abc import Callable

from continual_arc.grids import MAX_SIDE

from . import (
    aligning,
    analogy,
    axismirror,
    banding,
    bandlines,
    bands,
    beams,
    bordering,
    bounce,
    boxfitting,
    boxing,
    carrying,
    cellends,
    cellgrid,
    cellrules,
    centres,
    centring,
    chequering,
    choosing,
    chosen,
    classifying,
    clusterboxes,
    coarsening,
    colourmaps,
    colourshifts,
    combining,
    completing,
    contact,
    cornering,
    corners,
    counting,
    crosscorners,
    crossing,
    crossings,
    crossrings,
    dashes,
    despeckling,
    detouring,
    downscale,
    dragging,
    drawing,
    dropcomb,
    echoing,
    edgelines,
    elbows,
    encasing,
    extending,
    extract,
    fenceboxes,
    filling,
    framing,
    fulllines,
    gathering,
    geometry,
    ground,
    halfbars,
    halfframes,
    hidden,
    homing,
    hopping,
    inverting,
    inward,
    isolating,
    keystamps,
    keystripes,
    kronecker,
    lanes,
    lattice,
    layers,
    lines,
    links,
    masking,
    mending,
    midpoints,
    motion,
    objectops,
    ordercount,
    orienting,
    overlapping,
    painting,
    pairing,
    panelkeys,
    perobject,
    piercing,
    pitching,
    pivoting,
    pooling,
    quartering,
    relating,
    repairing,
    replicating,
    restacking,
    ricochet,
    rings,
    rolling,
    seams,
    segspan,
    selfsimilar,
    sequencing,
    shearing,
    shuffling,
    sidetinting,
    sizing,
    sliding,
    smearing,
    solids,
    sorting,
    spanning,
    spans,
    spilling,
    spiralling,
    spotting,
    staggering,
    staircases,
    stamping,
    stretching,
    striping,
    sweeping,
    symmetrize,
    symmetry,
    tabmirrors,
    targets,
    tiling,
    tinting,
    trailing,
    turning,
    turns,
    unveiling,
    wallslopes,
    zorder,
)
from .catalogue import Catalogue, Fitter
from .family import Family, Op
from .halo import HALO_COST, RADII, parse_halo
from .layout import BLOCKS_COST, CONTINUE_COST, parse_blocks, parse_continue
from .local import KINDS, LOCAL_COST, parse_local
from .parts import SPLITS
from .stacking import STACK_COST, parse_stack

__all__ = [
    "BASE_COSTS",
    "CATALOGUES",
    "CORE",
    "DEFAULT",
    "FAMILIES",
    "NEXT",
    "OPS",
    "WIDE",
    "WINDOW_COST",
    "catalogue",
    "lookup",
    "window_op",
]

WINDOW_COST = 2
"""The cost of ``window(corner){h,w}``, whose sizes are fitted constants."""

FAMILIES: tuple[Family, ...] = (
    *geometry.FAMILIES,
    *extract.FAMILIES,
    *sizing.FAMILIES,
    *tiling.FAMILIES,
    *painting.FAMILIES,
    *symmetry.FAMILIES,
    *layers.FAMILIES,
    *combining.FAMILIES,
    *pairing.FAMILIES,
    *lines.FAMILIES,
    *objectops.FAMILIES,
    *motion.FAMILIES,
    *contact.FAMILIES,
    # Later additions go last: among steps of equal cost they are tried after every older one,
    # so the programs the older steps found keep their place in the search.
    *lattice.FAMILIES,
    *choosing.FAMILIES,
    *pooling.FAMILIES,
)
"""Every primitive family of the ``core`` catalogue, in the order the search tries them."""

_FITTED_COSTS: dict[str, float] = {
    **{f"window({corner})": WINDOW_COST for corner in extract.CORNERS},
    **{f"local({kind})": LOCAL_COST for kind in KINDS},
    **{f"blocks({r}x{c})": BLOCKS_COST for r in range(1, 6) for c in range(1, 6) if r * c > 1},
    "continue": CONTINUE_COST,
    **{f"stack({how})": STACK_COST for how in SPLITS},
    **{f"halo({radius})": HALO_COST for radius in RADII},
}

CORE = Catalogue("core", FAMILIES, base_fitted=_FITTED_COSTS)
"""The first families only: the search as it was before ``wide``, kept to measure against."""

WIDE_FAMILIES: tuple[Family, ...] = (
    *cellgrid.FAMILIES,
    *stamping.FAMILIES,
    *filling.FAMILIES,
    *kronecker.FAMILIES,
    *bands.FAMILIES,
    *gathering.FAMILIES,
    *framing.FAMILIES,
    *masking.FAMILIES,
    *overlapping.FAMILIES,
    *symmetrize.FAMILIES,
    *extending.FAMILIES,
    *lanes.FAMILIES,
    *analogy.FAMILIES,
    *solids.FAMILIES,
    *inverting.FAMILIES,
    *sorting.FAMILIES,
    *hidden.FAMILIES,
    *completing.FAMILIES,
    *centring.FAMILIES,
    *colourmaps.FAMILIES,
    *shearing.FAMILIES,
    *rings.FAMILIES,
    *zorder.FAMILIES,
    *restacking.FAMILIES,
    *hopping.FAMILIES,
    *isolating.FAMILIES,
    *edgelines.FAMILIES,
    *homing.FAMILIES,
    *segspan.FAMILIES,
    *cornering.FAMILIES,
    *piercing.FAMILIES,
    *selfsimilar.FAMILIES,
    *stretching.FAMILIES,
    *chequering.FAMILIES,
    *crosscorners.FAMILIES,
    *crossrings.FAMILIES,
    *spiralling.FAMILIES,
    *bandlines.FAMILIES,
    *keystripes.FAMILIES,
    *staircases.FAMILIES,
    *tabmirrors.FAMILIES,
    *keystamps.FAMILIES,
    *cellends.FAMILIES,
    *dropcomb.FAMILIES,
    *halfframes.FAMILIES,
    *wallslopes.FAMILIES,
    *fenceboxes.FAMILIES,
    *fulllines.FAMILIES,
    *ricochet.FAMILIES,
    *halfbars.FAMILIES,
    *unveiling.FAMILIES,
    *piercing.RIM_FAMILIES,
    *despeckling.FAMILIES,
    *clusterboxes.FAMILIES,
    *axismirror.FAMILIES,
    *rings.GAP_FAMILIES,
    *pooling.ALL_FAMILIES,
    *staggering.FAMILIES,
)
"""The families added since ``core``, in the order the search tries them (after all of ``core``'s)."""

_EARLIER_FITTERS: tuple[Fitter, ...] = (
    aligning.FITTER,
    counting.FITTER,
    relating.FITTER,
    chosen.FITTER,
    cellgrid.CELLMOVE,
    drawing.DRAW,
    *perobject.FITTERS,
    cellrules.FITTER,
    repairing.FITTER,
    targets.TOWARD,
    elbows.ELBOW,
    bounce.BOUNCE,
    centres.AXES,
    corners.CORNERS,
    beams.BEAM,
    spans.SPANS,
    dashes.DASH,
    turns.TURN,
    links.LINK,
    ground.FITTER,
    tinting.FITTER,
    boxing.FITTER,
    turning.FITTER,
    pivoting.FITTER,
    banding.FITTER,
    kronecker.FITTER,
    seams.FITTER,
    downscale.FITTER,
    dragging.FITTER,
    bordering.FITTER,
    carrying.FITTER,
    trailing.FITTER,
    classifying.FITTER,
    classifying.SPECKED,
    pitching.PITCH,
    spanning.SPANNED,
    spanning.BOXIN,
    crossing.OVERJOIN,
    spilling.FITTER,
    detouring.DETOUR,
    detouring.JOG,
    encasing.FITTER,
    mending.FITTER,
    midpoints.FITTER,
    colourshifts.FITTER,
    sequencing.FITTER,
    panelkeys.FITTER,
    spotting.FITTER,
    rolling.FITTER,
    quartering.ASSEMBLE,
    quartering.QUARTERS,
    boxfitting.FITTER,
    coarsening.FITTER,
    crossings.FITTER,
    ordercount.FITTER,
    inward.FITTER,
)
"""The fitters added since ``core`` before ``orient``: the ones ``orient`` wraps."""

ORIENT = orienting.orient_fitter(_EARLIER_FITTERS)
"""The oriented steps: ``local`` rules and the earlier fitters taken on each grid in its own pose."""

WIDE_FITTERS: tuple[Fitter, ...] = (
    *_EARLIER_FITTERS,
    shuffling.FITTER,
    smearing.FITTER,
    sliding.FITTER,
    replicating.FITTER,
    echoing.FITTER,
    sweeping.FITTER,
    sidetinting.FITTER,
    striping.FITTER,
    ORIENT,
)
"""The fitters added since ``core``."""

WIDE_FEATURES: frozenset[str] = frozenset({"outsize", "heldbg", "sizefollows", "changes", "mapclash"})
"""The changes to the search itself made since ``core`` (`Catalogue.features`, all read in
`fitting.Task`): ``outsize`` answers at the size that rules read from the demonstrations agree on;
``heldbg`` holds the demonstrations' shared background on the test input; ``sizefollows`` answers a
test input of another shape at its own size when the demonstrations' outputs share a shape only
because their inputs do; ``changes`` drops an answer that leaves the test input as it was when every
demonstration changes its input; ``mapclash`` drops one whose map has two keys naming one colour on
the test input alone."""

WIDE = Catalogue("wide", (*FAMILIES, *WIDE_FAMILIES), WIDE_FITTERS, _FITTED_COSTS, WIDE_FEATURES)
"""Every step of ``core`` and every family and fitter added since."""

NEXT_FAMILIES: tuple[Family, ...] = ()
"""Families under measurement: searched only in ``next``, after all of ``wide``'s (none at present)."""

NEXT_FITTERS: tuple[Fitter, ...] = ()
"""Fitters under measurement: fitted only in ``next``, after all of ``wide``'s (none at present)."""

NEXT_FEATURES: frozenset[str] = WIDE_FEATURES | {"nearfit"}
"""Changes to the search itself under measurement, made only in ``next``: ``nearfit`` answers, when
nothing fits exactly, with a program that misses at most two cells of one demonstration and
matches every other (`fitting.Task.near_fit`)."""

NEXT = Catalogue(
    "next", (*WIDE.families, *NEXT_FAMILIES), (*WIDE_FITTERS, *NEXT_FITTERS), _FITTED_COSTS, NEXT_FEATURES
)
"""``wide`` and the steps under measurement: chosen by name, so they change no stored record."""

DEFAULT = WIDE
"""The catalogue searched when none is named, and every stored run's."""

CATALOGUES: dict[str, Catalogue] = {c.name: c for c in (CORE, WIDE, NEXT)}
"""Every catalogue by name."""

OPS: tuple[Op, ...] = DEFAULT.ops
"""Every primitive of the default catalogue with its arguments bound, in search order."""

BASE_COSTS: dict[str, float] = DEFAULT.base_costs
"""Every default step's cost under the empty prior, by its token (a fitted step without its constants)."""


def catalogue(name: str) -> Catalogue:
    """The catalogue called ``name``; a `ValueError` naming the known ones otherwise."""
    try:
        return CATALOGUES[name]
    except KeyError:
        known = ", ".join(CATALOGUES)
        raise ValueError(f"no search catalogue is called {name!r}; the catalogues are {known}") from None


def window_op(corner: str, height: int, width: int) -> Op:
    """The step ``window(corner){height,width}``."""
    return Op(
        f"window({corner}){{{height},{width}}}", WINDOW_COST, extract.window(corner, height, width), "shrink"
    )


def _window(text: str) -> Op | None:
    head, _, body = text.partition("){")
    corner = head.removeprefix("window(")
    height, _, width = body.removesuffix("}").partition(",")
    if corner not in extract.CORNERS or not (height.isdigit() and width.isdigit()):
        return None
    h, w = int(height), int(width)
    if not (0 < h <= MAX_SIDE and 0 < w <= MAX_SIDE):
        return None
    op = window_op(corner, h, w)
    return op if op.text == text else None


_FITTED: dict[str, Callable[[str], Op | None]] = {
    "window(": _window,
    "local(": parse_local,
    "blocks(": parse_blocks,
    "continue{": parse_continue,
    "stack(": parse_stack,
    "halo(": parse_halo,
    **{fitter.prefix: fitter.parse for fitter in NEXT.fitters},
}


def lookup(text: str) -> Op | None:
    """The step whose canonical text is ``text`` (``"rot90"``, ``"pick(8,big)"``), of any catalogue."""
    if not text.isascii():
        return None  # a digit such as "²" passes ``isdigit`` but not ``int``; no step writes one
    if text.endswith("}"):
        for prefix, parser in _FITTED.items():
            if text.startswith(prefix):
                return parser(text)
        return None
    return NEXT.by_text.get(text)
