"""Procedure files converge, one per task kind (seed 000 "절차 파일 수렴"), offline.

Synthetic success episodes and the real `ProcedureLearner` on real files and a real SQLite
memory; the scripted model distils. Three parts, printed beside the seed's results:

1. KAREN's kind `lh_notice` succeeds 0–30 times (3 at a time); refinement runs after each step
   and a new draft is approved at once. The generation scheme (one file per generation, the
   old `edm:<agent>:<kind>:<gen>` sources) is counted; the converged scheme is the real learner.
2. A legacy disk (generation 1 approved, 2–10 drafts) converges twice.
3. 40 kinds with 3 successes each: the cap of 30 procedures + drafts per agent.

    uv run python experiments/procedure_convergence.py
"""

from __future__ import annotations

import asyncio
import json
import re
import tempfile
from pathlib import Path

from jarvis.common.clock import SystemClock
from jarvis.core.procedures.config import ProcedureSettings
from jarvis.core.procedures.distill import provider_model
from jarvis.core.procedures.files import ProcedureLibrary
from jarvis.core.procedures.learner import ProcedureLearner
from jarvis.core.procedures.model import Procedure
from jarvis.core.procedures.review import approve
from jarvis.memory import MemoryService, MemorySettings, make_episode
from jarvis.memory.sqlite_store import SqliteItemStore
from jarvis.model_layer import FauxProvider, FauxResponse
from jarvis.model_layer.messages import LLMContext

SEED = {
    "files_at_30": ("10", "1"),
    "legacy": "10 files → 1 (approved kept, gen 10 draft as revision), 9 archived; 2nd run: none",
    "cap": "stops at 30, 30 distillation calls",
}
_KIND = re.compile(r"Task kind: (\S+)\.")


def distiller(ctx: LLMContext) -> FauxResponse:
    prompt = str(ctx.messages[-1].content)
    found = _KIND.search(prompt)
    kind = found.group(1) if found else "task"
    name = kind.replace("_", "-")
    body = f"1. {kind} 를 부른다\n2. 결과를 요약한다"
    return FauxResponse(text=json.dumps({"name": name, "description": kind, "body": body}))


class Rig:
    def __init__(self, root: Path) -> None:
        self.store = SqliteItemStore(root / "memory.db")
        self.memory = MemoryService(MemorySettings(), self.store)
        self.model = FauxProvider(script=distiller, keep_calls=0)
        self.library = ProcedureLibrary(root / "procedures")
        self.learner = ProcedureLearner(
            self.library, self.memory, provider_model(self.model, "faux"), ProcedureSettings(),
            SystemClock(),
        )  # fmt: skip
        self.turn = 0

    async def success(self, agent: str, kind: str) -> None:
        self.turn += 1
        await self.memory.record_episode(
            make_episode(
                agent_id=agent, user_id="u", session_id="s", turn=self.turn, ts_ms=self.turn,
                utterance=f"{kind} 공지 확인해줘", answer="확인했습니다",
                successful_calls=[(kind, {"q": "notice"})], outcome="success", overflow=False,
            )
        )  # fmt: skip


async def part_generations(root: Path) -> list[tuple[int, int, int, int, int]]:
    rig = Rig(root)
    rows = [(0, 0, 0, 0, 0)]
    for successes in range(3, 31, 3):
        for _ in range(3):
            await rig.success("karen", "lh_notice")
        await rig.learner.refine("karen", "u")
        for procedure in rig.library.of_agent("karen"):
            if procedure.status == "draft":
                await approve(rig.library, rig.memory, "karen", "u", procedure.name, 0)
        generation_files = successes // 3  # the old scheme: a new file per generation
        rows.append((successes, generation_files, len(rig.library.of_agent("karen")),
                     generation_files, rig.model.call_count))  # fmt: skip
    await rig.store.aclose()
    return rows


async def part_legacy(root: Path) -> tuple[int, int, int, str, tuple[int, int]]:
    rig = Rig(root)
    for generation in range(1, 11):
        rig.library.save(
            Procedure(
                name=f"lh-notice-g{generation}", description=f"gen {generation}",
                status="approved" if generation == 1 else "draft",
                source=f"edm:karen:lh_notice:{generation}", agent="karen", kind="lh_notice",
                generation=generation, body=f"generation {generation}",
            )
        )  # fmt: skip
    before = len(rig.library.all())
    _, archived = rig.learner.converge()
    (kept,) = rig.library.all()
    revision = kept.revision.generation if kept.revision else None
    detail = f"kept {kept.name} ({kept.status}, source {kept.source}), revision gen {revision}"
    second = rig.learner.converge()
    await rig.store.aclose()
    return before, len(rig.library.all()), archived, detail, second


async def part_cap(root: Path) -> tuple[int, int, int]:
    rig = Rig(root)
    for index in range(40):
        for _ in range(3):
            await rig.success("karen", f"kind_{index:02d}")
    report = await rig.learner.refine("karen", "u")
    await rig.store.aclose()
    return len(rig.library.of_agent("karen")), rig.model.call_count, len(report.over_cap)


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        rows = await part_generations(root / "a")
        legacy = await part_legacy(root / "b")
        cap = await part_cap(root / "c")
    print("## 1. Same kind (KAREN lh_notice), new drafts approved at once\n")
    print("| successes | generation scheme files | converged files | "
          "distill calls (generation) | distill calls (converged) |")  # fmt: skip
    print("|---|---|---|---|---|")
    for successes, gen_files, files, gen_calls, calls in rows:
        print(f"| {successes} | {gen_files} | {files} | {gen_calls} | {calls} |")
    print(f"\nseed at 30 successes: generation {SEED['files_at_30'][0]} files, converged "
          f"{SEED['files_at_30'][1]}; distillation calls 10 in both")  # fmt: skip
    before, after, archived, detail, second = legacy
    print("\n## 2. Legacy disk (gen 1 approved, gens 2–10 drafts)\n")
    print("| | seed | ours |\n|---|---|---|")
    print(
        f"| converge | {SEED['legacy']} | {before} files → {after}, {archived} archived; "
        f"{detail}; 2nd run changed {second[0]} kinds, archived {second[1]} |"
    )
    files, calls, over = cap
    print("\n## 3. 40 kinds × 3 successes\n")
    print("| | seed | ours |\n|---|---|---|")
    print(
        f"| cap | {SEED['cap']} | {files} files, {calls} distillation calls, "
        f"{over} kinds over the cap |"
    )


if __name__ == "__main__":
    asyncio.run(main())
