"""The tracking proxy's books: counts per run and instance, costs, the spend cap, and the JSONL log.

Recording a cost is kept apart from checking the cap: :meth:`Ledger.record_call` only adds,
:meth:`Ledger.check_cap` only reads, and a refusal carries the amount reached and the limit.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import IO, Any

from continual_arc_baselines.proxy.policy import Refusal

__all__ = ["CallRecord", "Ledger", "Price", "Tally", "cost_of"]


@dataclass(frozen=True)
class Price:
    """A model's price in USD per million tokens (reasoning tokens are billed as output)."""

    input_per_million: float
    output_per_million: float

    @staticmethod
    def parse(spec: str) -> tuple[str, Price]:
        """Parse ``MODEL=IN_PER_M,OUT_PER_M`` (the ``--price`` option) into the model and its price.

        Raises:
            ValueError: the spec is not of that form.
        """
        model, sep, numbers = spec.rpartition("=")
        parts = numbers.split(",")
        if not sep or not model or len(parts) != 2:
            raise ValueError(f"a price is MODEL=IN_PER_M,OUT_PER_M, got {spec!r}")
        return model, Price(float(parts[0]), float(parts[1]))


@dataclass(frozen=True)
class CallRecord:
    """One forwarded call, as measured by the proxy.

    Attributes:
        run, instance: from the request's headers. model: the model requested.
        status: the HTTP status the learner received (502/504 when the upstream failed).
        stream: whether the reply was streamed.
        usage: the upstream's ``usage`` object, or ``None`` if it reported none.
        latency: seconds from receiving the request to the reply's end.
        error: the upstream's failure in words, if any.
        usage_lost: the upstream may have worked on (and billed) the call, but its usage never
            arrived: a time-out, a learner that hung up, a stream that broke, a malformed reply.
    """

    run: str
    instance: str
    model: str
    status: int
    stream: bool
    usage: Mapping[str, Any] | None
    latency: float
    error: str | None = None
    usage_lost: bool = False


@dataclass
class Tally:
    """Counts for one instance of one run (or their sum).

    Attributes:
        calls: calls forwarded upstream, whatever their outcome. refused: calls refused by the proxy.
        upstream_errors: forwarded calls that failed (an error status or a broken stream).
        prompt_tokens, completion_tokens, reasoning_tokens: sums over calls whose usage was reported.
        cost: USD, from the upstream's ``usage.cost`` or else the price table.
        usage_unknown_calls: calls whose usage is unknown (their tokens are not counted): successful
            ones with no usage reported, and failed ones the upstream may have billed
            (:attr:`CallRecord.usage_lost`).
        cost_unknown_calls: calls whose cost is unknown: those whose usage is, and successful ones
            with usage but no ``usage.cost`` and no price.
    """

    calls: int = 0
    refused: int = 0
    upstream_errors: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    reasoning_tokens: int = 0
    cost: float = 0.0
    usage_unknown_calls: int = 0
    cost_unknown_calls: int = 0

    def absorb(self, other: Tally) -> None:
        """Add another tally's counts to this one."""
        for field in fields(self):
            setattr(self, field.name, getattr(self, field.name) + getattr(other, field.name))

    def as_dict(self) -> dict[str, Any]:
        """The counts as a JSON-ready dict."""
        return asdict(self)


def _int(value: Any) -> int:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0


def cost_of(usage: Mapping[str, Any] | None, price: Price | None) -> tuple[float | None, str]:
    """A call's cost in USD and where it came from: ``"upstream"``, ``"price"`` or ``"unknown"``."""
    if usage is None:
        return None, "unknown"
    reported = usage.get("cost")
    if isinstance(reported, int | float) and not isinstance(reported, bool):
        return float(reported), "upstream"
    if price is None:
        return None, "unknown"
    prompt, completion = _int(usage.get("prompt_tokens")), _int(usage.get("completion_tokens"))
    return (prompt * price.input_per_million + completion * price.output_per_million) / 1e6, "price"


def _reasoning(usage: Mapping[str, Any]) -> int:
    details = usage.get("completion_tokens_details")
    return _int(details.get("reasoning_tokens")) if isinstance(details, Mapping) else 0


def _unknown_reasons(total: Tally) -> str:
    """Why a run's calls have unknown costs, in words, for the spend cap's refusal."""
    reasons = []
    if total.usage_unknown_calls:
        reasons.append(
            f"{total.usage_unknown_calls} ended with no usage known: a reply without usage, a time-out, "
            f"a hang-up, a broken stream or a malformed reply"
        )
    unpriced = total.cost_unknown_calls - total.usage_unknown_calls
    if unpriced > 0:
        reasons.append(f"{unpriced} reported usage but no cost: give the model a --price")
    return "; ".join(reasons)


