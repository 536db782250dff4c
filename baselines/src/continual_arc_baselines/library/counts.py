"""A model-backed learner's counters: their names, and the arithmetic on them.

Counts come from the tracking proxy (its ``GET /continual-arc/usage``) or from the client, and an
instance's are a difference, taken before its first call and after its round.
"""

from __future__ import annotations

from collections.abc import Mapping

from continual_arc_baselines.model import Usage

from ..json_types import JSONValue

__all__ = ["COUNT_KEYS", "add_counts", "from_client", "from_proxy", "minus", "with_unseen", "zero"]

COUNT_KEYS = (
    "calls",
    "failed_calls",
    "refused_calls",
    "prompt_tokens",
    "completion_tokens",
    "reasoning_tokens",
    "cost",
    "usage_unknown_calls",
    "cost_unknown_calls",
    "cut_replies",
    "model_mismatch_calls",
)
"""The per-instance and cumulative counters, in this order.

``calls`` are requests that reached the model endpoint (retries included), ``failed_calls`` those
of them that failed, ``refused_calls`` those the proxy refused without forwarding. Tokens and cost
sum the calls whose usage was reported; ``usage_unknown_calls`` and ``cost_unknown_calls`` count
answered calls whose tokens or cost were not reported (the cost stays unknown behind a proxy
started without a price for a model whose upstream reports none; with a price, the proxy charges a
call whose usage never arrived its worst case, in ``cost``). ``cut_replies`` counts replies the proxy
cut short (at the spend cap or its size limit), ``model_mismatch_calls`` replies that named another
model than the one asked for. An attempt that never reached the model (a refused connection) is no
call."""


def zero() -> dict[str, float]:
    """Every counter at zero."""
    return dict.fromkeys(COUNT_KEYS, 0.0)


def from_client(usage: Usage) -> dict[str, float]:
    """The client's counts: each request that reached the model a call, failed ones those not answered."""
    reached = usage.attempts - usage.unreached
    return {
        "calls": float(reached),
        "failed_calls": float(reached - usage.calls),
        "refused_calls": 0.0,
        "prompt_tokens": float(usage.prompt_tokens),
        "completion_tokens": float(usage.completion_tokens),
        "reasoning_tokens": float(usage.reasoning_tokens),
        "cost": float(usage.cost),
        "usage_unknown_calls": float(usage.usage_unknown_calls),
        "cost_unknown_calls": float(usage.cost_unknown_calls),
        "cut_replies": float(usage.cut_replies),
        "model_mismatch_calls": float(usage.model_mismatch_calls),
    }


def from_proxy(tally: Mapping[str, JSONValue]) -> dict[str, float]:
    """The tracking proxy's counts (``GET /continual-arc/usage``) as counters (one it lacks is zero)."""
    renamed = {"failed_calls": "upstream_errors", "refused_calls": "refused"}
    counts = {key: tally.get(renamed.get(key, key)) for key in COUNT_KEYS}
    return {key: float(value) if isinstance(value, int | float) else 0.0 for key, value in counts.items()}


def minus(a: Mapping[str, float], b: Mapping[str, float]) -> dict[str, float]:
    """The counters of ``a`` less those of ``b``."""
    return {key: round(a[key] - b[key], 12) for key in COUNT_KEYS}


def add_counts(a: Mapping[str, float], b: Mapping[str, float]) -> dict[str, float]:
    """The sum of two count dicts (keys of `COUNT_KEYS`)."""
    return {key: round(a.get(key, 0.0) + b.get(key, 0.0), 12) for key in COUNT_KEYS}


def with_unseen(counts: dict[str, float], sent: int) -> dict[str, float]:
    """The proxy's counts, with requests the client sent but the proxy never counted added.

    Such a request may have reached the upstream (a connection that broke inside the proxy): it is
    a failed call whose usage and cost are unknown, never a call that did not happen.
    """
    unseen = sent - counts["calls"] - counts["refused_calls"]
    if unseen <= 0:
        return counts
    extra = dict.fromkeys(COUNT_KEYS, 0.0)
    for key in ("calls", "failed_calls", "usage_unknown_calls", "cost_unknown_calls"):
        extra[key] = float(unseen)
    return add_counts(counts, extra)
