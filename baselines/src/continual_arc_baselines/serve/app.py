"""The HTTP side of ``continual-arc-baselines serve``: OpenAI's chat completions over an `Engine`.

``POST /v1/chat/completions`` answers plainly or, with ``stream: true``, as server-sent events
(the reply sent once its batch is decoded, a chunk per token, and a last chunk with ``usage`` when
``stream_options.include_usage`` is set); ``GET /v1/models`` lists the one model. A request's
``tools`` go to the chat template and the reply's calls come back as ``tool_calls``
(`tools`). ``usage`` counts
the prompt's tokens as the chat template makes them and the reply's tokens as decoded (its stop
token included). The HTTP stack is the standard library's threading server, as the fake server's:
each connection is a thread, and the `Batcher` groups their requests.

Every reply served is noted in `ServeHandle.served` (and, with a log file, as a JSON line
there): its prompt and completion tokens, and the batch that decoded it, to check counts against.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from .batcher import Batched, Batcher
from .engine import Engine, GenerationKey, Prompt
from .tools import read_tool_calls

__all__ = ["RequestError", "ServeHandle", "parse_request"]

_CHAT_PATHS = ("/v1/chat/completions", "/chat/completions")


class RequestError(ValueError):
    """A request the server cannot answer, with the HTTP status to answer it with."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def parse_request(engine: Engine, body: Any, default_max_tokens: int) -> tuple[Prompt, GenerationKey]:
    """The prompt and sampling of a chat request.

    Raises:
        RequestError: not a chat request for this model, or a field this server does not do.
    """
    if not isinstance(body, dict) or not isinstance(body.get("messages"), list) or not body["messages"]:
        raise RequestError(400, "the body must be a JSON object with a non-empty list of messages")
    if body.get("model") not in (None, engine.name):
        raise RequestError(404, f"this server serves only the model {engine.name}, not {body.get('model')!r}")
    if int(body.get("n") or 1) != 1:
        raise RequestError(400, "this server answers one choice per request (n = 1)")
    limit = body.get("max_completion_tokens") or body.get("max_tokens") or default_max_tokens
    temperature = float(body["temperature"]) if body.get("temperature") is not None else 0.0
    top_p = float(body["top_p"]) if body.get("top_p") is not None else 1.0
    key = GenerationKey(temperature, top_p, int(body.get("seed") or 0))
    try:
        ids = engine.encode(body["messages"], body.get("tools"))
    except Exception as error:  # a message the chat template cannot take
        raise RequestError(400, f"the messages do not fit the model's chat template: {error}") from error
    return Prompt(ids, max(1, int(limit))), key


class ServeHandle:
    """The server on ``host:port`` (0: a free port), serving in a daemon thread; a context manager.

    Args:
        engine: the model. window, max_batch: the batcher's (see `Batcher`).
        default_max_tokens: a reply's token limit when the request sets none.
        log_path: a JSON-lines file each reply served is appended to.

    Attributes:
        url: the OpenAI base URL, ``http://HOST:PORT/v1``.
    """

    def __init__(
        self,
        engine: Engine,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        window: float = 0.01,
        max_batch: int = 16,
        default_max_tokens: int = 1024,
        log_path: Path | None = None,
    ) -> None:
        self.engine = engine
        self.batcher = Batcher(engine, window, max_batch)
        self.default_max_tokens = default_max_tokens
        self.log_path = log_path
        self._lock = threading.Lock()
        self._served: list[dict[str, Any]] = []
        self._http = ThreadingHTTPServer((host, port), _handler(self))
        self._http.daemon_threads = True
        bound_host, bound_port = self._http.server_address[:2]
        self.url = f"http://{bound_host!s}:{bound_port}/v1"
        self._thread = threading.Thread(target=self._http.serve_forever, args=(0.05,), daemon=True)
        self._thread.start()

    @property
    def served(self) -> list[dict[str, Any]]:
        """Every reply served, in order (a copy): tokens, batch number and size."""
        with self._lock:
            return list(self._served)

    def note(self, entry: dict[str, Any]) -> None:
        """Log one reply served (called by the request handler)."""
        with self._lock:
            self._served.append(entry)
            if self.log_path is not None:
                with self.log_path.open("a", encoding="utf-8") as handle:
                    handle.write(json.dumps(entry) + "\n")

    def serve_forever(self) -> None:
        """Block until interrupted (for the command line)."""
        self._thread.join()

    def close(self) -> None:
        """Stop serving and release the port."""
        self._http.shutdown()
        self._http.server_close()
        self.batcher.close()

    def __enter__(self) -> ServeHandle:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _usage(done: Batched) -> dict[str, int]:
    c = done.completion
    total = c.prompt_tokens + c.completion_tokens
    return {"prompt_tokens": c.prompt_tokens, "completion_tokens": c.completion_tokens, "total_tokens": total}


