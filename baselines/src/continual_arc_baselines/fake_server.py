"""A scripted, OpenAI-compatible chat server on 127.0.0.1, for tests and for trying learners offline.

It serves ``POST /v1/chat/completions`` (and ``/chat/completions``) over a real socket (a Starlette
application under uvicorn, as the tracking proxy and ``serve`` are:
[asgi][continual_arc_baselines.asgi]), streaming (server-sent events, with a final usage chunk when
``stream_options.include_usage`` is set) and not, answering from a script: a list of replies used in
order, or a function of the request. A reply is a string (the text) or a dict (typed as
[ScriptedReply][continual_arc_baselines.fake_server.ScriptedReply]):

- ``text``: the reply's text (default ``""``);
- ``status``: an HTTP status to answer instead, e.g. 429 or 500, with ``error`` as its message;
- ``headers``: extra response headers (e.g. ``{"Retry-After": "0"}``);
- ``usage``: fields overriding the counted usage, or ``None`` to report no usage at all;
- ``reasoning_tokens``: reasoning tokens to report (added to the completion tokens);
- ``cost``: a ``usage.cost`` to report, as OpenRouter does;
- ``delay``: seconds to wait before answering; ``chunk_delay``: seconds between streamed chunks;
- ``tool_calls``: function calls the reply makes, each ``{"name": ..., "arguments": {...}}`` (the
  arguments a dict or a JSON string; when no ``id`` is given, one unique to the request is made
  up), answered with ``finish_reason: "tool_calls"``, so that an agent harness can be scripted to
  use its tools.

Faults, for the tests of the model path:

- ``hang``: seconds to hold the request, then close the connection without answering (an
  upstream that hangs past the client's time limit);
- ``malformed``: ``True`` to answer 200 with a body that is not valid JSON (a streamed reply breaks
  off in a malformed chunk), reporting no usage;
- ``runaway``: bytes of reply text (``"w "`` over and over, e.g. 20 MB) sent whatever ``max_tokens``
  says, in 1 KiB chunks or one body, with its usage at the end if the client reads that far;
- ``die_after``: chunks sent (plain: half the body) before the connection drops, with no usage;
- ``answer_model``: the model the reply names, instead of the one asked for;
- ``reset``: ``True`` to reset the connection (TCP RST) before writing a byte: no generation, no bill.

**Generations and the bill.** Every reply the server starts to write is a generation with an id
(``gen-...``, the reply's ``id``, as OpenRouter's are), billed as a provider bills: the reply's
prompt and completion tokens at its ``cost`` (or at the server's ``price``), whether or not the
client read it to its end. ``FakeModelServer.bill`` holds them, and with ``generations=True``
(the default) ``GET /v1/generation?id=...`` answers each as OpenRouter's generation endpoint does
(``{"data": {"id", "total_cost", "tokens_prompt", "tokens_completion", "native_tokens_prompt",
"native_tokens_completion", "native_tokens_reasoning", "cancelled", "streamed", "model"}}``), 404
for an unknown id; with ``generations=False`` the endpoint does not exist, as with most providers.

`FakeModelServer.text_sent` holds, for every reply with text, the bytes of text the server
wrote before it finished or the client hung up: what left the server, to check a cut against.

Tokens are counted simply and deterministically: whitespace-separated words of the messages' text
(prompt) and of the reply (completion); a tool call's name and arguments count as completion words
too. The usage of every reply served is kept in `FakeModelServer.served`. When a list script
runs out the server answers HTTP 500 saying so, and sets `FakeModelServer.exhausted`. Every
request is recorded in `FakeModelServer.requests`, and every usage object the server wrote in
`FakeModelServer.usage_reported`: the server's own count, to check a counter against.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypedDict
from urllib.parse import parse_qs

from openai.types import CompletionUsage
from openai.types.chat import ChatCompletionChunk
from openai.types.chat.chat_completion_message_function_tool_call import Function
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.routing import Mount
from starlette.types import Receive, Scope, Send

from continual_arc_baselines.asgi import BackgroundServer, bind
from continual_arc_baselines.chat_wire import Finish, Opened, ToolCall, chunk_json, event
from continual_arc_baselines.fake_faults import (
    Exchange,
    count_words,
    die_plain,
    malformed,
    prompt_tokens,
    runaway,
)
from continual_arc_baselines.json_types import JSONObject, JSONValue

__all__ = [
    "FakeModelServer",
    "RecordedRequest",
    "Reply",
    "Script",
    "ScriptedCall",
    "ScriptedReply",
    "count_words",
]


class ScriptedCall(TypedDict, total=False):
    """One function call a scripted reply makes: its ``name``, its ``arguments``, an ``id`` if given."""

    name: str
    arguments: str | JSONObject
    id: str


class ScriptedReply(TypedDict, total=False):
    """A scripted reply as a dict: each key as the module's docstring describes it."""

    text: str
    status: int
    error: str
    headers: Mapping[str, str]
    usage: JSONObject | None
    reasoning_tokens: int
    cost: float
    delay: float
    chunk_delay: float
    tool_calls: Sequence[ScriptedCall]
    hang: float
    malformed: bool
    runaway: int
    die_after: int
    answer_model: str
    reset: bool


