"""A protocol directory's place on the plane.

The share saved on each test against its reset, the share learned over the stream, and the flags
on the reset reference ([`continual_arc.measure.reset_flags`][continual_arc.measure.reset_flags]) shown beside
them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..core.config import TESTS
from ..core.records import JSONObject, Phase, Play, Record
from ..measure.compare import LearnedResult, TestComparison, share_learned, share_saved
from ..measure.reset_flags import FloorPlay, ResetFlags, reset_flags
from ..play.rundir import read_records, read_run
from .floor import FLOOR_PLAYS, floor_name
from .plays import PROTOCOL_PLAYS, ProtocolError

__all__ = ["PlanePoint", "plane_point"]


@dataclass(frozen=True)
class PlanePoint:
    """A learner's place on the plane: the share saved on each test, with the stream's share learned.

    ``flags`` are the flags on the reset reference, read beside the shares (``None``: not read).
    """

    label: str
    seen: TestComparison
    held_out: TestComparison
    learned: LearnedResult | None
    setting: str = ""
    flags: ResetFlags | None = None

    def to_json(self) -> JSONObject:
        """The point as JSON (what ``protocol.json`` holds as its ``plane``)."""
        return {
            "label": self.label,
            "setting": self.setting,
            "seen": self.seen.to_json(),
            "held_out": self.held_out.to_json(),
            "learned": None if self.learned is None else self.learned.to_json(),
            "flags": None if self.flags is None else self.flags.to_json(),
        }


def _check_protocol_directory(root: Path) -> None:
    """Refuse a folder that is not a protocol's, or lacks a test's plays, with the sentence that says so."""
    if not root.exists():
        raise ProtocolError(
            f"{root} does not exist: give a protocol directory (what continual-arc protocol writes)"
        )
    needed = [
        PROTOCOL_PLAYS[play] for play in (Play.SEEN, Play.SEEN_RESET, Play.HELD_OUT, Play.HELD_OUT_RESET)
    ]
    missing = [name for name in needed if not (root / name / "meta.json").exists()]
    if missing:
        raise ProtocolError(
            f"{root} is not a protocol directory (what continual-arc protocol writes): "
            f"it lacks {', '.join(missing)}"
        )


def plane_point(
    directory: Path | str, label: str | None = None, *, seed: int = 0, resamples: int = 10_000
) -> PlanePoint:
    """A protocol directory's place on the plane (each test read against its reset).

    The floor flag reads the floor copied into the directory (``<test>-floor/``); a test without
    one says its floor was not played.
    """
    root = Path(directory)
    _check_protocol_directory(root)

    def records(play: Play) -> list[Record]:
        found = read_run(root / PROTOCOL_PLAYS[play]).records
        if not found:  # nothing to compare: an unfinished or emptied play, not a zero
            raise ProtocolError(
                f"{root / PROTOCOL_PLAYS[play]} holds no records: the protocol is unfinished "
                "(continual-arc protocol resumes it)"
            )
        return found

    played = read_run(root / PROTOCOL_PLAYS[Play.SEEN]).meta["schedule"]
    setting = f"{played['config']}, {played['users']} user(s)"

    seen = share_saved(
        [records(Play.SEEN)], [records(Play.SEEN_RESET)], seed=seed, test=Phase.SEEN, resamples=resamples
    )
    held = share_saved(
        [records(Play.HELD_OUT)],
        [records(Play.HELD_OUT_RESET)],
        seed=seed,
        test=Phase.HELD_OUT,
        resamples=resamples,
    )
    learned = None
    stream = stream_reset = None
    if (root / PROTOCOL_PLAYS[Play.STREAM_RESET] / "records.jsonl").exists():
        stream, stream_reset = records(Play.STREAM), records(Play.STREAM_RESET)
        learned = share_learned(stream, stream_reset, seed=seed, resamples=resamples)
    flags = reset_flags(
        held_out=records(Play.HELD_OUT),
        held_out_reset=records(Play.HELD_OUT_RESET),
        seen_reset=records(Play.SEEN_RESET),
        stream=stream,
        stream_reset=stream_reset,
        floors={str(test): _floor(root / FLOOR_PLAYS[test]) for test in TESTS},
        seed=seed,
        resamples=resamples,
    )
    return PlanePoint(label or root.name, seen, held, learned, setting, flags)


def _floor(run: Path) -> FloorPlay | None:
    """The floor copied into a protocol directory, if it was."""
    if not (run / "records.jsonl").exists():
        return None
    return FloorPlay(floor_name(run), read_records(run))