def _handler(owner: ServeHandle) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            """Stay quiet: the log of replies is ``ServeHandle.served``."""

        def handle(self) -> None:
            """Serve the connection; a client that hangs up mid-reply ends it quietly."""
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                super().handle()

        def do_GET(self) -> None:
            if self.path.split("?")[0] in ("/v1/models", "/models"):
                model = {"id": owner.engine.name, "object": "model", "owned_by": "local"}
                self._json(200, {"object": "list", "data": [model]})
            else:
                self._error(404, f"no such endpoint: GET {self.path}")

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if self.path.split("?")[0] not in _CHAT_PATHS:
                self._error(404, f"no such endpoint: POST {self.path}")
                return
            try:
                body = json.loads(raw)
                prompt, key = parse_request(owner.engine, body, owner.default_max_tokens)
                done = owner.batcher.submit(prompt, key)
            except RequestError as error:
                self._error(error.status, str(error))
                return
            except Exception as error:  # a malformed body or a failed decode
                self._error(
                    500 if not isinstance(error, ValueError) else 400, f"{type(error).__name__}: {error}"
                )
                return
            usage = _usage(done)
            owner.note({**usage, "batch": done.batch, "batch_size": done.batch_size})
            base = {
                "id": f"chatcmpl-{time.monotonic_ns()}",
                "created": int(time.time()),
                "model": owner.engine.name,
            }
            text, calls = (
                read_tool_calls(done.completion.text) if body.get("tools") else (done.completion.text, [])
            )
            if body.get("stream"):
                include = (body.get("stream_options") or {}).get("include_usage")
                self._stream(base, done, text if calls else None, calls, usage if include else None)
                return
            message: dict[str, Any] = {"role": "assistant", "content": text}
            if calls:
                message["tool_calls"] = calls
            finish = "tool_calls" if calls else done.completion.finish_reason
            choice = {"index": 0, "message": message, "finish_reason": finish}
            self._json(200, {**base, "object": "chat.completion", "choices": [choice], "usage": usage})

        def _stream(
            self,
            base: dict[str, Any],
            done: Batched,
            text: str | None,
            calls: list[dict[str, Any]],
            usage: Mapping[str, int] | None,
        ) -> None:
            """Send the reply as events: its pieces (or, with calls, its other text and the calls)."""
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Connection", "close")  # the stream's end is the connection's end
            self.end_headers()
            self.close_connection = True
            base = {**base, "object": "chat.completion.chunk"}
            pieces = done.completion.pieces if text is None else ([text] if text else [])
            deltas: list[tuple[dict[str, Any], str | None]] = [({"role": "assistant", "content": ""}, None)]
            deltas += [({"content": piece}, None) for piece in pieces]
            deltas += [({"tool_calls": [{"index": n, **call}]}, None) for n, call in enumerate(calls)]
            deltas.append(({}, "tool_calls" if calls else done.completion.finish_reason))
            for delta, finish in deltas:
                chunk: dict[str, Any] = {
                    **base,
                    "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
                }
                if usage is not None:
                    chunk["usage"] = None  # OpenAI's convention: only the last chunk carries usage
                self._send(chunk)
            if usage is not None:
                self._send({**base, "choices": [], "usage": dict(usage)})
            self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()

        def _send(self, chunk: Mapping[str, Any]) -> None:
            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
            self.wfile.flush()

        def _json(self, status: int, payload: Any) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _error(self, status: int, message: str) -> None:
            self._json(status, {"error": {"message": message, "type": "serve_error", "code": status}})

    return Handler
