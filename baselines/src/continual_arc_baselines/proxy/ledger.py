"""The tracking proxy's books: counts per run and instance, the spend cap, and the ledger file.

The ledger file is the proxy's memory: append-only JSON lines, each flushed and fsynced before the
proxy goes on, keyed by run and instance. A proxy started on an existing file reads it back first,
so a restart resumes every run's spend and counts where they were. Each forwarded call writes a
``start`` line (with its worst-case cost) before it is sent upstream, a ``generation`` line with
the provider's id of its generation as soon as the reply names it, and its ``call`` line when it
ends; a ``start`` with no end, found on reading the file back, is a call the proxy was killed
during: it is settled then, at the provider's record of its generation when the provider keeps one
([settle][continual_arc_baselines.proxy.settle]), else at its worst case (bounded by the per-call
ceiling).

Recording a cost is kept apart from checking the cap:
[`Ledger.record_call`][continual_arc_baselines.proxy.ledger.Ledger.record_call] only adds,
[`Ledger.check_cap`][continual_arc_baselines.proxy.ledger.Ledger.check_cap] only reads, and a refusal carries
the amount reached and the limit.
"""

from __future__ import annotations

import json
import os
import secrets
import threading
import time
from collections.abc import Mapping
from dataclasses import asdict
from pathlib import Path
from typing import IO

from continual_arc_baselines.json_types import JSONObject, JSONValue
from continual_arc_baselines.proxy.budget import PromptCounter, PromptGauge
from continual_arc_baselines.proxy.policy import Refusal
from continual_arc_baselines.proxy.settle import SETTLED_BY, Settler
from continual_arc_baselines.proxy.tally import (
    CallRecord,
    Price,
    Tally,
    call_entry,
    cost_of,
    entry_tally,
)

__all__ = ["INTERRUPTED", "CallRecord", "Ledger", "Price", "Tally", "cost_of"]

INTERRUPTED = "the proxy stopped before the call ended"
"""The error of a call settled on restart: its ``start`` line has no end."""


def _number(value: JSONValue) -> float:
    """A logged number, 0 for a null (or for what no proxy writes)."""
    return float(value) if isinstance(value, int | float) else 0.0


def _unknown_reasons(total: Tally) -> str:
    """Why a run's calls have unknown costs, in words, for the spend cap's refusal."""
    reasons = []
    lost = total.usage_unknown_calls - total.worst_case_calls
    if lost > 0:
        reasons.append(
            f"{lost} ended with no usage known (a reply without usage, a time-out, a hang-up, a broken "
            f"stream or a malformed reply) and the model has no --price to charge its worst case"
        )
    unpriced = total.cost_unknown_calls - max(lost, 0)
    if unpriced > 0:
        reasons.append(f"{unpriced} reported usage but no cost: give the model a --price")
    return "; ".join(reasons)


