"""A cache of DSL search results on disk, shared by every play of every learner on a machine.

A search is a pure function of the DSL's version, its budget, how many candidates it keeps, the
prior it searched under, the demonstrations and the test input; the SHA-256 of those is an
entry's name and is written inside the entry too. Reading checks the entry against its key and
its content against what a result must hold, so a damaged, truncated or misplaced entry is
ignored (and searched again), never believed. Writing is atomic (a temporary file in the same
folder, then a rename), so two processes that write one entry at once leave one whole entry.

A search missing from the cache is run under a claim
([`SearchCache.claim`][continual_arc_baselines.library.search_cache.SearchCache.claim]): an exclusive lock on
the entry's folder, so that a second process that wants the same search while the first runs it waits and
reads its result instead of running it twice. Plays run side by side (a protocol's ``--jobs``, a sweep) then
pay for each search once however their timing falls. The locks are striped over the 256 folders, so an
unrelated search with the same first two hex digits may wait too: that costs wall time, never CPU time or a
result.

The data directory is ``$CONTINUAL_ARC_DATA`` or ``~/.cache/continual-arc``, the benchmark's own
rule; the cache lives under ``search-cache/`` there.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from continual_arc.grids import Grid, Pair, to_json, validate_grid
from continual_arc.learner import data_dir

__all__ = ["FORMAT", "SearchCache", "default_cache_dir"]

FORMAT = 2
"""The entries' format; an entry of another format is ignored."""


def default_cache_dir() -> Path:
    """``search-cache/`` in the data directory (``$CONTINUAL_ARC_DATA`` or ``~/.cache/continual-arc``)."""
    return data_dir() / "search-cache"


class SearchCache:
    """Search results kept on disk by the hash of everything the search depends on.

    Args:
        directory: where the entries live (two-character subfolders by hash).
    """

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)

    @staticmethod
    def key(parts: Sequence[Any], demos: Sequence[Pair], test_input: Grid) -> str:
        """The entry's name: a SHA-256 of the search's settings, demonstrations and test input."""
        material = [list(parts), [[to_json(a), to_json(b)] for a, b in demos], to_json(test_input)]
        return hashlib.sha256(json.dumps(material, separators=(",", ":")).encode()).hexdigest()

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    @contextlib.contextmanager
    def claim(self, key: str) -> Iterator[None]:
        """Hold the lock of ``key``'s folder while the body runs (waiting while another process holds it).

        The kernel releases the lock if the holder dies, so a killed play never blocks another.
        Where the lock cannot be taken (a read-only or odd file system) the body runs unlocked:
        the claim only saves time.
        """
        folder = self._path(key).parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
            handle = open(folder / ".lock", "a+b")  # noqa: SIM115  # closed below, after unlocking
        except OSError:
            yield
            return
        with handle:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            except OSError:
                yield
                return
            try:
                yield
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)

    def read(self, key: str) -> dict[str, Any] | None:
        """The entry stored under ``key``, or ``None`` when it is missing, damaged or not that key's."""
        try:
            data = json.loads(self._path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("key") != key:
            return None
        programs = data.get("programs")
        work = data.get("work")
        if not isinstance(programs, list) or not isinstance(work, int) or isinstance(work, bool) or work < 0:
            return None
        try:
            checked = [_program(p) for p in programs]
        except (ValueError, TypeError, KeyError):
            return None
        return {"programs": checked, "work": work}

    def write(self, key: str, programs: Sequence[tuple[str, Grid, float]], work: int) -> None:
        """Store an entry (each program's text, prediction and weight) atomically.

        A cache that cannot be written only costs time, so a failure to write is ignored.
        """
        stored = [{"text": t, "prediction": to_json(p), "weight": w} for t, p, w in programs]
        data = {"format": FORMAT, "key": key, "programs": stored, "work": work}
        path = self._path(key)
        with contextlib.suppress(OSError):
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as handle:
                    handle.write(json.dumps(data, separators=(",", ":")))
                os.replace(tmp, path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise


def _program(value: Any) -> dict[str, Any]:
    """One stored program, checked: text, a valid prediction grid, a finite weight."""
    text, prediction, weight = value["text"], value["prediction"], value["weight"]
    if (
        not isinstance(text, str)
        or not text
        or not isinstance(weight, int | float)
        or isinstance(weight, bool)
    ):
        raise ValueError("a cached program needs a text and a numeric weight")
    if weight != weight or weight in (float("inf"), float("-inf")):
        raise ValueError("a cached program's weight must be finite")
    return {"text": text, "prediction": validate_grid(prediction), "weight": float(weight)}
