"""What the reflection guard lets through (seed 000 "실패 반성", `update_guard`), offline.

Each case is one failed turn of its own task kind, reflected by the real `ProcedureLearner` on
real files and a real SQLite memory. A scripted reflector proposes the case's update (and, when
blocked, its second try after hearing the reason once). The table shows what the guard accepted
or blocked and why; the seed's BBEH-mini table (real reflectors, Figure 3b) is printed beside it
for reference. With `--base-url` a real OpenAI-compatible model reflects on the same failures
instead of the script.

    uv run python experiments/procedure_reflection.py
    uv run python experiments/procedure_reflection.py --base-url URL --model gemma4:e4b
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from dataclasses import dataclass
from pathlib import Path

from pydantic import SecretStr

from jarvis.common.clock import SystemClock
from jarvis.core.procedures.config import ProcedureSettings
from jarvis.core.procedures.distill import TextModel, provider_model
from jarvis.core.procedures.files import ProcedureLibrary
from jarvis.core.procedures.learner import ProcedureLearner
from jarvis.memory import MemoryService, MemorySettings, make_episode
from jarvis.memory.sqlite_store import SqliteItemStore
from jarvis.model_layer import FauxProvider
from jarvis.model_layer.config import ModelSettings
from jarvis.model_layer.providers.registry_defaults import default_provider_registry

REQUEST = (
    "다음 숫자 목록에서 짝수만 골라 합을 구한 뒤, "
    "결과를 표 한 줄로 정리해서 보여 주세요: 3, 8, 10, 7"
)
ANSWER = "18"
SEED_TABLE = """| reflector | guard | revise | task pattern | no change | rejected |
|---|---|---|---|---|---|
| gpt-4o-mini | off | 7 | 14 | 0 | 0 |
| gpt-4o-mini | on | 7 | 14 | 0 | 0 |
| gemma4:e4b | off | 15 | 5 | 0 | 1 |
| gemma4:e4b | on | 13 | 5 | 0 | 3 |
| gemma4:e2b | off | 4 | 4 | 10 | 3 |
| gemma4:e2b | on | 6 | 3 | 10 | 2 |"""


def proposal(scope: str, action: str, content: str = "", **extra: object) -> str:
    return json.dumps(
        {"scope": scope, "action": action, "content": content, **extra}, ensure_ascii=False
    )


GOOD_REVISE = proposal(
    "procedure", "revise_procedure", "1. 조건에 맞는 항목을 먼저 적는다\n2. 합을 검산한다"
)
GOOD_PATTERN = proposal(
    "agent_behavior", "task_pattern", "형식 지시는 요청 끝에서 찾아 따른다",
    name="format-last", when="형식을 지정한 요청", keywords=["형식", "표"],
)  # fmt: skip
COPIED = proposal("procedure", "revise_procedure", f"예: {REQUEST[:50]} 처럼 푼다")
GRADED = proposal("procedure", "revise_procedure", f"정답은 {ANSWER} 이다")


@dataclass
class Case:
    name: str
    first: str
    second: str | None = None  # None: the reflector repeats its first proposal


CASES = [
    Case("good procedure revision", GOOD_REVISE),
    Case("good task pattern", GOOD_PATTERN),
    Case("execution slip, no change", proposal("execution_slip", "no_change")),
    Case("graded answer copied", GRADED),
    Case("graded answer, fixed after the reason", GRADED, GOOD_REVISE),
    Case("40+ chars of the request", COPIED),
    Case("longer than 1,500 chars", proposal("procedure", "revise_procedure", "단계 " * 800)),
    Case("wrong scope pair", proposal("procedure", "task_pattern", "x", when="w", keywords=["k"])),
    Case(
        "task pattern without keywords",
        proposal("agent_behavior", "task_pattern", "표로", when="표"),
    ),
    Case("not the schema", "그냥 다시 하면 됩니다."),
]


async def run(model_for: TextModel | None, root: Path) -> list[tuple[str, str, str, str]]:
    store = SqliteItemStore(root / "memory.db")
    memory = MemoryService(MemorySettings(), store)
    answers: list[str] = []
    scripted = FauxProvider(script=lambda ctx: answers.pop(0) if answers else "", keep_calls=0)
    model = model_for or provider_model(scripted, "faux")
    learner = ProcedureLearner(
        ProcedureLibrary(root / "procedures"), memory, model, ProcedureSettings(), SystemClock()
    )
    rows = []
    for turn, case in enumerate(CASES, start=1):
        episode = make_episode(
            agent_id="main", user_id="u", session_id="s", turn=turn, ts_ms=turn,
            utterance=REQUEST, answer="16", successful_calls=[(f"kind_{turn}", {})],
            outcome="failure", overflow=turn % 3 == 0,
        )  # fmt: skip
        episode.metadata["graded_answer"] = ANSWER
        await memory.record_episode(episode)
        answers[:] = [case.first, case.second or case.first]
        (report,) = await learner.reflect("main", "u")
        first = report.reasons[0] if report.reasons else "-"
        second = report.reasons[1] if len(report.reasons) > 1 else "-"
        rows.append(
            (case.name, report.result, first, second if report.result == "rejected" else "-")
        )
    blocked = await blocked_after_two_rejections(learner, memory, scripted, answers)
    rows.append(("3rd failure after 2 rejections", blocked, "-", "-"))
    await store.aclose()
    return rows


async def blocked_after_two_rejections(
    learner: ProcedureLearner, memory: MemoryService, scripted: FauxProvider, answers: list[str]
) -> str:
    """Two rejected reflections of one kind in a row: its next failure is only marked."""
    for turn in (101, 102, 103):
        episode = make_episode(
            agent_id="main", user_id="u", session_id="s", turn=turn, ts_ms=turn,
            utterance="목록", answer="", successful_calls=[("same_kind", {})],
            outcome="failure", overflow=False,
        )  # fmt: skip
        episode.metadata["graded_answer"] = ANSWER
        await memory.record_episode(episode)
        answers[:] = [GRADED, GRADED]
        calls = scripted.call_count
        (report,) = await learner.reflect("main", "u")
    return f"{report.result} (model calls: {scripted.call_count - calls})"


def real_model(args: argparse.Namespace) -> TextModel:
    settings = ModelSettings(
        provider="openai", base_url=args.base_url, model=args.model,
        api_key=SecretStr(args.api_key) if args.api_key else None,
    )  # fmt: skip
    return provider_model(default_provider_registry("ko").create(settings), args.model)


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-url", help="a real OpenAI-compatible model instead of the script")
    parser.add_argument("--model", default="gpt-4o-mini")
    parser.add_argument("--api-key")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rows = await run(real_model(args) if args.base_url else None, Path(tmp))
    who = args.model if args.base_url else "scripted reflector"
    print(f"## Ours: update_guard on each kind of proposal ({who})\n")
    print("| case | result | 1st block reason | 2nd block reason |\n|---|---|---|---|")
    for name, result, first, second in rows:
        print(f"| {name} | {result} | {first} | {second} |")
    print("\n## Seed (BBEH-mini, 21 failure groups, real reflectors; for reference)\n")
    print(SEED_TABLE)


if __name__ == "__main__":
    asyncio.run(main())
