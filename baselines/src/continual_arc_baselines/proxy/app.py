"""The tracking proxy's web application: refuse, forward, count.

Routes:

- ``POST /v1/chat/completions`` and ``POST /chat/completions``: checked against the policy and the spend
  cap, then forwarded to ``{upstream}/chat/completions`` with the proxy's own API key; streamed replies
  pass through chunk by chunk while the usage is read from the final chunk.
- ``POST /continual-arc/mark/{run}/{instance}/v1/chat/completions`` (and without ``/v1``): the same,
  counted under the run and instance the path names (each percent-encoded, see :func:`marked_base_url`),
  for a client that cannot send the run and instance headers, such as an agent harness given only
  a base URL;
- ``GET /continual-arc/usage?run=R&instance=I``: the counts (see :func:`usage_view`).
- ``POST /continual-arc/carry`` ``{"run", "cost", "cost_unknown_calls"}``: what a resumed run had
  spent before, by its records, for its spend cap (:meth:`~.ledger.Ledger.carry`).
- anything else: refused with 404 (or 405 for another method on the chat path), and counted.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Awaitable, Mapping
from typing import Any, TypeVar
from urllib.parse import quote, unquote

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from continual_arc_baselines.proxy.ledger import CallRecord, Ledger
from continual_arc_baselines.proxy.policy import Refusal, check_request

__all__ = ["DEFAULT_INSTANCE", "DEFAULT_RUN", "SseUsageReader", "build_app", "marked_base_url"]

DEFAULT_RUN = "default"
"""The run a call is counted under when it names none."""

DEFAULT_INSTANCE = "unassigned"
"""The instance a call is counted under when it names none."""

_RUN_HEADER = "x-continual-arc-run"
_INSTANCE_HEADER = "x-continual-arc-instance"
_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]
_PASSED_ON = ("retry-after", "retry-after-ms")  # the upstream's word on when to try again
_HUNG_UP = "the learner hung up before the upstream answered"
_T = TypeVar("_T")
_MARK = "/continual-arc/mark/{run}/{instance}"


def marked_base_url(proxy_base_url: str, run: str, instance: str) -> str:
    """The OpenAI base URL whose calls the proxy at ``proxy_base_url`` counts under ``run``/``instance``.

    ``proxy_base_url`` is the proxy's own base (``http://127.0.0.1:8787/v1``); the run and instance
    are percent-encoded twice, ``/`` included: the server decodes the path once before routing, and
    what is left still fits in one path segment whatever the instance key holds.
    """
    root = proxy_base_url.rstrip("/").removesuffix("/v1")
    run_part, instance_part = (quote(quote(name, safe=""), safe="") for name in (run, instance))
    return f"{root}/continual-arc/mark/{run_part}/{instance_part}/v1"


class SseUsageReader:
    """Reads server-sent events as they pass, keeping the last ``usage`` object and any error."""

    def __init__(self) -> None:
        self.usage: dict[str, Any] | None = None
        self.error: str | None = None
        self.done = False
        self._pending = b""

    def feed(self, data: bytes) -> None:
        """Take the next bytes of the stream."""
        *lines, self._pending = (self._pending + data).split(b"\n")
        for line in lines:
            self._line(line.strip())

    def _line(self, line: bytes) -> None:
        if not line.startswith(b"data:"):
            return  # comments (": keep-alive"), event names, blank separators
        payload = line[5:].strip()
        if payload == b"[DONE]":
            self.done = True
            return
        try:
            event = json.loads(payload)
        except ValueError:
            self.error = "a streamed chunk is not valid JSON"
            return
        if isinstance(event, dict):
            if isinstance(event.get("usage"), dict):
                self.usage = event["usage"]
            if event.get("error"):
                self.error = f"error in stream: {json.dumps(event['error'])[:300]}"
        else:
            self.error = "a streamed chunk is not a JSON object"


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


def _who(request: Request) -> tuple[str, str]:
    marked = request.path_params
    if "run" in marked and "instance" in marked:  # the path's mark wins over headers
        return unquote(marked["run"]) or DEFAULT_RUN, unquote(marked["instance"]) or DEFAULT_INSTANCE
    run = unquote(request.headers.get(_RUN_HEADER, "")) or DEFAULT_RUN
    instance = unquote(request.headers.get(_INSTANCE_HEADER, "")) or DEFAULT_INSTANCE
    return run, instance


class _Proxy:
    """The handlers, sharing one upstream client and one ledger."""

    def __init__(
        self, upstream: str, api_key: str | None, models: frozenset[str], ledger: Ledger, timeout: float
    ):
        self.url = upstream.rstrip("/") + "/chat/completions"
        self.headers = {"Content-Type": "application/json", "Accept-Encoding": "identity"}
        if api_key:
            self.headers["Authorization"] = f"Bearer {api_key}"
        self.models = models
        self.ledger = ledger
        self.timeout = timeout
        self.client: httpx.AsyncClient | None = None

    @property
    def http(self) -> httpx.AsyncClient:
        """The upstream client, open while the application runs."""
        if self.client is None:
            raise RuntimeError("the proxy's upstream client is not open: was the lifespan run?")
        return self.client

    def refuse(self, request: Request, refusal: Refusal, model: Any = None) -> JSONResponse:
        run, instance = _who(request)
        self.ledger.record_refusal(run, instance, refusal, request.url.path, model)
        return JSONResponse(refusal.body(), status_code=refusal.status)

    async def other(self, request: Request) -> Response:
        message = f"{request.method} {request.url.path} is not an endpoint of the tracking proxy"
        return self.refuse(request, Refusal(404, "endpoint", message))

    async def chat(self, request: Request) -> Response:
        if request.method != "POST":
            return self.refuse(request, Refusal(405, "method", f"{request.method} is refused: use POST"))
        try:
            body = await request.json()
        except ValueError:
            return self.refuse(request, Refusal(400, "body", "the request body is not valid JSON"))
        run, _ = _who(request)
        refusal = check_request(body, self.models) or self.ledger.check_cap(run)
        if refusal is not None:
            return self.refuse(request, refusal, body.get("model") if isinstance(body, dict) else None)
        if body.get("stream"):
            # Ask for the usage chunk whatever the learner asked: no streamed token goes uncounted.
            body["stream_options"] = {**(body.get("stream_options") or {}), "include_usage": True}
            return await self._stream(request, body)
        return await self._plain(request, body)

    def _record(self, request: Request, body: Mapping[str, Any], status: int, **kw: Any) -> None:
        run, instance = _who(request)
        started = request.scope.get("continual_arc_started", time.monotonic())
        self.ledger.record_call(
            CallRecord(
                run, instance, str(body.get("model")), status, latency=time.monotonic() - started, **kw
            )
        )

    def _upstream_failure(self, request: Request, body: Mapping[str, Any], error: Exception) -> JSONResponse:
        status = 504 if isinstance(error, httpx.TimeoutException) else 502
        detail = (
            f"upstream {'timed out' if status == 504 else 'unreachable'}: {type(error).__name__}: {error}"
        )
        lost = not isinstance(error, httpx.ConnectError | httpx.ConnectTimeout)  # else nothing was sent
        stream = bool(body.get("stream"))
        self._record(request, body, status, stream=stream, usage=None, error=detail, usage_lost=lost)
        return JSONResponse(Refusal(status, "upstream", detail).body(), status_code=status)

    def _hung_up(self, request: Request, body: Mapping[str, Any]) -> Response:
        """Count a call whose learner hung up while the upstream worked on it: usage unknown."""
        stream = bool(body.get("stream"))
        self._record(request, body, 499, stream=stream, usage=None, error=_HUNG_UP, usage_lost=True)
        return Response(status_code=499)  # nobody is there to read it

    async def _plain(self, request: Request, body: dict[str, Any]) -> Response:
        request.scope["continual_arc_started"] = time.monotonic()
        try:
            reply, gone = await _unless_hung_up(
                request, self.http.post(self.url, json=body, headers=self.headers)
            )
        except httpx.HTTPError as error:
            return self._upstream_failure(request, body, error)
        if gone or reply is None:
            return self._hung_up(request, body)
        if reply.status_code >= 400:
            self._record(
                request,
                body,
                reply.status_code,
                stream=False,
                usage=None,
                error=f"upstream status {reply.status_code}",
            )
            media = reply.headers.get("content-type", "application/json")
            return Response(
                reply.content, status_code=reply.status_code, media_type=media, headers=_passed_on(reply)
            )
        try:
            found = reply.json()
        except ValueError:
            detail = "the upstream's reply is not valid JSON"
            self._record(request, body, 502, stream=False, usage=None, error=detail, usage_lost=True)
            return JSONResponse(Refusal(502, "upstream", detail).body(), status_code=502)
        usage = found.get("usage") if isinstance(found, dict) else None
        usage = usage if isinstance(usage, dict) else None
        self._record(request, body, reply.status_code, stream=False, usage=usage, error=None)
        media = reply.headers.get("content-type", "application/json")
        return Response(reply.content, status_code=reply.status_code, media_type=media)

    async def _stream(self, request: Request, body: dict[str, Any]) -> Response:
        request.scope["continual_arc_started"] = time.monotonic()
        upstream = self.http.build_request("POST", self.url, json=body, headers=self.headers)
        try:
            reply, gone = await _unless_hung_up(request, self.http.send(upstream, stream=True))
        except httpx.HTTPError as error:
            return self._upstream_failure(request, body, error)
        if gone or reply is None:
            return self._hung_up(request, body)
        if reply.status_code >= 400:
            content = await reply.aread()
            await reply.aclose()
            status = reply.status_code
            self._record(request, body, status, stream=True, usage=None, error=f"upstream status {status}")
            media = reply.headers.get("content-type")
            return Response(content, status_code=status, media_type=media, headers=_passed_on(reply))
        return StreamingResponse(
            self._relay(request, body, reply),
            status_code=reply.status_code,
            media_type=reply.headers.get("content-type", "text/event-stream"),
            headers={"Cache-Control": "no-cache"},
        )

    async def _relay(
        self, request: Request, body: dict[str, Any], reply: httpx.Response
    ) -> AsyncIterator[bytes]:
        reader = SseUsageReader()
        error: str | None = "the learner hung up before the stream ended"
        recorded = False
        try:
            async for data in reply.aiter_bytes():
                reader.feed(data)
                if reader.done and not recorded:
                    # Counted before the last chunk reaches the learner: once its client returns,
                    # the call is already in the ledger, and a hang-up after it is no failure.
                    lost = reader.usage is None and reader.error is not None
                    self._record(
                        request,
                        body,
                        reply.status_code,
                        stream=True,
                        usage=reader.usage,
                        error=reader.error,
                        usage_lost=lost,
                    )
                    recorded = True
                yield data
            error = reader.error
        except httpx.HTTPError as failure:
            error = f"upstream stream broke: {type(failure).__name__}: {failure}"
        finally:
            if not recorded:  # counted first: closing may be interrupted when the learner has hung up
                usage, lost = reader.usage, reader.usage is None and error is not None
                self._record(
                    request, body, reply.status_code, stream=True, usage=usage, error=error, usage_lost=lost
                )
            await reply.aclose()

    async def usage(self, request: Request) -> Response:
        return JSONResponse(
            usage_view(self.ledger, request.query_params.get("run"), request.query_params.get("instance"))
        )

    async def carry(self, request: Request) -> Response:
        try:
            body = await request.json()
            run, cost = str(body["run"]), float(body.get("cost") or 0.0)
            unknown = int(body.get("cost_unknown_calls") or 0)
        except (ValueError, KeyError, TypeError, AttributeError):
            message = 'carry takes {"run": R, "cost": USD, "cost_unknown_calls": N}'
            return JSONResponse(Refusal(400, "body", message).body(), status_code=400)
        carried = self.ledger.carry(run, cost, unknown)
        return JSONResponse(
            {"run": run, "carried": carried.as_dict(), "spent": self.ledger.spent(run).as_dict()}
        )

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        async with httpx.AsyncClient(timeout=self.timeout) as client:
            self.client = client
            yield
        self.client = None


def usage_view(ledger: Ledger, run: str | None, instance: str | None) -> dict[str, Any]:
    """The body of ``GET /continual-arc/usage``.

    - no parameters: ``{"total": {...}, "runs": {run: {...}}}``;
    - ``run``: ``{"run": R, ...the run's totals..., "instances": {instance: {...}}}``;
    - ``run`` and ``instance`` (``instance`` alone: the default run): ``{"run": R, "instance": I, ...}``.

    Counts are those of :class:`~continual_arc_baselines.proxy.ledger.Tally`; an unseen run or instance
    has zeros.
    """
    if run is None and instance is None:
        return {
            "total": ledger.totals().as_dict(),
            "runs": {r: ledger.totals(r).as_dict() for r in ledger.runs()},
        }
    run = run or DEFAULT_RUN
    if instance is None:
        instances = {i: t.as_dict() for i, t in sorted(ledger.instances(run).items())}
        return {"run": run, **ledger.totals(run).as_dict(), "instances": instances}
    return {"run": run, "instance": instance, **ledger.tally(run, instance).as_dict()}


def build_app(
    upstream: str, api_key: str | None, models: frozenset[str], ledger: Ledger, timeout: float
) -> Starlette:
    """The proxy as a Starlette application (served by :func:`~continual_arc_baselines.proxy.serve_proxy`).

    Args:
        upstream: the upstream's OpenAI base URL (``.../v1``); calls go to ``{upstream}/chat/completions``.
        api_key: the upstream's key, added to every forwarded call; ``None`` for none.
        models: the model ids allowed, exactly.
        ledger: where calls are counted and logged.
        timeout: seconds allowed for the upstream to connect and for each read.
    """
    proxy = _Proxy(upstream, api_key, models, ledger, timeout)
    routes = [
        Route("/v1/chat/completions", proxy.chat, methods=_METHODS),
        Route("/chat/completions", proxy.chat, methods=_METHODS),
        Route(_MARK + "/v1/chat/completions", proxy.chat, methods=_METHODS),
        Route(_MARK + "/chat/completions", proxy.chat, methods=_METHODS),
        Route(_MARK + "/{path:path}", proxy.other, methods=_METHODS),
        Route("/continual-arc/usage", proxy.usage, methods=["GET"]),
        Route("/continual-arc/carry", proxy.carry, methods=["POST"]),
        Route("/{path:path}", proxy.other, methods=_METHODS),
    ]
    return Starlette(routes=routes, lifespan=proxy.lifespan)
