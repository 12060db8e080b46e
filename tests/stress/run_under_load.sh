#!/usr/bin/env bash
# The timing-sensitive suites, run while the CPU is overloaded: a test that passes only on an
# idle machine (a sleep used as synchronisation, a wall-clock budget) fails here.
#
#   bash tests/stress/run_under_load.sh [PYTEST ARGS...]
#
# Load: `stress-ng --cpu $LOAD_WORKERS` (apt-get install stress-ng), else as many Python busy
# loops. LOAD_WORKERS defaults to 4 (twice the cores of the CI machine kind). Without
# arguments it runs the MCP, web, extension, open-loop and file-fault suites.
set -euo pipefail
cd "$(dirname "$0")/../.."
LOAD_WORKERS="${LOAD_WORKERS:-4}"
PYTHON=.venv/bin/python
[ -x "$PYTHON" ] || PYTHON=python3

load_pids=()
stop_load() {
  for pid in "${load_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${load_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap stop_load EXIT

if command -v stress-ng >/dev/null 2>&1; then
  # Bounded, so a killed script never leaves the load behind for long.
  stress-ng --cpu "$LOAD_WORKERS" --timeout 3600s --quiet &
  load_pids+=("$!")
  echo "· load: stress-ng --cpu $LOAD_WORKERS"
else
  for _ in $(seq "$LOAD_WORKERS"); do
    "$PYTHON" -c 'import time
end = time.monotonic() + 3600
while time.monotonic() < end:
    pass' &
    load_pids+=("$!")
  done
  echo "· load: $LOAD_WORKERS Python busy loops (stress-ng not installed)"
fi

if [ "$#" -eq 0 ]; then
  set -- tests/integration/mcp tests/integration/web tests/integration/extensions \
    tests/integration/openloop tests/faults -q
fi
"$PYTHON" -m pytest "$@"
echo "· load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
