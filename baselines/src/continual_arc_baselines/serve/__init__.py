"""Open weights as an OpenAI-compatible endpoint: ``continual-arc-baselines serve MODEL``.

`resolve_model` names the weights (`naming`), `load_engine` loads them from the
disk only (`engine`; vLLM on a GPU when it is installed, else transformers), and
`ServeHandle` answers chat completions over them, batching concurrent requests (`app`,
`batcher`). Put the tracking proxy in front of it like any endpoint
(``proxy --upstream http://127.0.0.1:PORT/v1 --model NAME``).
"""

from .app import RequestError, ServeHandle, parse_request
from .batcher import Batched, Batcher
from .engine import Completion, Engine, GenerationKey, Prompt, load_engine, missing_extra
from .naming import ModelNotFound, ModelRef, folder_digest, resolve_model

__all__ = [
    "Batched",
    "Batcher",
    "Completion",
    "Engine",
    "GenerationKey",
    "ModelNotFound",
    "ModelRef",
    "Prompt",
    "RequestError",
    "ServeHandle",
    "folder_digest",
    "load_engine",
    "missing_extra",
    "parse_request",
    "resolve_model",
]
