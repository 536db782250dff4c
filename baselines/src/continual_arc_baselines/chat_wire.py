"""The OpenAI chat wire as the servers here write it, typed by the ``openai`` package's models.

``serve`` ([serve.app][continual_arc_baselines.serve.app]) and the fake model server
([fake_server][continual_arc_baselines.fake_server]) build every reply through `Opened`: a whole
``ChatCompletion``, or the chunks of a streamed one (the role, the text in pieces, each tool call,
the finish, then the usage when the request asked for it). They are written as OpenAI writes them
(`chunk_json`): ``finish_reason`` null until the last chunk, and, when the stream reports usage, a
null ``usage`` on every chunk but the one that carries it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from openai.types import CompletionUsage
from openai.types.chat import ChatCompletion, ChatCompletionChunk, ChatCompletionMessage
from openai.types.chat import ChatCompletionMessageFunctionToolCall as ToolCall
from openai.types.chat.chat_completion import Choice
from openai.types.chat.chat_completion_chunk import Choice as ChunkChoice
from openai.types.chat.chat_completion_chunk import ChoiceDelta, ChoiceDeltaToolCall

__all__ = ["Finish", "Opened", "ToolCall", "chunk_json", "event"]

Finish = Literal["stop", "length", "tool_calls", "content_filter", "function_call"]
"""Why a reply ended, as OpenAI names it."""


@dataclass(frozen=True)
class Opened:
    """What every part of one reply names: its id, when it was made, and the model."""

    id: str
    created: int
    model: str

    def chunk(self, choices: list[ChunkChoice], usage: CompletionUsage | None = None) -> ChatCompletionChunk:
        """One chunk of the streamed reply."""
        return ChatCompletionChunk(
            id=self.id,
            created=self.created,
            model=self.model,
            object="chat.completion.chunk",
            choices=choices,
            usage=usage,
        )

    def completion(
        self, text: str, calls: Sequence[ToolCall], finish: Finish, usage: CompletionUsage | None
    ) -> ChatCompletion:
        """The whole reply in one body (``usage`` left out when ``None``)."""
        message = ChatCompletionMessage(role="assistant", content=text, tool_calls=list(calls) or None)
        return ChatCompletion(
            id=self.id,
            created=self.created,
            model=self.model,
            object="chat.completion",
            choices=[Choice(index=0, message=message, finish_reason=finish)],
            usage=usage,
        )

    def chunks(
        self, pieces: Sequence[str], calls: Sequence[ToolCall], finish: Finish, usage: CompletionUsage | None
    ) -> list[ChatCompletionChunk]:
        """The streamed reply: the role, a chunk a piece of text, one a call, the finish, the usage."""
        deltas = [ChoiceDelta(role="assistant", content="")]
        deltas += [ChoiceDelta(content=piece) for piece in pieces]
        deltas += [
            ChoiceDelta(tool_calls=[ChoiceDeltaToolCall.model_validate({"index": n, **call.model_dump()})])
            for n, call in enumerate(calls)
        ]
        last = len(deltas)
        deltas.append(ChoiceDelta())
        chunks = [
            self.chunk([ChunkChoice(index=0, delta=delta, finish_reason=finish if n == last else None)])
            for n, delta in enumerate(deltas)
        ]
        if usage is not None:
            chunks.append(self.chunk([], usage))
        return chunks


def chunk_json(chunk: ChatCompletionChunk, *, reports_usage: bool) -> dict[str, object]:
    """A chunk as OpenAI writes it: ``finish_reason`` null until the last, ``usage`` null until its own."""
    wire = chunk.model_dump(exclude_none=True)
    for choice, typed in zip(wire.get("choices") or [], chunk.choices, strict=True):
        choice["finish_reason"] = typed.finish_reason
    if reports_usage and chunk.usage is None:
        wire["usage"] = None
    return wire


def event(payload: object) -> bytes:
    """One server-sent event carrying ``payload`` as JSON."""
    return f"data: {json.dumps(payload)}\n\n".encode()
