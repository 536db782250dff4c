"""A frozen test played from a stream run's saved state, as the protocol plays it (``continual-arc test``).

The test is built at the stream's configuration, seed and users; the learner is the stream's, built
anew from its import path and arguments and given the state the runner saved after the stream's last
committed round; the test is played under the stream's task names (its ``alias-salt``), in a
directory of its own, and resumes where it stopped when run again.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from ..core.config import TESTS, Config
from ..core.learner_ref import LearnerRef
from ..core.records import RunMeta
from ..measure.summary import Summary
from ..play.aliases import SALT_FILE
from ..play.options import RunProgress, played_with
from ..play.rundir import read_meta
from ..stream.schedule import test_schedule
from .jobs import PlayJob, final_state, play_job
from .play import learner_keeps
from .plays import ProtocolError

__all__ = ["default_test_dir", "play_test_from"]


def default_test_dir(stream_dir: Path, test: str, width: int | None) -> Path:
    """Where a test of ``stream_dir`` goes unless told: beside it, named after it and the test."""
    suffix = f"-{test}" + ("" if width is None else f"-width{width}")
    return stream_dir.parent / f"{stream_dir.name}{suffix}"


def _stream_meta(stream_dir: Path) -> RunMeta:
    meta = read_meta(stream_dir)
    schedule = meta["schedule"]
    if schedule.get("test") is not None or schedule.get("reset_each") or schedule.get("order") == "fresh":
        raise ProtocolError(f"{stream_dir} is not a learner's stream: a test is played from the end of one")
    return meta


def play_test_from(
    stream_dir: Path,
    test: str,
    *,
    width: int | None = None,
    out: Path | None = None,
    progress: Callable[[RunProgress], None] | None = None,
) -> tuple[Path, Summary]:
    """Play ``test`` from the end of the stream in ``stream_dir``; the test's directory and summary.

    Raises:
        ProtocolError: the directory is not a learner's stream, or its learner keeps state it cannot
            save (its state at the end of the stream lived only in the process that played it).
    """
    if test not in TESTS:
        raise ProtocolError(f"unknown test {test!r}; known: {', '.join(TESTS)}")
    meta = _stream_meta(stream_dir)
    learner = LearnerRef.of(meta["learner"])
    keeps = learner_keeps(learner)
    state = final_state(stream_dir) if keeps.saves else None
    if state is None and not keeps.stateless:
        raise ProtocolError(
            f"{learner.path} left no saved state in {stream_dir}/state, so the stream's end cannot be "
            f"restored; play the whole protocol in one process with continual-arc protocol"
        )
    config = Config.from_dict(meta["schedule"]["configuration"])
    schedule = test_schedule(config, meta["schedule"]["seed"], test, width=width)
    target = out or default_test_dir(stream_dir, test, width)
    with tempfile.TemporaryDirectory() as tmp:
        schedule.save(Path(tmp) / "schedule.json")
        job = PlayJob(
            name=test,
            out=target,
            schedule=Path(tmp) / "schedule.json",
            learner=learner,
            state=state,
            salt=stream_dir / SALT_FILE,
            options=played_with(meta),
        )
        return target, play_job(job, progress=progress)
