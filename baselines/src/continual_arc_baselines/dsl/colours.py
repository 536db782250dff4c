"""Colours named by role, and the colour map a search fits from the demonstrations.

A role names a colour of the program's *input* by its frequency there: ``c0`` is the most
frequent (the background, usually), ``c1`` the next, and so on; ``cz`` is the least frequent and
``cy`` the one before it (ties go to the lower colour). Re-ARC recolours nearly every pair, so a
map written in roles (``c1>c2``: "the second most frequent colour becomes the third") carries over
to new inputs where one written in literal colours would not.

A map is a list of entries ``key>value``. A key is a role or a literal value (a colour, or a label
of 10 and up painted by a primitive); a value is a role or a literal colour 0-9. When a key names
a value already claimed by an earlier entry, the earlier entry wins.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .grid import SENTINEL, Array, ranked_colours

__all__ = [
    "MAX_ENTRIES",
    "ROLES",
    "Entry",
    "apply_map",
    "clashes",
    "entry_cost",
    "fit_map",
    "functional",
    "resolve",
    "roles",
]

ROLES = (*(f"c{i}" for i in range(10)), "cy", "cz")
"""Role names, in the order a fit tries them."""

MAX_ENTRIES = 8
"""The most entries a fitted map may have: a longer one is a description of the demonstrations,
not a rule, and rarely answers a new input right."""

Entry = tuple[str, str]
"""One map entry: (key, value)."""

_LITERALS = tuple(str(c) for c in range(SENTINEL))


def roles(original: Array) -> dict[str, int]:
    """The colour each role names in an input grid (roles beyond its colours are absent)."""
    ranked = ranked_colours(original)
    named = {f"c{i}": c for i, c in enumerate(ranked)}
    named["cz"] = ranked[-1]
    if len(ranked) >= 2:
        named["cy"] = ranked[-2]
    return named


def resolve(token: str, named: dict[str, int]) -> int | None:
    """The value a map token stands for, given an input's roles (``None``: the role is absent)."""
    if token[0] == "c":
        return named.get(token)
    return int(token)


def entry_cost(entry: Entry) -> int:
    """The search cost of a map entry: a literal colour value costs more, as it transfers worse."""
    return 1 + (entry[1][0] != "c")


def apply_map(entries: Sequence[Entry], state: Array, original: Array) -> Array | None:
    """Recolour ``state`` by a map whose roles refer to ``original``.

    Returns ``None`` when a value present in ``state`` maps to a role ``original`` lacks.
    """
    named = roles(original)
    present = np.bincount(state.ravel(), minlength=256) > 0
    table = np.arange(256, dtype=np.uint8)
    claimed: set[int] = set()
    for key, value in entries:
        source = resolve(key, named)
        if source is None or source in claimed or source > 255 or not present[source]:
            continue
        target = resolve(value, named)
        if target is None:
            return None
        table[source] = target
        claimed.add(source)
    return table[state]


def clashes(entries: Sequence[Entry], state: Array, original: Array) -> bool:
    """Whether two entries of a map name one colour of ``state`` and send it to different colours.

    A literal key and a role key (``5>c1,c1>0``) name different colours on the grids a map was
    fitted on; on a grid where the role names that literal, the earlier entry silently wins and the
    map no longer says what the demonstrations showed.
    """
    named = roles(original)
    present = np.bincount(state.ravel(), minlength=256) > 0
    sent: dict[int, int | None] = {}
    for key, value in entries:
        source = resolve(key, named)
        if source is None or source > 255 or not present[source]:
            continue
        target = resolve(value, named)
        if sent.setdefault(source, target) != target:
            return True
    return False


def functional(state: Array, output: Array) -> dict[int, int] | None:
    """The map from ``state``'s values to ``output``'s colours cell by cell, if it is a function."""
    codes = np.unique(state.astype(np.int32) * 16 + output)
    sources = codes // 16
    if len(np.unique(sources)) != len(sources):
        return None
    return dict(zip(sources.tolist(), (codes % 16).tolist(), strict=True))


def _value_for(
    hits: list[tuple[int, int]], wanted: list[dict[int, int]], named: list[dict[str, int]]
) -> str | None:
    for value in (*ROLES, *_LITERALS):
        if all(resolve(value, named[d]) == wanted[d][g] for d, g in hits):
            return value
    return None


def fit_map(
    states: Sequence[Array], outputs: Sequence[Array], originals: Sequence[Array]
) -> tuple[Entry, ...] | None:
    """The map that turns each state into its output, preferring roles; ``None`` when none does.

    Args:
        states: the program's grids before the map, one per demonstration.
        outputs: the demonstrations' outputs (same shapes as ``states``).
        originals: the demonstrations' inputs, which the roles refer to.
    """
    wanted = []
    for state, output in zip(states, outputs, strict=True):
        mapping = functional(state, output)
        if mapping is None:
            return None
        wanted.append(mapping)
    named = [roles(o) for o in originals]
    labels = sorted({g for w in wanted for g in w if g >= SENTINEL})
    # A colour every demonstration changes the same way is most likely fixed by the task, not
    # a role that happened to coincide (Re-ARC draws colours afresh per pair): try it literally.
    steady = [str(g) for g in range(SENTINEL) if all(w.get(g, g) != g for w in wanted)]
    covered: list[set[int]] = [set() for _ in wanted]
    entries: list[Entry] = []
    for key in (*(str(g) for g in labels), *steady, *ROLES, *_LITERALS):
        hits = []
        for d, w in enumerate(wanted):
            g = resolve(key, named[d])
            if g is not None and g in w and g not in covered[d]:
                hits.append((d, g))
        if all(wanted[d][g] == g for d, g in hits):
            continue
        value = _value_for(hits, wanted, named)
        if value is None:
            continue
        entries.append((key, value))
        for d, g in hits:
            covered[d].add(g)
        if len(entries) > MAX_ENTRIES:
            return None
    for d, w in enumerate(wanted):
        if any(g != o and g not in covered[d] for g, o in w.items()):
            return None
    return tuple(entries)
