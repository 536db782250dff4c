"""The HTTP side of ``continual-arc-baselines serve``: OpenAI's chat completions over an `Engine`.

``POST /v1/chat/completions`` answers plainly or, with ``stream: true``, as server-sent events
(the reply sent once its batch is decoded, a chunk per token, and a last chunk with ``usage`` when
``stream_options.include_usage`` is set); ``GET /v1/models`` lists the one model. A request's
``tools`` go to the chat template and the reply's calls come back as ``tool_calls``
(`tools`). ``usage`` counts the prompt's tokens as the chat template makes them and the reply's
tokens as decoded (its stop token included). Replies are built as the ``openai`` package's own
types (``ChatCompletion``, ``ChatCompletionChunk``, ``CompletionUsage``), so the wire is what an
OpenAI client reads. The HTTP stack is the tracking proxy's: a Starlette application under uvicorn
([asgi][continual_arc_baselines.asgi]); a request waits for its batch in a worker thread, and the
`Batcher` groups the requests waiting at once.

Every reply served is noted in `ServeHandle.served` (and, with a log file, as a JSON line
there): its prompt and completion tokens, and the batch that decoded it, to check counts against.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import cast

from openai.types import CompletionUsage
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from ..asgi import BackgroundServer
from ..chat_wire import Finish, Opened, chunk_json, event
from ..json_types import JSONObject, JSONValue
from .batcher import Batched, Batcher
from .engine import Engine, GenerationKey, Prompt
from .tools import read_tool_calls

__all__ = ["RequestError", "ServeHandle", "build_app", "parse_request"]

_CHAT_PATHS = ("/v1/chat/completions", "/chat/completions")
_MODELS_PATHS = ("/v1/models", "/models")


class RequestError(ValueError):
    """A request the server cannot answer, with the HTTP status to answer it with."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _number(body: JSONObject, *names: str, default: float) -> float:
    """The first of the fields ``names`` set to other than null, 0 or false (``default``: none is).

    Raises:
        RequestError: that field is not a number.
    """
    for name in names:
        value = body.get(name)
        if not value:
            continue
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise RequestError(400, f"the field {name!r} must be a number, not {value!r}")
        return float(value)
    return default


def parse_request(engine: Engine, body: JSONValue, default_max_tokens: int) -> tuple[Prompt, GenerationKey]:
    """The prompt and sampling of a chat request.

    Raises:
        RequestError: not a chat request for this model, or a field this server does not do.
    """
    messages = body.get("messages") if isinstance(body, dict) else None
    if not isinstance(body, dict) or not isinstance(messages, list) or not messages:
        raise RequestError(400, "the body must be a JSON object with a non-empty list of messages")
    if body.get("model") not in (None, engine.name):
        raise RequestError(404, f"this server serves only the model {engine.name}, not {body.get('model')!r}")
    if _number(body, "n", default=1) != 1:
        raise RequestError(400, "this server answers one choice per request (n = 1)")
    limit = _number(body, "max_completion_tokens", "max_tokens", default=default_max_tokens)
    temperature = 0.0 if body.get("temperature") is None else _number(body, "temperature", default=0.0)
    top_p = 1.0 if body.get("top_p") is None else _number(body, "top_p", default=0.0)
    key = GenerationKey(temperature, top_p, int(_number(body, "seed", default=0)))
    tools = body.get("tools")
    try:
        ids = engine.encode(messages, tools if isinstance(tools, list) else None)
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
        self._served: list[JSONObject] = []
        self._server = BackgroundServer(build_app(self), host, port, name="serve")
        self.url = f"http://{self._server.host}:{self._server.port}/v1"

    @property
    def served(self) -> list[JSONObject]:
        """Every reply served, in order (a copy): tokens, batch number and size."""
        with self._lock:
            return list(self._served)

    def note(self, entry: JSONObject) -> None:
        """Log one reply served (called by the application)."""
        with self._lock:
            self._served.append(entry)
            if self.log_path is not None:
                with self.log_path.open("a", encoding="utf-8") as handle:
                    handle.write(json.dumps(entry) + "\n")

    def serve_forever(self) -> None:
        """Block until interrupted (for the command line)."""
        self._server.wait()

    def close(self) -> None:
        """Stop serving and release the port."""
        self._server.close()
        self.batcher.close()

    def __enter__(self) -> ServeHandle:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": {"message": message, "type": "serve_error", "code": status}}, status)


def _usage(done: Batched) -> CompletionUsage:
    c = done.completion
    total = c.prompt_tokens + c.completion_tokens
    return CompletionUsage(
        prompt_tokens=c.prompt_tokens, completion_tokens=c.completion_tokens, total_tokens=total
    )


def build_app(owner: ServeHandle) -> Starlette:
    """The server as a Starlette application: the chat completions and the model list of ``owner``."""

    async def models(request: Request) -> Response:
        model = {"id": owner.engine.name, "object": "model", "owned_by": "local"}
        return JSONResponse({"object": "list", "data": [model]})

    async def chat(request: Request) -> Response:
        try:
            body: JSONValue = json.loads(await request.body())
            prompt, key = parse_request(owner.engine, body, owner.default_max_tokens)
            asked = body if isinstance(body, dict) else {}  # it is: parse_request refuses anything else
            done: Batched = await run_in_threadpool(owner.batcher.submit, prompt, key)
        except RequestError as error:
            return _error(error.status, str(error))
        except Exception as error:  # a malformed body or a failed decode
            return _error(
                500 if not isinstance(error, ValueError) else 400, f"{type(error).__name__}: {error}"
            )
        usage = _usage(done)
        owner.note(
            {**usage.model_dump(exclude_none=True), "batch": done.batch, "batch_size": done.batch_size}
        )
        return _reply(owner.engine.name, asked, done, usage)

    async def missing(request: Request) -> Response:
        return _error(404, f"no such endpoint: {request.method} {request.url.path}")

    routes = [
        *(Route(path, chat, methods=["POST"]) for path in _CHAT_PATHS),
        *(Route(path, models, methods=["GET"]) for path in _MODELS_PATHS),
        Route("/{path:path}", missing, methods=["GET", "POST"]),
    ]
    return Starlette(routes=routes)


def _reply(model: str, body: JSONObject, done: Batched, usage: CompletionUsage) -> Response:
    """The reply to a decoded request: one body, or its events when streamed."""
    opened = Opened(f"chatcmpl-{time.monotonic_ns()}", int(time.time()), model)
    text, calls = read_tool_calls(done.completion.text) if body.get("tools") else (done.completion.text, [])
    finish = cast(Finish, "tool_calls" if calls else done.completion.finish_reason)
    if body.get("stream"):
        options = body.get("stream_options")
        include = isinstance(options, dict) and bool(options.get("include_usage"))
        pieces = list(done.completion.pieces) if not calls else ([text] if text else [])
        chunks = opened.chunks(pieces, calls, finish, usage if include else None)
        events = [event(chunk_json(chunk, reports_usage=include)) for chunk in chunks]
        headers = {"Cache-Control": "no-cache"}
        return StreamingResponse(
            [*events, b"data: [DONE]\n\n"], media_type="text/event-stream", headers=headers
        )
    return JSONResponse(opened.completion(text, calls, finish, usage).model_dump(exclude_none=True))
