"""A counted client for any OpenAI-compatible chat endpoint (OpenRouter, vLLM, llama.cpp, Ollama).

Every call streams with ``stream_options={"include_usage": True}`` (so the endpoint reports the tokens
of a streamed reply), opens with a mark of its instance, and tells the tracking proxy its run and
instance in two headers. Retries are the client's own (the SDK's are off): exponential backoff with a
seeded jitter, on 429, 5xx, time-outs and connection errors only, up to a limit.
"""

from __future__ import annotations

import hashlib
import random
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, cast
from urllib.parse import quote

import openai
import tenacity

__all__ = [
    "INSTANCE_HEADER",
    "RUN_HEADER",
    "Backoff",
    "ChatResult",
    "ModelCallError",
    "ModelClient",
    "Usage",
    "instance_mark",
]

RUN_HEADER = "X-Continual-ARC-Run"
"""The header naming the run, read by the tracking proxy."""

INSTANCE_HEADER = "X-Continual-ARC-Instance"
"""The header naming the instance (percent-encoded), read by the tracking proxy."""

_HEADER_SAFE = "-_.:/@+=,~!*()"


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
    """

    text: str
    prompt_tokens: int | None
    completion_tokens: int | None
    reasoning_tokens: int | None
    cost: float | None
    model: str
    attempts: int
    usage_known: bool


@dataclass(frozen=True)
class Usage:
    """Cumulative counts, for one instance or in total.

    Attributes:
        calls: calls answered. failures: calls that raised :class:`ModelCallError`.
        attempts: HTTP requests made, failed ones and retries included.
        prompt_tokens, completion_tokens, reasoning_tokens: sums over calls whose usage was reported.
        cost: sum of the costs the endpoint reported (USD).
        usage_unknown_calls: answered calls whose usage was not reported (their tokens are not in the sums).
        cost_unknown_calls: answered calls whose cost was not reported.
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
            usage_unknown_calls=self.usage_unknown_calls + (not result.usage_known),
            cost_unknown_calls=self.cost_unknown_calls + (result.cost is None),
        )

    def merge(self, other: Usage) -> Usage:
        """The sum of these counts and ``other``'s."""
        return Usage(
            **{name: getattr(self, name) + getattr(other, name) for name in Usage.__dataclass_fields__}
        )

    def add_failure(self, attempts: int) -> Usage:
        """These counts with one failed call of ``attempts`` requests added."""
        return replace(self, failures=self.failures + 1, attempts=self.attempts + attempts)


ErrorKind = Literal["retries_exhausted", "not_retryable"]


class ModelCallError(RuntimeError):
    """A call that got no answer.

    Attributes:
        kind: ``"retries_exhausted"`` (every allowed attempt hit a retryable failure) or
            ``"not_retryable"`` (e.g. a 400: retrying would not help).
        attempts: HTTP requests made. limit: the most attempts allowed.
        status: the last HTTP status, ``None`` for a time-out or connection error.
        detail: the last failure, in words.
    """

    def __init__(
        self, kind: ErrorKind, *, attempts: int, limit: int, status: int | None, detail: str
    ) -> None:
        self.kind = kind
        self.attempts = attempts
        self.limit = limit
        self.status = status
        self.detail = detail
        what = "gave up after" if kind == "retries_exhausted" else "failed, not retryable, after"
        super().__init__(
            f"model call {what} {attempts} of at most {limit} attempts; "
            f"last status {status if status is not None else 'none'}: {detail}"
        )


@dataclass(frozen=True)
class Backoff:
    """Waits between attempts: ``min(maximum, initial * multiplier**(n-1))``, less up to ``jitter`` of it.

    The jitter comes from ``random.Random(seed)``, so a run's schedule is reproducible; ``jitter=0``
    gives a fixed schedule. A ``Retry-After`` header (seconds) lengthens a wait, up to ``maximum``.
    """

    initial: float = 1.0
    maximum: float = 30.0
    multiplier: float = 2.0
    jitter: float = 0.5
    seed: int = 0

    def delay(self, attempt: int, draw: float, retry_after: float = 0.0) -> float:
        """Seconds to wait after failed attempt number ``attempt`` (1-based).

        Args:
            attempt: the attempt that just failed.
            draw: a number in [0, 1) from the jitter's random stream.
            retry_after: the server's ``Retry-After`` in seconds, 0 if none.
        """
        base = min(self.maximum, self.initial * self.multiplier ** (attempt - 1))
        return max(base * (1.0 - self.jitter * draw), min(retry_after, self.maximum))


