"""Tool calls on open weights, for the agent harnesses: tools into the chat template, calls out of the reply.

The request's ``tools`` are handed to the model's chat template (``apply_chat_template(...,
tools=...)``), which writes them as the model was trained to read them; messages whose content is
a list of text parts are joined into one string first. A reply's calls are read in the format of
Qwen's and Hermes' templates, ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``: each
well-formed block becomes an OpenAI ``tool_calls`` entry (with an id made from the reply and its
index), and the text outside the blocks stays the content. A model that writes calls otherwise is
answered with its text only.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence

from openai.types.chat.chat_completion_message_function_tool_call import Function

from ..chat_wire import ToolCall
from ..json_types import JSONValue

__all__ = ["Message", "plain_messages", "read_tool_calls"]

_CALL = re.compile(r"<tool_call>\s*(.*?)\s*</tool_call>", re.DOTALL)


Message = Mapping[str, JSONValue] | JSONValue
"""A chat message as a request holds it (a JSON object), or whatever stands in its place."""


def plain_messages(messages: Sequence[Message]) -> list[JSONValue]:
    """Copies of the messages, every list of content parts joined into its text (templates read strings).

    A message that is no JSON object is left as it is, for the chat template to refuse.
    """
    plain: list[JSONValue] = []
    for message in messages:
        if not isinstance(message, Mapping):
            plain.append(message)
            continue
        copy = dict(message)
        if isinstance(parts := copy.get("content"), list):
            copy["content"] = "\n".join(str(p.get("text", "")) for p in parts if isinstance(p, dict))
        plain.append(copy)
    return plain


def read_tool_calls(text: str) -> tuple[str, list[ToolCall]]:
    """The reply's text outside its well-formed ``<tool_call>`` blocks, and those calls (OpenAI's)."""
    calls: list[ToolCall] = []
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]

    def take(match: re.Match[str]) -> str:
        try:
            call = json.loads(match[1])
        except ValueError:
            return match[0]
        if not isinstance(call, dict) or not isinstance(call.get("name"), str):
            return match[0]
        arguments = call.get("arguments", {})
        arguments = arguments if isinstance(arguments, str) else json.dumps(arguments)
        function = Function(name=call["name"], arguments=arguments)
        calls.append(ToolCall(id=f"call_{digest}_{len(calls)}", type="function", function=function))
        return ""

    rest = _CALL.sub(take, text)
    return (rest.strip() if calls else text), calls
