"""The container's health check: the server answers `GET /api/health` (no login needed)."""

import json
import os
import sys
import urllib.request

port = os.environ.get("JARVIS_WEB__PORT", "8000")
try:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=4) as response:
        healthy = response.status == 200 and json.load(response).get("ok") is True
except OSError:
    healthy = False
sys.exit(0 if healthy else 1)
