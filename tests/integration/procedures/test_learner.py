"""EDM refinement and reflection end to end: real files, a real SQLite memory, scripted model."""

from __future__ import annotations

import json

from jarvis.core.procedures.files import parse
from jarvis.core.procedures.model import Procedure
from jarvis.core.procedures.reflection import OVERFLOW_NOTE
from jarvis.core.procedures.review import approve, reject
from jarvis.core.procedures.slash import procedures_command
from tests.integration.procedures.conftest import Rig, distilled


async def test_three_successes_make_one_draft_and_a_handled_generation_is_never_redone(
    rig: Rig,
) -> None:
    for _ in range(2):
        await rig.turn_of("list_dir")
    await rig.turn_of("list_dir", outcome="failure")
    await rig.turn_of(None)  # chat
    await rig.turn_of("list_dir", agent="karen")
    assert (await rig.learner.refine("main", "u")).model_calls == 0
    await rig.turn_of("list_dir")
    rig.model.add(distilled())
    report = await rig.learner.refine("main", "u")
    assert report.distilled == ["list-files"] and report.model_calls == 1
    (procedure,) = rig.library.of_agent("main")
    assert (procedure.status, procedure.source, procedure.generation) == (
        "draft", "edm:main:list_dir", 1,
    )  # fmt: skip
    assert (await rig.learner.refine("main", "u")).model_calls == 0  # same generation: no call
    assert rig.model.call_count == 1


async def test_next_generation_edits_a_draft_then_waits_as_revision_of_an_approved_one(
    rig: Rig,
) -> None:
    for _ in range(3):
        await rig.turn_of("list_dir")
    rig.model.add(distilled(body="v1"))
    await rig.learner.refine("main", "u")
    for _ in range(3):
        await rig.turn_of("list_dir")
    rig.model.add(distilled(body="v2"))
    await rig.learner.refine("main", "u")
    draft = rig.library.get("main", "list-files")
    assert draft is not None and (draft.body, draft.generation, draft.status) == ("v2", 2, "draft")
    assert await approve(rig.library, rig.memory, "main", "u", "list-files", 1) == "approved"
    for body in ("v3", "v4"):
        for _ in range(3):
            await rig.turn_of("list_dir")
        rig.model.add(distilled(body=body))
        await rig.learner.refine("main", "u")
    waiting = rig.library.get("main", "list-files")
    assert waiting is not None and waiting.body == "v2" and waiting.status == "approved"
    assert waiting.revision is not None and waiting.revision.body == "v4"
    assert [r.body for r in waiting.displaced] == ["v3"]  # not silently overwritten
    assert reject(rig.library, "main", "list-files") == "revision_rejected"
    kept = rig.library.get("main", "list-files")
    assert kept is not None and kept.body == "v2" and kept.revision is None
    assert (await rig.learner.refine("main", "u")).model_calls == 0  # rejected: not redone


async def test_an_approved_revision_replaces_the_body_and_keeps_name_and_source(rig: Rig) -> None:
    for _ in range(3):
        await rig.turn_of("list_dir")
    rig.model.add(distilled(body="v1"))
    await rig.learner.refine("main", "u")
    await approve(rig.library, rig.memory, "main", "u", "list-files", 1)
    for _ in range(3):
        await rig.turn_of("list_dir")
    rig.model.add(distilled(name="other-name", body="v2"))
    await rig.learner.refine("main", "u")
    assert await approve(rig.library, rig.memory, "main", "u", "list-files", 1) == (
        "revision_approved"
    )
    final = rig.library.get("main", "list-files")
    assert final is not None
    assert (final.name, final.source, final.body, final.revision) == (
        "list-files", "edm:main:list_dir", "v2", None,
    )  # fmt: skip


async def test_a_name_clash_gets_a_hash_suffix(rig: Rig) -> None:
    for tool in ("list_dir", "glob"):
        for _ in range(3):
            await rig.turn_of(tool)
    rig.model.add(distilled(), distilled())
    report = await rig.learner.refine("main", "u")
    assert report.distilled[0] == "list-files"
    assert report.distilled[1].startswith("list-files-") and len(report.distilled[1]) == 17


def reflector(scope: str, action: str, content: str = "", **kw: object) -> str:
    return json.dumps({"scope": scope, "action": action, "content": content, **kw})


async def test_reflection_writes_a_task_pattern_draft_and_marks_the_group(rig: Rig) -> None:
    for _ in range(4):
        await rig.turn_of("bash", outcome="failure", overflow=True)
    rig.model.add(
        reflector("agent_behavior", "task_pattern", "큰 작업은 단계로 나눈다",
                  name="split", when="긴 셸 작업", keywords=["셸", "단계"])
    )  # fmt: skip
    (report,) = await rig.learner.reflect("main", "u")
    assert (report.result, report.written) == ("accepted", "pattern-split")
    assert OVERFLOW_NOTE in rig.model.calls[0].messages[0].content  # type: ignore[union-attr]
    marks = [e.metadata.get("reflection") for e in await rig.memory.episodes("main", "u")]
    assert marks == [None, "accepted", "accepted", "accepted"]  # latest 3 only
    assert await approve(rig.library, rig.memory, "main", "u", "pattern-split", 1) == (
        "pattern_saved"
    )
    assert rig.library.get("main", "pattern-split") is None
    patterns = await rig.memory.store.of_kind("main", "u", "task_pattern")
    assert [p.text for p in patterns] == ["긴 셸 작업: 큰 작업은 단계로 나눈다"]


