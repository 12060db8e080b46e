"""Procedure learning and memory commands, assembled once per process.

`learning_slash` answers `/remember`, `/forget`, `/wrong`, `/procedures …` and runs `/<name>`
of an approved procedure of the session's agent as a turn (the recipe becomes the prompt).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from jarvis.core.procedures.config import ProcedureSettings
from jarvis.core.procedures.distill import TextModel, provider_model
from jarvis.core.procedures.files import ProcedureLibrary
from jarvis.core.procedures.idle import IdleLearning
from jarvis.core.procedures.learner import ProcedureLearner
from jarvis.core.procedures.segment import Segment, session_segment
from jarvis.core.procedures.slash import procedures_command
from jarvis.core.procedures.tools import approved_procedures, recipe
from jarvis.core.session import AgentSession
from jarvis.core.slash.memory import SlashScope, memory_command

if TYPE_CHECKING:
    from jarvis.app.infra import AppAssembly

_SEGMENT_TURNS = 50  # the recent turns `/procedures learn` looks at


@dataclass
class Learning:
    library: ProcedureLibrary
    learner: ProcedureLearner
    idle: IdleLearning


def build_learning(app: AppAssembly, settings: ProcedureSettings) -> Learning:
    library = ProcedureLibrary(app.settings.home / "procedures")
    learner = ProcedureLearner(library, app.memory, _main_model(app), settings, app.clock)
    return Learning(library, learner, IdleLearning(learner, settings.idle_sec))


def _main_model(app: AppAssembly) -> TextModel:
    """The configured model, looked up at call time (a config reload may change it). Learning
    is background work: capped, and it gives way to the person's turn."""

    async def complete(system: str, prompt: str) -> str | None:
        model = app.settings.model
        provider = app.background_provider_for(model)
        return await provider_model(provider, model.model)(system, prompt)

    return complete


@dataclass
class SlashReply:
    """Either a line to show, or a prompt to run as this session's next turn."""

    text: str | None = None
    prompt: str | None = None


async def learning_slash(app: AppAssembly, session: AgentSession, text: str) -> SlashReply | None:
    """The answer to a memory or procedure command; None when `text` is not one."""
    name, _, args = text.strip().partition(" ")
    info = session.info
    scope = SlashScope(
        session.setup.agent_id, info.user_id, info.id, info.turns, session.setup.language,
        app.clock.now_ms(),
    )  # fmt: skip
    reply = await memory_command(app.memory, scope, name, args)
    if reply is not None:
        return SlashReply(text=reply)
    learning = app.learning
    if learning is None:
        return None
    if name == "/procedures":

        async def segment() -> Segment | None:
            return session_segment(await app.session_store.recent(info.id, _SEGMENT_TURNS))

        reply = await procedures_command(
            learning.learner, scope.agent_id, scope.user_id, args, scope.lang, scope.now_ms,
            segment, info.id,
        )  # fmt: skip
        return SlashReply(text=reply)
    for procedure in approved_procedures(learning.library, scope.agent_id):
        if name == f"/{procedure.name}":
            return SlashReply(prompt=recipe(procedure, args.strip()))
    return None
