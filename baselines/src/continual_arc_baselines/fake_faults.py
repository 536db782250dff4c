"""The fake server's faulty replies and token counting (see `continual_arc_baselines.fake_server`).

Kept apart from the server so each stays short: `FaultReplies` is mixed into its request
handler, and writes a runaway reply, one that dies mid-way, or one that is not valid JSON.
"""

from __future__ import annotations

import json
import socket
import struct
import time
from collections.abc import Mapping
from http.server import BaseHTTPRequestHandler
from typing import Any, Protocol

__all__ = ["FaultReplies", "Recorder", "count_words", "make_chunk", "prompt_tokens"]


class Recorder(Protocol):
    """What the faults note on the server: the text and the usage written, the generations billed."""

    def open_generation(self, usage: Mapping[str, Any] | None, model: str, stream: bool) -> str:
        """Bill a reply about to be written; its generation id."""

    def note_text(self, size: int, new: bool = False) -> None:
        """Count reply text written (``new``: a reply's first)."""

    def note_usage(self, usage: Mapping[str, Any]) -> None:
        """Note a usage object written to a client."""


def count_words(text: str) -> int:
    """The fake server's token count: the number of whitespace-separated words."""
    return len(text.split())


def prompt_tokens(body: Mapping[str, Any]) -> int:
    """The fake server's prompt tokens: the words of the messages' text."""
    total = 0
    for message in body.get("messages") or []:
        content = message.get("content") if isinstance(message, Mapping) else None
        if isinstance(content, str):
            total += count_words(content)
        elif isinstance(content, list):
            total += sum(count_words(str(p.get("text", ""))) for p in content if isinstance(p, Mapping))
    return total


def make_chunk(
    base: dict[str, Any], delta: dict[str, Any], finish: str | None, usage: bool
) -> dict[str, Any]:
    """One streamed chunk with one choice's ``delta`` (and a null usage, when usage is reported)."""
    chunk = {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    if usage:
        chunk["usage"] = None  # OpenAI's convention: every chunk but the last carries a null usage
    return chunk


class FaultReplies(BaseHTTPRequestHandler):
    """Faulty replies, for a request handler whose ``owner`` records what it wrote."""

    owner: Recorder

    def runaway(self, body: Mapping[str, Any], model: str, size: int) -> None:
        """Reply text of ``size`` bytes, whatever the request's limits, until the client hangs up."""
        piece, words = "w " * 512, 512  # 1 KiB of text, 512 of the fake's tokens
        pieces = max(1, size // len(piece))
        usage = {"prompt_tokens": prompt_tokens(body), "completion_tokens": pieces * words}
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        generation = self.owner.open_generation(usage, model, bool(body.get("stream")))
        base = {"id": generation, "created": int(time.time()), "model": model}
        self.owner.note_text(0, new=True)
        self.close_connection = True
        if body.get("stream"):
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")
            self.end_headers()
            for _ in range(pieces):
                chunk = make_chunk(
                    {**base, "object": "chat.completion.chunk"}, {"content": piece}, None, True
                )
                self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.owner.note_text(len(piece))
            last = {**base, "object": "chat.completion.chunk", "choices": [], "usage": usage}
            self.wfile.write(f"data: {json.dumps(last)}\n\ndata: [DONE]\n\n".encode())
            self.owner.note_usage(usage)
            return
        message = {"role": "assistant", "content": "<TEXT>"}
        choice = {"index": 0, "message": message, "finish_reason": "stop"}
        head, tail = json.dumps({**base, "choices": [choice], "usage": usage}).encode().split(b"<TEXT>")
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(head) + pieces * len(piece) + len(tail)))
        self.end_headers()
        self.wfile.write(head)
        for _ in range(pieces):
            self.wfile.write(piece.encode())
            self.owner.note_text(len(piece))
        self.wfile.write(tail)
        self.owner.note_usage(usage)

    def die_plain(self, payload: Mapping[str, Any]) -> None:
        """Promise the whole body, send half of it, and drop the connection."""
        data = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data[: len(data) // 2])
        self.wfile.flush()
        self.owner.note_text(0, new=True)
        self.close_connection = True

    def reset(self) -> None:
        """Reset the connection (TCP RST) before writing a byte: the request is dropped unanswered."""
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.close_connection = True
        self.connection.close()

    def malformed(self, stream: bool, generation: str) -> None:
        """A 200 that breaks off mid-JSON: a truncated body, or a stream with a broken chunk."""
        head = json.dumps({"id": generation})[:-1].encode()
        broken = head + b', "choices": [{"index": 0, "delta": {"content": "par'
        if stream:
            data = b"data: " + broken + b"\n\ndata: [DONE]\n\n"
            media = "text/event-stream"
        else:
            data, media = broken, "application/json"
        self.send_response(200)
        self.send_header("Content-Type", media)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