async def test_a_blocked_proposal_gets_its_reason_once_then_nothing_is_written(rig: Rig) -> None:
    await rig.turn_of("bash", outcome="failure", graded_answer="42")
    rig.model.add(
        reflector("procedure", "revise_procedure", "답은 42"),
        reflector("procedure", "revise_procedure", "역시 42"),
    )
    (report,) = await rig.learner.reflect("main", "u")
    assert report.result == "rejected" and len(report.reasons) == 2
    assert "answer" in rig.model.calls[1].messages[0].content  # type: ignore[union-attr]
    assert rig.library.all() == []
    await rig.turn_of("bash", outcome="failure")
    rig.model.add(reflector("procedure", "no_change"), reflector("procedure", "x"))
    (second,) = await rig.learner.reflect("main", "u")
    assert second.result == "rejected"  # wrong pair, then not in the schema
    await rig.turn_of("bash", outcome="failure")
    calls = rig.model.call_count
    (third,) = await rig.learner.reflect("main", "u")
    assert third.result == "blocked" and rig.model.call_count == calls  # no model call
    await rig.turn_of("bash")  # a success unblocks the kind
    await rig.turn_of("bash", outcome="failure")
    rig.model.add(reflector("execution_slip", "no_change"))
    (fourth,) = await rig.learner.reflect("main", "u")
    assert fourth.result == "no_change" and rig.library.all() == []


async def test_at_most_two_groups_per_tick_and_reflect_can_be_turned_off(rig: Rig) -> None:
    for tool in ("bash", "glob", "grep"):
        await rig.turn_of(tool, outcome="failure")
    rig.learner.settings = rig.learner.settings.model_copy(update={"reflect": False})
    assert await rig.learner.reflect("main", "u") == [] and rig.model.call_count == 0
    rig.learner.settings = rig.learner.settings.model_copy(update={"reflect": True})
    rig.model.add(
        reflector("execution_slip", "no_change"), reflector("execution_slip", "no_change")
    )
    reports = await rig.learner.reflect("main", "u")
    assert [r.kind for r in reports] == ["grep", "glob"]
    rig.model.add(reflector("execution_slip", "no_change"))
    assert [r.kind for r in await rig.learner.reflect("main", "u")] == ["bash"]
    assert await rig.learner.reflect("main", "u") == []  # each failure reflected once


async def test_revise_procedure_attaches_a_revision_to_an_approved_procedure(rig: Rig) -> None:
    for _ in range(3):
        await rig.turn_of("list_dir")
    rig.model.add(distilled(body="v1"))
    await rig.learner.refine("main", "u")
    await approve(rig.library, rig.memory, "main", "u", "list-files", 1)
    await rig.turn_of("list_dir", outcome="failure")
    rig.model.add(reflector("procedure", "revise_procedure", "1. 숨은 파일도 본다"))
    (report,) = await rig.learner.reflect("main", "u")
    assert report.written == "list-files"
    procedure = parse(rig.library.path_of("list-files").read_text(encoding="utf-8"))
    assert procedure.body == "v1" and procedure.revision is not None
    assert (procedure.revision.origin, procedure.revision.body) == (
        "reflect",
        "1. 숨은 파일도 본다",
    )


async def test_legacy_generation_files_converge_on_disk_and_a_second_run_changes_nothing(
    rig: Rig,
) -> None:
    for generation in range(1, 11):
        rig.library.save(
            Procedure(
                name=f"lh-g{generation}", status="approved" if generation == 1 else "draft",
                source=f"edm:karen:lh_notice:{generation}", agent="karen", body=f"g{generation}",
            )
        )  # fmt: skip
    assert rig.learner.converge() == (1, 9)
    (kept,) = rig.library.all()
    assert (kept.name, kept.status, kept.source, kept.generation) == (
        "lh-g1", "approved", "edm:karen:lh_notice", 10,
    )  # fmt: skip
    assert kept.revision is not None and kept.revision.body == "g10"
    assert len(rig.library.archived()) == 9
    before = sorted(p.name for p in rig.library.root.rglob("*.md"))
    assert rig.learner.converge() == (0, 0)
    assert sorted(p.name for p in rig.library.root.rglob("*.md")) == before
    # Archived files are never loaded, and the converged kind is not distilled again.
    for _ in range(30):
        await rig.turn_of("lh_notice", agent="karen")
    assert (await rig.learner.refine("karen", "u")).model_calls == 0


async def test_the_listing_marks_a_waiting_revision(rig: Rig) -> None:
    for _ in range(3):
        await rig.turn_of("list_dir")
    rig.model.add(distilled(body="v1"))
    await rig.learner.refine("main", "u")
    listing = await procedures_command(rig.learner, "main", "u", "", "ko", 1)
    assert listing.startswith("list-files  [초안]")
    await procedures_command(rig.learner, "main", "u", "approve list-files", "ko", 1)
    for _ in range(3):
        await rig.turn_of("list_dir")
    rig.model.add(distilled(body="v2"))
    await rig.learner.refine("main", "u")
    listing = await procedures_command(rig.learner, "main", "u", "list", "ko", 1)
    assert listing.startswith("list-files  [승인, 개정 초안 있음]")
    shown = await procedures_command(rig.learner, "main", "u", "show list-files", "ko", 1)
    assert "지금 본문:\nv1" in shown and "개정 초안 (세대 2):\nv2" in shown
    assert "karen" not in await procedures_command(rig.learner, "karen", "u", "", "ko", 1)
