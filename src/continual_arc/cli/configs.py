"""Configurations named on the command line: older names taken, with a note."""

from __future__ import annotations

import sys

from ..tracks.registry import CONFIG_ALIASES, config_alias_note

__all__ = ["config_name"]


def config_name(name: str) -> str:
    """A configuration named on the command line; an older name (``arc1-small``) is taken with a note.

    The note goes to stderr, so that a command's output stays the same.
    """
    note = config_alias_note(name)
    if note:
        print(f"note: {note}", file=sys.stderr)
    return CONFIG_ALIASES.get(name, name)
