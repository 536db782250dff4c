"""Open weights in this process: the tokenizer, the model, and one batched ``generate``.

torch and transformers are imported here only (the ``[train]`` extra): the rest of the baselines
import without them. Decoding is greedy unless a request asks for a temperature above zero; a
sampled batch draws from a generator seeded with the request's ``seed`` (0 when it names none),
so the same request gives the same reply. On CPU everything runs in float32.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..json_types import JSONValue
from .naming import ModelNotFound, ModelRef
from .tools import Message, plain_messages

__all__ = ["Completion", "Engine", "GenerationKey", "Prompt", "load_engine", "missing_extra"]

_EXTRA = 'the open-weights server needs the [train] extra: pip install -e "./baselines[train]"'


def missing_extra() -> str | None:
    """Why open weights cannot be served here (torch or transformers missing), or ``None``."""
    try:
        import torch  # noqa: F401
        import transformers  # noqa: F401
    except ImportError:
        return _EXTRA
    return None


@dataclass(frozen=True)
class GenerationKey:
    """What requests must share to be decoded in one batch: how they are sampled."""

    temperature: float
    top_p: float
    seed: int


@dataclass(frozen=True)
class Prompt:
    """One request ready to decode: its prompt's token ids and its reply's token limit."""

    ids: tuple[int, ...]
    max_tokens: int


@dataclass(frozen=True)
class Completion:
    """One reply: its text, the tokens it took, and why it stopped (``stop`` or ``length``)."""

    text: str
    pieces: tuple[str, ...]
    prompt_tokens: int
    completion_tokens: int
    finish_reason: str


class Engine:
    """A tokenizer and a causal language model, decoding batches under one lock.

    Args:
        ref: the weights and their name. model: a loaded model (an adapter-wrapped one included).
        tokenizer: its tokenizer, with a chat template.

    Attributes:
        lock: held while decoding; the trained learner holds it while training the same weights.
    """

    # transformers' models and tokenizers are untyped (and imported lazily): Any, as they come.
    def __init__(self, ref: ModelRef, model: Any, tokenizer: Any) -> None:
        self.ref = ref
        self.model = model
        self.tokenizer = tokenizer
        self.lock = threading.Lock()
        if tokenizer.pad_token_id is None:
            tokenizer.pad_token = tokenizer.eos_token
        tokenizer.padding_side = "left"  # replies start at the same column for every row

    @property
    def name(self) -> str:
        """The model's name, as requests and records give it."""
        return self.ref.name

    def encode(
        self, messages: Sequence[Message], tools: Sequence[JSONValue] | None = None
    ) -> tuple[int, ...]:
        """The prompt's token ids: the chat template applied (with any tools), the assistant's turn opened."""
        text = self.tokenizer.apply_chat_template(
            plain_messages(messages),
            tools=list(tools) if tools else None,
            tokenize=False,
            add_generation_prompt=True,
        )
        return tuple(int(i) for i in self.tokenizer(text, add_special_tokens=False)["input_ids"])

    def prompt_tokens(self, body: Mapping[str, JSONValue]) -> int:
        """A chat request's prompt tokens, exactly as this server will count them (its messages and tools).

        The tracking proxy in the same process counts prompts with it instead of estimating them
        ([PromptCounter][continual_arc_baselines.proxy.budget.PromptCounter]).

        Raises:
            ValueError: the request has no list of messages.
        """
        messages, tools = body.get("messages"), body.get("tools")
        if not isinstance(messages, list):
            raise ValueError("a chat request's messages are a list")
        return len(self.encode(messages, tools if isinstance(tools, list) else None))

    def generate(self, prompts: Sequence[Prompt], key: GenerationKey) -> list[Completion]:
        """Decode the prompts in one batch (left-padded), each cut at its own token limit."""
        import torch  # lazy: the train extra's heavy import, paid only once weights are served

        pad = int(self.tokenizer.pad_token_id)
        width = max(len(p.ids) for p in prompts)
        ids = torch.tensor([[pad] * (width - len(p.ids)) + list(p.ids) for p in prompts])
        mask = torch.tensor([[0] * (width - len(p.ids)) + [1] * len(p.ids) for p in prompts])
        options: dict[str, Any] = {"do_sample": key.temperature > 0, "pad_token_id": pad}  # generate's kwargs
        if key.temperature > 0:
            torch.manual_seed(key.seed)
            options.update(temperature=key.temperature, top_p=key.top_p)
        else:
            options.update(temperature=None, top_p=None, top_k=None)
        with self.lock, torch.no_grad():
            self.model.eval()
            out = self.model.generate(
                input_ids=ids,
                attention_mask=mask,
                max_new_tokens=max(p.max_tokens for p in prompts),
                **options,
            )
        return [self._completion(p, out[row, width:].tolist()) for row, p in enumerate(prompts)]

    def _completion(self, prompt: Prompt, new: list[int]) -> Completion:
        stops = _stop_ids(self.model, self.tokenizer)
        tokens, finish = [], "length"
        for token in new[: prompt.max_tokens]:
            tokens.append(int(token))
            if token in stops:
                finish = "stop"
                break
        pieces = tuple(self._pieces(tokens))
        return Completion("".join(pieces), pieces, len(prompt.ids), len(tokens), finish)

    def _pieces(self, tokens: list[int]) -> list[str]:
        """The reply's text split per token (a token that ends a character mid-way joins the next)."""
        pieces, done = [], ""
        for end in range(1, len(tokens) + 1):
            text = self.tokenizer.decode(tokens[:end], skip_special_tokens=True)
            if text.startswith(done) and not text.endswith("\ufffd"):
                pieces.append(text[len(done) :])
                done = text
        return [p for p in pieces if p]


def _stop_ids(model: Any, tokenizer: Any) -> set[int]:  # transformers' (untyped)
    found = getattr(model.generation_config, "eos_token_id", None)
    ids = set(found if isinstance(found, list) else [found] if found is not None else [])
    if tokenizer.eos_token_id is not None:
        ids.add(int(tokenizer.eos_token_id))
    return ids


def load_engine(ref: ModelRef, device: str | None = None) -> Engine:
    """Load the weights ``ref`` names from the disk only (``local_files_only``).

    Raises:
        ModelNotFound: the extra is missing, or the model is not on this machine.
    """
    if (why := missing_extra()) is not None:
        raise ModelNotFound(why)
    # Lazy: torch and transformers are the train extra's, heavy, and checked for just above.
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from transformers.utils import logging

    logging.disable_progress_bar()  # a bar per load: the learner loads once per play
    where = device or ("cuda" if torch.cuda.is_available() else "cpu")
    options: dict[str, Any] = {"local_files_only": True, "revision": ref.revision}  # from_pretrained's
    try:
        tokenizer = AutoTokenizer.from_pretrained(ref.source, **options)
        model = AutoModelForCausalLM.from_pretrained(
            ref.source, dtype=torch.float32 if where == "cpu" else torch.bfloat16, **options
        )
    except OSError as error:
        where_from = f"the folder {ref.source}" if ref.revision is None else "the local Hugging Face cache"
        raise ModelNotFound(
            f"the model {ref.name} is not in {where_from} (nothing is downloaded; fetch it first, "
            f"e.g. `hf download {ref.source} --revision {ref.revision}`): {error}"
        ) from error
    return Engine(ref, model.to(where), tokenizer)