class _AttemptTimeout(Exception):
    """An attempt that overran the client's time limit while its stream was still arriving."""


def instance_mark(instance: str, run_id: str | None = None) -> str:
    """The short line that opens every prompt of an instance.

    Derived from the run and the instance, so that no provider prompt cache carries one instance's
    prompt into another, nor one run's into the next.
    """
    digest = hashlib.sha256(f"{run_id or ''}\x00{instance}".encode()).hexdigest()[:12]
    return f"[continual-arc {digest}]"


def _is_retryable(error: BaseException) -> bool:
    if isinstance(error, openai.APIStatusError):
        return error.status_code == 429 or error.status_code >= 500
    return isinstance(error, openai.APIConnectionError | _AttemptTimeout)  # time-outs included


def _status(error: BaseException) -> int | None:
    return error.status_code if isinstance(error, openai.APIStatusError) else None


def _retry_after(error: BaseException | None) -> float:
    if not isinstance(error, openai.APIStatusError):
        return 0.0
    try:
        return max(0.0, float(error.response.headers.get("retry-after", "0")))
    except ValueError:
        return 0.0  # an HTTP date: rare from model endpoints, and the backoff covers it


def _marked(messages: Sequence[Mapping[str, Any]], mark: str) -> list[dict[str, Any]]:
    """A copy of the messages whose first one opens with the mark line."""
    copied = [dict(message) for message in messages]
    if not copied:
        raise ValueError("a chat needs at least one message")
    content = copied[0].get("content")
    if isinstance(content, str) or content is None:
        copied[0]["content"] = f"{mark}\n{content or ''}"
    else:
        copied[0]["content"] = [{"type": "text", "text": mark}, *content]
    return copied


def _usage_numbers(usage: Any) -> tuple[int | None, int | None, int | None, float | None]:
    if usage is None:
        return None, None, None, None
    details = getattr(usage, "completion_tokens_details", None)
    reasoning = getattr(details, "reasoning_tokens", None) if details is not None else None
    cost = getattr(usage, "cost", None)  # OpenRouter's extension: the SDK keeps unknown fields
    return (
        int(usage.prompt_tokens or 0),
        int(usage.completion_tokens or 0),
        int(reasoning or 0),
        float(cost) if isinstance(cost, int | float) else None,
    )


