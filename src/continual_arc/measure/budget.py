"""The budget used and the share solved: the two numbers every measure is made of.

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

from collections.abc import Iterable, Sequence

__all__ = ["PHASE_ORDER", "Record", "budget_used", "instance_charge", "primary", "share_solved"]

from ..core.records import Phase, Record, is_primary

PHASE_ORDER = tuple(Phase)
"""The phases, in the order reports list them."""


def primary(records: Iterable[Record]) -> list[Record]:
    """The records that count: primary episodes, never auxiliary ones added by plug-ins."""
    return [r for r in records if is_primary(r)]


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
