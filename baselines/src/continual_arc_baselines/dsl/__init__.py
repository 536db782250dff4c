"""A model-free program writer: enumerative search over a small grid DSL in NumPy.

Public surface::

    from continual_arc_baselines.dsl import parse, execute, search

    result = search(demos, test_input)          # cheapest fitting programs first
    best = result.candidates[0]
    execute(parse(best.program.text), new_grid)  # runs again with no demonstrations
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from .fitting import Candidate
from .prior import Prior
from .program import Program, ProgramError, execute, parse
from .search import DEFAULT_BUDGET, SearchResult, search


def _fingerprint() -> str:
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


__version__ = f"1.1+{_fingerprint()}"
"""The DSL's version; its suffix is a hash of the package's source, so any change to a primitive
or to the search gives a new version (callers key cached search results by it)."""

__all__ = [
    "DEFAULT_BUDGET",
    "Candidate",
    "Prior",
    "Program",
    "ProgramError",
    "SearchResult",
    "__version__",
    "execute",
    "parse",
    "search",
]
