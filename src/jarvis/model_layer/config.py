"""The model layer's own settings (plain pydantic; `app.settings` composes them)."""

from __future__ import annotations

import ipaddress
from typing import Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, Field, SecretStr

from jarvis.common.i18n import Language

ToolChoice = Literal["auto", "required", "none", "off"]


class ModelSettings(BaseModel):
    provider: str = Field("openai", description="Provider name: openai, anthropic or faux.")
    model: str = Field("llama3.1", description="Model id on the provider.")
    base_url: str = Field("http://localhost:11434/v1", description="OpenAI-compatible endpoint.")
    api_key: SecretStr | None = Field(None, description="API key (Ollama ignores it).")
    timeout_sec: float = Field(
        120.0, gt=0, description="Per-request timeout; a timeout is reported, not retried."
    )
    max_retries: int = Field(
        3,
        ge=0,
        le=10,
        description="Retries on 429/5xx and refused connections, with backoff; never for a "
        "request the server called invalid.",
    )
    tool_choice: ToolChoice = Field(
        "auto",
        description="Sent with tools (llama-cpp-python drops tools without it); `required` forces "
        "a call, `off` leaves the field out for servers that reject it.",
    )
    temperature: float | None = Field(None, ge=0, le=2)
    max_tokens: int | None = Field(
        2048, gt=0, description="Longest answer in tokens (a bound on a runaway stream)."
    )
    background_max_tokens: int = Field(
        512,
        gt=0,
        description="Longest answer of a call nobody waits for (AGENDA judge, reflection, "
        "distillation); such calls also give way to the person's turn (model_layer/lanes.py).",
    )
    context_window: int | None = Field(
        None,
        gt=0,
        description="The model's context in tokens; None: asked from the server (llama.cpp, "
        "Ollama, vLLM) or learned from an overflow.",
    )
    script: str | None = Field(None, description="Faux provider: path to a YAML/JSON script.")
    think_effort: str | None = Field(
        None,
        description='`reasoning_effort` sent on turns the thought router marks "think" (e.g. '
        "high); None sends nothing (most local servers reject the field).",
    )
    accepts_images: bool | None = Field(
        None,
        description="Send tool images as vision input; None: yes for Anthropic and api.openai.com, "
        "no for other OpenAI-compatible servers (a text-only model would refuse them).",
    )

    def runs_locally(self) -> bool:
        """An OpenAI-compatible server on this machine or network (llama.cpp, Ollama): often
        one model slot, so work nobody waits for must not hold it (`lanes`)."""
        if self.provider != "openai":
            return False
        host = urlsplit(self.base_url).hostname or ""
        if host in ("localhost", "host.docker.internal") or host.endswith(".local"):
            return True
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return address.is_loopback or address.is_private or address.is_link_local

    def sends_images(self) -> bool:
        if self.accepts_images is not None:
            return self.accepts_images
        return self.provider == "anthropic" or "api.openai.com" in self.base_url


class StreamOptions(BaseModel):
    temperature: float | None = None
    max_tokens: int | None = None
    # The language of the lines a failed call shows (the person's; None: the provider's own).
    language: Language | None = None
    # The provider's effort setting for a turn the thought router marked "think"
    # (OpenAI-compatible `reasoning_effort`); None: the server's default.
    reasoning_effort: str | None = None
