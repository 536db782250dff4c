"""A counted client for any OpenAI-compatible chat endpoint (OpenRouter, vLLM, llama.cpp, Ollama).

Every call streams with ``stream_options={"include_usage": True}`` (so the endpoint reports the tokens
of a streamed reply), opens with a mark of its instance, and tells the tracking proxy its run and
instance in two headers. Retries are the client's own (the SDK's are off): exponential backoff with a
seeded jitter, on 429, 5xx, time-outs, connection errors and malformed replies only, up to a limit
and within the call's deadline (`retry`).
"""

from __future__ import annotations

import hashlib
import random
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, cast
from urllib.parse import quote

import openai
from openai import Stream
from openai.types import CompletionUsage
from openai.types.chat import ChatCompletion, ChatCompletionChunk

from continual_arc_baselines.json_types import JSONObject, JSONValue
from continual_arc_baselines.model.naming import same_model
from continual_arc_baselines.model.results import ChatResult, Usage
from continual_arc_baselines.model.retry import (
    AttemptTimeout,
    Backoff,
    ErrorKind,
    MalformedReply,
    ModelCallError,
    is_retryable,
    retry_after,
    status_of,
    unreached,
    usage_lost,
)

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


def instance_mark(instance: str, run_id: str | None = None) -> str:
    """The short line that opens every prompt of an instance.

    Derived from the run and the instance, so that no provider prompt cache carries one instance's
    prompt into another, nor one run's into the next.
    """
    digest = hashlib.sha256(f"{run_id or ''}\x00{instance}".encode()).hexdigest()[:12]
    return f"[continual-arc {digest}]"


def _marked(messages: Sequence[Mapping[str, JSONValue]], mark: str) -> list[JSONValue]:
    """A copy of the messages whose first one opens with the mark line."""
    copied: list[JSONObject] = [dict(message) for message in messages]
    if not copied:
        raise ValueError("a chat needs at least one message")
    content = copied[0].get("content")
    if isinstance(content, list):
        copied[0]["content"] = [{"type": "text", "text": mark}, *content]
    else:
        copied[0]["content"] = f"{mark}\n{content or ''}"
    return list(copied)


@dataclass(frozen=True)
class _Call:
    """One call's request, as every attempt sends it, and its limits."""

    request: JSONObject
    headers: dict[str, str]
    extra_body: JSONObject
    limit: int
    deadline: float | None


def _malformed(error: BaseException) -> bool:
    """A JSON decoding error raised by the SDK while reading a reply (not one of the SDK's own errors)."""
    return isinstance(error, ValueError) and not isinstance(error, openai.OpenAIError)


def _usage_numbers(usage: CompletionUsage | None) -> tuple[int | None, int | None, int | None, float | None]:
    if usage is None:
        return None, None, None, None
    details = usage.completion_tokens_details
    reasoning = details.reasoning_tokens if details is not None else None
    cost = (usage.model_extra or {}).get("cost")  # OpenRouter's extension: the SDK keeps unknown fields
    return (
        int(usage.prompt_tokens or 0),
        int(usage.completion_tokens or 0),
        int(reasoning or 0),
        float(cost) if isinstance(cost, int | float) else None,
    )


