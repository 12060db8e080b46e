"""Embedders at the boundary: cosines merge paraphrases, never near misses; failures fall back."""

from __future__ import annotations

import math
from collections.abc import Iterator
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from jarvis.agent_layer.openloop.openloop_types import (
    CandidateLoop,
    JudgeFrame,
    LoopScope,
    OpenLoopConfig,
)
from jarvis.agent_layer.openloop.service import OpenLoopService
from jarvis.agent_layer.openloop.store import MemoryOpenLoopStore
from jarvis.common.clock import Clock
from jarvis.model_layer.embeddings import EmbeddingSettings, OllamaEmbedder, cosine
from tests.support.ports import free_port
from tests.support.scripted_http import Scripted, ScriptedServer, json_body, serve

SEOUL = ZoneInfo("Asia/Seoul")
SCOPE = LoopScope(agent_id="main", user_id="u", session_id="s")


class Fixed(Clock):
    def now_ms(self) -> int:
        return int(datetime(2026, 10, 11, 9, tzinfo=SEOUL).timestamp() * 1000)


@pytest.fixture
def ollama() -> Iterator[ScriptedServer]:
    yield from serve()


def unit_pair(cos: float) -> tuple[list[float], list[float]]:
    return [1.0, 0.0], [cos, math.sqrt(1 - cos * cos)]


def frame(description: str, evidence: str) -> JudgeFrame:
    return JudgeFrame(new=[CandidateLoop(description=description, evidence=evidence)])


async def service_with(url: str) -> OpenLoopService:
    embedder = OllamaEmbedder(EmbeddingSettings(provider="ollama", base_url=url))
    return OpenLoopService(MemoryOpenLoopStore(), OpenLoopConfig(), SEOUL, Fixed(), embedder)


async def test_cosine_merges_a_paraphrase_the_text_rules_miss(ollama: ScriptedServer) -> None:
    service = await service_with(ollama.url)
    first = await service.apply(
        SCOPE, "참석자 목록 확정해야 해", frame("참석자 목록 확정", "참석자 목록 확정해야 해"), []
    )
    new, old = unit_pair(0.92)
    ollama.add(
        Scripted(content_type="application/json", chunks=json_body({"embeddings": [new, old]}))
    )
    text = "참석자들의 최종 리스트 확정해야 해"
    second = await service.apply(
        SCOPE, text, frame("참석자들의 최종 리스트 확정", text), first.created
    )
    assert second.created == [] and [s.reason for s in second.skipped] == ["duplicate"]
    assert ollama.received[0].body == {
        "model": "bge-m3",
        "input": ["참석자들의 최종 리스트 확정", "참석자 목록 확정"],
    }


async def test_a_near_miss_stays_apart_whatever_the_cosine(ollama: ScriptedServer) -> None:
    service = await service_with(ollama.url)
    first = await service.apply(
        SCOPE,
        "보고서 3시까지 보내야 해",
        frame("보고서 3시까지 보내기", "보고서 3시까지 보내야 해"),
        [],
    )
    new, old = unit_pair(0.99)
    ollama.add(
        Scripted(content_type="application/json", chunks=json_body({"embeddings": [new, old]}))
    )
    second = await service.apply(
        SCOPE,
        "보고서 5시까지 보내야 해",
        frame("보고서 5시까지 보내기", "보고서 5시까지 보내야 해"),
        first.created,
    )
    assert len(second.created) == 1


async def test_loop_vectors_are_cached_per_loop(ollama: ScriptedServer) -> None:
    service = await service_with(ollama.url)
    first = await service.apply(
        SCOPE, "세금 신고서 제출해야 해", frame("세금 신고서 제출", "세금 신고서 제출해야 해"), []
    )
    for _ in range(2):
        ollama.add(
            Scripted(
                content_type="application/json",
                chunks=json_body(
                    {"embeddings": [[1.0, 0.0], [0.0, 1.0]][: 2 if not ollama.received else 1]}
                ),
            )
        )
    await service.apply(
        SCOPE, "운동 등록해야 해", frame("운동 등록", "운동 등록해야 해"), first.created
    )
    await service.apply(SCOPE, "장보기 해야 해", frame("장보기", "장보기 해야 해"), first.created)
    assert [r.body["input"] for r in ollama.received] == [
        ["운동 등록", "세금 신고서 제출"],
        ["장보기"],
    ]


async def test_a_down_embedder_falls_back_to_the_text_rules() -> None:
    port = free_port()
    service = await service_with(f"http://127.0.0.1:{port}")
    first = await service.apply(
        SCOPE, "배포 결과 공유해줘", frame("배포 결과 공유", "배포 결과 공유"), []
    )
    again = await service.apply(
        SCOPE, "배포 결과 공유해줘", frame("배포 결과 공유", "배포 결과 공유"), first.created
    )
    assert len(first.created) == 1 and again.created == []


def test_cosine() -> None:
    assert cosine([1, 0], [1, 0]) == 1 and abs(cosine([1, 0], [0, 1])) < 1e-9
    assert cosine([0, 0], [1, 1]) == 0


async def test_vectors_of_another_size_than_configured_are_not_used(
    ollama: ScriptedServer,
) -> None:
    """`dimensions` (seed 001's JARVIS_MEMORY__EMBEDDING_DIMENSIONS): a model answering with
    another size is never compared with stored vectors; the text rules decide instead."""
    settings = EmbeddingSettings(provider="ollama", base_url=ollama.url, dimensions=3)
    embedder = OllamaEmbedder(settings)
    body = {"embeddings": [[1.0, 0.0], [0.0, 1.0]]}
    ollama.add(Scripted(content_type="application/json", chunks=json_body(body)))
    assert await embedder.embed(["a", "b"]) is None
    right = {"embeddings": [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]}
    ollama.add(Scripted(content_type="application/json", chunks=json_body(right)))
    assert await embedder.embed(["a", "b"]) == right["embeddings"]
