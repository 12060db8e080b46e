"""What the experiments share: a real Jarvis server on 127.0.0.1 (the HUD's WebSocket, a launch
token of its own, so it runs from a plain shell), the scripted or a real model, and SmolLM2."""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = ["LiveServer", "Tab", "jarvis_server", "next_event", "openai_model", "write_script"]

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.live_server import LiveServer, Tab, write_script  # noqa: E402

from jarvis.app.infra import build_app  # noqa: E402
from jarvis.app.settings import Settings  # noqa: E402
from jarvis.model_layer.provider import Provider  # noqa: E402

SCRIPTED = "experiment"  # the provider name `jarvis_server(provider=…)` registers


@contextmanager
def jarvis_server(
    home: Path, provider: Provider | None = None, **settings: Any
) -> Iterator[LiveServer]:
    """A real `jarvis serve` app in this process: background work off unless asked for.
    `provider` (e.g. a FauxProvider with a script function) answers as the main model."""
    if provider is not None:
        settings["model"] = {"provider": SCRIPTED, "model": SCRIPTED}
    settings.setdefault("scheduler", {"enabled": False})
    settings.setdefault("procedures", {"learn": False, "reflect": False})
    settings.setdefault("openloop", {"enabled": False})
    settings.setdefault("web", {"token": secrets.token_urlsafe(16)})
    config = Settings(home=home, workspace=home, **settings)
    app = build_app(config)
    if provider is not None:
        app.providers.register(SCRIPTED, lambda _settings: provider)
    server = LiveServer(app)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def openai_model(args: Any) -> dict[str, Any]:
    """Model settings for `--base-url` / `--model` (an OpenAI-compatible server)."""
    model: dict[str, Any] = {
        "provider": "openai",
        "base_url": args.base_url,
        "model": args.model,
        "max_tokens": args.max_tokens,
        "temperature": 0.0,
        "max_retries": 0,
    }
    if getattr(args, "api_key", None):
        model["api_key"] = args.api_key
    return model


def model_arguments(parser: argparse.ArgumentParser) -> None:
    """`--base-url`/`--model`/`--api-key`/`--max-tokens`/`--smollm2` (neither: scripted)."""
    parser.add_argument("--base-url", default="")
    parser.add_argument("--model", default="")
    parser.add_argument("--api-key", default=None)
    parser.add_argument("--max-tokens", type=int, default=96)
    parser.add_argument("--smollm2", action="store_true", help="start xllamacpp + SmolLM2 here")


def model_from(parser: argparse.ArgumentParser, args: Any) -> Any:
    """Start SmolLM2 when asked (keep the returned object) and check the pair of options."""
    keep = start_smollm2(args) if args.smollm2 else None
    if bool(args.base_url) != bool(args.model):
        parser.error("give both --base-url and --model (or neither for the scripted model)")
    return keep


def start_smollm2(args: Any) -> Any:
    """`--smollm2`: llama.cpp (xllamacpp) serving SmolLM2 here; keep the returned object."""
    from tests.integration.real_model.conftest import start_real_model

    server = start_real_model()
    args.base_url, args.model = server.base_url, server.model
    return server


async def next_event(tab: Tab, seconds: float = 180) -> dict[str, Any]:
    if tab.events:
        return tab.events.pop(0)
    async with asyncio.timeout(seconds):
        event: dict[str, Any] = json.loads(await tab.ws.recv())
    return event
