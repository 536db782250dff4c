"""What a model call returns, and the counts kept of many: `ChatResult` and `Usage`."""

from __future__ import annotations

from dataclasses import dataclass, replace

from continual_arc_baselines.model.retry import ModelCallError

__all__ = ["ChatResult", "Usage"]


@dataclass(frozen=True)
class ChatResult:
    """One answered call.

    Attributes:
        text: the reply's text (the first choice), assembled from the stream.
        prompt_tokens: input tokens as the endpoint reported them, ``None`` if it did not.
        completion_tokens: output tokens, reasoning included, ``None`` if not reported.
        reasoning_tokens: the reasoning part of ``completion_tokens`` (0 when the endpoint reports
            usage without a breakdown), ``None`` if usage was not reported.
        cost: the endpoint's own ``usage.cost`` (USD, OpenRouter reports it), else ``None``.
        model: the model that answered, as the endpoint named it.
        attempts: HTTP requests made for this call, retries included.
        usage_known: whether the endpoint reported usage; if false the tokens are unknown, not zero.
        lost_attempts: earlier attempts of this call that failed with their usage unknown (a
            time-out, a broken connection, a malformed reply): the endpoint may have billed them.
        finish_reason: why the reply ended (``stop``, ``length``, ``tool_calls``), as reported.
        cut: why the tracking proxy cut the reply short (``spend_cap``, ``size``), else ``None``;
            such a reply ends with ``finish_reason`` ``length``.
        model_mismatch: the reply named another model than the one asked for.
        unreached_attempts: earlier attempts that never reached the model (a refused connection):
            no calls, and no cost.
    """

    text: str
    prompt_tokens: int | None
    completion_tokens: int | None
    reasoning_tokens: int | None
    cost: float | None
    model: str
    attempts: int
    usage_known: bool
    lost_attempts: int = 0
    finish_reason: str | None = None
    cut: str | None = None
    model_mismatch: bool = False
    unreached_attempts: int = 0


@dataclass(frozen=True)
class Usage:
    """Cumulative counts, for one instance or in total.

    Attributes:
        calls: calls answered. failures: calls that raised
            [`ModelCallError`][continual_arc_baselines.model.retry.ModelCallError].
        attempts: HTTP requests made, failed ones and retries included.
        prompt_tokens, completion_tokens, reasoning_tokens: sums over calls whose usage was reported.
        cost: sum of the costs the endpoint reported (USD).
        usage_unknown_calls: attempts whose usage is unknown (their tokens are not in the sums):
            answered calls that reported none, and failed attempts that may have been billed.
        cost_unknown_calls: answered calls whose cost was not reported.
        unreached: requests that never reached the model (part of ``attempts``, but no calls).
        cut_replies: answered calls whose reply the tracking proxy cut short.
        model_mismatch_calls: answered calls whose reply named another model than the one asked for.
    """

    calls: int = 0
    failures: int = 0
    attempts: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    reasoning_tokens: int = 0
    cost: float = 0.0
    usage_unknown_calls: int = 0
    cost_unknown_calls: int = 0
    unreached: int = 0
    cut_replies: int = 0
    model_mismatch_calls: int = 0

    def add(self, result: ChatResult) -> Usage:
        """These counts with one answered call added."""
        return replace(
            self,
            calls=self.calls + 1,
            attempts=self.attempts + result.attempts,
            prompt_tokens=self.prompt_tokens + (result.prompt_tokens or 0),
            completion_tokens=self.completion_tokens + (result.completion_tokens or 0),
            reasoning_tokens=self.reasoning_tokens + (result.reasoning_tokens or 0),
            cost=self.cost + (result.cost or 0.0),
            usage_unknown_calls=self.usage_unknown_calls + (not result.usage_known) + result.lost_attempts,
            cost_unknown_calls=self.cost_unknown_calls + (result.cost is None),
            unreached=self.unreached + result.unreached_attempts,
            cut_replies=self.cut_replies + (result.cut is not None),
            model_mismatch_calls=self.model_mismatch_calls + result.model_mismatch,
        )

    def merge(self, other: Usage) -> Usage:
        """The sum of these counts and ``other``'s."""
        return Usage(
            **{name: getattr(self, name) + getattr(other, name) for name in Usage.__dataclass_fields__}
        )

    def add_failure(self, error: ModelCallError) -> Usage:
        """These counts with one failed call added: its requests, and those whose usage is unknown."""
        return replace(
            self,
            failures=self.failures + 1,
            attempts=self.attempts + error.attempts,
            usage_unknown_calls=self.usage_unknown_calls + error.usage_unknown,
            unreached=self.unreached + error.unreached,
        )
