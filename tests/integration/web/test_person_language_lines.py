"""The lines the gate, sub-agents and the server write for a person follow the person's page,
whatever the server's own language.

Before, a page in English on a Korean server (or the other way round) got the gate's refusal
shown as the tool's result, a sub-agent's lines, a team tool's refusal, and the body-size and
Origin errors in the server's language: they read the server's setting. Now the person's
language rides in `ToolCallContext.language`, and the HTTP guards read the page's (`?lang=`,
the HUD's Accept-Language).
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from jarvis.common.i18n import Language, t
from jarvis.ui.web.security import MAX_BODY_BYTES
from tests.integration.unattended.helpers import MANUAL, on_server, unattended_of, write_schedule
from tests.integration.web.test_agents_web import call, home_with_agents
from tests.support.live_server import LiveServer, Tab, live_server

HANGUL = re.compile(r"[\uac00-\ud7a3]")


SCRIPT = [
    call("bash", command="touch denied-file"),  # 1. asks; the person denies
    call("ask_agent", agent="nobody", question="hi?"),  # 2. a team tool refuses
    "JARVIS: nobody by that name",
    call("agent_coder", task="touch a file"),  # 3. a sub-agent asks for bash; denied
    call("bash", command="touch sub-agent-file"),
    "coder: never reached",
    "JARVIS: the coder could not",
]


KINDS = ("approval_request", "tool_execution_end", "agent_event", "agent_end", "agent_error")


def in_language(text: str, lang: Language) -> bool:
    return bool(HANGUL.search(text)) == (lang == "ko")


async def ends(tab: Tab, answer: str = "deny") -> list[dict[str, Any]]:
    """A turn's tool results (a sub-agent's come inside `agent_event`), approvals denied."""
    seen: list[dict[str, Any]] = []
    while True:
        event = await tab.next(KINDS)
        if event["type"] == "agent_event":
            event = event["event"]
            if event["type"] != "tool_execution_end":
                continue
        seen.append(event)
        if event["type"] == "approval_request":
            await tab.send(type="approval", id=event["id"], answer=answer)
        if event["type"] in ("agent_end", "agent_error"):
            return seen


@pytest.mark.parametrize(("server_lang", "page_lang"), [("ko", "en"), ("en", "ko")])
async def test_the_persons_page_language_for_gate_subagent_and_server_lines(
    tmp_path: Path, server_lang: Language, page_lang: Language
) -> None:
    with live_server(home_with_agents(tmp_path), SCRIPT, language=server_lang) as server:
        tab = await Tab.open(f"{server.ws_url()}?lang={page_lang}")
        await tab.next("session")

        # 1. The gate's refusal, shown as the tool's result.
        await tab.send(type="prompt", text="make a file")
        (denied,) = [e for e in await ends(tab) if e["type"] == "tool_execution_end"]
        assert denied["result_preview"] == t("gate.approval_denied", page_lang, tool="bash")

        # 2. A team tool's refusal line.
        await tab.send(type="prompt", text="ask nobody")
        (refused,) = [e for e in await ends(tab) if e["type"] == "tool_execution_end"]
        known = [
            t("agents.unknown_agent", page_lang, name="nobody", known=", ".join(order))
            for order in itertools.permutations(["main", "karen"])
        ]
        assert refused["result_preview"] in known, refused

        # 3. A sub-agent's lines: its denial (the gate) and the line its loop ends with.
        await tab.send(type="prompt", text="delegate")
        events = await ends(tab)
        results = [e for e in events if e["type"] == "tool_execution_end"]
        sub, outer = results[0], results[-1]
        assert sub["tool_name"] == "bash" and outer["tool_name"] == "agent_coder"
        assert sub["result_preview"] == t("gate.approval_denied", page_lang, tool="bash")
        ended = t("approval.denied_turn_end", page_lang, tools="bash")
        assert ended in outer["result_preview"], outer
        await tab.close()

        await server_guards(server, page_lang)


async def server_guards(server: LiveServer, lang: Language) -> None:
    """The body-size and Origin refusals, in the language of the page that sent the request
    (the HUD sends its language as Accept-Language)."""
    headers = {**server.headers, "Accept-Language": lang}
    async with httpx.AsyncClient(base_url=server.url, headers=headers) as http:
        big = await http.post("/api/sessions", content=b"x" * (MAX_BODY_BYTES + 1))
        assert big.status_code == 413
        assert big.json()["detail"] == t("web.body_too_large", lang, limit=MAX_BODY_BYTES)
        foreign = await http.post("/api/sessions", headers={"Origin": "http://evil.example"})
        assert foreign.status_code == 403
        origin = t("web.origin_refused", lang, origin="http://evil.example")
        assert foreign.json()["detail"] == origin
        assert in_language(origin, lang)


@pytest.mark.parametrize(("server_lang", "page_lang"), [("ko", "en"), ("en", "ko")])
async def test_a_run_nobody_watches_reports_in_the_owners_page_language(
    tmp_path: Path, server_lang: Language, page_lang: Language
) -> None:
    """A schedule's run (nobody watching) is blocked: its report reaches the owner's page in the
    language that page opened with, not the server's."""
    (tmp_path / "approvals.yaml").write_text(
        "rules:\n  - {tool: bash, pattern: echo}\n", encoding="utf-8"
    )
    write_schedule(tmp_path, "nightly", prompt="look at the logs")
    script = [call("bash", command="echo hi"), "could not use bash"]
    with live_server(tmp_path, script, scheduler=MANUAL, language=server_lang) as server:
        service = unattended_of(server)
        tab = await Tab.open(f"{server.ws_url()}?lang={page_lang}")
        await tab.next("session")
        run_id = await on_server(server, service.run_now("nightly", "local"))
        result = await on_server(server, service.engine.wait(run_id))
        message = await tab.next("proactive_message")
        assert result["status"] == "blocked", result
        head = t("unattended.run_blocked", page_lang, name="nightly", reason=result["reason"])
        assert message["text"].startswith(head), message
        await tab.close()
