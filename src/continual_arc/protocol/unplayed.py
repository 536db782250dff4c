"""A protocol call that fails before any play started leaves nothing behind in the folder it made.

``protocol`` and ``verify`` write the schedules (and ``verify`` its marker files and its learner's
first process) before the first play. When the call then fails (a learner that cannot be
imported, arguments it refuses, a process that cannot start), those files alone would be left: a
folder holding only ``schedules/``, which the next call takes for a protocol of its own.
[`removed_if_unplayed`][continual_arc.protocol.unplayed.removed_if_unplayed] takes them away again, and
touches nothing else: a folder that held anything before the call is left as it is, and so is any folder a
play has started in (its ``meta.json`` written), since a rerun resumes it.
"""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Iterator
from pathlib import Path

from .plays import PROTOCOL_PLAYS

__all__ = ["any_play_started", "removed_if_unplayed"]


def any_play_started(out: Path) -> bool:
    """Whether any play of the protocol in ``out`` has begun its run (written its ``meta.json``)."""
    return any((out / name / "meta.json").exists() for name in PROTOCOL_PLAYS.values())


@contextlib.contextmanager
def removed_if_unplayed(out: Path) -> Iterator[None]:
    """On a failure inside the block, remove what it wrote in ``out`` if no play had started.

    Only when ``out`` did not exist or was an empty folder before the block: everything in it is
    then the block's own. A folder that existed empty is emptied again, not removed. The failure
    is raised on as it was.
    """
    existed = out.exists()
    ours = not existed or (out.is_dir() and not any(out.iterdir()))
    try:
        yield
    except BaseException:
        if ours and out.is_dir() and not any_play_started(out):
            _remove_contents(out, keep_folder=existed)
        raise


def _remove_contents(out: Path, *, keep_folder: bool) -> None:
    if not keep_folder:
        shutil.rmtree(out, ignore_errors=True)
        return
    for child in out.iterdir():
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child, ignore_errors=True)
        else:
            child.unlink(missing_ok=True)
