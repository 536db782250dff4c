"""A scripted, OpenAI-compatible chat server on 127.0.0.1, for tests and for trying learners offline.

It serves ``POST /v1/chat/completions`` (and ``/chat/completions``) over a real socket, streaming
(server-sent events, with a final usage chunk when ``stream_options.include_usage`` is set) and not,
answering from a script: a list of replies used in order, or a function of the request. A reply is a
string (the text) or a dict:

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

import contextlib
import hashlib
import json
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs

from continual_arc_baselines.fake_faults import FaultReplies, count_words, make_chunk, prompt_tokens

__all__ = ["FakeModelServer", "RecordedRequest", "Reply", "Script", "count_words"]

Reply = str | Mapping[str, Any]
"""One scripted reply: its text, or a dict as described in the module's docstring."""

Script = Sequence[Reply] | Callable[[dict[str, Any]], Reply]
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
    body: Any


def _tool_calls(reply: Mapping[str, Any], body: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
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
        function = {"name": str(call["name"]), "arguments": arguments}
        made_up = f"call_{digest}_{index}"
        calls.append({"id": str(call.get("id") or made_up), "type": "function", "function": function})
    return calls


def _completion_words(text: str, calls: Sequence[Mapping[str, Any]]) -> int:
    words = count_words(text)
    for call in calls:
        words += count_words(call["function"]["name"]) + count_words(call["function"]["arguments"])
    return words


def _usage(body: Mapping[str, Any], reply: Mapping[str, Any], text: str) -> dict[str, Any] | None:
    if "usage" in reply and reply["usage"] is None:
        return None
    reasoning = int(reply.get("reasoning_tokens", 0))
    prompt = prompt_tokens(body)
    completion = _completion_words(text, _tool_calls(reply, body)) + reasoning
    usage: dict[str, Any] = {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
        "completion_tokens_details": {"reasoning_tokens": reasoning},
    }
    if "cost" in reply:
        usage["cost"] = reply["cost"]
    usage.update(reply.get("usage") or {})
    return usage


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
        self._bill: dict[str, dict[str, Any]] = {}
        self._script = script
        self._next = 0
        self._lock = threading.Lock()
        self._requests: list[RecordedRequest] = []
        self._served: list[dict[str, Any] | None] = []
        self._usage_reported: list[dict[str, Any]] = []
        self._text_sent: list[int] = []
        self.exhausted = False
        self._server = ThreadingHTTPServer((host, port), _make_handler(self))
        self._server.daemon_threads = True
        bound_host, bound_port = self._server.server_address[:2]
        self.url = f"http://{bound_host!s}:{bound_port}/v1"
        self._thread: threading.Thread | None = None

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every request received so far, in order (a copy)."""
        with self._lock:
            return list(self._requests)

    @property
    def served(self) -> list[dict[str, Any] | None]:
        """The usage reported with every successful reply, in order (``None`` where none was reported)."""
        with self._lock:
            return list(self._served)

    def note_served(self, usage: dict[str, Any] | None) -> None:
        """Note the usage of a reply sent (called by the request handler)."""
        with self._lock:
            self._served.append(usage)

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        """The chat-completion requests received so far."""
        return [r for r in self.requests if r.path.split("?")[0] in _CHAT_PATHS]

    @property
    def usage_reported(self) -> list[dict[str, Any]]:
        """Every usage object the server wrote, in order (a copy); replies without usage add none."""
        with self._lock:
            return list(self._usage_reported)

    def reported(self, key: str) -> int:
        """The sum of one usage field (``prompt_tokens``, ``completion_tokens``) over what was written."""
        return sum(int(usage.get(key, 0)) for usage in self.usage_reported)

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

    def note_usage(self, usage: Mapping[str, Any]) -> None:
        """Note a usage object written to a client (called by the request handler)."""
        with self._lock:
            self._usage_reported.append(dict(usage))

    def open_generation(self, usage: Mapping[str, Any] | None, model: str, stream: bool) -> str:
        """Bill a reply about to be written, and return its generation id (called by the handler)."""
        usage = dict(usage or {})
        prompt, completion = int(usage.get("prompt_tokens", 0)), int(usage.get("completion_tokens", 0))
        cost = usage.get("cost")
        if not isinstance(cost, int | float):
            cost = 0.0 if self.price is None else (prompt * self.price[0] + completion * self.price[1]) / 1e6
        details = usage.get("completion_tokens_details") or {}
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
                "native_tokens_reasoning": int(details.get("reasoning_tokens", 0)),
            }
        return generation

    def cancel_generation(self, generation: str) -> None:
        """Mark a generation whose client hung up before its end (called by the handler)."""
        with self._lock:
            if generation in self._bill:
                self._bill[generation]["cancelled"] = True

    def generation(self, generation: str) -> dict[str, Any] | None:
        """The bill of one generation, or ``None`` for an unknown id."""
        with self._lock:
            found = self._bill.get(generation)
            return dict(found) if found else None

    @property
    def bill(self) -> list[dict[str, Any]]:
        """Every generation billed so far, in order (copies)."""
        with self._lock:
            return [dict(entry) for entry in self._bill.values()]

    def billed(self) -> float:
        """USD billed over every generation: what a provider would charge the key."""
        return sum(float(entry["total_cost"]) for entry in self.bill)

    def start(self) -> FakeModelServer:
        """Start serving in a background thread (idempotent); returns the server."""
        if self._thread is None:
            # A short poll interval: close() waits up to one interval for the serving loop to notice.
            self._thread = threading.Thread(
                target=self._server.serve_forever, args=(0.05,), name="fake-model-server", daemon=True
            )
            self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving and release the port."""
        if self._thread is not None:
            self._server.shutdown()
            self._thread.join()
            self._thread = None
        self._server.server_close()

    def serve_forever(self) -> None:
        """Serve in the calling thread until interrupted (for the command line)."""
        self._server.serve_forever()

    def __enter__(self) -> FakeModelServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def record(self, request: RecordedRequest) -> None:
        """Note a received request (called by the request handler)."""
        with self._lock:
            self._requests.append(request)

    def next_reply(self, body: dict[str, Any]) -> dict[str, Any]:
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
        return {"text": reply} if isinstance(reply, str) else dict(reply)


class _Handler(FaultReplies):
    """One connection's requests, answered from the script of `owner` (set by `_make_handler`)."""

    protocol_version = "HTTP/1.1"
    owner: FakeModelServer

    def log_message(self, format: str, *args: Any) -> None:
        """Stay quiet: tests and the command line print what matters themselves."""

    def handle(self) -> None:
        """Serve the connection; a client that hangs up mid-reply (a killed harness) ends it quietly."""
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            super().handle()

    def do_GET(self) -> None:
        """The model list, and OpenRouter's generation endpoint (when the server serves it)."""
        self._record(None)
        path, _, query = self.path.partition("?")
        if path in ("/v1/models", "/models"):
            self._json(200, {"object": "list", "data": [{"id": self.owner.model, "object": "model"}]})
        elif path in _GENERATION_PATHS and self.owner.generations:
            found = self.owner.generation(parse_qs(query).get("id", [""])[0])
            if found is None:
                self._error(404, "generation not found")
            else:
                self._json(200, {"data": found})
        else:
            self._error(404, f"no such endpoint: GET {self.path}")

    def do_POST(self) -> None:
        """A chat completion, answered by the script's next reply."""
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        self._record(body)
        if self.path.split("?")[0] not in _CHAT_PATHS:
            self._error(404, f"no such endpoint: POST {self.path}")
        elif not isinstance(body, dict):
            self._error(400, "the request body is not a JSON object")
        else:
            self._answer(body, self.owner.next_reply(body))

    def _record(self, body: Any) -> None:
        headers = {name.lower(): value for name, value in self.headers.items()}
        self.owner.record(RecordedRequest(self.command, self.path, headers, body))

    def _answer(self, body: dict[str, Any], reply: dict[str, Any]) -> None:
        """A scripted fault, a scripted status, or the reply itself."""
        time.sleep(float(reply.get("delay", 0)))
        model = str(reply.get("answer_model") or body.get("model") or self.owner.model)
        status = int(reply.get("status", 200))
        if reply.get("reset"):
            self.reset()
        elif reply.get("hang") is not None:
            time.sleep(float(reply["hang"]))
            self.close_connection = True  # no answer at all: the connection just ends
        elif reply.get("malformed"):
            counted = {"prompt_tokens": prompt_tokens(body), "completion_tokens": 1}
            self.malformed(bool(body.get("stream")), self.owner.open_generation(counted, model, False))
        elif reply.get("runaway"):
            self.runaway(body, model, int(reply["runaway"]))
        elif status != 200:
            self._error(status, str(reply.get("error", f"scripted status {status}")), reply.get("headers"))
        else:
            self._complete(body, reply, model)

    def _complete(self, body: dict[str, Any], reply: dict[str, Any], model: str) -> None:
        """The scripted reply, billed as a generation, in one body or streamed."""
        text = str(reply.get("text", ""))
        usage = _usage(body, reply, text)
        self.owner.note_served(usage)
        calls = _tool_calls(reply, body)
        billed = usage if usage is not None else _usage(body, {**reply, "usage": {}}, text)
        generation = self.owner.open_generation(billed, model, bool(body.get("stream")))
        base = {"id": generation, "created": int(time.time()), "model": model}
        if body.get("stream"):
            include = bool((body.get("stream_options") or {}).get("include_usage"))
            chunks = _chunks(base, text, calls, usage if include else None)
            self._stream(str(base["id"]), chunks, reply)
            return
        message: dict[str, Any] = {"role": "assistant", "content": text}
        if calls:
            message["tool_calls"] = calls
        finish = "tool_calls" if calls else "stop"
        choice = {"index": 0, "message": message, "finish_reason": finish}
        payload = {**base, "object": "chat.completion", "choices": [choice]}
        if usage is not None:
            payload["usage"] = usage
        if reply.get("die_after") is not None:
            self.die_plain(payload)
            return
        self._json(200, payload, reply.get("headers"))
        self.owner.note_text(len(text.encode()), new=True)
        if usage is not None:
            self.owner.note_usage(usage)

    def _stream(self, generation: str, chunks: list[dict[str, Any]], reply: Mapping[str, Any]) -> None:
        """Send ``chunks`` as server-sent events (dropped after ``die_after`` of them, if scripted)."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")  # the stream's end is the connection's end
        self.end_headers()
        self.close_connection = True
        self.owner.note_text(0, new=True)
        for n, chunk in enumerate(chunks):
            if reply.get("die_after") is not None and n >= int(reply["die_after"]):
                return  # dropped mid-reply: no last chunk, no usage, no [DONE]
            try:
                self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.flush()
            except OSError:
                self.owner.cancel_generation(generation)  # the client hung up: billed all the same
                raise
            for choice in chunk.get("choices") or []:
                self.owner.note_text(len(str(choice["delta"].get("content") or "").encode()))
            if chunk.get("usage"):
                self.owner.note_usage(chunk["usage"])
            time.sleep(float(reply.get("chunk_delay", 0)))
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()

    def _json(self, status: int, payload: Any, headers: Mapping[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, str(value))
        self.end_headers()
        self.wfile.write(data)

    def _error(self, status: int, message: str, headers: Mapping[str, str] | None = None) -> None:
        error = {"message": message, "type": "fake_server_error", "code": status}
        self._json(status, {"error": error}, headers)


def _chunks(
    base: dict[str, Any], text: str, calls: list[dict[str, Any]], usage: dict[str, Any] | None
) -> list[dict[str, Any]]:
    """A streamed reply's chunks: a word a chunk, the calls, the finish, and the usage if reported."""
    base = {**base, "object": "chat.completion.chunk"}
    include = usage is not None
    pieces = re.findall(r"\s*\S+\s*", text) or [text]
    chunks = [make_chunk(base, {"role": "assistant", "content": ""}, None, include)]
    chunks += [make_chunk(base, {"content": piece}, None, include) for piece in pieces if piece]
    for index, call in enumerate(calls):
        chunks.append(make_chunk(base, {"tool_calls": [{"index": index, **call}]}, None, include))
    chunks.append(make_chunk(base, {}, "tool_calls" if calls else "stop", include))
    if usage is not None:
        chunks.append({**base, "choices": [], "usage": usage})
    return chunks


def _make_handler(owner: FakeModelServer) -> type[BaseHTTPRequestHandler]:
    """The request handler class of one server: `_Handler` answering from ``owner``'s script."""
    return type("Handler", (_Handler,), {"owner": owner})