class Ledger:
    """Thread-safe counts per (run, instance), the spend cap per run, and the ledger file.

    Args:
        prices: USD per million tokens by model, for upstreams that report no ``usage.cost``, and to
            bound a call's cost before it is sent.
        spend_cap: USD a run may spend; ``None`` for no cap.
        log_path: the ledger file, read back if it exists, then appended to (each line flushed and
            fsynced); ``None`` to keep the counts in memory only.
        unknown_call_cost: USD charged against the cap for each call whose cost is unknown; ``None``
            (the default) refuses a capped run's calls once one call's cost is unknown.
        settler: asks the provider what a call killed with the proxy was billed (when the file read
            back holds its generation id); ``None`` charges such calls their worst case.
        prompt_counters: the models whose prompts are counted with their own tokenizer instead of
            estimated ([PromptGauge][continual_arc_baselines.proxy.budget.PromptGauge]).

    Attributes:
        skipped_lines: lines of the file read back that were not JSON (a line cut by a kill).
    """

    def __init__(
        self,
        prices: Mapping[str, Price] | None = None,
        spend_cap: float | None = None,
        log_path: Path | None = None,
        unknown_call_cost: float | None = None,
        settler: Settler | None = None,
        prompt_counters: Mapping[str, PromptCounter] | None = None,
    ) -> None:
        self.prices = dict(prices or {})
        self.settler = settler
        self.gauge = PromptGauge(prompt_counters)
        self._generations: dict[str, str] = {}  # call id -> the provider's generation id
        self.spend_cap = spend_cap
        self.unknown_call_cost = unknown_call_cost
        self.skipped_lines = 0
        self._tallies: dict[tuple[str, str], Tally] = {}
        self._carried: dict[str, Tally] = {}
        self._reserved: dict[str, tuple[str, float]] = {}  # call id -> (run, worst-case USD)
        self._lock = threading.Lock()
        self._log: IO[str] | None = None
        self._prefix = secrets.token_hex(4)  # call ids stay unique across restarts on one file
        self._next_id = 0
        if log_path is not None:
            log_path.parent.mkdir(parents=True, exist_ok=True)
            open_starts = self._read_back(log_path) if log_path.exists() else {}
            self._log = open(log_path, "a", encoding="utf-8")  # noqa: SIM115 - open for the ledger's life
            if self._log.tell() and not log_path.read_bytes().endswith(b"\n"):
                self._log.write("\n")  # a line cut by a kill: the next one must not be glued to it
            for start in open_starts.values():
                self._settle_interrupted(start)

    # -- reading the file back -----------------------------------------------------------------------

    def _read_back(self, path: Path) -> dict[str, JSONObject]:
        """Count every line of an existing ledger file; return the ``start`` lines with no end."""
        starts: dict[str, JSONObject] = {}
        with open(path, encoding="utf-8", errors="replace") as lines:
            for line in lines:
                try:
                    entry: JSONValue = json.loads(line)
                except ValueError:
                    self.skipped_lines += bool(line.strip())
                    continue
                if not isinstance(entry, dict):
                    self.skipped_lines += 1
                    continue
                self._apply(entry)
                call_id = entry.get("id")
                event = entry.get("event")
                if event == "start" and isinstance(call_id, str):
                    starts[call_id] = entry
                elif event == "generation" and isinstance(call_id, str) and call_id in starts:
                    starts[call_id] = {**starts[call_id], "generation": entry.get("generation")}
                elif call_id is not None:
                    starts.pop(str(call_id), None)
        return starts

    def _apply(self, entry: Mapping[str, JSONValue]) -> None:
        """Add one line's counts (the caller holds the lock, or nothing else runs yet)."""
        run, instance = str(entry.get("run")), str(entry.get("instance"))
        if entry.get("event") == "carry":
            carried = self._carried.setdefault(run, Tally())
            carried.cost = _number(entry.get("carried_cost"))
            lost = int(_number(entry.get("carried_cost_unknown_calls")))
            carried.cost_unknown_calls = carried.usage_unknown_calls = lost
            return
        tally = entry_tally(entry)
        if tally is not None:
            self._tally(run, instance).absorb(tally)
        if entry.get("event") == "call" and entry.get("settled_by") is None:
            self.gauge.learn(str(entry.get("model")), entry.get("prompt_bytes"), entry.get("prompt_tokens"))

    def _settle_interrupted(self, start: Mapping[str, JSONValue]) -> None:
        worst = start.get("worst_cost")
        generation = start.get("generation")
        usage = None
        if isinstance(generation, str) and self.settler is not None:
            usage = self.settler.ask_now(generation)
        call = CallRecord(
            str(start.get("run")),
            str(start.get("instance")),
            str(start.get("model")),
            499,
            bool(start.get("stream")),
            usage,
            0.0,
            error=INTERRUPTED,
            usage_lost=True,
            call_id=str(start.get("id")),
            worst_cost=float(worst) if isinstance(worst, int | float) else None,
            generation=generation if isinstance(generation, str) else None,
            settled_by=SETTLED_BY if usage is not None else None,
        )
        self.record_call(call)

    # -- recording -----------------------------------------------------------------------------------

    def begin_call(self, run: str, instance: str, model: str, stream: bool, worst_cost: float | None) -> str:
        """Note a call about to be sent upstream, and return its id.

        The id goes to [`record_call`][continual_arc_baselines.proxy.ledger.Ledger.record_call] or
        [`record_unreached`][continual_arc_baselines.proxy.ledger.Ledger.record_unreached] when the call ends;
        until then its worst-case cost is held against the run's cap.
        """
        with self._lock:
            self._next_id += 1
            call_id = f"{self._prefix}-{self._next_id}"
            if worst_cost is not None:
                self._reserved[call_id] = (run, worst_cost)
            entry: JSONObject = {"event": "start", "id": call_id, "run": run, "instance": instance}
            entry["model"] = model
            entry.update({"stream": stream, "worst_cost": worst_cost})
            self._write(entry)
        return call_id

    def note_generation(self, call_id: str, generation: str) -> None:
        """Log the provider's id of a call's generation, as soon as the reply names it.

        Written before the call ends, so that a proxy killed during the call can ask the provider,
        once restarted, what the call was billed.
        """
        with self._lock:
            if self._generations.get(call_id) == generation:
                return
            self._generations[call_id] = generation
            self._write({"event": "generation", "id": call_id, "generation": generation})

    def gauge_rate(self, model: str) -> float:
        """The model's prompt bytes a token, calibrated from the prompt tokens it reported."""
        with self._lock:
            return self.gauge.rate(model)

    def prompt_count(self, model: str, body: Mapping[str, JSONValue]) -> int | None:
        """The prompt's exact tokens when the model's tokenizer is at hand, else ``None`` (estimate it)."""
        return self.gauge.count(model, body)  # no lock: the counter reads only the request

    def generation_of(self, call_id: str) -> str | None:
        """The provider's generation id noted for a call not yet recorded, if any."""
        with self._lock:
            return self._generations.get(call_id)

    def record_call(self, call: CallRecord) -> JSONObject:
        """Count one forwarded call and log it; returns the log entry."""
        entry = call_entry(call, self.prices.get(call.model))
        entry["id"] = entry.pop("call_id")
        with self._lock:
            self._apply(entry)
            self._reserved.pop(str(call.call_id), None)
            self._generations.pop(str(call.call_id), None)
            self._write(entry)
        return entry

    def record_unreached(self, run: str, instance: str, model: str, call_id: str, detail: str) -> None:
        """Log an attempt the upstream never received (it refused the connection): no call, no cost."""
        entry: JSONObject = {"event": "unreached", "id": call_id, "run": run, "instance": instance}
        entry["model"] = model
        entry["error"] = detail
        with self._lock:
            self._apply(entry)
            self._reserved.pop(call_id, None)
            self._generations.pop(call_id, None)
            self._write(entry)

    def record_refusal(
        self, run: str, instance: str, refusal: Refusal, path: str, model: JSONValue = None
    ) -> None:
        """Count one refused call and log it (``model`` as the request named it, whatever its type)."""
        entry: JSONObject = {"event": "refused", "run": run, "instance": instance, "path": path}
        entry["model"] = model
        entry.update({"status": refusal.status, "kind": refusal.kind, "message": refusal.message})
        with self._lock:
            self._apply(entry)
            self._write(entry)

    # -- the cap -------------------------------------------------------------------------------------

    def check_cap(self, run: str) -> Refusal | None:
        """A 402 refusal if ``run`` has reached the spend cap (or its spend can no longer be known).

        Only settled spend counts here: calls in flight may settle below their worst case, so a
        call that cannot be reserved beside them waits for them (the proxy's queue) instead.
        """
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
        spend = self._charged(run, total, held=False)
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

    def budget_left(self, run: str, *, held: bool = True) -> float | None:
        """USD the run may still spend; ``None``: no cap.

        With ``held`` (the default) its calls in flight are held at their worst case; without, only
        settled spend counts (what is left once every call in flight has settled at nothing).
        """
        if self.spend_cap is None:
            return None
        return self.spend_cap - self._charged(run, self.spent(run), held=held)

    def in_flight(self, run: str) -> int:
        """The run's calls sent and not yet settled (each held at its worst case)."""
        with self._lock:
            return sum(1 for r, _ in self._reserved.values() if r == run)

    def _charged(self, run: str, total: Tally, *, held: bool = True) -> float:
        with self._lock:
            holding = sum(worst for r, worst in self._reserved.values() if r == run) if held else 0.0
        return total.cost + total.cost_unknown_calls * (self.unknown_call_cost or 0.0) + holding

    def carry(self, run: str, cost: float, cost_unknown_calls: int = 0) -> Tally:
        """Note that ``run`` spent at least this much before (its records say so, on resume).

        Only what the ledger has not counted itself is carried (a proxy that kept running, or one
        restarted on its ledger file, counts it already), so telling it twice, or after more calls,
        adds nothing. Returns what is carried for the run.
        """
        own = self.totals(run)
        with self._lock:
            carried = self._carried.setdefault(run, Tally())
            carried.cost = max(carried.cost, round(cost - own.cost, 12))
            lost = max(carried.cost_unknown_calls, cost_unknown_calls - own.cost_unknown_calls)
            carried.cost_unknown_calls = carried.usage_unknown_calls = lost
            entry: JSONObject = {
                "event": "carry",
                "run": run,
                "cost": cost,
                "cost_unknown_calls": cost_unknown_calls,
            }
            entry.update({"carried_cost": carried.cost, "carried_cost_unknown_calls": lost})
            self._write(entry)
            return Tally(**asdict(carried))

    # -- reading -------------------------------------------------------------------------------------

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
        """Close the ledger file."""
        with self._lock:
            if self._log is not None:
                self._log.close()
                self._log = None

    def _tally(self, run: str, instance: str) -> Tally:
        return self._tallies.setdefault((run, instance), Tally())

    def _write(self, entry: JSONObject) -> None:
        """Append one line and put it on disk before going on (the caller holds the lock)."""
        if self._log is None:
            return
        self._log.write(json.dumps({"time": round(time.time(), 3), **entry}) + "\n")
        self._log.flush()
        os.fsync(self._log.fileno())
