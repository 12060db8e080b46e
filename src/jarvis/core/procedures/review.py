"""A person's decisions on learned procedures: approve and reject (seed 000 "개정 승인")."""

from __future__ import annotations

from typing import Literal

from jarvis.core.procedures.files import ProcedureLibrary
from jarvis.memory import MemoryScope, MemoryService

Decision = Literal["approved", "revision_approved", "pattern_saved", "rejected",
                   "revision_rejected", "not_found"]  # fmt: skip


async def approve(
    library: ProcedureLibrary, memory: MemoryService, agent: str, user: str, name: str, now_ms: int
) -> Decision:
    procedure = library.get(agent, name)
    if procedure is None:
        return "not_found"
    if procedure.is_pattern:
        # An approved task pattern becomes the agent's task pattern; its file goes.
        text = f"{procedure.when}: {procedure.body}" if procedure.when else procedure.body
        await memory.remember(MemoryScope(agent, user, "", 0), "task_pattern", text, now_ms)
        library.delete(procedure.name)
        return "pattern_saved"
    if procedure.revision is not None and procedure.status == "approved":
        library.save(procedure.with_revision_applied())
        return "revision_approved"
    library.save(procedure.model_copy(update={"status": "approved"}))
    await _list_in_procedural_memory(memory, agent, user, procedure.tool_name,
                                     procedure.description or procedure.name, now_ms)  # fmt: skip
    return "approved"


async def _list_in_procedural_memory(
    memory: MemoryService, agent: str, user: str, tool: str, description: str, now_ms: int
) -> None:
    """[절차 기억] names the agent's procedure tools, so the model knows to call them."""
    text = f"{tool}: {description}"
    known = await memory.store.of_kind(agent, user, "procedure")
    if all(item.text != text for item in known):
        await memory.remember(MemoryScope(agent, user, "", 0), "procedure", text, now_ms)


def reject(library: ProcedureLibrary, agent: str, name: str) -> Decision:
    """A revision is dropped and the approved body stays; a draft is kept as `rejected` (its
    generation stays recorded, so the same generation is never distilled again)."""
    procedure = library.get(agent, name)
    if procedure is None:
        return "not_found"
    if procedure.is_pattern:
        library.delete(procedure.name)
        return "rejected"
    if procedure.revision is not None and procedure.status == "approved":
        library.save(procedure.model_copy(update={"revision": None}))
        return "revision_rejected"
    library.save(procedure.model_copy(update={"status": "rejected"}))
    return "rejected"
