"""What the fitters of steps that draw on the background share.

Many fitted steps draw lines or bands onto the empty part of a grid (``beam``, ``corners``,
``dash``, ``elbow``, ``link``, ``spans``, ``toward``, ``axes``, ``bounce``, ``turn``). Their fitters
all begin with the same gate (every demonstration keeps its size, changes some cell, and changes
only background cells) and read their candidate colours from what the outputs paint there; their
step texts write a colour as its digit or as a one-character name for a role (the source's own
colour, the mark's, ...). Both are kept here so that every such step reads the demonstrations and
its own text the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import numpy as np

from .catalogue import FitInput
from .grid import SENTINEL

__all__ = ["NO_NAMES", "background_paints", "colour_text", "painted_colours", "parse_colour"]

NO_NAMES: Mapping[int, str] = MappingProxyType({})
"""No role names: every colour is written as its digit."""


def background_paints(given: FitInput) -> list[set[int]] | None:
    """Per demonstration, the colours its output paints, when all it does is paint the background.

    ``None`` when some demonstration changes size, changes nothing, or changes a cell that is not
    its background: a step that only draws on the empty part of a grid cannot give it.
    """
    paints: list[set[int]] = []
    for a, b, ctx in zip(given.inputs, given.outputs, given.contexts, strict=False):
        if a.shape != b.shape:
            return None
        ch = a != b
        if not ch.any() or np.any(a[ch] != ctx.bg):
            return None
        paints.append({int(v) for v in np.unique(b[ch])})
    return paints


def painted_colours(given: FitInput) -> set[int] | None:
    """Every colour the demonstrations paint on their background, or ``None`` as `background_paints`."""
    paints = background_paints(given)
    return None if paints is None else set().union(*paints)


def colour_text(colour: int, names: Mapping[int, str] = NO_NAMES) -> str:
    """``colour`` as a step's text writes it: a role's name from ``names``, else its digit."""
    return names.get(colour, str(colour))


def parse_colour(text: str, names: Mapping[int, str] = NO_NAMES) -> int | None:
    """The colour (or role) ``text`` writes, read back as `colour_text` wrote it; ``None`` when neither."""
    for colour, name in names.items():
        if text == name:
            return colour
    return int(text) if text.isdigit() and int(text) < SENTINEL else None
