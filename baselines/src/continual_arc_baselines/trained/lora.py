"""LoRA adapters on the served weights: trained on a round's examples, saved, loaded and reset.

The adapters (peft) wrap the `Engine`'s model in place, so
the server decodes with them as soon as a round's training ends. Training holds the engine's lock
(no request is decoded half-way through a step). Everything drawn is seeded: the adapters' first
values by ``seed``, each round's order of examples by ``seed`` and the round's number, so the same
examples give the same adapters on CPU.

Training compute is counted apart from serving: device-seconds (the wall time of training steps
on the one device), tokens trained (every token of every example in every epoch, prompt
included, since the model reads them all), and peak memory (CUDA's peak allocation on a GPU; on
CPU the process's peak resident set, which includes the served weights).
"""

from __future__ import annotations

import contextlib
import json
import random
import resource
import sys
import time
import warnings
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..serve import Engine

if TYPE_CHECKING:  # for the annotations alone: torch loads only when adapters are built
    import torch

__all__ = ["COMPUTE_KEYS", "Adapter", "Example", "LoraSettings"]

COMPUTE_KEYS = (
    "device_seconds",
    "tokens_trained",
    "peak_memory_bytes",
    "rounds_trained",
    "examples_trained",
    "steps_trained",
)
"""The training compute counters, cumulative over the learner's life (a round counts as trained
only when at least one step was taken on it)."""

_ADAPTER, _OPTIMIZER, _TRAINED = "adapter.safetensors", "optimizer.pt", "trained.json"


@dataclass(frozen=True)
class LoraSettings:
    """The adapters and their training (every field a JSON keyword of the trained learner).

    Attributes:
        rank, alpha: LoRA's rank and scale. targets: the projections adapted.
        learning_rate: AdamW's. epochs: passes over a round's examples.
        max_train_tokens: an example longer than this is left out (its tokens are not counted).
        seed: seeds the adapters' first values and each round's order of examples.
    """

    rank: int = 8
    alpha: int = 16
    targets: tuple[str, ...] = ("q_proj", "v_proj")
    learning_rate: float = 1e-3
    epochs: int = 1
    max_train_tokens: int = 4096
    seed: int = 0

    def __post_init__(self) -> None:
        if self.rank < 1 or self.epochs < 0 or self.max_train_tokens < 1 or self.learning_rate <= 0:
            raise ValueError(
                "rank and max_train_tokens must be at least 1, epochs at least 0, the rate positive"
            )


@dataclass(frozen=True)
class Example:
    """One thing to learn, in the fixed format: chat messages and the assistant's reply to them."""

    messages: tuple[Mapping[str, str], ...]
    reply: str


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Silence transformers' notice that peft calls a renamed method (nothing a user can act on)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*is_gradient_checkpointing.*", category=FutureWarning)
        yield


def _peak_memory(cuda_peak: int | None) -> int:
    """The peak memory to count: CUDA's peak allocation on a GPU (``cuda_peak``), else the process's."""
    if cuda_peak is not None:
        return cuda_peak
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak if sys.platform == "darwin" else peak * 1024)  # Linux counts KiB


