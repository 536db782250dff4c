"""The measures, as pure functions over records.

A record is one line of ``records.jsonl``: one instance, with its ``charge`` (what it cost, out of
``max_cost``), ``solved``, ``phase``, ``user``, ``task_id`` and exposure metadata. Only primary
episodes count: auxiliary episodes added by plug-ins (``episode_type == "addon"``) never enter a
measure.

* the per-instance charge ``u = 100 * charge / max_cost``, in points of the budget;
* the budget used ``U = 100 * mean(charge) / max_cost`` over a set of instances (lower is
  better), and the score ``100 - U``;
* the share solved ``P = 100 * mean(solved)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = [
    "PHASE_ORDER",
    "addons_block",
    "budget_used",
    "instance_charge",
    "phase_table",
    "primary",
    "share_solved",
    "summarize",
    "user_table",
]

PHASE_ORDER = ("stream", "epilogue", "held-out", "seen")

Record = Mapping[str, Any]


def primary(records: Iterable[Record]) -> list[Record]:
    """The records that count: primary episodes, never auxiliary ones added by plug-ins."""
    return [r for r in records if r.get("episode_type", "primary") == "primary"]


def instance_charge(record: Record) -> float:
    """The instance's charge in points of the budget: ``100 * charge / max_cost``."""
    return 100.0 * float(record["charge"]) / float(record["max_cost"])


def budget_used(records: Sequence[Record]) -> float | None:
    """``U = 100 * mean(charge) / max_cost`` over the records (``None`` when there are none)."""
    if not records:
        return None
    return sum(instance_charge(r) for r in records) / len(records)


def share_solved(records: Sequence[Record]) -> float | None:
    """``P``, the percentage of the records solved (``None`` when there are none)."""
    if not records:
        return None
    return 100.0 * sum(bool(r["solved"]) for r in records) / len(records)


def _row(records: Sequence[Record]) -> dict[str, Any]:
    used = budget_used(records)
    return {
        "instances": len(records),
        "budget_used": used,
        "score": None if used is None else 100.0 - used,
        "share_solved": share_solved(records),
        "errored": sum(1 for r in records if r.get("error")),
    }


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
    extra = [r for r in records if r.get("episode_type", "primary") != "primary"]
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
        "addons": addons_block(records),
    }
