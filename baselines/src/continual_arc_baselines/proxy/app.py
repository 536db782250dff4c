"""The tracking proxy's web application: refuse, forward, count.

Routes:

- ``POST /v1/chat/completions`` and ``POST /chat/completions``: checked against the policy and the spend
  cap, reserved against the run's budget (waiting its turn while the run's earlier calls settle,
  see below), then forwarded to ``{upstream}/chat/completions`` with the proxy's own API key; streamed replies
  pass through chunk by chunk while the usage is read from the final chunk.
- ``POST /continual-arc/mark/{run}/{instance}/v1/chat/completions`` (and without ``/v1``): the same,
  counted under the run and instance the path names (each percent-encoded, see
  [`marked_base_url`][continual_arc_baselines.proxy.app.marked_base_url]), for a client that cannot send the
  run and instance headers, such as an agent harness given only a base URL;
- ``GET /continual-arc/usage?run=R&instance=I``: the counts (see
  [`usage_view`][continual_arc_baselines.proxy.app.usage_view]).
- ``POST /continual-arc/carry`` ``{"run", "cost", "cost_unknown_calls"}``: what a resumed run had
  spent before, by its records, for its spend cap
  ([`carry`][continual_arc_baselines.proxy.ledger.Ledger.carry]).
- anything else: refused with 404 (or 405 for another method on the chat path), and counted.

**Sharing a run's budget.** Each call is reserved at its worst case before it is sent. A call the
run's budget cannot reserve in full beside its calls in flight waits, first come first served (one
queue per run, at most ``MAX_WAITING`` calls in all), until they settle; it is refused (402)
only when the settled spend alone leaves too little for its prompt and the smallest reply, and sent
with a lowered ``max_tokens`` only when nothing else is in flight. A call that waited longer than
the proxy's time-out is answered 429 (its client retries).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from urllib.parse import quote, unquote

import httpx
from pydantic import TypeAdapter, ValidationError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from continual_arc_baselines.json_types import JSONObject, JSONValue
from continual_arc_baselines.proxy.budget import DEFAULT_LIMITS, CallBudget, ReplyLimits, plan_call
from continual_arc_baselines.proxy.forward import UNREACHED_HEADER, Call, Forwarder
from continual_arc_baselines.proxy.ledger import Ledger
from continual_arc_baselines.proxy.policy import Refusal, check_request
from continual_arc_baselines.proxy.relay import SseUsageReader
from continual_arc_baselines.proxy.settle import Settler

__all__ = [
    "DEFAULT_INSTANCE",
    "DEFAULT_RUN",
    "MAX_WAITING",
    "UNREACHED_HEADER",
    "SseUsageReader",
    "build_app",
    "marked_base_url",
    "usage_view",
]

DEFAULT_RUN = "default"
"""The run a call is counted under when it names none."""

DEFAULT_INSTANCE = "unassigned"
"""The instance a call is counted under when it names none."""

MAX_WAITING = 512
"""Calls that may wait for a reservation at once, over all runs; past it a call is answered 429."""

_POLL = 0.02  # seconds between two looks at a waiting call's budget
_RUN_HEADER = "x-continual-arc-run"
_INSTANCE_HEADER = "x-continual-arc-instance"
_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]
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


@dataclass(frozen=True)
class CarryRequest:
    """The body of ``POST /continual-arc/carry``: what a resumed run had spent before, by its records.

    Attributes:
        run: the run. cost: USD it spent. cost_unknown_calls: its calls whose cost is unknown.
    """

    run: str
    cost: float = 0.0
    cost_unknown_calls: int = 0


_CARRY = TypeAdapter(CarryRequest)


def _who(request: Request) -> tuple[str, str]:
    marked = request.path_params
    if "run" in marked and "instance" in marked:  # the path's mark wins over headers
        return unquote(marked["run"]) or DEFAULT_RUN, unquote(marked["instance"]) or DEFAULT_INSTANCE
    run = unquote(request.headers.get(_RUN_HEADER, "")) or DEFAULT_RUN
    instance = unquote(request.headers.get(_INSTANCE_HEADER, "")) or DEFAULT_INSTANCE
    return run, instance


class _Proxy:
    """The handlers, sharing one forwarder (and its upstream client) and one ledger."""

    def __init__(
        self,
        upstream: str,
        api_key: str | None,
        models: frozenset[str],
        ledger: Ledger,
        timeout: float,
        limits: ReplyLimits,
        settler: Settler | None,
    ):
        self.models = models
        self.ledger = ledger
        self.timeout = timeout
        self.limits = limits
        self.forward = Forwarder(upstream, api_key, ledger, limits, settler)
        self.turns: dict[str, asyncio.Lock] = {}  # a first-come queue per run (asyncio's locks are fair)
        self.waiting = 0

    def _plan(self, run: str, body: JSONObject, model: str, *, held: bool) -> CallBudget | Refusal:
        return plan_call(
            body,
            self.ledger.prices.get(model),
            self.ledger.budget_left(run, held=held),
            ceiling=self.limits.max_tokens_ceiling,
            min_reply_tokens=self.limits.min_reply_tokens,
            bytes_per_token=self.ledger.gauge_rate(model),
            counted=self.ledger.prompt_count(model, body),
        )

    async def reserve(
        self, run: str, instance: str, body: JSONObject, model: str, stream: bool
    ) -> tuple[JSONObject, CallBudget, str] | Refusal:
        """Plan and reserve the call in its turn; the body to send, its budget and its call id."""
        if self.waiting >= MAX_WAITING:
            return Refusal(429, "queue", f"{MAX_WAITING} calls already wait for the spend cap: try again")
        self.waiting += 1
        try:
            async with self.turns.setdefault(run, asyncio.Lock()):
                deadline = time.monotonic() + self.timeout
                while True:
                    sent = dict(body)
                    # Planned and reserved with no await in between: each call of a run sees what
                    # the others in flight hold at their worst case.
                    budget = self._plan(run, sent, model, held=True)
                    busy = self.ledger.in_flight(run) > 0
                    whole = isinstance(budget, CallBudget) and (
                        budget.wanted is None or (budget.max_tokens or 0) >= budget.wanted
                    )
                    if isinstance(budget, CallBudget) and (whole or not busy):
                        call_id = self.ledger.begin_call(run, instance, model, stream, budget.worst_cost)
                        return sent, budget, call_id
                    if not busy:
                        assert isinstance(budget, Refusal)
                        return budget
                    settled = self._plan(run, dict(body), model, held=False)
                    if isinstance(settled, Refusal):
                        return settled  # even if every call in flight cost nothing, this one cannot be paid
                    if time.monotonic() > deadline:
                        message = "the call waited past the proxy's time-out for the run's calls in flight"
                        return Refusal(429, "queue", message)
                    await asyncio.sleep(_POLL)
        finally:
            self.waiting -= 1

    def refuse(self, request: Request, refusal: Refusal, model: JSONValue = None) -> JSONResponse:
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
            body: JSONValue = await request.json()
        except ValueError:
            return self.refuse(request, Refusal(400, "body", "the request body is not valid JSON"))
        run, instance = _who(request)
        refusal = check_request(body, self.models) or self.ledger.check_cap(run)
        if refusal is not None or not isinstance(body, dict):  # a body that passed is an object
            refusal = refusal or Refusal(400, "body", "the request body must be a JSON object")
            return self.refuse(request, refusal, body.get("model") if isinstance(body, dict) else None)
        model, stream = str(body["model"]), bool(body.get("stream"))
        started = time.monotonic()
        reserved = await self.reserve(run, instance, body, model, stream)
        if isinstance(reserved, Refusal):
            return self.refuse(request, reserved, model)
        body, budget, call_id = reserved
        call = Call(run, instance, model, stream, started, budget, call_id)
        if stream:
            # Ask for the usage chunk whatever the learner asked: no streamed token goes uncounted.
            asked = body.get("stream_options")
            body["stream_options"] = {**(asked if isinstance(asked, dict) else {}), "include_usage": True}
            return await self.forward.stream(request, body, call)
        return await self.forward.plain(request, body, call)

    async def usage(self, request: Request) -> Response:
        return JSONResponse(
            usage_view(self.ledger, request.query_params.get("run"), request.query_params.get("instance"))
        )

    async def carry(self, request: Request) -> Response:
        try:
            asked = _CARRY.validate_json(await request.body())
        except ValidationError:
            message = 'carry takes {"run": R, "cost": USD, "cost_unknown_calls": N}'
            return JSONResponse(Refusal(400, "body", message).body(), status_code=400)
        carried = self.ledger.carry(asked.run, asked.cost, asked.cost_unknown_calls)
        spent = self.ledger.spent(asked.run)
        return JSONResponse({"run": asked.run, "carried": carried.as_dict(), "spent": spent.as_dict()})

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        async with httpx.AsyncClient(timeout=self.timeout) as client:
            self.forward.client = client
            yield
        self.forward.client = None


def usage_view(ledger: Ledger, run: str | None, instance: str | None) -> JSONObject:
    """The body of ``GET /continual-arc/usage``.

    - no parameters: ``{"total": {...}, "runs": {run: {...}}}``;
    - ``run``: ``{"run": R, ...the run's totals..., "instances": {instance: {...}}}``;
    - ``run`` and ``instance`` (``instance`` alone: the default run): ``{"run": R, "instance": I, ...}``.

    Counts are those of [`Tally`][continual_arc_baselines.proxy.tally.Tally]; an unseen run or instance
    has zeros.
    """
    if run is None and instance is None:
        return {
            "total": ledger.totals().as_dict(),
            "runs": {r: ledger.totals(r).as_dict() for r in ledger.runs()},
        }
    run = run or DEFAULT_RUN
    if instance is None:
        instances: JSONObject = {i: t.as_dict() for i, t in sorted(ledger.instances(run).items())}
        return {"run": run, **ledger.totals(run).as_dict(), "instances": instances}
    return {"run": run, "instance": instance, **ledger.tally(run, instance).as_dict()}


def build_app(
    upstream: str,
    api_key: str | None,
    models: frozenset[str],
    ledger: Ledger,
    timeout: float,
    limits: ReplyLimits = DEFAULT_LIMITS,
    settler: Settler | None = None,
) -> Starlette:
    """The proxy as a Starlette application (served by `serve_proxy`).

    Args:
        upstream: the upstream's OpenAI base URL (``.../v1``); calls go to ``{upstream}/chat/completions``.
        api_key: the upstream's key, added to every forwarded call; ``None`` for none.
        models: the model ids allowed, exactly.
        ledger: where calls are counted and logged.
        timeout: seconds allowed for the upstream to connect and for each read.
        limits: how far one reply may go (its size, and the per-call ceiling on ``max_tokens``).
        settler: asks the upstream what a call whose usage was lost was billed; ``None``: never.
    """
    proxy = _Proxy(upstream, api_key, models, ledger, timeout, limits, settler)
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
