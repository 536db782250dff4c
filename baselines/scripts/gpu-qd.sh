#!/usr/bin/env bash
# QD on a GPU machine: the student's LoRA adapters trained to imitate a teacher's move in every state
# it met, over the arc1-smoke protocol. Usage:
#   baselines/scripts/gpu-qd.sh MODEL_DIR TEACHER [OUT]
# MODEL_DIR is the student as a transformers folder already on the machine (see gpu-trained.sh for
# fetching one and for the CUDA build of torch); TEACHER is the teacher's model id as OpenRouter names
# it (the paper used GLM-5.3 Flash). The teacher is reached through a tracking proxy of its own, started
# here on port 8788 with its own ledger and spend cap (TEACHER_CAP dollars, 20 unless set), holding
# the OpenRouter key from $OPENROUTER_API_KEY: the learner never sees the key.
set -euo pipefail
model=${1:?usage: gpu-qd.sh MODEL_DIR TEACHER [OUT]}
teacher=${2:?usage: gpu-qd.sh MODEL_DIR TEACHER [OUT]}
out=${3:-runs/qd-$(basename "$model")}
cap=${TEACHER_CAP:-20}
: "${OPENROUTER_API_KEY:?set OPENROUTER_API_KEY, which the proxy of the teacher holds}"
cd "$(dirname "$0")/../.."
python -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else "no CUDA device: this script is for a GPU machine")'
mkdir -p "$out"
continual-arc-baselines proxy --upstream https://openrouter.ai/api/v1 --model "$teacher" \
  --api-key-env OPENROUTER_API_KEY --port 8788 --spend-cap "$cap" --log "$out/teacher-ledger.jsonl" &
proxy=$!
trap 'kill "$proxy"' EXIT
python -c 'import time, httpx
for _ in range(60):
    try:
        httpx.get("http://127.0.0.1:8788/continual-arc/usage").raise_for_status()
        break
    except httpx.HTTPError:
        time.sleep(0.5)
else:
    raise SystemExit("the teacher proxy did not start on port 8788")'
name=$(python -c 'import sys; from continual_arc_baselines.serve import resolve_model; print(resolve_model(sys.argv[1]).name)' "$model")
kwargs=$(python -c 'import json, sys; print(json.dumps({"model": sys.argv[1], "weights": sys.argv[2], "max_tokens": 1024, "teacher": sys.argv[3], "teacher_base_url": "http://127.0.0.1:8788/v1", "teacher_options": {"max_tokens": 4096}}))' "$name" "$model" "$teacher")
# One play at a time: each builds its own copy of the weights and adapters on the one GPU.
continual-arc protocol --config arc1-smoke --jobs 1 --out "$out" \
  --learner continual_arc_baselines.trained:QDLearner --learner-kwargs "$kwargs"
continual-arc report "$out/stream"
