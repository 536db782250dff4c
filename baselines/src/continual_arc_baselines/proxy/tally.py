"""The tracking proxy's units of account: prices, usage, calls, counts, and how a logged line counts.

A reply's ``usage`` is parsed once, where it arrives, into a
[ReportedUsage][continual_arc_baselines.proxy.tally.ReportedUsage] (the ``openai`` package's
``CompletionUsage``, with the ``cost`` OpenRouter adds); one that is there but does not parse is
refused in one sentence ([parse_usage][continual_arc_baselines.proxy.tally.parse_usage]), and the
call is counted as one whose usage was lost.

The ledger counts a call only through `entry_tally`, from the very line it writes to its log,
so that a proxy restarted on that log counts exactly what the first one did.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace

from openai.types import CompletionUsage
from pydantic import ConfigDict, ValidationError

from continual_arc_baselines.json_types import JSONObject, JSONValue

__all__ = [
    "CallRecord",
    "Price",
    "ReportedUsage",
    "Tally",
    "call_entry",
    "cost_of",
    "entry_tally",
    "parse_usage",
    "reasoning_of",
]


class ReportedUsage(CompletionUsage):
    """A call's usage as its upstream reported it: OpenAI's ``usage`` object, and ``cost`` when given.

    A count the upstream leaves out is 0, as the proxy has always counted it; ``cost`` is the USD
    the upstream says it billed (OpenRouter's ``usage.cost``), ``None`` when it says nothing.
    Other fields the upstream adds are kept, unread.
    """

    model_config = ConfigDict(extra="allow", frozen=True)

    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0
    cost: float | None = None


def parse_usage(wire: JSONValue) -> ReportedUsage | None:
    """The usage a reply reported, parsed once; ``None`` when it reported none (absent or null).

    Raises:
        ValueError: the reply's ``usage`` is there but is no usage object, in one sentence.
    """
    if wire is None:
        return None
    try:
        return ReportedUsage.model_validate(wire)
    except ValidationError as error:
        where = ", ".join(".".join(str(part) for part in e["loc"]) or "usage" for e in error.errors())
        raise ValueError(f"the upstream's usage does not parse (at {where})") from None


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

    def of(self, prompt_tokens: int, completion_tokens: int) -> float:
        """USD for this many prompt and completion tokens."""
        return (prompt_tokens * self.input_per_million + completion_tokens * self.output_per_million) / 1e6


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
        call_id: the id of the call's ``start`` line in the log, if one was written.
        answered_by: the model the reply named (``None`` if it named none).
        model_mismatch: the reply named another model than the one asked for.
        cut: why the proxy cut the reply short (``"spend_cap"``, ``"size"``), or ``None``.
        worst_cost: USD the call may have cost at most (its prompt, estimated, and the most reply
            tokens it could have had, at the model's price); charged when its usage never arrived
            and the provider could not say what it billed. ``None`` when the model has no price.
        generation: the provider's id of the generation (the reply's ``id``), when one arrived.
        settled_by: ``"generation"`` when the usage is not the reply's but the provider's record
            of the generation, asked after the usage was lost.
        prompt_bytes: the bytes of the prompt's JSON the proxy estimated it from (with the reported
            prompt tokens, they calibrate the next estimates).
    """

    run: str
    instance: str
    model: str
    status: int
    stream: bool
    usage: ReportedUsage | None
    latency: float
    error: str | None = None
    usage_lost: bool = False
    call_id: str | None = None
    answered_by: str | None = None
    model_mismatch: bool = False
    cut: str | None = None
    worst_cost: float | None = None
    generation: str | None = None
    settled_by: str | None = None
    prompt_bytes: int | None = None


@dataclass
class Tally:
    """Counts for one instance of one run (or their sum).

    Attributes:
        calls: calls forwarded upstream, whatever their outcome. refused: calls refused by the proxy.
        upstream_errors: forwarded calls that failed (an error status or a broken stream).
        prompt_tokens, completion_tokens, reasoning_tokens: sums over calls whose usage was reported.
        cost: USD, from the upstream's ``usage.cost``, else the price table, else (a call whose usage
            never arrived) its worst case at the price table.
        usage_unknown_calls: calls whose usage is unknown (their tokens are not counted): successful
            ones with no usage reported, and failed ones the upstream may have billed
            (`CallRecord.usage_lost`).
        cost_unknown_calls: calls whose cost is unknown, not even bounded: those whose usage is and
            whose model has no price, and successful ones with usage but no ``usage.cost`` and no price.
        worst_case_calls: calls of unknown usage charged their worst case (part of ``cost``).
        cut_replies: replies the proxy cut short (at the spend cap or the size limit).
        model_mismatch_calls: replies naming another model than the one asked for.
        unreached: attempts that never reached the upstream (no byte of a reply came back): no call.
        cap_refused: calls refused for the spend cap (part of ``refused``): a learner that cannot
            see its refusals (a harness) learns from it that its run must stop.
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
    worst_case_calls: int = 0
    cut_replies: int = 0
    model_mismatch_calls: int = 0
    unreached: int = 0
    cap_refused: int = 0

    def absorb(self, other: Tally) -> None:
        """Add another tally's counts to this one."""
        for field in fields(self):
            setattr(self, field.name, getattr(self, field.name) + getattr(other, field.name))

    def as_dict(self) -> JSONObject:
        """The counts as a JSON-ready dict."""
        return asdict(self)


def _int(value: JSONValue) -> int:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0


def cost_of(usage: ReportedUsage | None, price: Price | None) -> tuple[float | None, str]:
    """A call's cost in USD and where it came from: ``"upstream"``, ``"price"`` or ``"unknown"``."""
    if usage is None:
        return None, "unknown"
    if usage.cost is not None:
        return usage.cost, "upstream"
    if price is None:
        return None, "unknown"
    return price.of(usage.prompt_tokens, usage.completion_tokens), "price"


def reasoning_of(usage: CompletionUsage) -> int:
    """The reasoning tokens of a usage object (0 without a breakdown)."""
    details = usage.completion_tokens_details
    return (details.reasoning_tokens or 0) if details is not None else 0


def call_entry(call: CallRecord, price: Price | None) -> JSONObject:
    """The log line of one call (without its time): what was measured, and what it costs."""
    ok = call.status < 400 and call.error is None
    unknown = call.usage is None and (ok or call.usage_lost)
    if call.usage is not None:
        cost, source = cost_of(call.usage, price)
        if call.settled_by is not None and cost is not None:
            source = call.settled_by
    elif unknown and call.worst_cost is not None:
        cost, source = call.worst_cost, "worst_case"
    else:
        cost, source = None, "unknown" if unknown else "none"
    usage = call.usage
    measured: JSONObject = asdict(replace(call, usage=None))
    del measured["usage"]  # not logged: the counts below are what the ledger reads back
    return {
        "event": "call",
        **measured,
        "usage_known": usage is not None,  # when false the token fields are null: unknown, not zero
        "prompt_tokens": usage.prompt_tokens if usage is not None else None,
        "completion_tokens": usage.completion_tokens if usage is not None else None,
        "reasoning_tokens": reasoning_of(usage) if usage is not None else None,
        "cost": cost,
        "cost_source": source,
    }


def entry_tally(entry: Mapping[str, JSONValue]) -> Tally | None:
    """What one log line adds to its run and instance's counts (``None``: a line that counts nothing)."""
    event = entry.get("event")
    if event == "refused":
        return Tally(refused=1, cap_refused=int(entry.get("kind") == "spend_cap"))
    if event == "unreached":
        return Tally(unreached=1)
    if event != "call":
        return None
    ok = _int(entry.get("status")) < 400 and entry.get("error") is None
    known = bool(entry.get("usage_known"))
    source = entry.get("cost_source")
    cost = entry.get("cost")
    return Tally(
        calls=1,
        upstream_errors=int(not ok),
        prompt_tokens=_int(entry.get("prompt_tokens")),
        completion_tokens=_int(entry.get("completion_tokens")),
        reasoning_tokens=_int(entry.get("reasoning_tokens")),
        cost=float(cost) if isinstance(cost, int | float) else 0.0,
        usage_unknown_calls=int(not known and (ok or bool(entry.get("usage_lost")))),
        cost_unknown_calls=int(source == "unknown"),
        worst_case_calls=int(source == "worst_case"),
        cut_replies=int(entry.get("cut") is not None),
        model_mismatch_calls=int(bool(entry.get("model_mismatch"))),
    )