class ModelClient:
    """A counted, retrying chat client for one model on one OpenAI-compatible endpoint.

    Thread-safe: learners may call :meth:`chat` from several threads at once.

    Args:
        base_url: the endpoint's OpenAI base, e.g. the tracking proxy's ``http://127.0.0.1:8787/v1``.
        model: the model id sent with every call.
        api_key: sent as a bearer token; not needed behind the tracking proxy, which adds its own.
        reasoning_effort: passed through as ``reasoning_effort`` when set (``"low"``, ``"high"``, ...).
        timeout: seconds allowed for one attempt. The SDK enforces it on connecting and on each read;
            the client checks it again between streamed chunks, so a reply that trickles in can
            overrun it by at most one read's wait.
        max_retries: retries after the first attempt (so at most ``max_retries + 1`` requests).
        run_id: the run, sent in the run header and mixed into the instance mark.
        backoff: the waits between attempts.
        stream: stream replies (the default, with usage requested); ``False`` for endpoints that
            cannot stream.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        reasoning_effort: str | None = None,
        timeout: float = 120.0,
        max_retries: int = 4,
        run_id: str | None = None,
        *,
        backoff: Backoff | None = None,
        stream: bool = True,
    ) -> None:
        if max_retries < 0 or timeout <= 0:
            raise ValueError("max_retries must be at least 0 and timeout positive")
        self.model = model
        self.reasoning_effort = reasoning_effort
        self.timeout = timeout
        self.max_retries = max_retries
        self.run_id = run_id
        self.backoff = backoff or Backoff()
        self.stream = stream
        # The SDK insists on a key; behind the proxy any placeholder will do.
        self._client = openai.OpenAI(
            base_url=base_url, api_key=api_key or "unused", max_retries=0, timeout=timeout
        )
        self._rng = random.Random(self.backoff.seed)
        self._lock = threading.Lock()
        self._usage: dict[str, Usage] = {}

    def chat(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        instance: str,
        max_tokens: int | None = None,
        temperature: float | None = None,
        extra_body: Mapping[str, Any] | None = None,
    ) -> ChatResult:
        """Send one chat request for ``instance``, retrying transient failures.

        Args:
            messages: OpenAI chat messages; they are copied, and the first gets the instance mark.
            instance: the instance this call serves (counted under it, and sent to the proxy).
            max_tokens: the reply's token limit, if any.
            temperature: the sampling temperature, if any.
            extra_body: further request fields, passed through as they are.

        Returns:
            The reply and its usage.

        Raises:
            ModelCallError: no answer: a failure that is not retryable, or retries exhausted.
        """
        request: dict[str, Any] = {"model": self.model, "messages": _marked(messages, self.mark(instance))}
        if max_tokens is not None:
            request["max_tokens"] = max_tokens
        if temperature is not None:
            request["temperature"] = temperature
        if self.reasoning_effort is not None:
            request["reasoning_effort"] = self.reasoning_effort
        headers = {INSTANCE_HEADER: quote(instance, safe=_HEADER_SAFE)}
        if self.run_id is not None:
            headers[RUN_HEADER] = quote(self.run_id, safe=_HEADER_SAFE)
        result = self._with_retries(request, headers, dict(extra_body or {}), instance)
        with self._lock:
            self._usage[instance] = self._usage.get(instance, Usage()).add(result)
        return result

    def mark(self, instance: str) -> str:
        """The mark line that opens this client's prompts for ``instance``."""
        return instance_mark(instance, self.run_id)

    def usage(self, instance: str | None = None) -> Usage:
        """Cumulative counts for one instance, or over all instances when ``instance`` is ``None``."""
        with self._lock:
            if instance is not None:
                return self._usage.get(instance, Usage())
            total = Usage()
            for tally in self._usage.values():
                total = total.merge(tally)
            return total

    def close(self) -> None:
        """Release the HTTP connections."""
        self._client.close()

    def __enter__(self) -> ModelClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _wait(self, state: tenacity.RetryCallState) -> float:
        with self._lock:
            draw = self._rng.random()
        error = state.outcome.exception() if state.outcome is not None else None
        return self.backoff.delay(state.attempt_number, draw, _retry_after(error))

    def _with_retries(
        self, request: dict[str, Any], headers: dict[str, str], extra_body: dict[str, Any], instance: str
    ) -> ChatResult:
        limit = self.max_retries + 1
        attempts = 0
        retrying = tenacity.Retrying(
            stop=tenacity.stop_after_attempt(limit),
            wait=self._wait,
            retry=tenacity.retry_if_exception(_is_retryable),
            reraise=True,
        )
        try:
            for attempt in retrying:
                with attempt:
                    attempts += 1
                    return self._attempt(request, headers, extra_body, attempts)
        except (openai.OpenAIError, _AttemptTimeout) as error:
            with self._lock:
                self._usage[instance] = self._usage.get(instance, Usage()).add_failure(attempts)
            kind: ErrorKind = "retries_exhausted" if _is_retryable(error) else "not_retryable"
            detail = str(error) or type(error).__name__
            raise ModelCallError(
                kind, attempts=attempts, limit=limit, status=_status(error), detail=detail
            ) from error
        raise AssertionError("tenacity ended without an outcome")  # unreachable: reraise=True

    def _attempt(
        self, request: dict[str, Any], headers: dict[str, str], extra_body: dict[str, Any], attempts: int
    ) -> ChatResult:
        create = cast(Any, self._client.chat.completions.create)
        options: dict[str, Any] = {
            "extra_headers": headers,
            "timeout": self.timeout,
            "extra_body": extra_body,
        }
        if not self.stream:
            response = create(**request, **options)
            text = response.choices[0].message.content if response.choices else ""
            return self._result(text or "", response.usage, response.model, attempts)
        deadline = time.monotonic() + self.timeout
        parts: list[str] = []
        usage: Any = None
        model = self.model
        with create(**request, **options, stream=True, stream_options={"include_usage": True}) as stream:
            for chunk in stream:
                if time.monotonic() > deadline:
                    raise _AttemptTimeout(f"the reply took longer than {self.timeout:g} s")
                if chunk.choices and chunk.choices[0].delta.content:
                    parts.append(chunk.choices[0].delta.content)
                usage = chunk.usage or usage
                model = chunk.model or model
        return self._result("".join(parts), usage, model, attempts)

    def _result(self, text: str, usage: Any, model: str, attempts: int) -> ChatResult:
        prompt, completion, reasoning, cost = _usage_numbers(usage)
        return ChatResult(
            text=text,
            prompt_tokens=prompt,
            completion_tokens=completion,
            reasoning_tokens=reasoning,
            cost=cost,
            model=model,
            attempts=attempts,
            usage_known=usage is not None,
        )