Reply = str | ScriptedReply
"""One scripted reply: its text, or a dict as described in the module's docstring."""

Script = Sequence[Reply] | Callable[[JSONObject], Reply]
"""Replies used in order, or a function from the request's JSON to a reply."""

_CHAT_PATHS = ("/v1/chat/completions", "/chat/completions")
_GENERATION_PATHS = ("/v1/generation", "/generation")


@dataclass(frozen=True)
class RecordedRequest:
    """One request the server received.

    Attributes:
        method: the HTTP method. path: the request path, query included.
        headers: the headers, names lower-cased.
        body: the JSON body, or ``None`` if there was none or it was not JSON.
    """

    method: str
    path: str
    headers: dict[str, str]
    body: JSONValue


def _tool_calls(reply: ScriptedReply, body: JSONObject | None = None) -> list[ToolCall]:
    """The reply's tool calls in the OpenAI shape (arguments as a JSON string).

    A call without an ``id`` gets one made from a hash of the request and the call's index: the same
    for the same request, and different for every turn of a conversation (whose requests grow), as
    a real provider's ids are. Harnesses drop a call whose id they have already seen (Hermes Agent
    removes duplicate ``tool_call_id``s before every request), so ids repeated across turns would
    hide every call after the first from the model's own history.
    """
    digest = hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()[:16]
    calls = []
    for index, call in enumerate(reply.get("tool_calls") or []):
        arguments = call.get("arguments", {})
        if not isinstance(arguments, str):
            arguments = json.dumps(arguments)
        function = Function(name=str(call["name"]), arguments=arguments)
        made_up = f"call_{digest}_{index}"
        calls.append(ToolCall(id=str(call.get("id") or made_up), type="function", function=function))
    return calls


def _completion_words(text: str, calls: Sequence[ToolCall]) -> int:
    return count_words(text) + sum(
        count_words(c.function.name) + count_words(c.function.arguments) for c in calls
    )


def _usage(body: JSONObject, reply: ScriptedReply, text: str) -> CompletionUsage:
    """The usage a reply is billed: the fake's counts, the script's ``cost``, then its overrides."""
    reasoning = int(reply.get("reasoning_tokens", 0))
    prompt = prompt_tokens(body)
    completion = _completion_words(text, _tool_calls(reply, body)) + reasoning
    usage: dict[str, object] = {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
        "completion_tokens_details": {"reasoning_tokens": reasoning},
    }
    if "cost" in reply:
        usage["cost"] = reply["cost"]  # OpenRouter's field, beside OpenAI's
    usage.update(reply.get("usage") or {})
    return CompletionUsage.model_validate(usage)


def _usage_json(usage: CompletionUsage) -> JSONObject:
    return usage.model_dump(exclude_none=True)


def _number(value: JSONValue) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


