"""How a fitted step's text writes its constants, shared by the fitters that read them back.

A fitted step is written ``name{arguments}`` (``beam{to;m}``, ``link{1;3}``), and its parser reads
the arguments back from the braces. Many of them write a colour as its digit, or as a
one-character name for a role (``=`` the source's own colour, ``m`` the mark's, ...). The readers
live here so that every such step splits its text, and writes and reads a colour, the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from .grid import SENTINEL

__all__ = ["NO_NAMES", "braced", "colour_text", "parse_colour"]

NO_NAMES: Mapping[int, str] = MappingProxyType({})
"""No role names: every colour is written as its digit."""


def braced(text: str, name: str) -> str | None:
    """The arguments of the step ``name{...}`` written as ``text``; ``None`` when it is not one."""
    if not (text.startswith(name + "{") and text.endswith("}")):
        return None
    return text[len(name) + 1 : -1]


def colour_text(colour: int, names: Mapping[int, str] = NO_NAMES) -> str:
    """``colour`` as a step's text writes it: a role's name from ``names``, else its digit."""
    return names.get(colour, str(colour))


def parse_colour(text: str, names: Mapping[int, str] = NO_NAMES) -> int | None:
    """The colour (or role) ``text`` writes, read back as `colour_text` wrote it; ``None`` when neither."""
    for colour, name in names.items():
        if text == name:
            return colour
    return int(text) if text.isdigit() and int(text) < SENTINEL else None
