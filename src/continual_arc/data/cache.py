"""The instance cache: every verified pair drawn once, kept in the data directory, checked on read.

Drawing dominates a cheap learner's run, and every play of a schedule draws the same instances:
the stream and its reset, each test and its reset, the same protocol on a rerun, every learner of
a sweep. The cache keeps each drawn pair under ``<data dir>/instances/``, one file per pair, keyed
by

* the source's **namespace**: a digest of the cache format, the release, the source's name, its
  data versions (package versions and file hashes) and the bytes of the modules that draw its
  pairs ([`namespace`][continual_arc.data.cache.namespace]), so another release, other data or edited drawing
  code never meets an old entry;
* the task, the instance seed and **what is drawn**: ``test`` (the test pair) or ``demo-<k>``
  (demonstration ``k``, which does not depend on how many are bought).

An entry is a first line holding the SHA-256 of the rest, then the key and the two grids
([`InstanceCache`][continual_arc.data.cache.InstanceCache]). A read recomputes the hash and compares the key;
an entry that fails either (cut short, altered, another key) is ignored, removed and drawn again. Writers
write a temporary file beside the entry and rename it over (atomic on one machine), so several workers may
fill the cache at once: two writers of one key write the same bytes. A read marks the entry used
(its modification time), and when the cache grows past its limit
([`set_limit`][continual_arc.data.cache.set_limit], 1,024 MB by default) the least recently used entries are
removed ([`evict`][continual_arc.data.cache.evict]).

Deleting the cache never changes a result: an entry holds exactly what drawing gives. It is off
when ``CONTINUAL_ARC_NO_CACHE`` is set to anything but ``0`` or the empty string.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from .. import __version__
from ..core.grids import Grid, Pair
from .directory import DATA_ENV, data_dir

__all__ = [
    "CACHE_FORMAT",
    "DEFAULT_MAX_MB",
    "NO_CACHE_ENV",
    "CacheStats",
    "InstanceCache",
    "cache_enabled",
    "cache_root",
    "cache_stats",
    "clear",
    "evict",
    "limit_mb",
    "namespace",
    "set_limit",
]

CACHE_FORMAT = 1
"""The layout of an entry; a new one leaves every older entry unread."""

NO_CACHE_ENV = "CONTINUAL_ARC_NO_CACHE"
"""Set (to anything but ``0`` or empty) to draw every pair afresh and write nothing."""

DEFAULT_MAX_MB = 1024
"""The cache's size limit when none was set, in megabytes."""

_LIMIT_FILE = "limit.json"
_SAFE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
_STALE_TMP = 3600.0  # seconds after which a temporary file is a dead writer's, not a live one's


def cache_enabled() -> bool:
    """Whether the cache is on (``CONTINUAL_ARC_NO_CACHE`` unset, empty or ``0``)."""
    return os.environ.get(NO_CACHE_ENV, "") in ("", "0")


def cache_root() -> Path:
    """The cache's directory: ``instances/`` in the data directory (read anew on every call)."""
    return data_dir() / "instances"


_ROOTS: dict[str | None, str] = {}


def _root() -> str:
    """`cache_root` as a string, remembered per value of the data directory's variable."""
    key = os.environ.get(DATA_ENV)
    if key not in _ROOTS:
        _ROOTS[key] = str(cache_root())
    return _ROOTS[key]


def namespace(source: str, versions: Mapping[str, object], code: Iterable[Callable[..., object]]) -> str:
    """The digest that keys a source's entries.

    Args:
        source: the source's name (``arc1/rearc``).
        versions: its data versions, as its ``describe()`` records them.
        code: the functions that draw its pairs; the bytes of each one's module enter the digest.
    """
    digest = hashlib.sha256()
    head = {"format": CACHE_FORMAT, "release": __version__, "source": source, "versions": dict(versions)}
    digest.update(json.dumps(head, sort_keys=True, default=str).encode())
    for path in sorted({_module_file(fn) for fn in code}):
        digest.update(path.encode() + b"\0")
        try:
            digest.update(Path(path).read_bytes())
        except OSError:
            digest.update(b"unreadable")
    return digest.hexdigest()[:24]


