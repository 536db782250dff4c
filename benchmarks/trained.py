"""The trained learner on open weights: serving tokens/s, training seconds per round, peak memory.

Usage: python benchmarks/trained.py MODEL_DIR [--max-tokens N] [--max-calls N] [--out DIR]
       python benchmarks/trained.py --tiny       (a random tiny Qwen2 built offline, to try the script)
       python benchmarks/trained.py --estimate   (the memory a 9B model needs, from its shape)

Plays the arc1-smoke stream (one user) with ``TrainedLearner`` on the model in ``MODEL_DIR`` (a
transformers folder; needs the baselines' ``[train]`` extra), on CUDA when present, else CPU, and
prints from its records and its own server's log: the tokens served (prompt and completion) over
the time spent in rounds, completion tokens per second of that time, the training's device-seconds
per round trained, the tokens trained, and the peak memory (CUDA's peak allocation, else the
process's peak resident set, served weights included).

``--estimate`` measures nothing: it derives, from a model's shape alone, the GPU memory the
trained learner needs on a 9B dense model at 1 and 16 users (see ``estimate``).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from continual_arc.measure.report import run_time
from continual_arc.runner import run
from continual_arc.stream.schedule import build_schedule
from continual_arc.tracks.registry import get_config
from continual_arc_baselines.serve import resolve_model
from continual_arc_baselines.trained.learner import TrainedLearner
from continual_arc_baselines.trained.tiny import build_tiny_model

# Qwen3-8B's published shape (36 layers, hidden 4096, 8 key-value heads of 128, MLP 12288, vocabulary
# 151,936), with the parameter count rounded up to 9B for Qwen3.5-9B, whose exact shape is not used.
SHAPE = {"params": 9.0e9, "layers": 36, "hidden": 4096, "kv_heads": 8, "head_dim": 128, "vocab": 151_936}
GIB = 2**30


def estimate(prompt: int = 7000, reply: int = 1024, train_tokens: int = 4096, rank: int = 8) -> None:
    """Print the memory estimate (bf16 weights, the learner's LoRA on q_proj and v_proj, AdamW).

    Serving: the weights, plus a KV cache of ``prompt + reply`` tokens per user. Training (between
    rounds, when nothing is served): the weights, the adapters with their gradients and two AdamW
    moments in float32, and one example of ``train_tokens`` tokens a step without activation
    checkpointing: about 34 bytes per token and hidden unit per layer (Korthikanti et al. 2022,
    attention by SDPA so no quadratic term), plus the logits and their gradient in float32.
    """
    s = SHAPE
    weights = s["params"] * 2
    kv_per_token = 2 * s["layers"] * s["kv_heads"] * s["head_dim"] * 2
    q_out, v_out = s["hidden"], s["kv_heads"] * s["head_dim"]
    lora_params = s["layers"] * rank * ((s["hidden"] + q_out) + (s["hidden"] + v_out))
    lora = lora_params * 4 * 4  # float32 weights, gradients, two moments
    activations = 34 * train_tokens * s["hidden"] * s["layers"]
    logits = 2 * train_tokens * s["vocab"] * 4
    training = weights + lora + activations + logits
    print(f"9B dense model, Qwen3-8B's shape; bf16 weights {weights / GIB:.1f} GiB")
    print(f"KV cache {kv_per_token / 1024:.0f} KiB a token; {prompt} + {reply} tokens a user")
    for users in (1, 16):
        cache = users * (prompt + reply) * kv_per_token
        print(f"serving {users:>2} user(s): weights + KV cache {(weights + cache) / GIB:.1f} GiB")
    print(
        f"LoRA r={rank} on q_proj, v_proj: {lora_params / 1e6:.1f} M parameters, "
        f"{lora / GIB:.2f} GiB with AdamW"
    )
    print(
        f"training one {train_tokens}-token example a step: activations {activations / GIB:.1f} GiB, "
        f"logits {logits / GIB:.1f} GiB; peak {training / GIB:.1f} GiB"
    )


def main() -> None:
    """Play the stream and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("model_dir", nargs="?", type=Path, help="a transformers model folder")
    parser.add_argument("--tiny", action="store_true", help="build and use a random tiny Qwen2")
    parser.add_argument("--estimate", action="store_true", help="print the 9B memory estimate only")
    parser.add_argument("--max-tokens", type=int, default=64, help="a reply's token limit (64)")
    parser.add_argument("--max-calls", type=int, default=2, help="calls per instance (2)")
    parser.add_argument("--out", type=Path, help="the run directory (default: a temporary one)")
    args = parser.parse_args()
    if args.estimate:
        estimate()
        return
    scratch = Path(tempfile.mkdtemp(prefix="trained-bench-"))
    folder = build_tiny_model(scratch / "tiny-qwen2") if args.tiny else args.model_dir
    if folder is None:
        parser.error("give MODEL_DIR or --tiny")
    name = resolve_model(str(folder)).name
    learner = TrainedLearner(
        model=name, weights=str(folder), max_tokens=args.max_tokens, max_calls=args.max_calls
    )
    started = time.perf_counter()
    try:
        result = run(
            learner, build_schedule(get_config("arc1-smoke"), 0, epilogue=False), args.out or scratch / "run"
        )
        served = learner.server.served
        trained = learner.training_resources()
    finally:
        learner.close()
    elapsed = time.perf_counter() - started
    in_rounds = run_time(result.records)
    prompt = sum(s["prompt_tokens"] for s in served)
    completion = sum(s["completion_tokens"] for s in served)
    rounds = max(trained["rounds_trained"], 1.0)
    print(f"model {name}")
    print(f"arc1-smoke stream: {len(result.records)} instances, {len(served)} calls, {elapsed:.1f} s in all")
    print(f"served: {prompt} prompt + {completion} completion tokens in {in_rounds:.1f} s of rounds")
    print(
        f"serving: {completion / in_rounds:.1f} completion tokens/s, "
        f"{(prompt + completion) / in_rounds:.0f} tokens/s in all"
    )
    print(
        f"training: {trained['device_seconds'] / rounds:.2f} device-s per round over {rounds:g} rounds, "
        f"{trained['tokens_trained']:g} tokens trained ({trained['examples_trained']:g} examples)"
    )
    print(f"peak memory: {trained['peak_memory_bytes'] / 2**30:.2f} GiB")


if __name__ == "__main__":
    from record import run as run_benchmark

    run_benchmark("trained", main)
