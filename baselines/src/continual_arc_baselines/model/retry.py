"""When a model call is retried, how long it waits, and what its failures mean for the counts.

A failed attempt is retried on 429, 5xx, time-outs, connection errors and replies that are not valid
JSON, and on nothing else. A failure leaves its usage *unknown* (the endpoint may have worked, and
billed, without reporting it) when the request reached the endpoint and no readable reply came back:
a time-out, a connection that broke after connecting, a malformed reply. An HTTP error status is a
reply, and costs nothing.
"""

from __future__ import annotations

import email.utils
import time
from dataclasses import dataclass
from typing import Literal

import httpx
import openai

__all__ = [
    "UNREACHED_HEADER",
    "AttemptTimeout",
    "Backoff",
    "ErrorKind",
    "MalformedReply",
    "ModelCallError",
    "is_retryable",
    "retry_after",
    "status_of",
    "unreached",
    "usage_lost",
]

UNREACHED_HEADER = "x-continual-arc-unreached"
"""The tracking proxy's mark on the 502 of an attempt its upstream never received."""

_BROKEN_STREAM = "upstream_broke"  # the proxy's error code for a stream its upstream broke off

ErrorKind = Literal["retries_exhausted", "not_retryable", "out_of_time"]


class ModelCallError(RuntimeError):
    """A call that got no answer.

    Attributes:
        kind: ``"retries_exhausted"`` (every allowed attempt hit a retryable failure),
            ``"not_retryable"`` (e.g. a 400: retrying would not help), or ``"out_of_time"`` (the
            call's deadline passed, or the endpoint asked to wait longer than allowed).
        attempts: HTTP requests made. limit: the most attempts allowed.
        status: the last HTTP status, ``None`` for a time-out, connection error or malformed reply.
        detail: the last failure, in words.
        usage_unknown: attempts whose usage is unknown (see the module docstring).
        unreached: attempts that never reached the model (`unreached`): not calls.
    """

    def __init__(
        self,
        kind: ErrorKind,
        *,
        attempts: int,
        limit: int,
        status: int | None,
        detail: str,
        usage_unknown: int = 0,
        unreached: int = 0,
    ) -> None:
        self.kind = kind
        self.attempts = attempts
        self.limit = limit
        self.status = status
        self.detail = detail
        self.usage_unknown = usage_unknown
        self.unreached = unreached
        what = {
            "retries_exhausted": "gave up after",
            "not_retryable": "failed, not retryable, after",
            "out_of_time": "ran out of time after",
        }[kind]
        super().__init__(
            f"model call {what} {attempts} of at most {limit} attempts; "
            f"last status {status if status is not None else 'none'}: {detail}"
        )


@dataclass(frozen=True)
class Backoff:
    """Waits between attempts: ``min(maximum, initial * multiplier**(n-1))``, less up to ``jitter`` of it.

    The jitter comes from ``random.Random(seed)``, so a run's schedule is reproducible; ``jitter=0``
    gives a fixed schedule. A ``Retry-After`` header is honoured: the wait is at least what it asks.
    One asking for more than ``longest_wait`` seconds (or past the call's deadline) is not waited
    for: the call fails at once, as ``out_of_time``.
    """

    initial: float = 1.0
    maximum: float = 30.0
    multiplier: float = 2.0
    jitter: float = 0.5
    seed: int = 0
    longest_wait: float = 300.0

    def delay(self, attempt: int, draw: float, retry_after: float = 0.0) -> float:
        """Seconds to wait after failed attempt number ``attempt`` (1-based).

        Args:
            attempt: the attempt that just failed.
            draw: a number in [0, 1) from the jitter's random stream.
            retry_after: the server's ``Retry-After`` in seconds, 0 if none.
        """
        base = min(self.maximum, self.initial * self.multiplier ** (attempt - 1))
        return max(base * (1.0 - self.jitter * draw), retry_after)


class AttemptTimeout(Exception):
    """An attempt that overran its time limit while its stream was still arriving."""


class MalformedReply(Exception):
    """A reply (or a streamed chunk) that is not valid JSON."""


def _broken_stream(error: BaseException) -> bool:
    """A stream that ended in the proxy's error event: its upstream broke off mid-reply."""
    return (
        isinstance(error, openai.APIError)
        and not isinstance(error, openai.APIStatusError | openai.APIConnectionError)
        and getattr(error, "code", None) == _BROKEN_STREAM
    )


def is_retryable(error: BaseException) -> bool:
    """Whether another attempt may succeed where this one failed."""
    if isinstance(error, openai.APIStatusError):
        return error.status_code == 429 or error.status_code >= 500
    return isinstance(error, openai.APIConnectionError | AttemptTimeout | MalformedReply) or _broken_stream(
        error
    )


def _refused_connection(error: BaseException) -> bool:
    """Whether the connection itself failed: a ``ConnectError`` or a refused socket in the causes.

    Matched by name as well: the SDK may be built on a fork of httpx (``httpx2``) whose classes are
    not httpx's.
    """
    seen: BaseException | None = error.__cause__ or error.__context__
    for _ in range(8):  # a short chain: the SDK's error, the transport's, the socket's
        if seen is None:
            return False
        if (
            isinstance(seen, httpx.ConnectError | ConnectionRefusedError)
            or type(seen).__name__ == "ConnectError"
        ):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def unreached(error: BaseException) -> bool:
    """Whether a failed attempt never reached the model: no call, and no cost.

    The endpoint refused the connection (the proxy is down), or the tracking proxy says its
    upstream did.
    """
    if isinstance(error, openai.APIConnectionError):
        return _refused_connection(error)
    if isinstance(error, openai.APIStatusError):
        return error.response.headers.get(UNREACHED_HEADER, "").lower() == "true"
    return False


def usage_lost(error: BaseException) -> bool:
    """Whether a failed attempt leaves its usage unknown: it reached the endpoint, no reply was read."""
    if isinstance(error, AttemptTimeout | MalformedReply | openai.APITimeoutError) or _broken_stream(error):
        return True
    if isinstance(error, openai.APIConnectionError):
        return not unreached(error)  # refused: nothing was sent
    return False


def status_of(error: BaseException) -> int | None:
    """The HTTP status of a failure, ``None`` if it had none."""
    return error.status_code if isinstance(error, openai.APIStatusError) else None


def retry_after(error: BaseException | None) -> float:
    """Seconds the server asked to wait (``Retry-After`` in seconds or as a date, or ``retry-after-ms``)."""
    if not isinstance(error, openai.APIStatusError):
        return 0.0
    headers = error.response.headers
    try:
        if "retry-after-ms" in headers:
            return max(0.0, float(headers["retry-after-ms"]) / 1000.0)
        value = headers.get("retry-after", "0")
        try:
            return max(0.0, float(value))
        except ValueError:
            when = email.utils.parsedate_to_datetime(value)
            return max(0.0, when.timestamp() - time.time())
    except (ValueError, TypeError):
        return 0.0  # unreadable: the backoff's own wait stands