class FakeModelServer:
    """A scripted OpenAI-compatible server on a free port of 127.0.0.1; a context manager.

    Args:
        script: replies used in order, or a function from the request's JSON to a reply.
        model: the model named in replies when the request names none.
        host: the address to bind. port: the port, 0 for a free one.
        generations: serve ``GET /v1/generation?id=`` (OpenRouter's); ``False`` answers it 404.
        price: USD per million prompt and completion tokens, billed for a reply that names no
            ``cost`` (``None``: such replies are billed 0).

    Attributes:
        url: the OpenAI base URL, ``http://127.0.0.1:PORT/v1``.
        exhausted: whether a request came after a list script ran out.
    """

    def __init__(
        self,
        script: Script,
        *,
        model: str = "fake-model",
        host: str = "127.0.0.1",
        port: int = 0,
        generations: bool = True,
        price: tuple[float, float] | None = None,
    ) -> None:
        self.model = model
        self.generations = generations
        self.price = price
        self._bill: dict[str, JSONObject] = {}
        self._script = script
        self._next = 0
        self._lock = threading.Lock()
        self._requests: list[RecordedRequest] = []
        self._served: list[JSONObject | None] = []
        self._usage_reported: list[JSONObject] = []
        self._text_sent: list[int] = []
        self.exhausted = False
        self._socket = bind(host, port)  # bound now: the URL is known before the server starts
        bound_host, bound_port = self._socket.getsockname()[:2]
        self.url = f"http://{bound_host!s}:{bound_port}/v1"
        self._app = Starlette(routes=[Mount("", app=_FakeApp(self))])
        self._server: BackgroundServer | None = None

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every request received so far, in order (a copy)."""
        with self._lock:
            return list(self._requests)

    @property
    def served(self) -> list[JSONObject | None]:
        """The usage reported with every successful reply, in order (``None`` where none was reported)."""
        with self._lock:
            return list(self._served)

    def note_served(self, usage: JSONObject | None) -> None:
        """Note the usage of a reply sent (called by the request handler)."""
        with self._lock:
            self._served.append(usage)

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        """The chat-completion requests received so far."""
        return [r for r in self.requests if r.path.split("?")[0] in _CHAT_PATHS]

    @property
    def usage_reported(self) -> list[JSONObject]:
        """Every usage object the server wrote, in order (a copy); replies without usage add none.

        A whole (unstreamed) reply's usage is noted just before its body is written.
        """
        with self._lock:
            return list(self._usage_reported)

    def reported(self, key: str) -> int:
        """The sum of one usage field (``prompt_tokens``, ``completion_tokens``) over what was written."""
        return sum(int(_number(usage.get(key)) or 0) for usage in self.usage_reported)

    @property
    def text_sent(self) -> list[int]:
        """Bytes of reply text written for each reply, in order (a copy)."""
        with self._lock:
            return list(self._text_sent)

    def note_text(self, size: int, new: bool = False) -> None:
        """Count reply text written (``new``: a reply's first), called by the request handler."""
        with self._lock:
            if new or not self._text_sent:
                self._text_sent.append(0)
            self._text_sent[-1] += size

    def note_usage(self, usage: JSONObject) -> None:
        """Note a usage object written to a client (called by the request handler)."""
        with self._lock:
            self._usage_reported.append(dict(usage))

    def open_generation(self, usage: CompletionUsage, model: str, stream: bool) -> str:
        """Bill a reply about to be written, and return its generation id (called by the handler)."""
        prompt, completion = usage.prompt_tokens, usage.completion_tokens
        cost = _number((usage.model_extra or {}).get("cost"))  # OpenRouter's, when scripted
        if cost is None:
            cost = 0.0 if self.price is None else (prompt * self.price[0] + completion * self.price[1]) / 1e6
        details = usage.completion_tokens_details
        with self._lock:
            generation = f"gen-{len(self._bill) + 1}-{time.monotonic_ns() % 10**9}"
            self._bill[generation] = {
                "id": generation,
                "model": model,
                "streamed": stream,
                "cancelled": False,
                "total_cost": float(cost),
                "tokens_prompt": prompt,
                "tokens_completion": completion,
                "native_tokens_prompt": prompt,
                "native_tokens_completion": completion,
                "native_tokens_reasoning": (details.reasoning_tokens or 0) if details is not None else 0,
            }
        return generation

    def cancel_generation(self, generation: str) -> None:
        """Mark a generation whose client hung up before its end (called by the handler)."""
        with self._lock:
            if generation in self._bill:
                self._bill[generation]["cancelled"] = True

    def generation(self, generation: str) -> JSONObject | None:
        """The bill of one generation, or ``None`` for an unknown id."""
        with self._lock:
            found = self._bill.get(generation)
            return dict(found) if found else None

    @property
    def bill(self) -> list[JSONObject]:
        """Every generation billed so far, in order (copies)."""
        with self._lock:
            return [dict(entry) for entry in self._bill.values()]

    def billed(self) -> float:
        """USD billed over every generation: what a provider would charge the key."""
        return sum(_number(entry["total_cost"]) or 0.0 for entry in self.bill)

    def start(self) -> FakeModelServer:
        """Start serving in a background thread (idempotent); returns the server."""
        if self._server is None:
            self._server = BackgroundServer(self._app, sock=self._socket, name="fake-model-server")
        return self

    def close(self) -> None:
        """Stop serving and release the port; replies in progress (a hang) end with their connection."""
        if self._server is not None:
            self._server.close(drop_connections=True)
            self._server = None
        self._socket.close()

    def serve_forever(self) -> None:
        """Serve in the calling thread until interrupted (for the command line)."""
        self.start()
        assert self._server is not None
        self._server.wait()

    def drop(self, scope: Scope, reset: bool) -> None:
        """End the connection of a request unanswered (called by the application)."""
        if self._server is not None:
            self._server.drop(scope, reset=reset)

    def __enter__(self) -> FakeModelServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def record(self, request: RecordedRequest) -> None:
        """Note a received request (called by the request handler)."""
        with self._lock:
            self._requests.append(request)

    def next_reply(self, body: JSONObject) -> ScriptedReply:
        """The scripted reply to a chat request, as a dict (called by the request handler)."""
        if callable(self._script):
            reply = self._script(body)
        else:
            with self._lock:
                if self._next >= len(self._script):
                    self.exhausted = True
                    used = len(self._script)
                    return {
                        "status": 500,
                        "error": f"fake model server: the script ran out after {used} replies",
                    }
                reply = self._script[self._next]
                self._next += 1
        return {"text": reply} if isinstance(reply, str) else ScriptedReply(**reply)


class _FakeApp:
    """The ASGI application answering every request from the script of ``owner``."""

    def __init__(self, owner: FakeModelServer) -> None:
        self.owner = owner

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return  # the lifespan's messages: nothing to set up
        ex = Exchange(scope, receive, send, self.owner.drop)
        try:
            await self._serve(ex)
        finally:
            ex.close()

    async def _serve(self, ex: Exchange) -> None:
        """Record the request, then answer it: the models, a generation, a chat completion, or 404."""
        method, path = str(ex.scope["method"]), str(ex.scope["path"])
        query = bytes(ex.scope.get("query_string", b"")).decode("latin-1")
        body: JSONValue = None
        if method == "POST":
            raw = await ex.body()
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body = None
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in ex.scope["headers"]}
        target = f"{path}?{query}" if query else path
        self.owner.record(RecordedRequest(method, target, headers, body))
        if method == "GET" and path in ("/v1/models", "/models"):
            await _json(ex, 200, {"object": "list", "data": [{"id": self.owner.model, "object": "model"}]})
        elif method == "GET" and path in _GENERATION_PATHS and self.owner.generations:
            found = self.owner.generation(parse_qs(query).get("id", [""])[0])
            await (
                _error(ex, 404, "generation not found") if found is None else _json(ex, 200, {"data": found})
            )
        elif method != "POST" or path not in _CHAT_PATHS:
            await _error(ex, 404, f"no such endpoint: {method} {target}")
        elif not isinstance(body, dict):
            await _error(ex, 400, "the request body is not a JSON object")
        else:
            await self._answer(ex, body, await run_in_threadpool(self.owner.next_reply, body))

    async def _answer(self, ex: Exchange, body: JSONObject, reply: ScriptedReply) -> None:
        """A scripted fault, a scripted status, or the reply itself."""
        await ex.idle(float(reply.get("delay", 0)))
        model = str(reply.get("answer_model") or body.get("model") or self.owner.model)
        status = int(reply.get("status", 200))
        if reply.get("reset"):
            await ex.drop(reset=True)
        elif reply.get("hang") is not None:
            await ex.idle(float(reply["hang"]))
            await ex.drop(reset=False)  # no answer at all: the connection just ends
        elif reply.get("malformed"):
            prompt = prompt_tokens(body)
            counted = CompletionUsage(prompt_tokens=prompt, completion_tokens=1, total_tokens=prompt + 1)
            await malformed(ex, bool(body.get("stream")), self.owner.open_generation(counted, model, False))
        elif reply.get("runaway"):
            await runaway(ex, self.owner, body, model, int(reply["runaway"]))
        elif status != 200:
            await _error(
                ex, status, str(reply.get("error", f"scripted status {status}")), reply.get("headers")
            )
        else:
            await self._complete(ex, body, reply, model)

    async def _complete(self, ex: Exchange, body: JSONObject, reply: ScriptedReply, model: str) -> None:
        """The scripted reply, billed as a generation, in one body or streamed."""
        text = str(reply.get("text", ""))
        billed = _usage(body, reply, text)
        usage = None if "usage" in reply and reply["usage"] is None else billed  # what the reply reports
        self.owner.note_served(None if usage is None else _usage_json(usage))
        calls = _tool_calls(reply, body)
        stream = bool(body.get("stream"))
        generation = self.owner.open_generation(billed, model, stream)
        opened = Opened(generation, int(time.time()), model)
        finish: Finish = "tool_calls" if calls else "stop"
        if stream:
            options = body.get("stream_options")
            include = isinstance(options, dict) and bool(options.get("include_usage"))
            pieces = [piece for piece in re.findall(r"\s*\S+\s*", text) or [text] if piece]
            chunks = opened.chunks(pieces, calls, finish, usage if include else None)
            await self._stream(ex, generation, chunks, include, reply)
            return
        payload = opened.completion(text, calls, finish, usage).model_dump(exclude_none=True)
        if reply.get("die_after") is not None:
            await die_plain(ex, self.owner, payload)
            return
        # Noted before the body is written: a client that has read the reply must find it counted,
        # and a test thread reads the counts as soon as its call returns.
        self.owner.note_text(len(text.encode()), new=True)
        if usage is not None:
            self.owner.note_usage(_usage_json(usage))
        await _json(ex, 200, payload, reply.get("headers"))

    async def _stream(
        self,
        ex: Exchange,
        generation: str,
        chunks: list[ChatCompletionChunk],
        include: bool,
        reply: ScriptedReply,
    ) -> None:
        """Send ``chunks`` as server-sent events (dropped after ``die_after`` of them, if scripted).

        ``include``: the request asked for the usage, so every chunk carries a ``usage`` (null but the last).
        """
        await ex.start(200, "text/event-stream", {"Cache-Control": "no-cache", "Connection": "close"})
        self.owner.note_text(0, new=True)
        die_after = reply.get("die_after")
        for n, chunk in enumerate(chunks):
            if die_after is not None and n >= int(die_after):
                await ex.drop(reset=False)  # dropped mid-reply: no last chunk, no usage, no [DONE]
                return
            if not await ex.write(event(chunk_json(chunk, reports_usage=include))):
                self.owner.cancel_generation(generation)  # the client hung up: billed all the same
                return
            for choice in chunk.choices:
                self.owner.note_text(len((choice.delta.content or "").encode()))
            if chunk.usage is not None:
                self.owner.note_usage(_usage_json(chunk.usage))
            await ex.idle(float(reply.get("chunk_delay", 0)))
        await ex.write(b"data: [DONE]\n\n", more=False)


async def _json(
    ex: Exchange, status: int, payload: JSONValue, headers: Mapping[str, str] | None = None
) -> None:
    await ex.whole(status, json.dumps(payload).encode(), "application/json", headers)


async def _error(ex: Exchange, status: int, message: str, headers: Mapping[str, str] | None = None) -> None:
    error: JSONObject = {"message": message, "type": "fake_server_error", "code": status}
    await _json(ex, status, {"error": error}, headers)
