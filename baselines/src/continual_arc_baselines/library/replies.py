"""A model's reply as a learner keeps it: the text it reads, and the entry in its transcript."""

from __future__ import annotations

from continual_arc_baselines.model import ChatResult

from ..json_types import JSONObject

__all__ = ["kept_reply", "reply_entry"]


def kept_reply(text: str, limit: int) -> str:
    """The reply as the learner reads it: whole, or its first ``limit`` characters and a note."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}\n[... {len(text) - limit} more characters of this reply were cut]"


def reply_entry(result: ChatResult, text: str) -> JSONObject:
    """A reply as the instance's transcript keeps it: the text read, usage, finish and model, marks."""
    entry: JSONObject = {
        "role": "assistant",
        "content": text,
        "usage": {
            "prompt_tokens": result.prompt_tokens,
            "completion_tokens": result.completion_tokens,
            "reasoning_tokens": result.reasoning_tokens,
            "cost": result.cost,
        },
        "finish_reason": result.finish_reason,
        "model": result.model,
    }
    # A reply cut short (by the proxy, or here) is an ordinary, if likely wrong, answer: marked, not failed.
    if result.cut is not None or text != result.text:
        entry["cut"] = result.cut or "max_reply_chars"
    if result.model_mismatch:
        entry["model_mismatch"] = True
    return entry