class Adapter:
    """LoRA adapters over an engine's model, their optimizer and their training compute.

    Args:
        engine: the served model; its ``model`` is replaced by the adapted one.
        settings: the adapters and their training.
    """

    def __init__(self, engine: Engine, settings: LoraSettings) -> None:
        # the [train] extra's, loaded on use, not when this module is read
        import torch
        from peft import LoraConfig, get_peft_model

        self.engine = engine
        self.settings = settings
        torch.manual_seed(settings.seed)
        config = LoraConfig(
            r=settings.rank,
            lora_alpha=settings.alpha,
            target_modules=list(settings.targets),
            lora_dropout=0.0,
        )
        with _quiet():
            engine.model = get_peft_model(engine.model, config)
        self._initial = {k: v.detach().clone() for k, v in self._weights().items()}
        self.optimizer = self._new_optimizer()
        self.compute: dict[str, float] = dict.fromkeys(COMPUTE_KEYS, 0.0)
        self.untrained: list[str] = []  # why each round that trained nothing did, in one sentence

    def _weights(self) -> dict[str, torch.Tensor]:
        # the [train] extra's, loaded on use, not when this module is read
        from peft import get_peft_model_state_dict

        return dict(get_peft_model_state_dict(self.engine.model))

    def _new_optimizer(self) -> torch.optim.Optimizer:
        # the [train] extra's, loaded on use, not when this module is read
        import torch

        params = [p for p in self.engine.model.parameters() if p.requires_grad]
        return torch.optim.AdamW(params, lr=self.settings.learning_rate)

    def weights(self) -> dict[str, torch.Tensor]:
        """A copy of the adapters' tensors, by name."""
        return {k: v.detach().clone() for k, v in self._weights().items()}

    def tokens(self, example: Example) -> tuple[list[int], int]:
        """The example's token ids and how many open it before the reply (not learned, only read)."""
        prompt = self.engine.encode(example.messages)
        messages = [*example.messages, {"role": "assistant", "content": example.reply}]
        text = self.engine.tokenizer.apply_chat_template(messages, tokenize=False)
        ids = [int(i) for i in self.engine.tokenizer(text, add_special_tokens=False)["input_ids"]]
        return ids, len(prompt)

    def train(self, examples: Sequence[Example]) -> None:
        """Train on the round's examples (``epochs`` passes, one example a step); counts the compute."""
        # the [train] extra's, loaded on use, not when this module is read
        import torch

        rounds = int(self.compute["rounds_trained"])
        every = list(map(self.tokens, examples))
        encoded = [t for t in every if len(t[0]) <= self.settings.max_train_tokens]
        if not encoded or not self.settings.epochs:
            if every and not encoded:
                shortest = min(len(ids) for ids, _ in every)
                self.untrained.append(
                    f"max_train_tokens={self.settings.max_train_tokens} left out every one of the round's "
                    f"{len(every)} examples (the shortest has {shortest} tokens): the round trained nothing"
                )
                warnings.warn(self.untrained[-1], stacklevel=2)
            return  # no step taken: the round is not counted as trained
        order = random.Random(f"{self.settings.seed}/{rounds}")
        torch.manual_seed(self.settings.seed * 1_000_003 + rounds)
        started, tokens = time.perf_counter(), 0
        with self.engine.lock, _quiet():
            model = self.engine.model
            model.train()
            for _ in range(self.settings.epochs):
                for ids, opening in order.sample(encoded, len(encoded)):
                    labels = [-100] * opening + ids[opening:]
                    loss = model(input_ids=torch.tensor([ids]), labels=torch.tensor([labels])).loss
                    loss.backward()
                    self.optimizer.step()
                    self.optimizer.zero_grad(set_to_none=True)
                    tokens += len(ids)
                    self.compute["steps_trained"] += 1
            model.eval()
        self.compute["device_seconds"] += time.perf_counter() - started
        self.compute["tokens_trained"] += tokens
        self.compute["examples_trained"] += len(encoded) * self.settings.epochs
        self.compute["rounds_trained"] += 1
        cuda = int(torch.cuda.max_memory_allocated()) if torch.cuda.is_available() else None
        self.compute["peak_memory_bytes"] = float(max(self.compute["peak_memory_bytes"], _peak_memory(cuda)))

    def reset(self) -> None:
        """Back to the base weights: the adapters' first values (zero change) and a fresh optimizer."""
        # the [train] extra's, loaded on use, not when this module is read
        from peft import set_peft_model_state_dict

        with self.engine.lock:
            set_peft_model_state_dict(self.engine.model, self._initial)
        self.optimizer = self._new_optimizer()
        self.compute["rounds_trained"] = 0.0

    def save(self, directory: Path) -> None:
        """Write the adapters (safetensors), the optimizer's state, the counters and any untrained round."""
        # the [train] extra's, loaded on use, not when this module is read
        import torch
        from safetensors.torch import save_file

        directory.mkdir(parents=True, exist_ok=True)
        save_file({k: v.contiguous() for k, v in self.weights().items()}, str(directory / _ADAPTER))
        torch.save(self.optimizer.state_dict(), directory / _OPTIMIZER)
        kept: dict[str, object] = {"compute": self.compute}
        if self.untrained:  # only when there is one: a state that trained every round reads as before
            kept["untrained"] = self.untrained
        (directory / _TRAINED).write_text(json.dumps(kept, sort_keys=True), encoding="utf-8")

    def load(self, directory: Path) -> None:
        """Read what `save` wrote.

        Raises:
            FileNotFoundError: a file is missing.
        """
        # the [train] extra's, loaded on use, not when this module is read
        import torch
        from peft import set_peft_model_state_dict
        from safetensors.torch import load_file

        weights = load_file(str(directory / _ADAPTER))
        with self.engine.lock:
            set_peft_model_state_dict(self.engine.model, weights)
        self.optimizer = self._new_optimizer()
        self.optimizer.load_state_dict(torch.load(directory / _OPTIMIZER, weights_only=True))
        kept = json.loads((directory / _TRAINED).read_text(encoding="utf-8"))
        self.compute = {key: float(kept["compute"].get(key, 0.0)) for key in COMPUTE_KEYS}
        self.untrained = [str(sentence) for sentence in kept.get("untrained", [])]
