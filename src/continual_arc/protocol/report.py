"""A protocol's summary as ``continual-arc protocol`` prints it: the plane, the flags, the share learned.

Kept below the command line so that what reads stored runs (``continual-arc figures``) prints a
protocol's summary with the very lines the command printed when it played.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..core.records import Phase
from ..measure.report import (
    POINT_DIGITS,
    format_estimate,
    format_level_score,
    format_points,
    tiny_budget_note,
)
from ..measure.reset_flags import BelowFloor
from ..play.learner import kwargs_text
from .conclude import ProtocolDocument

__all__ = ["protocol_summary"]


def _uses(side: Mapping[str, float | None]) -> str:
    used, solved = side["budget_used"], side["share_solved"]
    return f"U {used:5.1f}  P {solved:5.1f}{format_level_score(side)}" if used is not None else "-"


def _floor(entry: BelowFloor | None) -> str:
    """The floor beside a test's reset: its U and P, or that it was not played."""
    if entry is None:
        return ""
    used, solved = entry.floor_used, entry.floor_solved
    if entry.floor is None or used is None or solved is None:
        return "   floor not played"
    return f"   floor U {used:5.1f}  P {solved:5.1f}"


def _heading(document: ProtocolDocument) -> str:
    protocol = document["protocol"]
    verdict = "canonical" if protocol["canonical"] else "ablation: " + "; ".join(protocol["deviations"])
    learner = f"{document['learner']['class']} {kwargs_text(document['learner']['kwargs'] or {})}".strip()
    return (
        f"{learner} on {document['config']}, seed {document['seed']}, {document['users']} user(s) ({verdict})"
    )


def protocol_summary(document: ProtocolDocument) -> list[str]:
    """The summary's lines: what was played, each test's place on the plane, flags, share learned."""
    point = document["plane"]
    lines = [
        _heading(document),
        "",
        "the plane of the two frozen tests (share of the reset's spend saved, 95 % interval)",
    ]
    flags = point.flags
    floors = {str(b.test): b for b in (flags.below_floor if flags else [])}
    for label, test, c in (
        ("memorization (seen)", Phase.SEEN, point.seen),
        ("generalization (held-out)", Phase.HELD_OUT, point.held_out),
    ):
        lines += [
            f"  {label:27} share saved {format_estimate(c.share_saved)}   "
            f"T {format_estimate(c.saving, POINT_DIGITS)} points",
            f"  {'':27} learner {_uses(c.learner)}   reset {_uses(c.reset)}{_floor(floors.get(test))}",
        ]
    lines += [f"  {message}" for message in (flags.messages() if flags else [])]
    learned = point.learned
    if learned:
        reset_used, perfect = learned.reset["budget_used"], learned.perfect_memory
        lines += [
            "",
            f"share learned over the stream  {format_estimate(learned.share_learned)}   "
            f"learnable budget {format_points(learned.learnable_budget)} points",
            f"  stream: learner {_uses(learned.learner)}   reset U {reset_used:5.1f}"
            f"{format_level_score(learned.reset)}   "
            f"perfect memory U {perfect:5.1f}",
        ]
        note = tiny_budget_note(learned.learnable_budget)
        lines += [f"  {note}"] if note else []
    return lines
