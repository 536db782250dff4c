"""A tiny model of a real architecture (Qwen2), with random weights, built offline: for tests and trials.

`build_tiny_model` writes a folder ``serve`` and the trained learner read like any
downloaded model: a Qwen2 configuration and weights (a couple of layers, hidden size 32 by
default) and a word-and-character tokenizer with a ChatML chat template. It answers nonsense, but
every count, batch, adapter and state file is real. Nothing is downloaded.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["CHAT_TEMPLATE", "build_tiny_model"]

CHAT_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
"""ChatML, as Qwen's models use it."""

_SPECIAL = ["<pad>", "<unk>", "<|im_start|>", "<|im_end|>"]
_WORDS = [
    "the",
    "a",
    "an",
    "of",
    "to",
    "is",
    "and",
    "input",
    "output",
    "test",
    "grid",
    "wrong",
    "answer",
    "reply",
    "with",
    "you",
    "rule",
]


def _tokenizer() -> object:
    # the [train] extra's, loaded on use, not when this module is read
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    # Byte-level, as Qwen's tokenizer is: every byte a token, and a few whole words. A known word is
    # one token; any other text (digits and spaces included) a token a byte, so a grid's text is
    # two tokens a cell.
    symbols = sorted(pre_tokenizers.ByteLevel.alphabet())
    vocab = {token: i for i, token in enumerate([*_SPECIAL, *symbols, *_WORDS])}
    core = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    words = "|".join(_WORDS)
    core.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(rf"\b(?:{words})\b|[\s\S]"), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    )
    core.decoder = decoders.ByteLevel()
    return PreTrainedTokenizerFast(
        tokenizer_object=core,
        pad_token="<pad>",
        unk_token="<unk>",
        eos_token="<|im_end|>",
        additional_special_tokens=["<|im_start|>"],
        chat_template=CHAT_TEMPLATE,
    )


def build_tiny_model(
    folder: Path, *, hidden: int = 32, layers: int = 2, context: int = 32768, seed: int = 0
) -> Path:
    """Write a random tiny Qwen2 model and its tokenizer to ``folder``; returns the folder."""
    # the [train] extra's, loaded on use, not when this module is read
    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM
    from transformers.utils import logging

    logging.disable_progress_bar()

    tokenizer = _tokenizer()
    vocab = len(tokenizer)  # type: ignore[arg-type]
    config = Qwen2Config(
        vocab_size=vocab,
        hidden_size=hidden,
        intermediate_size=hidden * 2,
        num_hidden_layers=layers,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=context,
        tie_word_embeddings=True,
        eos_token_id=tokenizer.eos_token_id,  # type: ignore[attr-defined]
        pad_token_id=tokenizer.pad_token_id,  # type: ignore[attr-defined]
        bos_token_id=None,
    )
    torch.manual_seed(seed)
    model = Qwen2ForCausalLM(config)
    folder.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)  # type: ignore[attr-defined]
    return folder
