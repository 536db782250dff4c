"""A run's ``summary.json``: a pure function of its records and its ``meta.json``.

Anyone can recompute it from ``records.jsonl`` (``continual-arc report --recompute``); the checker
does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..core.records import is_primary
from .budget import PHASE_ORDER, Record, budget_used, primary, share_solved
from .diagnostics import diagnostics

__all__ = ["addons_block", "mean_level_score", "phase_table", "summarize", "user_table"]


def mean_level_score(records: Sequence[Record]) -> float | None:
    """The mean of ARC-AGI-3's level score over the game records that carry one (``None`` if none do)."""
    scores = [float(r["level_score"]) for r in records if r.get("level_score") is not None]
    return sum(scores) / len(scores) if scores else None


def _row(records: Sequence[Record]) -> dict[str, Any]:
    used = budget_used(records)
    row = {
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


def phase_table(records: Iterable[Record]) -> dict[str, dict[str, Any]]:
    """U, score, P, instance and error counts per phase (primary episodes only), phases in order."""
    chosen = primary(records)
    return {
        phase: _row([r for r in chosen if r["phase"] == phase])
        for phase in PHASE_ORDER
        if any(r["phase"] == phase for r in chosen)
    }


def user_table(records: Iterable[Record]) -> dict[str, dict[str, dict[str, Any]]]:
    """U, score and P per phase and user: ``{phase: {str(user): row}}``."""
    chosen = primary(records)
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for phase in PHASE_ORDER:
        in_phase = [r for r in chosen if r["phase"] == phase]
        users = sorted({r["user"] for r in in_phase})
        if in_phase:
            out[phase] = {str(u): _row([r for r in in_phase if r["user"] == u]) for u in users}
    return out


def addons_block(records: Iterable[Record]) -> dict[str, Any] | None:
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


def summarize(records: Sequence[Record], meta: Mapping[str, Any]) -> dict[str, Any]:
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
