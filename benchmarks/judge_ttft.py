"""Time to the first token of the reply on a one-slot local model server, with the AGENDA judge
off, beside the reply, and after it.

Starts llama.cpp's server (PyPI `xllamacpp`, CPU) with SmolLM2-135M and ONE slot, and a real
Jarvis server (uvicorn, the real assembly) pointed at it; each turn is a fresh session with the
same prompt; time from the prompt sent to the first streamed text. Median of `--turns`.

    .venv/bin/python benchmarks/judge_ttft.py [--turns 5]
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.integration.real_model import conftest as real
from tests.support.live_server import LiveServer, Tab

from jarvis.app.infra import build_app
from jarvis.app.settings import Settings

PROMPT = "I must send the quarterly report to my manager by 3 pm tomorrow. Any tips?"


async def model_idle(base_url: str) -> None:
    """Until the model server's slot is free again (the judge may still run after a reply)."""
    root = base_url.removesuffix("/v1")
    async with httpx.AsyncClient() as http:
        while True:
            slots = (await http.get(f"{root}/slots")).json()
            if not any(slot.get("is_processing") for slot in slots):
                return
            await asyncio.sleep(0.05)


async def ttft(server: LiveServer, base_url: str) -> float:
    await model_idle(base_url)  # each measurement starts with the server at rest
    tab = await Tab.open(server.ws_url())
    await tab.next("session")
    started = time.perf_counter()
    await tab.send(type="prompt", text=PROMPT)
    while True:
        event = await tab.next(("message_update", "agent_end", "agent_error"), timeout=300)
        if event["type"] != "message_update" or event.get("text_delta"):
            first = time.perf_counter() - started
            break
    await tab.next(("agent_end", "agent_error"), timeout=300)
    await tab.close()
    return first


async def measure(base_url: str, model: str, judge: str, turns: int) -> list[float]:
    settings: dict[str, Any] = {"enabled": judge != "off"}
    if judge != "off":
        settings["judge_timing"] = judge
    with tempfile.TemporaryDirectory() as home:
        config = Settings(
            home=Path(home),
            workspace=Path(home),
            language="en",
            model={"provider": "openai", "base_url": base_url, "model": model, "max_tokens": 32},
            openloop=settings,
            web={"token": secrets.token_urlsafe(8)},
        )
        server = LiveServer(build_app(config))
        server.start()
        try:
            await ttft(server, base_url)  # warm-up
            results = [await ttft(server, base_url) for _ in range(turns)]
            await model_idle(base_url)
        finally:
            server.stop()
    return results


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=5)
    args = parser.parse_args()
    real.SLOTS = 1  # the common case: one model slot
    model = real.start_real_model()
    try:
        rows = {
            j: await measure(model.base_url, model.model, j, args.turns)
            for j in ("off", "concurrent", "after_reply")
        }
    finally:
        del model.server
    print(f"time to first token, one-slot llama.cpp + SmolLM2-135M, median of {args.turns}")
    print("| AGENDA judge | median ms | max ms |\n|---|---|---|")
    for judge, values in rows.items():
        print(f"| {judge} | {statistics.median(values) * 1000:.0f} | {max(values) * 1000:.0f} |")


if __name__ == "__main__":
    asyncio.run(main())