def _module_file(fn: Callable[..., object]) -> str:
    module = sys.modules.get(getattr(fn, "__module__", "") or "")
    # Never repr(fn): it may hold a memory address, and the key must be the same in every process.
    return str(getattr(module, "__file__", None) or getattr(fn, "__qualname__", type(fn).__qualname__))


def _part(text: str) -> str:
    """A file-name-safe form of a task id or a draw (a digest when the id is not safe as it is)."""
    return text if _SAFE.match(text) else "h-" + hashlib.sha256(text.encode()).hexdigest()[:32]


_DIGITS = bytes.maketrans(b"0123456789", bytes(range(10)))


def _encode_grid(grid: Grid) -> bytes | None:
    """``"<height> <width> <cells>"``, one digit a cell, row by row; ``None`` for a grid it cannot hold."""
    cells = [cell for row in grid for cell in row]
    if not all(type(cell) is int and 0 <= cell <= 9 for cell in cells) or not cells:
        return None
    return f"{len(grid)} {len(grid[0])} {''.join(map(str, cells))}".encode()


def _decode_grid(line: bytes) -> Grid:
    height, width, cells = line.split(b" ")
    h, w = int(height), int(width)
    if not (0 < h <= 30 and 0 < w <= 30 and len(cells) == h * w and cells.isdigit()):
        raise ValueError("not a grid")
    # b"0".."9" -> bytes 0..9, whose items are the colours; zipping w references to one iterator
    # cuts it into rows of w in C (every warm read passes here, twice).
    values = iter(cells.translate(_DIGITS))
    return tuple(zip(*[values] * w, strict=False))


def _read(path: str) -> bytes:
    """A file's bytes, read through its descriptor alone.

    Every warm draw reads one; a buffered file object would add a terminal check and two seeks.
    """
    fd = os.open(path, os.O_RDONLY)
    try:
        chunks = [os.read(fd, 1 << 16)]  # an entry holds two grids of at most 900 cells
        while chunks[-1]:
            chunks.append(os.read(fd, 1 << 16))
    finally:
        os.close(fd)
    return b"".join(chunks)


