"""Where a whole protocol stands: plays done, instances played, and the time left, read from its directory.

The six plays run in processes of their own (or one after another here); each appends whole rounds
to its ``records.jsonl`` and writes ``summary.json`` last, so the directory alone says how far the
protocol is. [ProtocolProgress][continual_arc.protocol.progress.ProtocolProgress] is that count;
[resume_note][continual_arc.protocol.progress.resume_note] is the sentence a resumed protocol
opens with. The time left is the instances still to play at the rate of this call's own instances
(what was played before a resume took other time).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from ..play.rundir import RECORDS
from .plays import PROTOCOL_PLAYS, play_finished

__all__ = ["ProtocolProgress", "ProtocolWatch", "played_instances", "resume_note"]


def played_instances(run_dir: Path) -> int:
    """The instances a play has committed: its ``records.jsonl``'s whole lines (no add-ons in a protocol)."""
    path = run_dir / RECORDS
    if not path.exists():
        return 0
    with path.open("rb") as handle:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 16), b""))


@dataclass(frozen=True)
class ProtocolProgress:
    """Where a protocol stands.

    Attributes:
        plays_done: plays finished (their ``summary.json`` written).
        plays_total: plays in the protocol (six).
        instances_done: instances committed, over every play.
        instances_total: instances in every play's schedule.
        seconds_left: the time left at this call's rate so far (``None``: no instance played yet,
            or none left).
    """

    plays_done: int
    plays_total: int
    instances_done: int
    instances_total: int
    seconds_left: float | None

    def line(self) -> str:
        """The progress in one line (``plays 2/6  instances 340/1200  about 4 min left``)."""
        left = "" if self.seconds_left is None else f"  about {_duration(self.seconds_left)} left"
        return (
            f"plays {self.plays_done}/{self.plays_total}  "
            f"instances {self.instances_done}/{self.instances_total}{left}"
        )


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{max(1, round(seconds))} s"
    if seconds < 90 * 60:
        return f"{round(seconds / 60)} min"
    return f"{seconds / 3600:.1f} h"


class ProtocolWatch:
    """Counts a protocol's progress from its directory, and passes it on at most every ``every`` seconds.

    Args:
        out: the protocol directory.
        sizes: the instances of each play, by play name (their schedules' slots).
        show: where the progress goes.
        every: the least seconds between two reports (the last, every play done, always goes, once).
        clock: the clock (seconds), for tests.
    """

    def __init__(
        self,
        out: Path,
        sizes: Mapping[str, int],
        show: Callable[[ProtocolProgress], None],
        every: float = 2.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.out, self.sizes, self.show, self.every, self.clock = out, dict(sizes), show, every, clock
        self.started = clock()
        self.at_start = self._played()
        self.last: float | None = None
        self.shown_final = False  # the last report goes once, however often it is asked for

    def _played(self) -> int:
        return sum(played_instances(self.out / PROTOCOL_PLAYS[name]) for name in self.sizes)

    def count(self) -> ProtocolProgress:
        """The progress now."""
        finished = sum(play_finished(self.out / PROTOCOL_PLAYS[name]) for name in self.sizes)
        played, total = self._played(), sum(self.sizes.values())
        elapsed, here = self.clock() - self.started, played - self.at_start
        left = (total - played) * elapsed / here if here > 0 and elapsed > 0 and played < total else None
        return ProtocolProgress(finished, len(self.sizes), played, total, left)

    def __call__(self, *_: object) -> None:
        """Report the progress unless the last report is less than ``every`` seconds old."""
        now = self.clock()
        progress = self.count()
        final = progress.plays_done == progress.plays_total
        if self.shown_final or (not final and self.last is not None and now - self.last < self.every):
            return
        self.last, self.shown_final = now, final
        self.show(progress)


def resume_note(out: Path, sizes: Mapping[str, int]) -> str | None:
    """What a protocol call in ``out`` resumes, in one sentence (``None``: nothing was played there).

    Each play is named with how far it got: done, at N of M instances, or not started.
    """
    started = [name for name in sizes if (out / PROTOCOL_PLAYS[name] / "meta.json").exists()]
    if not started:
        return None
    parts = []
    for name, size in sizes.items():
        play_dir = out / PROTOCOL_PLAYS[name]
        if play_finished(play_dir):
            parts.append(f"{name} done")
        elif name in started:
            parts.append(f"{name} at {played_instances(play_dir)} of {size} instances")
        else:
            parts.append(f"{name} not started")
    return f"resuming {out}: {', '.join(parts)}"
