"""What a local server says about its model: the context size and a token count.

For the context budget (SPEC §16): the loop can keep a conversation inside the window instead
of learning the size from an overflow error. Each probe is one cheap request; a server that
offers none of them gives None, never an exception.
- llama.cpp `llama-server`: `GET /props` (`default_generation_settings.n_ctx`, per slot),
  `POST /tokenize {"content"}`;
- Ollama: `POST /api/show {"model"}` (`num_ctx` in `parameters` when set, else the model's
  trained `*.context_length`, an upper bound: Ollama's own default window is smaller);
- vLLM: `GET /v1/models` (`max_model_len`), `POST /tokenize {"model", "prompt"}` (`count`).
"""

from __future__ import annotations

import re
from typing import Any

import httpx

_NUM_CTX = re.compile(r"^num_ctx\s+(\d+)", re.MULTILINE)


def server_root(base_url: str) -> str:
    """`http://host:8080/v1` → `http://host:8080`: the native endpoints live at the root."""
    trimmed = base_url.rstrip("/")
    return trimmed[: -len("/v1")] if trimmed.endswith("/v1") else trimmed


async def context_window(base_url: str, model: str, *, timeout_sec: float = 5.0) -> int | None:
    root = server_root(base_url)
    async with httpx.AsyncClient(timeout=timeout_sec) as http:
        props = await _json(http.get(f"{root}/props"))
        n_ctx = _dig(props, "default_generation_settings", "n_ctx")
        if isinstance(n_ctx, int):
            return n_ctx
        shown = await _json(http.post(f"{root}/api/show", json={"model": model}))
        if isinstance(shown, dict):
            match = _NUM_CTX.search(str(shown.get("parameters") or ""))
            if match:
                return int(match.group(1))
            info = shown.get("model_info") or {}
            lengths = [v for k, v in info.items() if k.endswith(".context_length")]
            if lengths and isinstance(lengths[0], int):
                return lengths[0]
        models = await _json(http.get(f"{base_url.rstrip('/')}/models"))
        for entry in _dig(models, "data") or []:
            if isinstance(entry, dict) and entry.get("id") == model:
                length = entry.get("max_model_len")
                return length if isinstance(length, int) else None
    return None


async def count_tokens(
    base_url: str, model: str, text: str, *, timeout_sec: float = 5.0
) -> int | None:
    root = server_root(base_url)
    async with httpx.AsyncClient(timeout=timeout_sec) as http:
        body = {"content": text, "model": model, "prompt": text}
        answer = await _json(http.post(f"{root}/tokenize", json=body))
    if isinstance(answer, dict):
        if isinstance(answer.get("count"), int):
            return int(answer["count"])
        if isinstance(answer.get("tokens"), list):
            return len(answer["tokens"])
    return None


async def _json(request: Any) -> Any:
    try:
        response: httpx.Response = await request
        return response.json() if response.status_code == 200 else None
    except (httpx.HTTPError, ValueError):
        return None


def _dig(data: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data
