"""What the fitters of steps that draw on the background read from the demonstrations.

Many fitted steps draw lines or bands onto the empty part of a grid (``beam``, ``corners``,
``dash``, ``elbow``, ``link``, ``spans``, ``toward``, ``axes``, ``bounce``, ``turn``). Their fitters
all begin with the same gate (every demonstration keeps its size, changes some cell, and changes
only background cells) and read their candidate colours from what the outputs paint there. The
gate is kept here so that every such step reads the demonstrations the same way.
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput

__all__ = ["background_paints", "painted_colour", "painted_colours"]


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


def painted_colour(given: FitInput) -> int | None:
    """The one colour the demonstrations paint on their background; ``None`` when they paint more.

    ``None`` too when they fail `background_paints`' gate: for steps that draw in a single colour.
    """
    painted = painted_colours(given)
    if painted is None or len(painted) != 1:
        return None
    (colour,) = painted
    return colour
