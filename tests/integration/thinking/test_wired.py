"""The thinking layer as the app wires it: settings → SessionBuilder → a real session on files
(the user-model file, the inner-thought template in the data dir, `jarvis me`)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from click.testing import Result
from pydantic import BaseModel
from typer.testing import CliRunner

from jarvis.agent_layer.thought.engine import THOUGHT_MARKER
from jarvis.app.infra import AppAssembly, build_app
from jarvis.app.profile import AgentProfile
from jarvis.app.session_builder import SessionBuilder
from jarvis.app.settings import Settings
from jarvis.model_layer import FauxProvider, FauxResponse, LLMContext
from jarvis.ui.cli.main import app as cli


def make_app(home: Path, **settings: Any) -> AppAssembly:
    settings.setdefault("openloop", {"enabled": False})
    config = Settings(
        home=home, workspace=home, model={"provider": "faux", "model": "faux"}, **settings
    )
    return build_app(config)


def scripted(app: AppAssembly, script: Any) -> FauxProvider:
    provider = FauxProvider(script=script)
    app._provider_cache[app.settings.model.model_dump_json()] = provider
    return provider


async def test_stated_facts_reach_the_model_next_turn_and_traps_never(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    model = scripted(app, lambda ctx: "네.")
    session = await SessionBuilder(app).create()
    await session.prompt("제 이름은 민준이에요. 내 친구는 디자이너야.")
    await session.settle()
    await session.prompt("만약 내가 부산에 산다면 어떨까? I love rust lol")
    await session.settle()
    await session.prompt("오늘 할 일 알려줘")
    seen = model.calls[-1].messages[-1].content
    assert "[사용자]" in seen and "- name: 민준" in seen
    assert "디자이너" not in seen and "rust" not in seen and "부산" not in seen.split("\n\n")[0]
    path = tmp_path / "user_model.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    stored = json.loads(path.read_text())["people"]["local"]
    assert [(f["field"], f["value"], f["source"]) for f in stored] == [("name", "민준", "stated")]
    history = [e.message.content for e in await app.session_store.history(session.id)]
    assert not any("[사용자]" in text for text in history)  # the section is never stored


async def test_engine_auto_in_a_team_profile_thinks_and_writes_the_template(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path)
    frame = {"interpretation": "plan", "decision": "answer", "confidence": 0.5, "frame": "- a"}

    def script(ctx: LLMContext) -> FauxResponse | str:
        if ctx.system_prompt.startswith(THOUGHT_MARKER):
            return json.dumps(frame)
        return "계획입니다."

    scripted(app, script)
    session = await SessionBuilder(app, AgentProfile(thought_engine="auto")).create()
    events: list[BaseModel] = []
    session.subscribe(events.append)
    await session.prompt("다음 주 배포 계획을 단계별로 세워줘. 왜 그 순서인지도 설명해줘")
    kinds = [getattr(e, "type", "") for e in events]
    assert kinds[:3] == ["thought_route", "inner_thought", "thought_end"]
    template = tmp_path / "inner_thought.md"
    assert template.exists() and "{{input}}" in template.read_text()


async def test_the_router_can_be_turned_off(tmp_path: Path) -> None:
    app = make_app(tmp_path, thinking={"router": False}, user_model={"enabled": False})
    scripted(app, lambda ctx: "네.")
    session = await SessionBuilder(app).create()
    events: list[BaseModel] = []
    session.subscribe(events.append)
    await session.prompt("왜 배포가 실패하는지 알려줘")
    assert "thought_route" not in [getattr(e, "type", "") for e in events]


def jarvis(home: Path, *args: str, stdin: str = "") -> Result:
    """The typer app in-process (a subprocess per command costs seconds on a busy machine)."""
    environment: dict[str, str | None] = {k: None for k in os.environ if k.startswith("JARVIS_")}
    environment["JARVIS_HOME"] = str(home)
    return CliRunner().invoke(cli, list(args), input=stdin, env=environment)


def test_jarvis_me_set_list_pin_forget_and_check(tmp_path: Path) -> None:
    assert jarvis(tmp_path, "me", "set", "name", "민준").exit_code == 0
    assert jarvis(tmp_path, "me", "set", "salary", "lots").exit_code != 0  # closed vocabulary
    rows = [
        json.loads(line)
        for line in jarvis(tmp_path, "me", "list", "--json").output.split("\n")
        if line
    ]
    assert [(r["field"], r["value"], r["source"]) for r in rows] == [("name", "민준", "corrected")]
    fact = rows[0]["id"][:8]
    assert jarvis(tmp_path, "me", "pin", fact).output.strip() == "pinned"
    assert jarvis(tmp_path, "me", "forget", fact).output.strip() == "forgotten"
    assert jarvis(tmp_path, "me", "list").output == ""
    assert "forgotten" in jarvis(tmp_path, "me", "list", "--all").output
    assert jarvis(tmp_path, "me", "forget", "nope").exit_code == 1
    sentences = [
        "제 이름은 민준이에요",
        "만약 내가 부산에 산다면",
        "He said I'm a genius",
        "a\u2028b?",
    ]
    out = jarvis(tmp_path, "me", "check", "--json", "-", stdin="\n".join(sentences) + "\n").output
    results = [json.loads(line) for line in out.split("\n") if line]
    assert results == [
        {"fact": True, "reason": "stated"},
        {"fact": False, "reason": "hypothetical"},
        {"fact": False, "reason": "quoted"},
        {"fact": False, "reason": "question"},
    ]