class Ledger:
    """Thread-safe counts per (run, instance), the spend cap per run, and the append-only JSONL log.

    Args:
        prices: USD per million tokens by model, for upstreams that report no ``usage.cost``.
        spend_cap: USD a run may spend; ``None`` for no cap.
        log_path: the JSONL log, appended to and flushed after every line; ``None`` for no log.
        unknown_call_cost: USD charged against the cap for each call whose cost is unknown; ``None``
            (the default) refuses a capped run's calls once one call's cost is unknown.
    """

    def __init__(
        self,
        prices: Mapping[str, Price] | None = None,
        spend_cap: float | None = None,
        log_path: Path | None = None,
        unknown_call_cost: float | None = None,
    ) -> None:
        self.prices = dict(prices or {})
        self.spend_cap = spend_cap
        self.unknown_call_cost = unknown_call_cost
        self._tallies: dict[tuple[str, str], Tally] = {}
        self._carried: dict[str, Tally] = {}
        self._lock = threading.Lock()
        self._log: IO[str] | None = None
        if log_path is not None:
            log_path.parent.mkdir(parents=True, exist_ok=True)
            self._log = open(log_path, "a", encoding="utf-8")  # noqa: SIM115 - open for the ledger's life

    def record_call(self, call: CallRecord) -> dict[str, Any]:
        """Count one forwarded call and log it; returns the log entry."""
        ok = call.status < 400 and call.error is None
        unknown = call.usage is None and (ok or call.usage_lost)
        if call.usage is not None:
            cost, source = cost_of(call.usage, self.prices.get(call.model))
        else:
            cost, source = None, "unknown" if unknown else "none"
        usage = call.usage or {}
        with self._lock:
            tally = self._tally(call.run, call.instance)
            tally.calls += 1
            tally.upstream_errors += not ok
            tally.usage_unknown_calls += unknown
            tally.prompt_tokens += _int(usage.get("prompt_tokens"))
            tally.completion_tokens += _int(usage.get("completion_tokens"))
            tally.reasoning_tokens += _reasoning(usage) if usage else 0
            tally.cost += cost or 0.0
            tally.cost_unknown_calls += source == "unknown"
        known = call.usage is not None
        entry = {
            "event": "call",
            **{k: v for k, v in asdict(call).items() if k != "usage"},
            "usage_known": known,  # when false the token fields are null: unknown, not zero
            "prompt_tokens": _int(usage.get("prompt_tokens")) if known else None,
            "completion_tokens": _int(usage.get("completion_tokens")) if known else None,
            "reasoning_tokens": _reasoning(usage) if known else None,
            "cost": cost,
            "cost_source": source,
        }
        self._write(entry)
        return entry

    def record_refusal(self, run: str, instance: str, refusal: Refusal, path: str, model: Any = None) -> None:
        """Count one refused call and log it."""
        with self._lock:
            self._tally(run, instance).refused += 1
        entry = {"event": "refused", "run": run, "instance": instance, "path": path, "model": model}
        entry.update({"status": refusal.status, "kind": refusal.kind, "message": refusal.message})
        self._write(entry)

    def check_cap(self, run: str) -> Refusal | None:
        """A 402 refusal if ``run`` has reached the spend cap (or its spend can no longer be known)."""
        if self.spend_cap is None:
            return None
        total = self.spent(run)
        cap = self.spend_cap
        if total.cost_unknown_calls and self.unknown_call_cost is None:
            message = (
                f"spend cap of {cap:g} USD cannot be enforced: the cost of {total.cost_unknown_calls} "
                f"call(s) of run {run!r} is unknown ({_unknown_reasons(total)}); known spend "
                f"{total.cost:.6f} USD (a proxy started with --unknown-call-cost charges such calls instead)"
            )
            return Refusal(402, "spend_cap", message, value=total.cost, limit=cap)
        spend = total.cost + total.cost_unknown_calls * (self.unknown_call_cost or 0.0)
        if spend >= cap:
            charged = (
                f", {total.cost_unknown_calls} call(s) of unknown cost included"
                if total.cost_unknown_calls
                else ""
            )
            message = (
                f"spend cap reached: run {run!r} has spent {spend:.6f} USD of its {cap:g} USD cap{charged}"
            )
            return Refusal(402, "spend_cap", message, value=spend, limit=cap)
        return None

    def carry(self, run: str, cost: float, cost_unknown_calls: int = 0) -> Tally:
        """Note that ``run`` spent at least this much before (its records say so, on resume).

        Only what the ledger has not counted itself is carried (a proxy that kept running since
        counts it already), so telling it twice, or after more calls, adds nothing. Returns what is
        carried for the run.
        """
        own = self.totals(run)
        with self._lock:
            carried = self._carried.setdefault(run, Tally())
            carried.cost = max(carried.cost, round(cost - own.cost, 12))
            lost = max(carried.cost_unknown_calls, cost_unknown_calls - own.cost_unknown_calls)
            carried.cost_unknown_calls = carried.usage_unknown_calls = lost
            return Tally(**asdict(carried))

    def spent(self, run: str) -> Tally:
        """The run's totals with what was carried from before a resume: what its spend cap weighs."""
        total = self.totals(run)
        with self._lock:
            carried = self._carried.get(run)
            if carried is not None:
                total.absorb(carried)
        return total

    def tally(self, run: str, instance: str) -> Tally:
        """A copy of the counts of one instance of one run (zeros if it made no call)."""
        with self._lock:
            found = self._tallies.get((run, instance))
            return Tally(**asdict(found)) if found else Tally()

    def totals(self, run: str | None = None) -> Tally:
        """The counts summed over one run's instances, or over everything when ``run`` is ``None``."""
        total = Tally()
        with self._lock:
            for (r, _), tally in self._tallies.items():
                if run is None or r == run:
                    total.absorb(tally)
        return total

    def instances(self, run: str) -> dict[str, Tally]:
        """Copies of the counts of each instance of ``run``."""
        with self._lock:
            return {i: Tally(**asdict(t)) for (r, i), t in self._tallies.items() if r == run}

    def runs(self) -> list[str]:
        """The runs seen so far."""
        with self._lock:
            return sorted({r for r, _ in self._tallies})

    def close(self) -> None:
        """Close the log."""
        with self._lock:
            if self._log is not None:
                self._log.close()
                self._log = None

    def _tally(self, run: str, instance: str) -> Tally:
        return self._tallies.setdefault((run, instance), Tally())

    def _write(self, entry: dict[str, Any]) -> None:
        line = json.dumps({"time": round(time.time(), 3), **entry}, sort_keys=False)
        with self._lock:
            if self._log is not None:
                self._log.write(line + "\n")
                self._log.flush()
