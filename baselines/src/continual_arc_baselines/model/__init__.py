"""Calling a model: a counted, retrying client for any OpenAI-compatible chat endpoint."""

from continual_arc_baselines.model.client import (
    INSTANCE_HEADER,
    RUN_HEADER,
    ChatResult,
    ModelClient,
    Usage,
    instance_mark,
)
from continual_arc_baselines.model.retry import Backoff, ModelCallError

__all__ = [
    "INSTANCE_HEADER",
    "RUN_HEADER",
    "Backoff",
    "ChatResult",
    "ModelCallError",
    "ModelClient",
    "Usage",
    "instance_mark",
]
