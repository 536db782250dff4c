"""What the tracking proxy refuses, kept as data, and the check of one request against it.

The proxy forwards chat requests for the models it was started with, and nothing that makes the
provider fetch or run something on the learner's behalf: such work is uncounted (a web search, a
fetched page or file, a fallback to another model) and would make two learners' costs incomparable.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from ..json_types import JSONObject, JSONValue

__all__ = [
    "ALLOWED_CONTENT_PARTS",
    "ALLOWED_TOOL_TYPES",
    "REFUSED_FIELDS",
    "Refusal",
    "check_request",
]

REFUSED_FIELDS: Mapping[str, str] = {
    "web_search_options": "makes the provider search the web",
    "plugins": "makes the provider run plugins (web search, file parsing, ...)",
    "models": "lets the router fall back to other models",
    "route": "lets the router fall back to other models",
    "preset": "applies stored provider settings, which may name other models or tools",
}
"""Top-level request fields refused whatever their value, with the reason."""

ALLOWED_TOOL_TYPES = frozenset({"function"})
"""Tool types allowed in ``tools``: a function tool is run by the learner, never by the provider.
Any other type (``web_search``, ``code_interpreter``, ``file_search``, ``mcp``, ...) is refused."""

ALLOWED_CONTENT_PARTS: Mapping[str, str] = {
    "text": "",
    "image_url": "inline only: a data: URL, never a remote one",
    "input_audio": "inline only: base64 data, never a URL",
}
"""Message content part types allowed, with their condition; any other type (``file``, ``video_url``,
...) is refused."""


@dataclass(frozen=True)
class Refusal:
    """A request the proxy will not forward.

    Attributes:
        status: the HTTP status answered (400 malformed or refused field, 402 spend cap, 403 model,
            404 endpoint, 405 method).
        kind: a short machine-readable name (``"model"``, ``"field"``, ``"spend_cap"``, ...).
        message: the reason in words.
        value: for a limit, the amount reached (e.g. the run's spend in USD).
        limit: for a limit, the limit (e.g. the spend cap in USD).
    """

    status: int
    kind: str
    message: str
    value: float | None = None
    limit: float | None = None

    def body(self) -> JSONObject:
        """The JSON error body, in the OpenAI error shape."""
        error: JSONObject = {"message": self.message, "type": "continual_arc_proxy", "code": self.kind}
        if self.limit is not None:
            error["value"], error["limit"] = self.value, self.limit
        return {"error": error}


def _is_remote(url: JSONValue) -> bool:
    return not (isinstance(url, str) and url.strip().lower().startswith("data:"))


def _check_part(part: JSONValue, where: str) -> Refusal | None:
    if not isinstance(part, dict):
        return None  # not ours to validate: the upstream rejects malformed messages
    kind = part.get("type")
    if kind not in ALLOWED_CONTENT_PARTS:
        return Refusal(400, "content_part", f"{where}: content parts of type {kind!r} are refused")
    if kind == "image_url":
        image = part.get("image_url")
        url = image.get("url") if isinstance(image, dict) else image
        if _is_remote(url):
            return Refusal(
                400, "remote_url", f"{where}: image_url must be an inline data: URL, not a remote one"
            )
    if kind == "input_audio":
        audio = part.get("input_audio")
        data = audio.get("data") if isinstance(audio, dict) else None
        if isinstance(data, str) and "://" in data[:16]:
            return Refusal(400, "remote_url", f"{where}: input_audio must be inline base64 data, not a URL")
    return None


def _check_messages(messages: JSONValue) -> Refusal | None:
    if not isinstance(messages, list):
        return None
    for i, message in enumerate(messages):
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, list):
            for j, part in enumerate(content):
                refusal = _check_part(part, f"messages[{i}].content[{j}]")
                if refusal is not None:
                    return refusal
    return None


def _check_model(model: JSONValue, models: Collection[str]) -> Refusal | None:
    if isinstance(model, str) and model in models:
        return None
    allowed = ", ".join(sorted(models))
    if isinstance(model, str) and ":" in model and model.rsplit(":", 1)[0] in models:
        suffix = model.rsplit(":", 1)[1]
        return Refusal(403, "model", f"model variant {model!r} is refused (':{suffix}'); allowed: {allowed}")
    return Refusal(403, "model", f"model {model!r} is not one this proxy serves; allowed: {allowed}")


def check_request(body: JSONValue, models: Collection[str]) -> Refusal | None:
    """Why a chat-completion request body must not be forwarded, or ``None`` if it may be.

    Args:
        body: the parsed JSON body.
        models: the model ids the proxy was started with (matched exactly: ``x:online`` is not ``x``).
    """
    if not isinstance(body, dict):
        return Refusal(400, "body", "the request body must be a JSON object")
    refusal = _check_model(body.get("model"), models)
    if refusal is not None:
        return refusal
    for name, why in REFUSED_FIELDS.items():
        if name in body:
            return Refusal(400, "field", f"the field {name!r} is refused: it {why}")
    tools = body.get("tools") or []
    if not isinstance(tools, list):
        return Refusal(400, "tool", "tools must be a list of function tools")
    for tool in tools:
        kind = tool.get("type") if isinstance(tool, dict) else None
        if kind not in ALLOWED_TOOL_TYPES:
            return Refusal(
                400, "tool", f"tools of type {kind!r} are refused: only function tools are allowed"
            )
    return _check_messages(body.get("messages"))