class ModelClient:
    """A counted, retrying chat client for one model on one OpenAI-compatible endpoint.

    Thread-safe: learners may call [`chat`][continual_arc_baselines.model.client.ModelClient.chat] from
    several threads at once.

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

    Attributes:
        instance_tag: appended to every instance's name in the instance header (``""`` by
            default), never to its mark: a resumed run's process sets one of its own
            (`ModelSession.resume`), so that the proxy counts its calls apart from those the
            killed process left in flight on the same instances (see `proxy_instance`).
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
        self.instance_tag = ""

    def proxy_instance(self, instance: str) -> str:
        """The name the proxy counts ``instance``'s calls under: the name and `instance_tag`."""
        return instance + self.instance_tag

    def chat(
        self,
        messages: Sequence[Mapping[str, JSONValue]],
        *,
        instance: str,
        max_tokens: int | None = None,
        temperature: float | None = None,
        extra_body: Mapping[str, JSONValue] | None = None,
        max_attempts: int | None = None,
        deadline: float | None = None,
    ) -> ChatResult:
        """Send one chat request for ``instance``, retrying transient failures.

        Args:
            messages: OpenAI chat messages; they are copied, and the first gets the instance mark.
            instance: the instance this call serves (counted under it here, and at the proxy under
                `proxy_instance`).
            max_tokens: the reply's token limit, if any.
            temperature: the sampling temperature, if any.
            extra_body: further request fields, passed through as they are.
            max_attempts: at most this many requests, retries included (and at most
                ``max_retries + 1``); ``None`` for the client's own limit.
            deadline: a ``time.monotonic()`` time the call may not run past: each attempt's time
                limit is shortened to it, and no attempt or wait starts that would overrun it.

        Returns:
            The reply and its usage.

        Raises:
            ModelCallError: no answer: a failure that is not retryable, retries exhausted, or the
                deadline reached.
        """
        request: JSONObject = {"model": self.model, "messages": _marked(messages, self.mark(instance))}
        if max_tokens is not None:
            request["max_tokens"] = max_tokens
        if temperature is not None:
            request["temperature"] = temperature
        if self.reasoning_effort is not None:
            request["reasoning_effort"] = self.reasoning_effort
        headers = {INSTANCE_HEADER: quote(self.proxy_instance(instance), safe=_HEADER_SAFE)}
        if self.run_id is not None:
            headers[RUN_HEADER] = quote(self.run_id, safe=_HEADER_SAFE)
        limit = self.max_retries + 1 if max_attempts is None else min(self.max_retries + 1, max_attempts)
        call = _Call(request, headers, dict(extra_body or {}), max(1, limit), deadline)
        try:
            result = self._with_retries(call)
        except ModelCallError as error:
            with self._lock:
                self._usage[instance] = self._usage.get(instance, Usage()).add_failure(error)
            raise
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

    def _with_retries(self, call: _Call) -> ChatResult:
        attempts = lost = missed = 0
        while True:
            attempts += 1
            try:
                result = self._attempt(call, attempts, self._time_for_attempt(call))
                return replace(result, lost_attempts=lost, unreached_attempts=missed)
            except (openai.OpenAIError, AttemptTimeout, MalformedReply, ValueError) as raw:
                error = MalformedReply(f"the reply is not valid JSON: {raw}") if _malformed(raw) else raw
                lost += usage_lost(error)
                missed += unreached(error)
                kind, wait = self._next_step(error, attempts, call)
                if kind is not None:
                    detail = str(error) or type(error).__name__
                    if kind == "out_of_time":
                        detail = f"{detail} (and no time left to wait {wait:g} s and try again)"
                    raise ModelCallError(
                        kind,
                        attempts=attempts,
                        limit=call.limit,
                        status=status_of(error),
                        detail=detail,
                        usage_unknown=lost,
                        unreached=missed,
                    ) from raw
                time.sleep(wait)

    def _next_step(self, error: BaseException, attempts: int, call: _Call) -> tuple[ErrorKind | None, float]:
        """Why the call stops after this failure (``None``: it goes on), and how long to wait first."""
        if not is_retryable(error):
            return "not_retryable", 0.0
        if attempts >= call.limit:
            return "retries_exhausted", 0.0
        with self._lock:
            draw = self._rng.random()
        wait = self.backoff.delay(attempts, draw, retry_after(error))
        out_of_time = call.deadline is not None and time.monotonic() + wait >= call.deadline
        if out_of_time or wait > self.backoff.longest_wait:
            return "out_of_time", wait
        return None, wait

    def _time_for_attempt(self, call: _Call) -> float:
        if call.deadline is None:
            return self.timeout
        left = call.deadline - time.monotonic()
        if left <= 0:
            raise AttemptTimeout("the call's deadline passed before this attempt")
        return min(self.timeout, left)

    def _attempt(self, call: _Call, attempts: int, timeout: float) -> ChatResult:
        # The SDK types create per request field and per stream flag; the request here is a JSON
        # object built from any learner's messages, so it is sent untyped (the reply is typed).
        create = cast(Any, self._client.chat.completions.create)
        request = call.request
        options = {"extra_headers": call.headers, "timeout": timeout, "extra_body": call.extra_body}
        if not self.stream:
            response: ChatCompletion = create(**request, **options)
            choice = response.choices[0] if response.choices else None
            return self._result(
                (choice.message.content if choice is not None else "") or "",
                response.usage,
                response.model,
                attempts,
                choice.finish_reason if choice is not None else None,
                (response.model_extra or {}).get("continual_arc"),
            )
        deadline = time.monotonic() + timeout
        parts: list[str] = []
        usage: CompletionUsage | None = None
        model: str | None = None
        finish: str | None = None
        mark: JSONValue = None
        streamed: Stream[ChatCompletionChunk] = create(
            **request, **options, stream=True, stream_options={"include_usage": True}
        )
        with streamed as stream:
            for chunk in stream:
                if time.monotonic() > deadline:
                    raise AttemptTimeout(f"the reply took longer than {timeout:g} s")
                if chunk.choices and chunk.choices[0].delta.content:
                    parts.append(chunk.choices[0].delta.content)
                if chunk.choices and chunk.choices[0].finish_reason:
                    finish = chunk.choices[0].finish_reason
                usage = chunk.usage or usage
                model = model or chunk.model or None
                mark = (chunk.model_extra or {}).get("continual_arc") or mark
        return self._result("".join(parts), usage, model, attempts, finish, mark)

    def _result(
        self,
        text: str,
        usage: CompletionUsage | None,
        model: str | None,
        attempts: int,
        finish: str | None = None,
        mark: JSONValue = None,
    ) -> ChatResult:
        prompt, completion, reasoning, cost = _usage_numbers(usage)
        cut = mark.get("cut") if isinstance(mark, dict) else None
        return ChatResult(
            text=text,
            prompt_tokens=prompt,
            completion_tokens=completion,
            reasoning_tokens=reasoning,
            cost=cost,
            model=model or self.model,
            attempts=attempts,
            usage_known=usage is not None,
            finish_reason=finish,
            cut=str(cut) if cut else None,
            model_mismatch=not same_model(self.model, model),
        )
