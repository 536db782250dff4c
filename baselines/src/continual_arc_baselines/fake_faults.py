"""The fake server's connection, faulty replies and token counting (see `fake_server`).

Kept apart from the server so each stays short. An `Exchange` is one request's connection under
ASGI: it reads the body, writes a reply in pieces, notices a client that hung up, and drops the
connection unanswered (a reset or a plain close, through the server's
[`BackgroundServer.drop`][continual_arc_baselines.asgi.BackgroundServer]). The faults write a
runaway reply, one that dies mid-way, or one that is not valid JSON.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable, Mapping
from typing import Protocol

from openai.types import CompletionUsage
from openai.types.chat.chat_completion_chunk import Choice, ChoiceDelta
from starlette.types import Receive, Scope, Send

from continual_arc_baselines.chat_wire import Opened, chunk_json, event
from continual_arc_baselines.json_types import JSONObject, JSONValue

__all__ = [
    "Exchange",
    "Recorder",
    "count_words",
    "die_plain",
    "malformed",
    "prompt_tokens",
    "runaway",
]

_GONE_WAIT = 1.0  # seconds a dropped connection may take to be seen lost by the server


class Recorder(Protocol):
    """What the faults note on the server: the text and the usage written, the generations billed."""

    def open_generation(self, usage: CompletionUsage, model: str, stream: bool) -> str:
        """Bill a reply about to be written; its generation id."""

    def note_text(self, size: int, new: bool = False) -> None:
        """Count reply text written (``new``: a reply's first)."""

    def note_usage(self, usage: JSONObject) -> None:
        """Note a usage object written to a client."""


def count_words(text: str) -> int:
    """The fake server's token count: the number of whitespace-separated words."""
    return len(text.split())


def prompt_tokens(body: Mapping[str, JSONValue]) -> int:
    """The fake server's prompt tokens: the words of the messages' text."""
    total = 0
    messages = body.get("messages")
    for message in messages if isinstance(messages, list) else []:
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, str):
            total += count_words(content)
        elif isinstance(content, list):
            total += sum(count_words(str(p.get("text", ""))) for p in content if isinstance(p, dict))
    return total


class Exchange:
    """One request's connection: its body, the reply written on it, and whether the client left.

    Args:
        scope, receive, send: the request, as ASGI hands it over.
        drop: ends a request's connection unanswered (``reset``: with a TCP reset).
    """

    def __init__(
        self, scope: Scope, receive: Receive, send: Send, drop: Callable[[Scope, bool], None]
    ) -> None:
        self.scope, self._receive, self._send, self._drop = scope, receive, send, drop
        self.gone = asyncio.Event()
        self._watch: asyncio.Task[None] | None = None

    async def body(self) -> bytes:
        """The request's whole body; from then on, a client hanging up sets `gone`."""
        parts = []
        while True:
            message = await self._receive()
            if message["type"] == "http.disconnect":
                self.gone.set()
                break
            parts.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        self._watch = asyncio.create_task(self._watch_client())
        return b"".join(parts)

    async def _watch_client(self) -> None:
        while (await self._receive())["type"] != "http.disconnect":
            pass
        self.gone.set()

    def close(self) -> None:
        """Stop watching the client (the reply is over)."""
        if self._watch is not None:
            self._watch.cancel()

    async def start(
        self, status: int, media: str, headers: Mapping[str, str] | None = None, length: int | None = None
    ) -> None:
        """Send the status line and headers (``length``: the body's bytes, else it is chunked)."""
        fields = [(b"content-type", media.encode())]
        if length is not None:
            fields.append((b"content-length", str(length).encode()))
        fields += [(name.lower().encode(), str(value).encode()) for name, value in (headers or {}).items()]
        await self._send({"type": "http.response.start", "status": status, "headers": fields})

    async def write(self, data: bytes, *, more: bool = True) -> bool:
        """Send a piece of the body; ``False`` when the client has hung up (nothing more is sent)."""
        if self.gone.is_set():
            return False
        await self._send({"type": "http.response.body", "body": data, "more_body": more})
        await asyncio.sleep(0)  # the watcher hears of a hang-up before the next piece
        return not self.gone.is_set()

    async def whole(
        self, status: int, data: bytes, media: str, headers: Mapping[str, str] | None = None
    ) -> None:
        """A whole reply in one body."""
        await self.start(status, media, headers, len(data))
        await self.write(data, more=False)

    async def idle(self, seconds: float) -> None:
        """Wait ``seconds``, or less if the client hangs up (or the server drops the connection)."""
        if seconds > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.gone.wait(), seconds)

    async def drop(self, *, reset: bool) -> None:
        """End the connection now, whatever was sent, and wait until the server has seen it lost."""
        self._drop(self.scope, reset)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.gone.wait(), _GONE_WAIT)


async def runaway(ex: Exchange, owner: Recorder, body: JSONObject, model: str, size: int) -> None:
    """Reply text of ``size`` bytes, whatever the request's limits, until the client hangs up."""
    piece, words = "w " * 512, 512  # 1 KiB of text, 512 of the fake's tokens
    pieces = max(1, size // len(piece))
    prompt = prompt_tokens(body)
    usage = CompletionUsage(
        prompt_tokens=prompt, completion_tokens=pieces * words, total_tokens=prompt + pieces * words
    )
    wire_usage = usage.model_dump(exclude_none=True)
    generation = owner.open_generation(usage, model, bool(body.get("stream")))
    opened = Opened(generation, int(time.time()), model)
    owner.note_text(0, new=True)
    if body.get("stream"):
        await ex.start(200, "text/event-stream", {"Connection": "close"})
        chunk = opened.chunk([Choice(index=0, delta=ChoiceDelta(content=piece))])
        data = event(chunk_json(chunk, reports_usage=True))
        for _ in range(pieces):
            if not await ex.write(data):
                return
            owner.note_text(len(piece))
        last = event(chunk_json(opened.chunk([], usage), reports_usage=True))
        if await ex.write(last + b"data: [DONE]\n\n", more=False):
            owner.note_usage(wire_usage)
        return
    whole = opened.completion("<TEXT>", [], "stop", usage).model_dump(exclude_none=True)
    head, tail = json.dumps(whole).encode().split(b"<TEXT>")
    await ex.start(200, "application/json", length=len(head) + pieces * len(piece) + len(tail))
    if not await ex.write(head):
        return
    for _ in range(pieces):
        if not await ex.write(piece.encode()):
            return
        owner.note_text(len(piece))
    if await ex.write(tail, more=False):
        owner.note_usage(wire_usage)


async def die_plain(ex: Exchange, owner: Recorder, payload: JSONObject) -> None:
    """Promise the whole body, send half of it, and drop the connection."""
    data = json.dumps(payload).encode()
    await ex.start(200, "application/json", length=len(data))
    await ex.write(data[: len(data) // 2])
    owner.note_text(0, new=True)
    await ex.drop(reset=False)


async def malformed(ex: Exchange, stream: bool, generation: str) -> None:
    """A 200 that breaks off mid-JSON: a truncated body, or a stream with a broken chunk."""
    head = json.dumps({"id": generation})[:-1].encode()
    broken = head + b', "choices": [{"index": 0, "delta": {"content": "par'
    if stream:
        await ex.whole(200, b"data: " + broken + b"\n\ndata: [DONE]\n\n", "text/event-stream")
    else:
        await ex.whole(200, broken, "application/json")
