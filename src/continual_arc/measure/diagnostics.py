"""The stream's diagnostics: where a learner's budget goes, and whether returns get cheaper.

All are read over the primary stream instances of a run, in points of the budget
(``u = 100 * charge / max_cost``); docs/METRICS.md defines each with a worked example.

* **acquisition cost**: the mean ``u`` over each task's first meeting (``exposure_index == 0``);
* **cost by exposure index**: the mean ``u`` of the instances that met their task for the k-th
  time (k = 0, 1, ...), with counts and share solved;
* **retention by gap**: the mean ``u`` of returns (``exposure_index >= 1``) by how many rounds had
  passed since the task was last served, in doubling bins (1, 2-3, 4-7, ..., 64+);
* **learning curve**: per round, the mean ``u`` of its instances, its moving average over a window
  of rounds, and the budget used so far.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from typing_extensions import TypedDict  # the form pydantic reads on 3.11 (scripts/export_schemas.py)

__all__ = [
    "GAP_BINS",
    "Diagnostics",
    "Group",
    "LearningCurve",
    "acquisition_cost",
    "cost_by_exposure",
    "diagnostics",
    "learning_curve",
    "retention_by_gap",
    "stream_records",
]

from ..core.records import Phase, Record, is_primary

GAP_BINS = ((1, 1), (2, 3), (4, 7), (8, 15), (16, 31), (32, 63), (64, None))
"""The gap bins of retention, in rounds: (low, high), ``None`` meaning no upper bound."""


class Group(TypedDict):
    """A group of stream instances: how many, their mean charge ``u`` and share solved (``None`` if empty)."""

    instances: int
    mean_charge: float | None
    share_solved: float | None


class LearningCurve(TypedDict):
    """Per round of the stream: its mean ``u``, the moving mean over ``window`` rounds, the budget so far."""

    window: int
    rounds: list[int]
    mean_charge: list[float]
    moving: list[float]
    budget_used: list[float]


class Diagnostics(TypedDict):
    """The four diagnostics of the stream, as ``summary.json`` holds them."""

    acquisition_cost: Group
    cost_by_exposure: dict[str, Group]
    retention_by_gap: dict[str, Group]
    learning_curve: LearningCurve


def stream_records(records: Iterable[Record]) -> list[Record]:
    """The primary stream records, in order of step."""
    chosen = [r for r in records if is_primary(r) and r["phase"] == Phase.STREAM]
    return sorted(chosen, key=lambda r: r["step"])


def _u(record: Record) -> float:
    return 100.0 * float(record["charge"]) / float(record["max_cost"])


def _group(records: Sequence[Record]) -> Group:
    return {
        "instances": len(records),
        "mean_charge": sum(_u(r) for r in records) / len(records) if records else None,
        "share_solved": 100.0 * sum(bool(r["solved"]) for r in records) / len(records) if records else None,
    }


def acquisition_cost(records: Iterable[Record]) -> Group:
    """The mean charge of tasks' first meetings on the stream, with the count and share solved."""
    return _group([r for r in stream_records(records) if r["exposure_index"] == 0])


def cost_by_exposure(records: Iterable[Record]) -> dict[str, Group]:
    """``{str(k): group}`` for every exposure index k met on the stream, in order."""
    chosen = stream_records(records)
    indices = sorted({r["exposure_index"] for r in chosen if r["exposure_index"] is not None})
    return {str(k): _group([r for r in chosen if r["exposure_index"] == k]) for k in indices}


def _bin_label(low: int, high: int | None) -> str:
    if high is None:
        return f"{low}+"
    return str(low) if low == high else f"{low}-{high}"


def _within(gap: int | None, low: int, high: int | None) -> bool:
    """Whether a return's gap falls in the bin ``[low, high]`` (``high`` ``None``: no upper end)."""
    return gap is not None and gap >= low and (high is None or gap <= high)


def retention_by_gap(records: Iterable[Record]) -> dict[str, Group]:
    """``{bin: group}`` over the stream's returns, for every gap bin that holds one."""
    returns = [r for r in stream_records(records) if (r["exposure_index"] or 0) >= 1 and r["gap"] is not None]
    out: dict[str, Group] = {}
    for low, high in GAP_BINS:
        chosen = [r for r in returns if _within(r["gap"], low, high)]
        if chosen:
            out[_bin_label(low, high)] = _group(chosen)
    return out


def learning_curve(records: Iterable[Record], window: int = 20) -> LearningCurve:
    """The learning curve of the stream.

    Returns:
        Per round: the mean charge of its instances, the moving average over the last ``window``
        rounds' instances, and the budget used over every instance so far.
    """
    by_round: dict[int, list[float]] = {}
    for r in stream_records(records):
        by_round.setdefault(int(r["round"]), []).append(_u(r))
    rounds = sorted(by_round)
    means = [sum(by_round[k]) / len(by_round[k]) for k in rounds]
    moving: list[float] = []
    cumulative: list[float] = []
    total = count = 0.0
    for i, k in enumerate(rounds):
        recent = rounds[max(0, i - window + 1) : i + 1]
        values = [v for j in recent for v in by_round[j]]
        moving.append(sum(values) / len(values))
        total += sum(by_round[k])
        count += len(by_round[k])
        cumulative.append(total / count)
    return {
        "window": window,
        "rounds": rounds,
        "mean_charge": means,
        "moving": moving,
        "budget_used": cumulative,
    }


def diagnostics(records: Iterable[Record]) -> Diagnostics | None:
    """All four diagnostics of the stream (``None`` for a run without stream instances)."""
    chosen = stream_records(records)
    if not chosen:
        return None
    return {
        "acquisition_cost": acquisition_cost(chosen),
        "cost_by_exposure": cost_by_exposure(chosen),
        "retention_by_gap": retention_by_gap(chosen),
        "learning_curve": learning_curve(chosen),
    }
