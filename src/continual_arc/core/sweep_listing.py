"""``sweep.json``, as its readers need it: the protocols a sweep plays, each with its folder and row.

`SweepSpec.to_json` ([`continual_arc.sweep.spec`][continual_arc.sweep.spec]) writes the file; the sweep's
pooling (``pool``, ``figures``) and the viewer read it back. The listing is declared here, below both
readers, and validated where it is read, so that a hand-edited or truncated file is refused with one
sentence naming the file and the field, not a traceback. The spec's other keys (its settings and
learner variants) are kept as they are and read by nobody.
"""

from __future__ import annotations

from pathlib import Path

# pydantic reads a TypedDict from typing_extensions only, on Python 3.11 (the listing is validated).
from typing_extensions import TypedDict

from .documents import DocumentError, parse_document
from .records import closed, keeps_extra

__all__ = ["SWEEP_FILE", "SweepEntry", "SweepListing", "read_sweep_listing"]

SWEEP_FILE = "sweep.json"
"""The file a sweep writes in its directory, listing its protocols."""


@closed
class SweepEntry(TypedDict):
    """One protocol of a sweep: its folder (relative to the sweep's), its row's label and its setting."""

    directory: str
    label: str
    config: str
    users: int
    seed: int


@keeps_extra
class SweepListing(TypedDict):
    """``sweep.json``: every protocol of the sweep (its other keys are the spec's, not read back)."""

    protocols: list[SweepEntry]


def read_sweep_listing(directory: Path) -> SweepListing:
    """The protocols a sweep's ``sweep.json`` lists, validated.

    Raises:
        DocumentError: the file cannot be read, or it is not the listing `SweepListing` declares
            (the sentence names the file and the field).
    """
    path = directory / SWEEP_FILE
    try:
        text = path.read_bytes()
    except OSError as err:
        raise DocumentError(f"cannot read {path}: {err.strerror}") from None
    return parse_document(SweepListing, text, str(path))
