"""What one call may spend: its prompt's tokens, the reply tokens left, its worst-case cost.

The plan of a call is its prompt's estimated tokens, the reply tokens the run's budget leaves, the
``max_tokens`` sent upstream, and the call's worst-case cost.

The proxy has no tokenizer, so it estimates, erring towards more tokens where that keeps the cap
safe: a prompt at one token per ``PROMPT_BYTES_PER_TOKEN`` bytes of its JSON until the model
has reported the prompt tokens of a call, then at the fewest bytes a token any of its calls showed
(``PromptGauge``: a harness whose prompts are mostly tool schemas runs at many more bytes a
token than grids of digits do); a relayed reply at one token per ``REPLY_BYTES_PER_TOKEN``
bytes of its text. A reply the upstream reports usage for is charged what it reports; the
estimates only bound calls whose usage never arrives and decide when a runaway reply is cut.

Every call's ``max_tokens`` is the smallest of the learner's own, the per-call ceiling
(``ReplyLimits.max_tokens_ceiling``, ``DEFAULT_CALL_CEILING`` unless told otherwise) and
the reply tokens the run's budget pays for, so a call whose usage is lost and cannot be settled
costs at most its prompt and that many reply tokens.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeGuard

from continual_arc_baselines.json_types import JSONObject, JSONValue
from continual_arc_baselines.proxy.policy import Refusal
from continual_arc_baselines.proxy.tally import Price

__all__ = [
    "DEFAULT_CALL_CEILING",
    "DEFAULT_LIMITS",
    "PROMPT_BYTES_PER_TOKEN",
    "REPLY_BYTES_PER_TOKEN",
    "CallBudget",
    "PromptCounter",
    "PromptGauge",
    "ReplyLimits",
    "plan_call",
    "prompt_tokens",
    "reply_tokens",
]

PROMPT_BYTES_PER_TOKEN = 2
"""Bytes of a request's JSON counted as one prompt token (an over-estimate for prose)."""

REPLY_BYTES_PER_TOKEN = 4
"""Bytes of relayed reply text counted as one completion token."""

DEFAULT_CALL_CEILING = 8192
"""Reply tokens one call may have at most unless the proxy is told otherwise: what a lost call costs."""

_LIMIT_FIELDS = ("max_tokens", "max_completion_tokens")


@dataclass(frozen=True)
class ReplyLimits:
    """How far one reply may go.

    Attributes:
        max_reply_bytes: bytes of reply text (streamed) or of reply body (plain) past which a reply
            is cut, whatever the budget: a runaway reply must not fill the learner's memory or its
            next prompt. The default, 4 MiB, is about a million tokens, beyond any model's own limit.
        max_tokens_ceiling: the per-call ceiling: the most reply tokens any call is allowed
            (``max_tokens`` is never sent above it), so the most a call whose usage is lost, and
            cannot be settled from the provider's record, is charged.
        min_reply_tokens: the fewest reply tokens worth a call: a call whose budget pays for fewer is
            refused with 402.
    """

    max_reply_bytes: int = 4 << 20
    max_tokens_ceiling: int = DEFAULT_CALL_CEILING
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
        prompt_bytes: the bytes of its JSON the estimate was made from (to calibrate the next).
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
    prompt_bytes: int = 0
    wanted: int | None = None


def prompt_bytes(body: Mapping[str, JSONValue]) -> int:
    """The bytes of the prompt's JSON the estimate counts: its messages and tools."""
    counted = {"messages": body.get("messages"), "tools": body.get("tools")}
    return len(json.dumps(counted, ensure_ascii=False).encode())


def prompt_tokens(body: Mapping[str, JSONValue], bytes_per_token: float = PROMPT_BYTES_PER_TOKEN) -> int:
    """The prompt's estimated tokens: its messages and tools, at ``bytes_per_token``."""
    return math.ceil(prompt_bytes(body) / bytes_per_token)


PromptCounter = Callable[[Mapping[str, JSONValue]], int]
"""Counts a chat request's prompt tokens (its messages and tools) with the model's own tokenizer."""


