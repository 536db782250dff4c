#!/usr/bin/env bash
# The trained learner on a GPU machine: serving and training figures for a 7-9B model, then its
# arc1-smoke protocol. Usage: baselines/scripts/gpu-trained.sh MODEL_DIR [OUT]
# MODEL_DIR is a transformers folder already on the machine (e.g. `hf download Qwen/Qwen3-8B
# --local-dir /models/qwen3-8b` run once beforehand: nothing here downloads a model). The
# environment needs the baselines' [train] extra; the pinned torch is a CPU build, so install a CUDA
# build of the same release first (pip install torch==2.13.0 --index-url
# https://download.pytorch.org/whl/cu128), then `pip install -e ".[dev]" -e "./baselines[train]"`.
set -euo pipefail
model=${1:?usage: gpu-trained.sh MODEL_DIR [OUT]}
out=${2:-runs/trained-$(basename "$model")}
cd "$(dirname "$0")/../.."
python -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else "no CUDA device: this script is for a GPU machine")'
python benchmarks/trained.py "$model" --max-tokens 1024 --max-calls 4 --out "$out-bench"
name=$(python -c 'import sys; from continual_arc_baselines.serve import resolve_model; print(resolve_model(sys.argv[1]).name)' "$model")
kwargs=$(python -c 'import json, sys; print(json.dumps({"model": sys.argv[1], "weights": sys.argv[2], "max_tokens": 1024}))' "$name" "$model")
# One play at a time: each builds its own copy of the weights and adapters on the one GPU.
continual-arc protocol --config arc1-smoke --jobs 1 --out "$out" \
  --learner continual_arc_baselines.trained:TrainedLearner --learner-kwargs "$kwargs"
continual-arc report "$out/stream"
