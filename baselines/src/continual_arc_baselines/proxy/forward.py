"""Forwarding one checked call upstream: sent, read, cut where it must be, and counted.

The `Forwarder` is the proxy's part between the policy and the ledger: it sends a call the
policy and the budget allowed, relays the reply (cutting a runaway one, see
`relay`), and records the call with what it measured: usage,
the model the reply named, the cut, and the call's worst case for when its usage never arrived.

A call whose usage is lost after the reply named its generation is settled in the background from
the provider's record of it ([settle][continual_arc_baselines.proxy.settle]), its worst case held
against the cap until then. An attempt that failed before any byte of a reply arrived (the
connection refused, reset or closed unanswered) reached no model: it is no call and costs nothing.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
import time
from collections.abc import AsyncIterator, Awaitable
from dataclasses import dataclass
from typing import TypeVar

import httpx
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from continual_arc_baselines.json_types import JSONObject, JSONValue
from continual_arc_baselines.model.naming import same_model
from continual_arc_baselines.proxy.budget import REPLY_BYTES_PER_TOKEN, CallBudget, ReplyLimits, reply_tokens
from continual_arc_baselines.proxy.ledger import CallRecord, Ledger
from continual_arc_baselines.proxy.policy import Refusal
from continual_arc_baselines.proxy.relay import (
    CUT_HEADER,
    SseUsageReader,
    cut_chunk,
    cut_reply,
    read_capped,
    stream_error,
)
from continual_arc_baselines.proxy.settle import SETTLED_BY, Settler
from continual_arc_baselines.proxy.tally import ReportedUsage, parse_usage

__all__ = ["UNREACHED_HEADER", "Call", "Forwarder"]

UNREACHED_HEADER = "X-Continual-ARC-Unreached"
"""Set on the 502 of an attempt the upstream never received: the model client counts no call."""

_PASSED_ON = ("retry-after", "retry-after-ms")  # the upstream's word on when to try again
_HUNG_UP = "the learner hung up before the upstream answered"
_T = TypeVar("_T")
_PLAIN_OVERHEAD = 16384  # bytes of a plain reply's JSON around its text
_MODEL_FIELD = re.compile(rb'"model"\s*:\s*"([^"]{1,200})"')
_ID_FIELD = re.compile(rb'"id"\s*:\s*"([^"]{1,200})"')
# Failures of an attempt before any byte of its reply: nothing reached a model, nothing is billed.
_NO_BYTE = (
    httpx.ConnectError,
    httpx.ConnectTimeout,
    httpx.RemoteProtocolError,
    httpx.ReadError,
    httpx.WriteError,
)


class _Unanswered(Exception):
    """The upstream failed before sending any byte of its reply (wraps the client's error)."""

    def __init__(self, error: httpx.HTTPError) -> None:
        super().__init__(str(error))
        self.error = error


async def _send(client: httpx.AsyncClient, request: httpx.Request) -> httpx.Response:
    """Send ``request``; a failure before the reply's first byte is raised as ``_Unanswered``."""
    try:
        return await client.send(request, stream=True)
    except _NO_BYTE as error:
        raise _Unanswered(error) from error


def _passed_on(reply: httpx.Response) -> dict[str, str]:
    """The upstream's headers a learner needs to see on an error (``Retry-After``)."""
    return {name: reply.headers[name] for name in _PASSED_ON if name in reply.headers}


async def _hang_up(request: Request) -> None:
    """Return once the learner has closed its connection (the body has been read by then)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def _unless_hung_up(request: Request, work: Awaitable[_T]) -> tuple[_T | None, bool]:
    """``work``'s result, or ``(None, True)`` if the learner hangs up first (``work`` is then cancelled)."""
    task, gone = asyncio.ensure_future(work), asyncio.ensure_future(_hang_up(request))
    await asyncio.wait({task, gone}, return_when=asyncio.FIRST_COMPLETED)
    if task.done():
        gone.cancel()
        return task.result(), False
    task.cancel()
    return None, True


@dataclass(frozen=True)
class Call:
    """One forwarded call: whom it is counted under, its limits, and its ``start`` line's id."""

    run: str
    instance: str
    model: str
    stream: bool
    started: float
    budget: CallBudget
    call_id: str


class Forwarder:
    """Sends checked calls upstream and counts them in the ledger.

    Args:
        upstream: the upstream's OpenAI base URL. api_key: its key, or ``None``.
        ledger: where calls are counted. limits: how far one reply may go.
        settler: asks the provider what a call whose usage was lost was billed; ``None``: never.

    Attributes:
        client: the upstream HTTP client, set while the application runs.
    """

    def __init__(
        self,
        upstream: str,
        api_key: str | None,
        ledger: Ledger,
        limits: ReplyLimits,
        settler: Settler | None = None,
    ) -> None:
        self.url = upstream.rstrip("/") + "/chat/completions"
        self.settler = settler
        self._settling: set[asyncio.Task[None]] = set()
        self.headers = {"Content-Type": "application/json", "Accept-Encoding": "identity"}
        if api_key:
            self.headers["Authorization"] = f"Bearer {api_key}"
        self.ledger = ledger
        self.limits = limits
        self.client: httpx.AsyncClient | None = None

    @property
    def http(self) -> httpx.AsyncClient:
        """The upstream client, open while the application runs."""
        if self.client is None:
            raise RuntimeError("the proxy's upstream client is not open: was the lifespan run?")
        return self.client

    def _record(
        self,
        call: Call,
        status: int,
        usage: ReportedUsage | None,
        error: str | None,
        *,
        lost: bool = False,
        answered_by: str | None = None,
        cut: str | None = None,
        relayed: int = 0,
    ) -> None:
        worst, price = call.budget.worst_cost, self.ledger.prices.get(call.model)
        if worst is not None and price is not None:
            # An upstream that ignored max_tokens sent more than the worst case: charge what it sent.
            worst = max(worst, price.of(call.budget.prompt_tokens, reply_tokens(relayed)))
        generation = self.ledger.generation_of(call.call_id)
        record = CallRecord(
            call.run,
            call.instance,
            call.model,
            status,
            call.stream,
            usage,
            latency=time.monotonic() - call.started,
            error=error,
            usage_lost=lost,
            call_id=call.call_id,
            answered_by=answered_by,
            model_mismatch=not same_model(call.model, answered_by),
            cut=cut,
            worst_cost=worst,
            generation=generation,
            prompt_bytes=call.budget.prompt_bytes or None,
        )
        # A reply cut by the proxy (a runaway, or the cap's allowance) never reports its usage
        # either: like a lost call, it is settled from the provider's record before its worst case.
        if usage is None and (lost or cut is not None) and generation and self.settler is not None:
            task = asyncio.get_running_loop().create_task(self._settle(record, generation))
            self._settling.add(task)  # held until done: a task nobody holds may be collected
            task.add_done_callback(self._settling.discard)
            return
        self.ledger.record_call(record)

    async def _settle(self, record: CallRecord, generation: str) -> None:
        """Record a call whose usage was lost at the provider's bill for it, else at its worst case."""
        usage = None
        try:
            if self.settler is not None:
                usage = await self.settler.ask(self.http, generation)
        finally:
            if usage is not None:
                record = dataclasses.replace(record, usage=usage, settled_by=SETTLED_BY)
            self.ledger.record_call(record)

    def _name_generation(self, call: Call, content: bytes) -> None:
        """Note the generation id a plain reply's first bytes name (its ``id``)."""
        named = _ID_FIELD.search(content[:4096])
        if named:
            self.ledger.note_generation(call.call_id, named.group(1).decode(errors="replace"))

    def _upstream_failure(self, call: Call, error: Exception) -> JSONResponse:
        unanswered = isinstance(error, _Unanswered)
        if isinstance(error, _Unanswered):
            error = error.error
        status = 504 if isinstance(error, httpx.TimeoutException) else 502
        detail = (
            f"upstream {'timed out' if status == 504 else 'unreachable'}: {type(error).__name__}: {error}"
        )
        if unanswered:
            # No byte came back: no call, and the learner is told so (its client counts none either).
            self.ledger.record_unreached(call.run, call.instance, call.model, call.call_id, detail)
            body = Refusal(status, "upstream_unreached", detail).body()
            return JSONResponse(body, status_code=status, headers={UNREACHED_HEADER: "true"})
        self._record(call, status, None, detail, lost=True)
        return JSONResponse(Refusal(status, "upstream", detail).body(), status_code=status)

    def _hung_up(self, call: Call) -> Response:
        """Count a call whose learner hung up while the upstream worked on it: usage unknown."""
        self._record(call, 499, None, _HUNG_UP, lost=True)
        return Response(status_code=499)  # nobody is there to read it

    def _plain_limit(self, call: Call) -> tuple[int, str]:
        """Bytes of a plain reply's body read at most, and what a cut there is called."""
        allowance = call.budget.allowance
        if allowance is not None:
            by_budget = allowance * REPLY_BYTES_PER_TOKEN + _PLAIN_OVERHEAD
            if by_budget < self.limits.max_reply_bytes:
                return by_budget, "spend_cap"
        return self.limits.max_reply_bytes, "size"

    def _malformed(self, call: Call, detail: str) -> JSONResponse:
        """Count a reply that does not parse as one whose usage was lost, and answer 502 saying why."""
        self._record(call, 502, None, detail, lost=True)
        return JSONResponse(Refusal(502, "upstream", detail).body(), status_code=502)

    async def plain(self, request: Request, body: JSONObject, call: Call) -> Response:
        """Forward a call answered in one body, read up to its limit (cut past it), and count it."""
        limit, reason = self._plain_limit(call)

        async def fetch() -> tuple[httpx.Response, bytes, bool]:
            upstream = self.http.build_request("POST", self.url, json=body, headers=self.headers)
            reply = await _send(self.http, upstream)
            parts: list[bytes] = []
            try:
                content, over = await read_capped(reply, limit, parts)
            finally:
                self._name_generation(call, b"".join(parts)[:4096])  # even from a body cut short
            return reply, content, over

        try:
            fetched, gone = await _unless_hung_up(request, fetch())
        except (httpx.HTTPError, _Unanswered) as error:
            return self._upstream_failure(call, error)
        if gone or fetched is None:
            return self._hung_up(call)
        reply, content, over = fetched
        media = reply.headers.get("content-type", "application/json")
        if reply.status_code >= 400:
            self._record(call, reply.status_code, None, f"upstream status {reply.status_code}")
            return Response(
                content, status_code=reply.status_code, media_type=media, headers=_passed_on(reply)
            )
        if over:
            named = _MODEL_FIELD.search(content[:4096])
            answered = named.group(1).decode(errors="replace") if named else None
            detail = f"the reply passed {limit} bytes"
            relayed = max(0, len(content) - _PLAIN_OVERHEAD)
            self._record(call, 200, None, None, answered_by=answered, cut=reason, relayed=relayed)
            cut = cut_reply(answered or call.model, reason, detail)
            return JSONResponse(cut.model_dump(mode="json", exclude_none=True), headers={CUT_HEADER: reason})
        try:
            found: JSONValue = json.loads(content)
        except ValueError:
            return self._malformed(call, "the upstream's reply is not valid JSON")
        wire = found if isinstance(found, dict) else {}
        try:
            usage = parse_usage(wire.get("usage")) if isinstance(wire.get("usage"), dict) else None
        except ValueError as error:
            return self._malformed(call, str(error))
        named_model = wire.get("model")
        answered = named_model if isinstance(named_model, str) and named_model else None
        self._record(call, reply.status_code, usage, None, answered_by=answered)
        return Response(content, status_code=reply.status_code, media_type=media)

    async def stream(self, request: Request, body: JSONObject, call: Call) -> Response:
        """Forward a streamed call: its reply is relayed event by event, cut where it must be, and counted."""
        upstream = self.http.build_request("POST", self.url, json=body, headers=self.headers)
        try:
            reply, gone = await _unless_hung_up(request, _send(self.http, upstream))
        except (httpx.HTTPError, _Unanswered) as error:
            return self._upstream_failure(call, error)
        if gone or reply is None:
            return self._hung_up(call)
        if reply.status_code >= 400:
            content, _ = await read_capped(reply, self.limits.max_reply_bytes)
            status = reply.status_code
            self._record(call, status, None, f"upstream status {status}")
            media = reply.headers.get("content-type")
            return Response(content, status_code=status, media_type=media, headers=_passed_on(reply))
        return StreamingResponse(
            self._relay(call, reply),
            status_code=reply.status_code,
            media_type=reply.headers.get("content-type", "text/event-stream"),
            headers={"Cache-Control": "no-cache"},
        )

    def _text_limit(self, call: Call) -> tuple[int, str]:
        """Bytes of streamed text relayed at most, and what a cut there is called."""
        allowance = call.budget.allowance
        if allowance is not None and allowance * REPLY_BYTES_PER_TOKEN < self.limits.max_reply_bytes:
            return allowance * REPLY_BYTES_PER_TOKEN, "spend_cap"
        return self.limits.max_reply_bytes, "size"

    async def _relay(self, call: Call, reply: httpx.Response) -> AsyncIterator[bytes]:
        reader = SseUsageReader()
        error: str | None = "the learner hung up before the stream ended"
        recorded = False
        relayed = 0
        try:
            text_limit, reason = self._text_limit(call)
            async for data in reply.aiter_bytes():
                ready, over = reader.feed(data, text_limit)
                if reader.generation is not None:
                    self.ledger.note_generation(call.call_id, reader.generation)
                if over or reader.pending > self.limits.max_reply_bytes:
                    # Relayed up to the limit, then ended by the proxy: a usable reply, marked cut.
                    relayed = reader.text_bytes
                    why = reason if over else "size"
                    detail = f"the reply was cut after {relayed} bytes of text ({why})"
                    self._record(call, 200, None, None, answered_by=reader.model, cut=why, relayed=relayed)
                    recorded = True
                    yield ready + cut_chunk(reader.model or call.model, why, detail)
                    return
                relayed = reader.text_bytes
                if reader.done and not recorded:
                    # Counted before the last chunk reaches the learner: once its client returns,
                    # the call is already in the ledger, and a hang-up after it is no failure.
                    lost = reader.usage is None and reader.error is not None
                    self._record(
                        call,
                        200,
                        reader.usage,
                        reader.error,
                        lost=lost,
                        answered_by=reader.model,
                        relayed=relayed,
                    )
                    recorded = True
                yield ready
            yield reader.rest()
            error = reader.error
            if not reader.done and reader.usage is None:
                # The upstream closed the stream mid-reply (it died): a broken call, not an answer.
                error = error or "the upstream's stream ended before its last chunk"
                yield stream_error(error)
        except httpx.HTTPError as failure:
            error = f"upstream stream broke: {type(failure).__name__}: {failure}"
            yield stream_error(error)
        finally:
            if not recorded:  # counted first: closing may be interrupted when the learner has hung up
                usage, lost = reader.usage, reader.usage is None and error is not None
                self._record(call, 200, usage, error, lost=lost, answered_by=reader.model, relayed=relayed)
            await reply.aclose()
