"""vLLM in place of transformers, when it is installed and a GPU is present (``serve`` only).

vLLM batches on its own; the `Batcher` hands it whatever
arrived together. The counts are vLLM's own token ids: the prompt as the chat template makes it,
the reply as decoded. Not exercised by the tests (no GPU there); the trained learner always uses
transformers, since it trains the weights it serves.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Sequence
from typing import Any

from .engine import Completion, Engine, GenerationKey, Prompt
from .naming import ModelRef

__all__ = ["load_vllm", "vllm_usable"]


def vllm_usable() -> bool:
    """Whether vLLM is installed and a CUDA device is present."""
    if importlib.util.find_spec("vllm") is None:
        return False
    import torch  # lazy: torch is the train extra's, and heavy to import just to ask about a GPU

    return bool(torch.cuda.is_available())


class _VllmEngine(Engine):
    def generate(self, prompts: Sequence[Prompt], key: GenerationKey) -> list[Completion]:
        from vllm import SamplingParams  # lazy: vLLM is optional, found by vllm_usable

        params = [
            SamplingParams(
                max_tokens=p.max_tokens, temperature=key.temperature, top_p=key.top_p, seed=key.seed
            )
            for p in prompts
        ]
        inputs = [{"prompt_token_ids": list(p.ids)} for p in prompts]
        with self.lock:
            outputs = self.model.generate(inputs, params, use_tqdm=False)
        done = []
        for prompt, output in zip(prompts, outputs, strict=True):
            first = output.outputs[0]
            pieces = tuple(self._pieces([int(i) for i in first.token_ids]))
            finish = "length" if first.finish_reason == "length" else "stop"
            done.append(Completion(first.text, pieces, len(prompt.ids), len(first.token_ids), finish))
        return done


def load_vllm(ref: ModelRef) -> Engine:
    """The weights ``ref`` names, in vLLM (from the disk only)."""
    from vllm import LLM  # lazy: vLLM is optional, found by vllm_usable

    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # vLLM reads the cache through the hub: never download
    llm: Any = LLM(model=ref.source, revision=ref.revision, seed=0)  # vLLM's engine is untyped
    return _VllmEngine(ref, llm, llm.get_tokenizer())
