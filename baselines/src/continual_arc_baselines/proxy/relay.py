"""Reading an upstream's reply as it passes: its usage, model, text size, and where to cut it.

A streamed reply is relayed event by event (whole lines only, so a cut never leaves half an event),
its text measured as it goes; once the text is past the size limit, or estimated past the reply
tokens the run's budget pays for, the proxy stops reading it and ends the stream itself with a
chunk whose ``finish_reason`` is ``"length"`` and whose ``continual_arc.cut`` says why. A plain
reply's body is read up to the same limits; past them the learner gets an empty reply marked the
same way (a cut JSON body cannot be read). Either way the learner holds a usable, if wrong,
reply, and the call is charged its worst case.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping

import httpx
from openai.types.chat import ChatCompletion
from openai.types.chat.chat_completion_chunk import Choice as ChunkChoice
from openai.types.chat.chat_completion_chunk import ChoiceDelta

from continual_arc_baselines.chat_wire import Opened
from continual_arc_baselines.json_types import JSONObject, JSONValue
from continual_arc_baselines.proxy.tally import ReportedUsage, parse_usage

__all__ = [
    "CUT_HEADER",
    "UPSTREAM_BROKE",
    "SseUsageReader",
    "cut_chunk",
    "cut_reply",
    "read_capped",
    "stream_error",
    "text_bytes",
]

CUT_HEADER = "X-Continual-ARC-Cut"
"""The header of a plain reply the proxy cut, naming why (``spend_cap`` or ``size``)."""

UPSTREAM_BROKE = "upstream_broke"
"""The error code of the event ending a stream whose upstream broke off mid-reply."""

_TEXT_FIELDS = ("content", "reasoning", "reasoning_content", "refusal")


def text_bytes(part: Mapping[str, JSONValue]) -> int:
    """Bytes of text in one ``delta`` or ``message``: content, reasoning, refusal, tool calls."""
    size = sum(len(v.encode()) for k in _TEXT_FIELDS if isinstance(v := part.get(k), str))
    calls = part.get("tool_calls")
    for call in calls if isinstance(calls, list) else []:
        function = call.get("function") if isinstance(call, dict) else None
        if isinstance(function, dict):
            size += sum(
                len(v.encode()) for k in ("name", "arguments") if isinstance(v := function.get(k), str)
            )
    return size


class SseUsageReader:
    """Reads server-sent events as they pass: the last ``usage``, any error, the model, the text's size.

    Attributes:
        usage: the last usage object seen. error: the stream's fault, in words. done: ``[DONE]`` seen.
        model: the model the first chunk naming one named. text_bytes: reply text so far, in bytes.
        generation: the ``id`` the first chunk naming one named (the provider's generation id).
        pending: bytes of an unfinished line (kept until its newline arrives).
    """

    def __init__(self) -> None:
        self.usage: ReportedUsage | None = None
        self.error: str | None = None
        self.done = False
        self.model: str | None = None
        self.generation: str | None = None
        self.text_bytes = 0
        self._pending = b""

    @property
    def pending(self) -> int:
        """Bytes held back: the start of a line whose end has not arrived."""
        return len(self._pending)

    def feed(self, data: bytes, text_limit: int | None = None) -> tuple[bytes, bool]:
        """Take the next bytes of the stream; return those of the lines they complete, to relay.

        With ``text_limit``, lines stop at the first whose text would take the reply past that many
        bytes: that line and the rest are dropped, and the second value is true (the reply is cut).
        """
        *lines, self._pending = (self._pending + data).split(b"\n")
        for n, line in enumerate(lines):
            before = self.text_bytes
            self._line(line.strip())
            if text_limit is not None and self.text_bytes > text_limit:
                self.text_bytes = before  # what crossed the line never reaches the learner
                return b"".join(kept + b"\n" for kept in lines[:n]), True
        return b"".join(line + b"\n" for line in lines), False

    def rest(self) -> bytes:
        """The unfinished line at the stream's end (relayed as it is), emptied."""
        rest, self._pending = self._pending, b""
        if rest.strip():
            self._line(rest.strip())
        return rest

    def _line(self, line: bytes) -> None:
        if not line.startswith(b"data:"):
            return  # comments (": keep-alive"), event names, blank separators
        payload = line[5:].strip()
        if payload == b"[DONE]":
            self.done = True
            return
        try:
            event: JSONValue = json.loads(payload)
        except ValueError:
            self.error = "a streamed chunk is not valid JSON"
            return
        if not isinstance(event, dict):
            self.error = "a streamed chunk is not a JSON object"
            return
        self._event(event)

    def _event(self, event: JSONObject) -> None:
        """Take what one chunk says: its usage (parsed once, here), error, model, id and text."""
        if isinstance(event.get("usage"), dict):
            try:
                self.usage = parse_usage(event["usage"])
            except ValueError as error:
                self.error = str(error)
        if failure := event.get("error"):
            self.error = f"error in stream: {json.dumps(failure)[:300]}"
        if self.model is None and isinstance(model := event.get("model"), str) and model:
            self.model = model
        if self.generation is None and isinstance(named := event.get("id"), str) and named:
            self.generation = named
        choices = event.get("choices")
        for choice in choices if isinstance(choices, list) else []:
            delta = choice.get("delta") if isinstance(choice, dict) else None
            if isinstance(delta, dict):
                self.text_bytes += text_bytes(delta)


def _opened(model: str) -> Opened:
    return Opened(f"chatcmpl-cut-{time.monotonic_ns()}", int(time.time()), model)


def _marker(reason: str, detail: str) -> JSONObject:
    return {"cut": reason, "detail": detail}


def cut_chunk(model: str, reason: str, detail: str) -> bytes:
    """The event that ends a stream the proxy cut, with ``[DONE]`` after it (on a fresh line)."""
    ending = ChunkChoice(index=0, delta=ChoiceDelta(), finish_reason="length")
    chunk = _opened(model).chunk([ending]).model_copy(update={"continual_arc": _marker(reason, detail)})
    return b"\ndata: " + chunk.model_dump_json(exclude_none=True).encode() + b"\n\ndata: [DONE]\n\n"


def stream_error(detail: str) -> bytes:
    """The event that ends a stream whose upstream broke off: the client raises on it, and retries."""
    error: JSONObject = {"message": detail, "type": "continual_arc_proxy", "code": UPSTREAM_BROKE}
    return b"\ndata: " + json.dumps({"error": error}).encode() + b"\n\n"


def cut_reply(model: str, reason: str, detail: str) -> ChatCompletion:
    """A plain reply the proxy cut: no text, ``finish_reason: "length"``, and the mark."""
    reply = _opened(model).completion("", [], "length", None)
    return reply.model_copy(update={"continual_arc": _marker(reason, detail)})


async def read_capped(
    reply: httpx.Response, limit: int, parts: list[bytes] | None = None
) -> tuple[bytes, bool]:
    """A plain reply's body, read up to ``limit`` bytes, and whether it went past them.

    Past them the rest is never read: the connection is closed. ``parts``, when given, receives the
    body's pieces as they arrive: what came before a failure mid-body (the reply's ``id`` in it).
    """
    parts = [] if parts is None else parts
    size = 0
    try:
        async for data in reply.aiter_bytes():
            room = limit - size
            size += len(data)
            # Up to the limit, even of a first piece past it: the reply's ``id`` opens the body.
            parts.append(data[:room])
            if size > limit:
                return b"".join(parts), True
    finally:
        await reply.aclose()
    return b"".join(parts), False
