"""A real assembly (memory backend, real tools, gate, rule files) whose model is scripted by
role: each sub-agent's system prompt names its role, and the script answers per role."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from jarvis.agent_layer.tools import ToolCallContext
from jarvis.app.agent_registry import AgentRegistry
from jarvis.app.infra import AppAssembly, build_app
from jarvis.app.settings import Settings
from jarvis.core.agents.runtime import OrchestrationLimits
from jarvis.core.approvals.channel import ApprovalChannel
from jarvis.core.approvals.pending import Status
from jarvis.core.approvals.request import ApprovalRequest
from jarvis.model_layer.messages import LLMContext, ToolResultMessage
from jarvis.model_layer.providers.faux import FauxProvider, FauxResponse

Reply = Callable[[LLMContext], FauxResponse | str]


def bash(command: str) -> FauxResponse:
    return FauxResponse.model_validate(
        {"tool_calls": [{"name": "bash", "arguments": {"command": command}}]}
    )


def call(tool: str, **arguments: Any) -> FauxResponse:
    return FauxResponse.model_validate({"tool_calls": [{"name": tool, "arguments": arguments}]})


def after_tool(first: FauxResponse | str, then: Callable[[str], str]) -> Reply:
    """First `first`; once a tool result is in the context, `then(result)`."""

    def reply(ctx: LLMContext) -> FauxResponse | str:
        last = ctx.messages[-1] if ctx.messages else None
        if isinstance(last, ToolResultMessage):
            return then(last.content)
        return first

    return reply


def by_role(replies: dict[str, Reply], default: Reply | None = None) -> FauxProvider:
    """The model: the reply of the first role named in the system prompt."""

    def script(ctx: LLMContext) -> FauxResponse | str:
        for role, reply in replies.items():
            if f"role:{role}" in ctx.system_prompt:
                return reply(ctx)
        return default(ctx) if default else "main answer"

    return FauxProvider(script=script)


def subagent_yaml(name: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "system_prompt": f"role:{name}", **fields}


def make_app(home: Path, **settings: Any) -> AppAssembly:
    settings.setdefault("openloop", {"enabled": False})
    settings.setdefault("storage", {"backend": "memory"})
    config = Settings(
        home=home, workspace=home, model={"provider": "faux", "model": "faux"}, **settings
    )
    return build_app(config)


def use_model(app: AppAssembly, provider: FauxProvider) -> None:
    """Every agent of the app answers through `provider` (the scripted model)."""
    app._provider_cache[app.settings.model.model_dump_json()] = provider


def registry(app: AppAssembly, **limits: Any) -> AgentRegistry:
    agents = AgentRegistry(app, limits=OrchestrationLimits(**limits))
    app.extensions.initial_load()
    return agents


class Human(ApprovalChannel):
    """The person at the parent session's windows: answers each request as scripted (None:
    never answers) and records what it was shown."""

    def __init__(self, app: AppAssembly, answers: list[str | None] | None = None) -> None:
        self.app = app
        self.answers = list(answers or [])
        self.requests: list[ApprovalRequest] = []
        self.resolved_with: list[Status] = []
        self.asked = asyncio.Event()

    async def deliver(self, request: ApprovalRequest) -> bool:
        self.requests.append(request)
        self.asked.set()
        answer = self.answers.pop(0) if self.answers else None
        if answer is not None:
            asyncio.get_running_loop().call_soon(
                lambda: asyncio.ensure_future(
                    self.app.pending.answer(request.id, request.user_id, answer, request.session_id)
                )
            )
        return True

    async def resolved(self, request: ApprovalRequest, status: Status) -> None:
        self.resolved_with.append(status)


def context(
    session: str = "s1", agent: str = "main", *, unattended: bool = False
) -> tuple[ToolCallContext, list[dict[str, Any]]]:
    """A parent turn's tool context whose events are collected (as the session's windows see
    them)."""
    events: list[dict[str, Any]] = []
    ctx = ToolCallContext(
        session_id=session,
        agent_id=agent,
        turn=1,
        abort=asyncio.Event(),
        emit=lambda event: events.append(event.model_dump(mode="json")),
        unattended=unattended,
    )
    return ctx, events
