"""An experiment's ``verify`` table: stored ``verify`` reruns side by side, flags on the reset included.

One row per rerun, read from its records as ``continual-arc check`` reads them: the share saved on
each test and the share learned (95 % intervals), ``U`` of the learner and of its reset on each
play, the first-sight gap and the flags on the reset reference
([`continual_arc.measure.reset_flags`][continual_arc.measure.reset_flags]). It is the table docs/VERIFY.md
shows for a learner that sandbags its reset beside the honest learner it extends: the learner's side equal,
the reset's moved.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from ...core.errors import ContinualArcError
from ...core.files import read_json
from ...core.records import JSONValue
from ...measure.report import POINT_DIGITS, format_estimate, format_points
from ...measure.reset_flags import ResetFlags
from ...protocol.plane import plane_point

__all__ = ["VERIFICATION_FILE", "verify_table"]

VERIFICATION_FILE = "verification.json"
"""The file that marks a protocol directory as a ``verify`` rerun."""

HEADER = (
    "| rerun | seen: share saved | held-out: share saved | share learned "
    "| learner U: stream / held-out / seen | reset U: stream / held-out / seen "
    "| first-sight gap, points | flags |\n"
    "|---|---|---|---|---|---|---|---|\n"
)


def _verification(protocol: Path) -> Mapping[str, JSONValue]:
    where = protocol / VERIFICATION_FILE
    try:
        value = read_json(where)
    except FileNotFoundError:
        raise ContinualArcError(
            f"{protocol} is not a verify rerun: it holds no {VERIFICATION_FILE} (a verify table reads "
            "what continual-arc verify wrote, stored with continual-arc runs store)"
        ) from None
    if not isinstance(value, Mapping):
        raise ContinualArcError(f"{where} does not hold an object")
    return value


def _label(verification: Mapping[str, JSONValue]) -> str:
    learner = str(verification.get("learner", "?")).rpartition(":")[2]
    mode, config, seed = (verification.get(key, "?") for key in ("mode", "config", "seed"))
    return f"`{learner}`, {mode} on {config}, seed {seed}"


def _sides(
    stream: float | None, held_out: Mapping[str, float | None], seen: Mapping[str, float | None]
) -> str:
    """``U`` of one side on the stream, the held-out test and the seen test."""
    return " / ".join(format_points(v) for v in (stream, held_out["budget_used"], seen["budget_used"]))


def _gave_up(flags: ResetFlags) -> list[str]:
    return [
        f"{g.play} ({g.reset_solved} of {g.reset_instances} against "
        f"{g.learner_solved} of {g.learner_instances})"
        for g in flags.gave_up
        if g.flagged
    ]


def _flag_cell(flags: ResetFlags | None) -> str:
    if flags is None:
        return "not read"
    cells = []
    if gave_up := _gave_up(flags):
        cells.append("gives up: " + ", ".join(gave_up))
    first = flags.first_sight
    if first is not None and first.flagged:
        cells.append("first sight")
    return "; ".join(cells) or "none"


def _gap_cell(flags: ResetFlags | None) -> str:
    first = None if flags is None else flags.first_sight
    return "none" if first is None else format_estimate(first.gap, POINT_DIGITS)


def _row(protocol: Path, resamples: int) -> str:
    label = _label(_verification(protocol))
    point = plane_point(protocol, resamples=resamples)
    seen, held, learned, flags = point.seen, point.held_out, point.learned, point.flags
    learner_stream = reset_stream = None
    share_learned = "none (no stream reset)"
    if learned is not None:
        share_learned = format_estimate(learned.share_learned)
        learner_stream, reset_stream = learned.learner["budget_used"], learned.reset["budget_used"]
    cells = (
        label,
        format_estimate(seen.share_saved),
        format_estimate(held.share_saved),
        share_learned,
        _sides(learner_stream, held.learner, seen.learner),
        _sides(reset_stream, held.reset, seen.reset),
        _gap_cell(flags),
        _flag_cell(flags),
    )
    return f"| {' | '.join(cells)} |\n"


def verify_table(reruns: Sequence[Path], *, resamples: int) -> str:
    """The reruns' table, one row each in the order given, with the bootstrap at seed 0.

    Raises:
        ContinualArcError: a directory that holds no ``verification.json``.
    """
    return HEADER + "".join(_row(Path(rerun), resamples) for rerun in reruns)
