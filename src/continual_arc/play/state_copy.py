"""A learner's saved state copied across the sandbox's edge: plain files and folders, nothing else.

The state a learner writes in its own folder is copied out by a process that can read far more than
the learner (the rules of a pack, the data directory). Copied with links followed, a symbolic link
in the state would bring back whatever it names. So [`copy_state`][continual_arc.play.state_copy.copy_state]
follows nothing: every entry is opened relative to its folder's descriptor with ``O_NOFOLLOW``, and anything
that is not a plain file or folder (a symbolic link, a hard link to a file with other names, a socket, a pipe,
a device) stops the copy with [`UnsafeState`][continual_arc.play.state_copy.UnsafeState], one sentence naming
it. Files are checked on the descriptor they are read from, so an entry swapped for a link while the copy runs
is refused too.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
from pathlib import Path

from ..core.errors import ContinualArcError

__all__ = ["MAX_STATE_ENTRIES", "UnsafeState", "copy_state"]

MAX_STATE_ENTRIES = 200_000
"""The most files and folders a saved state may hold (a state is a learner's memory, not a disk)."""

_OPEN = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK  # a pipe must not block the copy
_FOLDER = _OPEN | os.O_DIRECTORY


class UnsafeState(ContinualArcError, ValueError):
    """A learner's saved state holds something other than plain files and folders."""


def _kind(mode: int) -> str:
    kinds = {stat.S_IFLNK: "a symbolic link", stat.S_IFSOCK: "a socket", stat.S_IFIFO: "a pipe",
             stat.S_IFCHR: "a device", stat.S_IFBLK: "a device"}  # fmt: skip
    return kinds.get(stat.S_IFMT(mode), "neither a file nor a folder")


def _refuse(where: Path, what: str) -> UnsafeState:
    return UnsafeState(
        f"the learner's saved state holds {what} at {where}: a state crosses the sandbox's edge "
        "as plain files and folders only"
    )


def _open_entry(folder: int, name: str, where: Path) -> tuple[int, os.stat_result]:
    try:
        fd = os.open(name, _OPEN, dir_fd=folder)
    except OSError as err:
        try:
            found = os.stat(name, dir_fd=folder, follow_symlinks=False)
        except OSError:
            raise _refuse(where, "an entry that went away while it was copied") from err
        if stat.S_ISREG(found.st_mode) or stat.S_ISDIR(found.st_mode):
            raise UnsafeState(f"the learner's saved state cannot be read at {where}: {err.strerror}") from err
        raise _refuse(where, _kind(found.st_mode)) from err
    info = os.fstat(fd)
    if not (stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode)):
        os.close(fd)
        raise _refuse(where, _kind(info.st_mode))
    if stat.S_ISREG(info.st_mode) and info.st_nlink > 1:
        os.close(fd)
        raise _refuse(where, "a hard link (a file with other names)")
    return fd, info


def _copy_folder(source: int, target: Path, where: Path, count: list[int]) -> None:
    target.mkdir(parents=True, exist_ok=True)
    for name in sorted(os.listdir(source)):
        count[0] += 1
        if count[0] > MAX_STATE_ENTRIES:
            raise UnsafeState(
                f"the learner's saved state holds over {MAX_STATE_ENTRIES} files and folders ({where})"
            )
        fd, info = _open_entry(source, name, where / name)
        try:
            if stat.S_ISDIR(info.st_mode):
                _copy_folder(fd, target / name, where / name, count)
                continue
            out = os.open(target / name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o644)
            with os.fdopen(out, "wb") as sink, os.fdopen(os.dup(fd), "rb") as read:
                shutil.copyfileobj(read, sink, 1 << 20)
        finally:
            os.close(fd)


def copy_state(source: Path, target: Path) -> None:
    """Copy the state folder ``source`` into ``target`` (created), following no link.

    ``source`` itself must be a real folder. Files are written ``0o644`` and folders ``0o755``
    (the learner's own modes are not carried: the next process may run as another user).

    Raises:
        UnsafeState: ``source`` holds something other than plain files and folders, or too much.
    """
    try:
        root = os.open(source, _FOLDER)
    except OSError as err:
        with contextlib.suppress(OSError):
            raise _refuse(source, _kind(os.lstat(source).st_mode)) from err
        raise UnsafeState(f"the learner's saved state {source} cannot be read: {err.strerror}") from err
    try:
        _copy_folder(root, Path(target), Path(source), [0])
    finally:
        os.close(root)
