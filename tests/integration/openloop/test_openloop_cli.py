"""`jarvis openloop [list] | done | dismiss | explain <id>` on the JSONL store (the typer app
in-process), after the AGENDA rules judged a restatement and a near miss."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from zoneinfo import ZoneInfo

from click.testing import Result
from typer.testing import CliRunner

from jarvis.agent_layer.openloop.openloop_types import (
    CandidateLoop,
    JudgeFrame,
    LoopScope,
    OpenLoopConfig,
)
from jarvis.agent_layer.openloop.service import OpenLoopService
from jarvis.agent_layer.openloop.store import JsonlOpenLoopStore
from jarvis.common.clock import Clock
from jarvis.ui.cli.main import app

SEOUL = ZoneInfo("Asia/Seoul")
SCOPE = LoopScope(agent_id="main", user_id="local", session_id="s")


def jarvis(home: Path, *args: str) -> Result:
    environment = {k: None for k in os.environ if k.startswith("JARVIS_")}
    environment.update(JARVIS_HOME=str(home), JARVIS_WORKSPACE=str(home), JARVIS_LANGUAGE="en")
    return CliRunner().invoke(app, ["openloop", *args], env=environment)


async def judged(home: Path) -> list[str]:
    store = JsonlOpenLoopStore(home / "openloops.jsonl")
    service = OpenLoopService(
        store, OpenLoopConfig(), SEOUL, Clock()
    )  # the CLI expires by the real clock

    async def say(text: str) -> None:
        shown = await service.current("main", "local")
        frame = JudgeFrame(new=[CandidateLoop(description=text, evidence=text)])
        await service.apply(SCOPE, text, frame, shown)

    await say("견적서 거래처에 보내기")
    await say("거래처에 견적서 전달하기")  # a restatement: noted on the first loop
    await say("계약서 거래처에 보내기")  # a near miss: a new loop, kept apart
    return [lp.id for lp in await service.current("main", "local")]


def test_list_explain_and_close(tmp_path: Path) -> None:
    contract, quote = asyncio.run(judged(tmp_path))  # newest first
    listing = jarvis(tmp_path)
    assert listing.exit_code == 0, listing.output
    assert listing.output.splitlines() == [
        f"{contract[:8]}  계약서 거래처에 보내기",
        f"{quote[:8]}  견적서 거래처에 보내기",
    ]

    why = jarvis(tmp_path, "explain", quote[:8])
    assert why.exit_code == 0, why.output
    assert "judged the same promise: 거래처에 견적서 전달하기" in why.output
    assert "why: merged by synonyms; agree: action, object" in why.output

    kept = jarvis(tmp_path, "explain", contract[:8])
    assert (
        f"kept as another promise (compared with {quote[:8]}): 계약서 거래처에 보내기"
        in kept.output
    )
    assert "differ: object 계약서 ≠ 견적서" in kept.output

    closed = jarvis(tmp_path, "done", quote[:8])
    assert closed.output.strip() == "closed (done): 견적서 거래처에 보내기"
    assert "[done]" in jarvis(tmp_path, "explain", quote[:8]).output
    assert jarvis(tmp_path, "explain", "nope").output.strip() == "no such loop: nope"
