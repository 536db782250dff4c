"""Panel keys: a row of equal panels, each named by the pattern of its marks, read out as colours.

Some grids set equal panels side by side (or one above another), one-cell divider lines of one
colour between them, and each panel shows one of a few patterns: solid, a hole in the middle, a
notch at the bottom. The answer gives each panel one line of the colour its pattern stands for,
the lines stacked in the panels' order. A panel's *pattern* is where its cells differ from its
own commonest colour, so the same pattern reads the same whatever the panel's colours.

``panelkey(lay){L;table}`` lays the panels' colours out (`LAYS`: ``rows``, panel ``k`` filling
row ``k`` of ``L`` cells; ``cols``, column ``k``), its table written ``pattern:colour`` with the
pattern as the panel's size and its cells in reading order, ``1`` where they differ
(``4x4/0000011001100000:8``). The fitter reads the table from the demonstrations (a pattern with
two colours fails); a test panel whose pattern no demonstration shows makes the step not apply.
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter, changing_answers
from .family import Op, Prim
from .grid import SENTINEL, Array, Context, background
from .steptext import braced

__all__ = [
    "FITTER",
    "LAYS",
    "PANELKEY_COST",
    "equal_panels",
    "fit_panelkey",
    "panel_pattern",
    "parse_panelkey",
]

PANELKEY_COST = 3.5
"""The base cost of a panel-key step: a layout and a fitted table."""

LAYS = ("rows", "cols")
"""Where panel ``k``'s colour goes: row ``k`` of the output, or column ``k``."""


def equal_panels(a: Array) -> list[Array] | None:
    """``a`` cut into equal panels across its long side by one-cell uniform dividers of one colour.

    The narrowest such cut into two or more panels at least two cells wide, its dividers not of
    the commonest colour of the panels; ``None`` when there is none.
    """
    b = a if a.shape[1] >= a.shape[0] else a.T
    w = b.shape[1]
    for p in range(2, w // 2):
        if (w + 1) % (p + 1):
            continue
        cuts = list(range(p, w, p + 1))
        lines = b[:, cuts]
        if not (lines == lines[0, 0]).all() or lines[0, 0] == background(np.delete(b, cuts, axis=1)):
            continue  # a divider is one colour, and not the panels' commonest (a run of it is no cut)
        panels = [b[:, s : s + p] for s in range(0, w, p + 1)]
        return panels if b is a else [panel.T for panel in panels]
    return None


def panel_pattern(panel: Array) -> str:
    """A panel's pattern: its size and where its cells differ from its commonest colour."""
    marks = panel != background(panel)
    bits = "".join("1" if m else "0" for m in marks.ravel().tolist())
    return f"{panel.shape[0]}x{panel.shape[1]}/{bits}"


def _laid(a: Array, lay: str, length: int, table: dict[str, int]) -> Array | None:
    """``a``'s panels read through ``table`` and laid out as ``lay`` says; ``None`` off the table."""
    panels = equal_panels(a)
    if panels is None:
        return None
    colours = [table.get(panel_pattern(panel)) for panel in panels]
    if any(c is None for c in colours):
        return None
    column = np.array(colours, dtype=np.uint8)[:, None]
    out = np.repeat(column, length, axis=1)
    return out if lay == "rows" else np.ascontiguousarray(out.T)


def panelkey_op(lay: str, length: int, table: dict[str, int]) -> Op:
    """The step ``panelkey(lay){length;table}``."""
    frozen = dict(sorted(table.items()))
    text = ",".join(f"{k}:{v}" for k, v in frozen.items())

    def prim(a: Array, ctx: Context) -> Array | None:
        if int(a.max()) >= SENTINEL:
            return None
        return _laid(a, lay, length, frozen)

    step: Prim = prim
    return Op(f"panelkey({lay}){{{length};{text}}}", PANELKEY_COST, step, "other")


def _fit_lay(given: FitInput, lay: str) -> Op | None:
    """The table the demonstrations show for layout ``lay``, or ``None`` when they show none."""
    table: dict[str, int] = {}
    lengths = set()
    for a, b in zip(given.inputs, given.outputs, strict=False):
        panels = equal_panels(a)
        lines = b if lay == "rows" else b.T
        if panels is None or lines.shape[0] != len(panels) or not (lines == lines[:, :1]).all():
            return None
        lengths.add(lines.shape[1])
        for panel, colour in zip(panels, lines[:, 0].tolist(), strict=True):
            if table.setdefault(panel_pattern(panel), colour) != colour:
                return None  # one pattern, two colours: the pattern is not what decides
    if len(lengths) != 1 or len(set(table.values())) < 2:
        return None
    return panelkey_op(lay, lengths.pop(), table)


def fit_panelkey(given: FitInput) -> list[Op]:
    """The panel-key steps the demonstrations show, if they reproduce them and answer the test input."""
    ops = [op for lay in LAYS if (op := _fit_lay(given, lay)) is not None]
    return changing_answers(given, ops)


def parse_panelkey(text: str) -> Op | None:
    """The panel-key step written as ``text``, or ``None`` when it is not one."""
    head, _, rest = text.partition("){")
    body = braced("p{" + rest, "p")
    lay = head.removeprefix("panelkey(")
    if not head.startswith("panelkey(") or body is None or lay not in LAYS:
        return None
    length, _, body = body.partition(";")
    if not length.isdigit() or not 0 < int(length) <= 30:
        return None
    table: dict[str, int] = {}
    for entry in body.split(","):
        key, _, colour = entry.rpartition(":")
        if not key or not colour.isdigit() or int(colour) >= SENTINEL:
            return None
        table[key] = int(colour)
    return panelkey_op(lay, int(length), table)


FITTER = Fitter(
    "panelkey(", {f"panelkey({lay})": PANELKEY_COST for lay in LAYS}, fit_panelkey, parse_panelkey
)
"""The fitter of panel keys."""
