"""What one call may spend: its prompt's tokens, the reply tokens left, its worst-case cost.

The plan of a call is its prompt's estimated tokens, the reply tokens the run's budget leaves, the
``max_tokens`` sent upstream, and the call's worst-case cost.

The proxy has no tokenizer, so it estimates, erring towards more tokens where that keeps the cap
safe: a prompt at one token per :data:`PROMPT_BYTES_PER_TOKEN` bytes of its JSON (grids of digits
run close to two bytes a token), a relayed reply at one token per :data:`REPLY_BYTES_PER_TOKEN`
bytes of its text. A reply the upstream reports usage for is charged what it reports; the
estimates only bound calls whose usage never arrives and decide when a runaway reply is cut.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from continual_arc_baselines.proxy.policy import Refusal
from continual_arc_baselines.proxy.tally import Price

__all__ = [
    "DEFAULT_LIMITS",
    "PROMPT_BYTES_PER_TOKEN",
    "REPLY_BYTES_PER_TOKEN",
    "CallBudget",
    "ReplyLimits",
    "plan_call",
    "prompt_tokens",
    "reply_tokens",
]

PROMPT_BYTES_PER_TOKEN = 2
"""Bytes of a request's JSON counted as one prompt token (an over-estimate for prose)."""

REPLY_BYTES_PER_TOKEN = 4
"""Bytes of relayed reply text counted as one completion token."""

_LIMIT_FIELDS = ("max_tokens", "max_completion_tokens")


@dataclass(frozen=True)
class ReplyLimits:
    """How far one reply may go.

    Attributes:
        max_reply_bytes: bytes of reply text (streamed) or of reply body (plain) past which a reply
            is cut, whatever the budget: a runaway reply must not fill the learner's memory or its
            next prompt. The default, 4 MiB, is about a million tokens, beyond any model's own limit.
        max_tokens_ceiling: reply tokens above which the proxy sets no ``max_tokens`` of its own
            (the budget does not bind yet, and a limit past a model's own may be refused upstream);
            a call without a limit is charged this many reply tokens if its usage never arrives.
        min_reply_tokens: the fewest reply tokens worth a call: a call whose budget pays for fewer is
            refused with 402.
    """

    max_reply_bytes: int = 4 << 20
    max_tokens_ceiling: int = 32768
    min_reply_tokens: int = 256

    def __post_init__(self) -> None:
        if min(self.max_reply_bytes, self.max_tokens_ceiling, self.min_reply_tokens) < 1:
            raise ValueError("reply limits must be positive")


DEFAULT_LIMITS = ReplyLimits()
"""The limits a proxy is started with unless told otherwise."""


@dataclass(frozen=True)
class CallBudget:
    """One call's limits.

    Attributes:
        prompt_tokens: the prompt's estimated tokens.
        allowance: reply tokens the run's budget pays for once the prompt is paid; ``None`` when
            nothing binds (no cap, or no price). A reply estimated past it is cut.
        max_tokens: the reply limit the upstream is held to (the request's own, or the proxy's when
            the budget is tighter), ``None`` for none.
        worst_cost: USD the call costs at most if the upstream keeps to ``max_tokens`` (without one,
            to ``ceiling`` reply tokens); ``None`` when the model has no price.
    """

    prompt_tokens: int
    allowance: int | None
    max_tokens: int | None
    worst_cost: float | None


def prompt_tokens(body: Mapping[str, Any]) -> int:
    """The prompt's estimated tokens: its messages and tools, at :data:`PROMPT_BYTES_PER_TOKEN`."""
    counted = {"messages": body.get("messages"), "tools": body.get("tools")}
    size = len(json.dumps(counted, ensure_ascii=False).encode())
    return math.ceil(size / PROMPT_BYTES_PER_TOKEN)


def reply_tokens(text_bytes: int) -> int:
    """The estimated tokens of this many bytes of reply text."""
    return math.ceil(text_bytes / REPLY_BYTES_PER_TOKEN)


def _requested(body: Mapping[str, Any]) -> int | None:
    limits = [
        int(v)
        for v in (body.get(name) for name in _LIMIT_FIELDS)
        if isinstance(v, int | float) and not isinstance(v, bool) and v > 0
    ]
    return min(limits) if limits else None


def plan_call(
    body: dict[str, Any],
    price: Price | None,
    left: float | None,
    *,
    ceiling: int,
    min_reply_tokens: int,
) -> CallBudget | Refusal:
    """The call's limits, with the request's reply limit set or lowered to what the budget pays for.

    ``body`` is changed in place: when the budget pays for fewer reply tokens than the request asks
    (or than ``ceiling``, when it asks no limit), its ``max_tokens`` (and ``max_completion_tokens``
    if present) is set to that many. Without a cap or a price nothing binds and the body is left.

    Args:
        body: the request, already checked by the policy.
        price: the model's price, ``None`` if it has none.
        left: USD the run may still spend, ``None`` without a cap.
        ceiling: reply tokens above which the proxy sets no limit of its own (a larger budget does
            not bind, and a limit past a model's own output limit may be refused upstream).
        min_reply_tokens: the fewest reply tokens worth a call: with less left the call is refused.

    Returns:
        The call's budget, or a 402 refusal when the budget cannot pay for the prompt and a minimal reply.
    """
    estimate = prompt_tokens(body)
    requested = _requested(body)
    allowance: int | None = None
    limit = requested
    if price is not None and left is not None:
        spare = left - price.of(estimate, 0)
        if spare < price.of(0, min_reply_tokens) or spare <= 0:
            message = (
                f"spend cap: the {max(left, 0.0):.6f} USD left cannot pay for this prompt (about "
                f"{estimate} tokens) and a reply of {min_reply_tokens} tokens"
            )
            return Refusal(402, "spend_cap", message)
        if price.output_per_million > 0:
            allowance = math.floor(spare * 1e6 / price.output_per_million)
            tighter = allowance < requested if requested is not None else allowance <= ceiling
            if tighter:
                limit = allowance
                for name in _LIMIT_FIELDS:
                    if name in body or (name == "max_tokens" and "max_completion_tokens" not in body):
                        body[name] = allowance
    worst = None if price is None else price.of(estimate, limit if limit is not None else ceiling)
    return CallBudget(estimate, allowance, limit, worst)
