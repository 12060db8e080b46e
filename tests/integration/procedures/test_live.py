"""Memory and learned procedures through the real server: restarts, chat commands, and an
approved procedure whose stored plan runs through the session's gate (a bash step asks)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jarvis.core.procedures.files import ProcedureLibrary
from jarvis.core.procedures.model import PlanStep, Procedure
from jarvis.core.procedures.tools import FOLLOW_EVERY_STEP
from jarvis.memory import MemoryService, MemorySettings
from jarvis.memory.sqlite_store import SqliteItemStore
from tests.support.live_server import LiveServer, Tab, live_server


async def command(tab: Tab, text: str) -> str:
    await tab.send(type="command", text=text)
    return str((await tab.next("command_result"))["text"])


async def turn(tab: Tab, text: str) -> dict[str, Any]:
    await tab.send(type="prompt", text=text)
    return await tab.next(("agent_end", "agent_error"))


async def open_tab(server: LiveServer) -> tuple[Tab, str]:
    tab = await Tab.open(server.ws_url())
    return tab, (await tab.next("session"))["session"]["id"]


async def test_memory_survives_a_server_restart_and_can_be_listed_and_forgotten(
    tmp_path: Path,
) -> None:
    with live_server(tmp_path, ["noted"]) as server:
        tab, _ = await open_tab(server)
        await turn(tab, "my dog is called Bori")
        saved = await command(tab, "/remember 나는 서울에 산다")
        assert "나는 서울에 산다" in saved
        await tab.close()
    with live_server(tmp_path, ["It is Bori."]) as server:
        tab, _ = await open_tab(server)
        listing = await command(tab, "/remember")
        assert "fact" in listing and "나는 서울에 산다" in listing and "Bori" in listing
        fact_id = next(line for line in listing.splitlines() if "서울" in line).split()[0]
        assert "잊었습니다" in await command(tab, f"/forget {fact_id}")
        assert "서울" not in await command(tab, "/remember")
        await tab.close()


async def test_a_correction_marks_the_previous_turn_failed(tmp_path: Path) -> None:
    with live_server(tmp_path, ["here it is", "sorry"]) as server:
        tab, _ = await open_tab(server)
        await turn(tab, "목록 보여줘")
        await turn(tab, "아니, 틀렸어")
        assert "(2)" in await command(tab, "/wrong")  # the correction's own turn
        await tab.close()
    store = SqliteItemStore(tmp_path / "memory.db")
    episodes = await MemoryService(MemorySettings(), store).episodes("main", "local")
    await store.aclose()
    assert [(e.turn, e.outcome) for e in episodes] == [(1, "failure"), (2, "failure")]
    assert episodes[0].metadata["corrected"] == "아니, 틀렸어"
    assert episodes[1].metadata["corrected"] == "/wrong"


def save_draft(home: Path, agent: str = "main", plan: bool = True) -> None:
    ProcedureLibrary(home / "procedures").save(
        Procedure(
            name="list-and-echo", description="목록을 보고 끝났다고 알린다", status="draft",
            source=f"edm:{agent}:list_dir", agent=agent, kind="list_dir", generation=1,
            tools=["bash", "list_dir"], inputs=["dir"] if plan else [],
            plan=[PlanStep(tool="list_dir", args={"path": "{{dir}}"}),
                  PlanStep(tool="bash", args={"command": "echo finished-{{dir}}"})] if plan else [],
            body="1. list_dir 로 {{args}} 를 본다\n2. bash 로 echo 한다",
        )
    )  # fmt: skip


def call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"text": "", "tool_calls": [{"name": name, "arguments": arguments}]}


async def test_an_approved_procedure_runs_its_plan_through_the_gate(tmp_path: Path) -> None:
    save_draft(tmp_path)
    script = [
        call("procedure_list_and_echo", dir="."),
        "done",
        call("procedure_list_and_echo", dir="."),
    ]
    with live_server(tmp_path, script) as server:
        tab, _ = await open_tab(server)
        assert "초안" in await command(tab, "/procedures")
        approved = await command(tab, "/procedures approve list-and-echo")
        assert "procedure_list_and_echo" in approved
        await tab.send(type="prompt", text="목록 보고 알려줘")
        request = await tab.next("approval_request")
        assert request["pattern"] == "echo finished-."  # the bash step asks
        await tab.send(type="approval", id=request["id"], answer="allow")
        end = await tab.next("tool_execution_end")
        assert not end["is_error"] and "finished-." in end["result_preview"]
        assert "list_dir" in end["result_preview"]
        await tab.next("agent_end")
        await tab.send(type="prompt", text="한 번 더")
        request = await tab.next("approval_request")
        await tab.send(type="approval", id=request["id"], answer="deny")
        stopped = await tab.next("tool_execution_end")
        assert stopped["is_error"] and "stopped at step 2" in stopped["result_preview"]
        await tab.next("agent_end")  # a denial ends the turn without another model call
        await tab.close()


async def test_without_a_plan_the_tool_returns_the_recipe(tmp_path: Path) -> None:
    save_draft(tmp_path, plan=False)
    with live_server(tmp_path, [call("procedure_list_and_echo", request="docs"), "ok"]) as server:
        tab, _ = await open_tab(server)
        await command(tab, "/procedures approve list-and-echo")
        await tab.send(type="prompt", text="절차대로 해줘")
        end = await tab.next("tool_execution_end")
        assert FOLLOW_EVERY_STEP in end["result_preview"]
        await tab.next("agent_end")
        await tab.close()


async def test_another_agents_procedure_is_invisible(tmp_path: Path) -> None:
    save_draft(tmp_path, agent="karen")
    with live_server(tmp_path, ["hi"]) as server:
        tab, _ = await open_tab(server)
        assert "배운 절차가 없습니다" in await command(tab, "/procedures")
        assert "그런 절차가 없습니다" in await command(tab, "/procedures approve list-and-echo")
        await tab.close()


async def test_procedures_learn_keeps_the_recovered_path_and_never_learns_twice(
    tmp_path: Path,
) -> None:
    learned = {
        "text": '{"name": "inspect-files", "description": "파일 살펴보기", '
        '"body": "1. list_dir\\n2. glob\\n3. read_file"}'
    }
    script = [
        call("list_dir", path="."),
        call("glob", pattern="*.yaml"),
        call("read_file", path="missing.txt"),
        call("read_file", path="script.yaml"),
        "done",
        learned,
    ]
    with live_server(tmp_path, script) as server:
        tab, _ = await open_tab(server)
        await turn(tab, "파일들을 살펴봐줘")
        assert "inspect-files" in await command(tab, "/procedures learn")
        assert "이미 배웠습니다" in await command(tab, "/procedures learn")
        listing = await command(tab, "/procedures")
        assert listing.count("inspect-files") == 1
        await tab.close()
    (procedure,) = ProcedureLibrary(tmp_path / "procedures").all()
    assert procedure.tools == ["glob", "list_dir", "read_file"]
    assert procedure.source.startswith("session:") and procedure.status == "draft"


async def test_every_prompt_section_has_a_writer_and_a_procedure_runs_as_a_command(
    tmp_path: Path,
) -> None:
    save_draft(tmp_path, plan=False)
    with live_server(tmp_path, ["ok", "followed"]) as server:
        tab, _ = await open_tab(server)
        await command(tab, "/remember 나는 서울에 산다")
        await command(tab, "/note 배포 브랜치는 r-42")
        await command(tab, "/procedures approve list-and-echo")
        await turn(tab, "안녕")
        await tab.send(type="command", text="/list-and-echo docs 폴더")
        await tab.next("agent_end")
        await tab.close()
        model = next(iter(server.assembly._provider_cache.values()))
        first, second = (str(c.messages[-1].content) for c in model.calls)  # type: ignore[attr-defined]
    for section in ("[핵심 사실]\n- 나는 서울에 산다", "[절차 기억]\n- procedure_list_and_echo",
                    "[작업 공유 메모리]\n- 배포 브랜치는 r-42"):  # fmt: skip
        assert section in first
    assert "1. list_dir 로 docs 폴더 를 본다" in second and FOLLOW_EVERY_STEP in second


async def test_remember_task_pattern_and_recall_episodes_tools(tmp_path: Path) -> None:
    script = [
        "Bori is your dog.",
        call("remember_task_pattern", pattern="보고서는 표로 쓴다", when="보고서 작성"),
        "saved",
        call("recall_episodes", text="Bori", outcome="success"),
        "you told me about Bori",
        "ok",
    ]
    with live_server(tmp_path, script) as server:
        tab, _ = await open_tab(server)
        await turn(tab, "my dog is called Bori")
        await turn(tab, "보고서는 항상 표로 써줘")
        saved = await tab.next("tool_execution_end")
        assert "보고서는 표로 쓴다" in saved["result_preview"]
        await tab.send(type="prompt", text="what did I say about my dog?")
        recalled = await tab.next("tool_execution_end")
        assert not recalled["is_error"] and "my dog is called Bori" in recalled["result_preview"]
        assert "outcome=success" in recalled["result_preview"]
        await tab.next("agent_end")
        await turn(tab, "다음 보고서")
        await tab.close()
        model = next(iter(server.assembly._provider_cache.values()))
        last = str(model.calls[-1].messages[-1].content)  # type: ignore[attr-defined]
    assert "[작업 패턴]\n- 보고서 작성: 보고서는 표로 쓴다" in last