class PromptGauge:
    """Bytes a prompt token, per model, calibrated from the prompt tokens the upstream reports.

    A model's gauge starts at ``PROMPT_BYTES_PER_TOKEN`` and is, once any call of it reported
    its prompt tokens, the fewest bytes a token of those calls (the most tokens for a prompt's
    bytes: the estimate stays on the side that keeps the cap safe). A model whose tokenizer is at
    hand (``counters``: the weights ``serve`` holds, in the proxy's process) is not estimated at
    all: `count` gives its prompt's exact tokens. Not thread-safe: the ledger holds its lock
    around the rates.

    Args:
        counters: a [PromptCounter][continual_arc_baselines.proxy.budget.PromptCounter] by model.
    """

    def __init__(self, counters: Mapping[str, PromptCounter] | None = None) -> None:
        self._rates: dict[str, float] = {}
        self._counters = dict(counters or {})

    def count(self, model: str, body: Mapping[str, JSONValue]) -> int | None:
        """The prompt's tokens by the model's own tokenizer, or ``None`` when the gauge has none.

        ``None`` too when the tokenizer cannot take the request (a message its chat template
        refuses): the upstream will say so itself, and the estimate stands for the call until then.
        """
        counter = self._counters.get(model)
        if counter is None:
            return None
        try:
            return int(counter(body))
        except Exception:  # a request the template refuses is the upstream's to refuse
            return None

    def rate(self, model: str) -> float:
        """The bytes a token the model's next prompt is estimated at."""
        return self._rates.get(model, PROMPT_BYTES_PER_TOKEN)

    def learn(self, model: str, size: JSONValue, tokens: JSONValue) -> None:
        """Take one call's prompt bytes and the prompt tokens the upstream reported for it."""
        if not (_positive(size) and _positive(tokens)):
            return
        seen = size / tokens
        self._rates[model] = min(self._rates.get(model, seen), seen)


def _positive(value: JSONValue) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def reply_tokens(text_bytes: int) -> int:
    """The estimated tokens of this many bytes of reply text."""
    return math.ceil(text_bytes / REPLY_BYTES_PER_TOKEN)


def _requested(body: Mapping[str, JSONValue]) -> int | None:
    limits = [
        int(v)
        for v in (body.get(name) for name in _LIMIT_FIELDS)
        if isinstance(v, int | float) and not isinstance(v, bool) and v > 0
    ]
    return min(limits) if limits else None


def plan_call(
    body: JSONObject,
    price: Price | None,
    left: float | None,
    *,
    ceiling: int,
    min_reply_tokens: int,
    bytes_per_token: float = PROMPT_BYTES_PER_TOKEN,
    counted: int | None = None,
) -> CallBudget | Refusal:
    """The call's limits: its reply limit set to the request's, the ceiling's or the budget's, the least.

    ``body`` is changed in place: its ``max_tokens`` (and ``max_completion_tokens`` if present) is
    set to the least of the request's own, ``ceiling`` and the reply tokens the budget pays for
    (without a cap or a price, the budget does not bind).

    Args:
        body: the request, already checked by the policy.
        price: the model's price, ``None`` if it has none.
        left: USD the run may still spend, ``None`` without a cap.
        ceiling: the per-call ceiling on reply tokens.
        min_reply_tokens: the fewest reply tokens worth a call: with less left the call is refused.
        bytes_per_token: the model's calibrated prompt bytes a token (``PromptGauge``).
        counted: the prompt's tokens as the model's own tokenizer counts them (``PromptGauge.count``,
            where the proxy runs beside the weights): taken instead of the estimate from bytes.

    Returns:
        The call's budget, or a 402 refusal when the budget cannot pay for the prompt and a minimal reply.
    """
    size = prompt_bytes(body)
    estimate = counted if counted is not None else math.ceil(size / bytes_per_token)
    requested = _requested(body)
    wanted = ceiling if requested is None else min(requested, ceiling)
    allowance: int | None = None
    limit = wanted
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
            limit = min(wanted, allowance)
    for name in _LIMIT_FIELDS:
        if name in body or (name == "max_tokens" and "max_completion_tokens" not in body):
            body[name] = limit
    worst = None if price is None else price.of(estimate, limit)
    return CallBudget(estimate, allowance, limit, worst, size, wanted)
