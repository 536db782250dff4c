"""Stable seeds: random streams derived from names, identical in every process and on every machine.

Python's ``hash()`` of a string changes with ``PYTHONHASHSEED``, so nothing here uses it: a seed is
the first eight bytes of the SHA-256 of the parts, joined by a separator no part may contain.
"""

from __future__ import annotations

import hashlib
import random

__all__ = ["stable_int", "stable_rng"]

_SEP = "\x1f"


def stable_int(*parts: object) -> int:
    """A 64-bit integer that depends only on the parts' ``str`` forms, in order.

    Raises:
        ValueError: a part contains the unit separator character (code point 31).
    """
    texts = [str(part) for part in parts]
    if any(_SEP in text for text in texts):
        raise ValueError("a seed part may not contain the unit separator \\x1f")
    digest = hashlib.sha256(_SEP.join(texts).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def stable_rng(*parts: object) -> random.Random:
    """A `random.Random` seeded by [`stable_int`][continual_arc.core.seeding.stable_int] of the parts."""
    return random.Random(stable_int(*parts))
