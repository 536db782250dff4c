"""A run's ``summary.json``: a pure function of its records and its ``meta.json``.

Anyone can recompute it from ``records.jsonl`` (``continual-arc report --recompute``); the checker
does.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from typing import NotRequired

from typing_extensions import TypedDict  # the form pydantic reads on 3.11 (scripts/export_schemas.py)

from ..core.documents import parse_document
from ..core.records import ProtocolBlock, RunMeta, is_primary
from .budget import PHASE_ORDER, Record, budget_used, primary, share_solved
from .diagnostics import Diagnostics, diagnostics

__all__ = [
    "Addons",
    "PhaseRow",
    "Stopped",
    "Summary",
    "addons_block",
    "mean_level_score",
    "phase_table",
    "summarize",
    "summary_json",
    "user_table",
]


class PhaseRow(TypedDict):
    """U, score, P, instance and error counts of a group of records (a phase, or a user in a phase)."""

    instances: int
    budget_used: float | None
    score: float | None
    share_solved: float | None
    errored: int
    level_score: NotRequired[float]


class Addons(TypedDict):
    """The auxiliary episodes plug-ins added: their count, U and P, and counts by plug-in."""

    episodes: int
    budget_used: float | None
    share_solved: float | None
    by_plugin: dict[str, int]


class Stopped(TypedDict):
    """Why a run ended before its schedule did: the spend cap refused its learner's call.

    Attributes:
        by: what stopped it (``"spend_cap"``).
        round: the round in progress, not committed (``--resume`` plays it again).
        slots_done: the schedule's slots of the committed rounds. slots_total: the schedule's slots.
        message: the refusal, in words.
    """

    by: str
    round: int
    slots_done: int
    slots_total: int
    message: str


class Summary(TypedDict):
    """``summary.json``: the run's schedule, its totals, and its tables per phase and user.

    ``stopped`` is present only for a run the spend cap stopped before its schedule's end.
    """

    format: int
    protocol: ProtocolBlock
    config: str
    seed: int
    users: int
    order: str | None
    test: str | None
    slots: int
    instances: int
    complete: bool
    budget_used: float | None
    score: float | None
    share_solved: float | None
    errored: int
    phases: dict[str, PhaseRow]
    per_user: dict[str, dict[str, PhaseRow]]
    diagnostics: Diagnostics | None
    addons: Addons | None
    stopped: NotRequired[Stopped]


def mean_level_score(records: Sequence[Record]) -> float | None:
    """The mean of ARC-AGI-3's level score over the game records that carry one (``None`` if none do)."""
    scores = [float(r["level_score"]) for r in records if r.get("level_score") is not None]
    # fsum, correctly rounded: Python 3.12's sum of floats compensates and 3.11's does not, so the
    # arc3 runs written on 3.12 would not recompute to the last digit on 3.11 with a plain sum
    return math.fsum(scores) / len(scores) if scores else None


def _row(records: Sequence[Record]) -> PhaseRow:
    used = budget_used(records)
    row: PhaseRow = {
        "instances": len(records),
        "budget_used": used,
        "score": None if used is None else 100.0 - used,
        "share_solved": share_solved(records),
        "errored": sum(1 for r in records if r.get("error")),
    }
    level = mean_level_score(records)
    if level is not None:  # game levels only (arc3): a grid run's summary stays as it was
        row["level_score"] = level
    return row


def phase_table(records: Iterable[Record]) -> dict[str, PhaseRow]:
    """U, score, P, instance and error counts per phase (primary episodes only), phases in order."""
    chosen = primary(records)
    return {
        phase: _row([r for r in chosen if r["phase"] == phase])
        for phase in PHASE_ORDER
        if any(r["phase"] == phase for r in chosen)
    }


def user_table(records: Iterable[Record]) -> dict[str, dict[str, PhaseRow]]:
    """U, score and P per phase and user: ``{phase: {str(user): row}}``."""
    chosen = primary(records)
    out: dict[str, dict[str, PhaseRow]] = {}
    for phase in PHASE_ORDER:
        in_phase = [r for r in chosen if r["phase"] == phase]
        users = sorted({r["user"] for r in in_phase})
        if in_phase:
            out[phase] = {str(u): _row([r for r in in_phase if r["user"] == u]) for u in users}
    return out


def addons_block(records: Iterable[Record]) -> Addons | None:
    """The auxiliary episodes plug-ins added, kept apart from every primary measure.

    Returns:
        ``None`` when there are none; else their count, U and P, and counts by plug-in.
    """
    extra = [r for r in records if not is_primary(r)]
    if not extra:
        return None
    by_plugin: dict[str, int] = {}
    for r in extra:
        name = str(r.get("plugin", "unknown"))
        by_plugin[name] = by_plugin.get(name, 0) + 1
    return {
        "episodes": len(extra),
        "budget_used": budget_used(extra),
        "share_solved": share_solved(extra),
        "by_plugin": dict(sorted(by_plugin.items())),
    }


def summarize(records: Sequence[Record], meta: RunMeta) -> Summary:
    """The run's ``summary.json``: a pure function of its records and its ``meta.json``.

    Anyone can recompute it from ``records.jsonl`` (``continual-arc report --recompute``).
    """
    chosen = primary(records)
    schedule = meta["schedule"]
    used = budget_used(chosen)
    return {
        "format": 1,
        "protocol": meta["protocol"],
        "config": schedule["config"],
        "seed": schedule["seed"],
        "users": schedule["users"],
        "order": schedule["order"],
        "test": schedule["test"],
        "slots": meta["slots"],
        "instances": len(chosen),
        "complete": len(chosen) == meta["slots"],
        "budget_used": used,
        "score": None if used is None else 100.0 - used,
        "share_solved": share_solved(chosen),
        "errored": sum(1 for r in chosen if r.get("error")),
        "phases": phase_table(chosen),
        "per_user": user_table(chosen),
        "diagnostics": diagnostics(chosen),
        "addons": addons_block(records),
    }


def summary_json(summary: Summary) -> Summary:
    """``summary`` exactly as it reads back from ``summary.json`` (tuples as lists, keys as strings).

    Read back through its declaration's validator, as a reader of the file reads it.
    """
    return parse_document(Summary, json.dumps(summary), "summary")