class InstanceCache:
    """The cached pairs of one source.

    An entry is four lines: the SHA-256 of the other three, the key as JSON, and the input and output
    grids, each ``"<height> <width> <cells>"`` with one digit a cell (compact, and read without a
    JSON parser: reading is on every instance's path).

    Args:
        space: the source's [`namespace`][continual_arc.data.cache.namespace].
    """

    def __init__(self, space: str) -> None:
        self.space = space
        self._lock = threading.Lock()
        self._written = 0

    def location(self) -> str:
        """The directory of this source's entries under the current data directory."""
        return os.path.join(_root(), self.space)

    def _path(self, task_id: str, seed: int, what: str) -> str:
        return os.path.join(_root(), self.space, _part(task_id), f"{seed}.{_part(what)}")

    def _key(self, task_id: str, seed: int, what: str) -> bytes:
        return json.dumps([self.space, task_id, seed, what], separators=(",", ":")).encode()

    def get(self, task_id: str, seed: int, what: str) -> Pair | None:
        """The cached pair, or ``None`` when there is none (or it failed its check and was removed)."""
        path = self._path(task_id, seed, what)
        try:
            data = _read(path)
        except OSError:
            return None
        head, _, body = data.partition(b"\n")
        try:
            key, first, second, end = body.split(b"\n")
            if end or head != hashlib.sha256(body).hexdigest().encode():
                raise ValueError("cut short or altered")
            if key != self._key(task_id, seed, what):
                raise ValueError("another key")
            pair = (_decode_grid(first), _decode_grid(second))
        except ValueError:
            with contextlib.suppress(OSError):
                os.unlink(path)  # corrupt or foreign: drawn again and rewritten
            return None
        with contextlib.suppress(OSError):
            os.utime(path)  # least recently used is evicted first
        return pair

    def put(self, task_id: str, seed: int, what: str, pair: Pair) -> None:
        """Store a drawn pair (atomically: a reader sees the whole entry or none)."""
        grids = [_encode_grid(pair[0]), _encode_grid(pair[1])]
        if grids[0] is None or grids[1] is None:
            return
        body = b"\n".join([self._key(task_id, seed, what), grids[0], grids[1], b""])
        data = hashlib.sha256(body).hexdigest().encode() + b"\n" + body
        path = self._path(task_id, seed, what)
        folder, name = os.path.split(path)
        try:
            os.makedirs(folder, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(data)
                os.replace(tmp, path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError:
            return  # a cache that cannot be written costs time, never a result
        self._account(len(data))

    def _account(self, size: int) -> None:
        """Evict past the limit, checked once a megabyte has been written since the last check."""
        with self._lock:
            self._written += size
            due = self._written >= 1 << 20
        if not due:
            return
        limit = limit_mb() * (1 << 20)
        with self._lock:
            due = self._written >= max(1 << 20, limit // 20)
            if due:
                self._written = 0
        if due:
            evict(limit)


@dataclass(frozen=True)
class CacheStats:
    """What the cache holds.

    Attributes:
        root: its directory.
        entries: pairs held.
        bytes: their size on disk.
        sources: namespaces (source, version and drawing code) that hold entries.
        max_mb: its size limit.
    """

    root: Path
    entries: int
    bytes: int
    sources: int
    max_mb: int


def _entries(root: Path) -> list[tuple[float, int, Path]]:
    """Every entry (modification time, size, path); dead writers' temporary files are removed."""
    out = []
    now = time.time()
    for space in _dirs(root):
        for task in _dirs(space):
            try:
                items = list(os.scandir(task))
            except OSError:
                continue
            for item in items:
                try:
                    stat = item.stat()
                except OSError:
                    continue
                if item.name.startswith("."):
                    if now - stat.st_mtime > _STALE_TMP:
                        Path(item.path).unlink(missing_ok=True)
                    continue
                out.append((stat.st_mtime, stat.st_size, Path(item.path)))
    return out


def _dirs(path: Path) -> list[Path]:
    try:
        return [Path(item.path) for item in os.scandir(path) if item.is_dir()]
    except OSError:
        return []


def cache_stats() -> CacheStats:
    """Entries, bytes and namespaces in the cache, and its limit."""
    root = cache_root()
    entries = _entries(root)
    return CacheStats(root, len(entries), sum(e[1] for e in entries), len(_dirs(root)), limit_mb())


def limit_mb() -> int:
    """The cache's size limit in megabytes (`DEFAULT_MAX_MB` unless `set_limit` set one)."""
    try:
        value = json.loads((cache_root() / _LIMIT_FILE).read_text())["max_mb"]
        return max(0, int(value))
    except (OSError, ValueError, KeyError, TypeError):
        return DEFAULT_MAX_MB


def set_limit(max_mb: int) -> None:
    """Record the cache's size limit, in megabytes, and evict down to it now."""
    if max_mb < 0:
        raise ValueError("the cache's size limit cannot be negative")
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    tmp = root / f".{_LIMIT_FILE}.{os.getpid()}.tmp"
    tmp.write_text(json.dumps({"max_mb": max_mb}) + "\n")
    os.replace(tmp, root / _LIMIT_FILE)
    evict(max_mb * (1 << 20))


def evict(max_bytes: int) -> tuple[int, int]:
    """Remove the least recently used entries until the cache holds at most ``max_bytes``.

    Returns:
        The entries removed and the bytes freed.
    """
    entries = _entries(cache_root())
    total = sum(e[1] for e in entries)
    removed = freed = 0
    for _, size, path in sorted(entries, key=lambda e: (e[0], str(e[2]))):
        if total <= max_bytes:
            break
        path.unlink(missing_ok=True)
        total -= size
        removed, freed = removed + 1, freed + size
    for space in _dirs(cache_root()):
        for task in _dirs(space):
            _rmdir_if_empty(task)
        _rmdir_if_empty(space)
    return removed, freed


def _rmdir_if_empty(path: Path) -> None:
    with contextlib.suppress(OSError):  # not empty, or a writer just filled it
        path.rmdir()


def clear() -> tuple[int, int]:
    """Remove every entry; the entries removed and the bytes freed."""
    return evict(0)
