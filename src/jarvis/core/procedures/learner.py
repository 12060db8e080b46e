"""ProcedureLearner: EDM refinement and failure reflection, the I/O around the pure rules.

Reads episodes from memory, plans with `candidates` / `reflection` / `update_guard`, calls the
model through a `TextModel`, writes files through `ProcedureLibrary`, marks episodes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import ValidationError

from jarvis.common.clock import Clock
from jarvis.common.logging import get_logger
from jarvis.core.procedures.candidates import (
    CAP_PER_AGENT,
    KindFile,
    LearnStep,
    counts_success,
    plan_refinement,
    success_counts,
)
from jarvis.core.procedures.config import ProcedureSettings
from jarvis.core.procedures.convergence import plan_convergence
from jarvis.core.procedures.distill import TextModel, distill, first_json_object, valid_plan
from jarvis.core.procedures.files import ProcedureLibrary, unique_name
from jarvis.core.procedures.model import (
    PATTERN_PREFIX,
    Procedure,
    Revision,
    edm_source,
    slug,
)
from jarvis.core.procedures.reflection import (
    GROUPS_PER_TICK,
    FailureGroup,
    ReflectorOutput,
    failure_groups,
    kind_blocked,
    reflection_prompt,
)
from jarvis.core.procedures.segment import Segment, learnable_path
from jarvis.core.procedures.update_guard import GuardContext, Proposal, update_guard
from jarvis.memory import MemoryItem, MemoryService
from jarvis.memory.episodes import Episode, EpisodeToolCall, shorten_args

_log = get_logger("jarvis.procedures")
_REFLECT_SYSTEM = "You review failed work of an assistant and propose one fix. Reply with JSON."


@dataclass
class RefineReport:
    distilled: list[str] = field(default_factory=list)
    over_cap: list[str] = field(default_factory=list)
    model_calls: int = 0
    converged: int = 0
    archived: int = 0


@dataclass
class ReflectReport:
    kind: str
    result: str  # accepted | no_change | rejected | blocked
    action: str = ""
    reasons: list[str] = field(default_factory=list)
    written: str = ""


class ProcedureLearner:
    def __init__(
        self,
        library: ProcedureLibrary,
        memory: MemoryService,
        model: TextModel | None,
        settings: ProcedureSettings,
        clock: Clock,
        cap: int = CAP_PER_AGENT,
    ) -> None:
        self.library = library
        self.memory = memory
        self.model = model
        self.settings = settings
        self.clock = clock
        self.cap = cap

    def held(self, agent: str) -> int:
        """The agent's procedures + drafts (what the cap counts)."""
        return sum(1 for p in self.library.of_agent(agent) if p.status != "rejected")

    def kind_file(self, agent: str, kind: str) -> Procedure | None:
        source = edm_source(agent, kind)
        return next((p for p in self.library.of_agent(agent) if p.source == source), None)

    def converge(self) -> tuple[int, int]:
        """Legacy generation files → one per kind; (kinds converged, files archived)."""
        plans = plan_convergence(self.library.entries())
        archived = 0
        for plan in plans:
            for path in plan.archive:
                self.library.archive(path)
                archived += 1
            if plan.keep.stem != plan.result.name:
                self.library.archive(plan.keep)
            self.library.save(plan.result)
        return len(plans), archived

    async def tick(self, agent: str, user: str) -> None:
        """One idle tick: refine, then reflect on at most two failure groups."""
        if self.settings.learn:
            await self.refine(agent, user)
        if self.settings.reflect:
            await self.reflect(agent, user)

    async def refine(self, agent: str, user: str) -> RefineReport:
        report = RefineReport()
        report.converged, report.archived = self.converge()
        episodes = await self.memory.episodes(agent, user)
        files = {
            p.kind: KindFile(p.status, p.generation)
            for p in self.library.of_agent(agent)
            if p.source == edm_source(agent, p.kind)
        }
        steps = plan_refinement(success_counts(episodes, agent), files, self.held(agent), self.cap)
        for step in steps:
            if step.action == "over_cap":
                report.over_cap.append(step.kind)
                continue
            if self.model is None:
                break
            report.model_calls += 1
            name = await self._distil_step(agent, step, episodes)
            if name:
                report.distilled.append(name)
        return report

    async def _distil_step(self, agent: str, step: LearnStep, episodes: list[Episode]) -> str:
        assert self.model is not None
        wins = [e for e in episodes if counts_success(e, agent) and e.kind == step.kind][-3:]
        existing = self.kind_file(agent, step.kind)
        current = existing.body if existing is not None else None
        # idempotent: two processes sharing one data dir may both distil this generation (two
        # model calls; the later save wins whole, the file stays one valid procedure).
        result = await distill(self.model, step.kind, wins, current)
        if result is None:
            _log.warning("distilling %s for %s gave no usable procedure", step.kind, agent)
            return ""
        tools = sorted({call.name for e in wins for call in e.tool_calls})
        plan = valid_plan(result.plan, set(tools), result.inputs)
        if existing is None:
            taken = {p.name for p in self.library.all()}
            existing = Procedure(
                name=unique_name(slug(result.name), taken, edm_source(agent, step.kind)),
                source=edm_source(agent, step.kind),
                agent=agent,
                kind=step.kind,
            )
        if step.action == "attach_revision":
            revision = Revision(
                generation=step.generation, description=result.description, body=result.body,
                tools=tools, inputs=result.inputs, plan=plan,
            )  # fmt: skip
            updated = _with_revision(existing, revision).model_copy(
                update={"generation": step.generation}
            )
        else:
            updated = existing.model_copy(
                update={
                    "description": result.description, "body": result.body, "tools": tools,
                    "parameters": result.parameters, "inputs": result.inputs, "plan": plan,
                    "generation": step.generation, "status": "draft",
                }
            )  # fmt: skip
        self.library.save(updated)
        return updated.name

    async def reflect(self, agent: str, user: str) -> list[ReflectReport]:
        if not self.settings.reflect or self.model is None:
            return []
        items = await self.memory.episode_items(agent, user)
        reports: list[ReflectReport] = []
        asked = 0
        for group in failure_groups(items, agent):
            if kind_blocked(items, group.kind):
                await self._mark(group, "blocked")
                reports.append(ReflectReport(group.kind, "blocked"))
                continue
            if asked >= GROUPS_PER_TICK:
                break
            asked += 1
            report = await self._reflect_group(agent, user, group)
            await self._mark(group, "rejected" if report.result == "rejected" else report.result)
            reports.append(report)
        return reports

    async def _reflect_group(self, agent: str, user: str, group: FailureGroup) -> ReflectReport:
        assert self.model is not None
        existing = self.kind_file(agent, group.kind)
        prompt = reflection_prompt(group, existing.body if existing else None)
        context = GuardContext(
            has_procedure=existing is not None,
            room=self.held(agent) < self.cap,
            graded_answer=next(
                (str(e.metadata["graded_answer"]) for e in group.episodes
                 if e.metadata.get("graded_answer")), None,
            ),
            failed_requests=tuple(e.utterance for e in group.episodes),
        )  # fmt: skip
        report = ReflectReport(group.kind, "rejected")
        for _attempt in range(2):  # a blocked proposal gets its reason back once
            output, reason = _parse_reflection(await self.model(_REFLECT_SYSTEM, prompt))
            if output is not None:
                reason = update_guard(_proposal(output), context)
            if reason is None and output is not None:
                report.result = "no_change" if output.action == "no_change" else "accepted"
                report.action = output.action
                report.written = await self._write_reflection(agent, user, group, output)
                return report
            report.reasons.append(reason or "unreadable")
            prompt = f"{prompt}\n\nYour proposal was blocked: {reason}. Fix it and answer again."
        return report

    async def _write_reflection(
        self, agent: str, user: str, group: FailureGroup, output: ReflectorOutput
    ) -> str:
        if output.action == "no_change":
            return ""
        if output.action == "task_pattern":
            taken = {p.name for p in self.library.all()}
            name = unique_name(PATTERN_PREFIX + slug(output.name, "pattern"), taken, group.key)
            self.library.save(
                Procedure(
                    name=name, status="draft", source=f"reflect:{agent}:{group.kind}",
                    agent=agent, kind=group.kind, when=output.when,
                    keywords=output.keywords, body=output.content,
                )
            )  # fmt: skip
            return name
        existing = self.kind_file(agent, group.kind)
        if existing is None:
            taken = {p.name for p in self.library.all()}
            name = unique_name(slug(output.name or group.kind), taken, group.key)
            existing = Procedure(
                name=name, source=edm_source(agent, group.kind), agent=agent, kind=group.kind
            )
        if existing.status == "approved":
            revision = Revision(origin="reflect", body=output.content, tools=existing.tools)
            self.library.save(_with_revision(existing, revision))
        else:
            self.library.save(existing.model_copy(update={"body": output.content}))
        return existing.name

    async def _mark(self, group: FailureGroup, result: str) -> None:
        now = self.clock.now_ms()
        for item in group.items:
            await self._mark_item(item, result, group.key, now)

    async def _mark_item(self, item: MemoryItem, result: str, key: str, now: int) -> None:
        episode = item.episode
        assert episode is not None
        metadata = {
            **episode.metadata, "reflection": result, "reflection_group": key, "reflected_ms": now,
        }  # fmt: skip
        await self.memory.update_episode(item, episode.model_copy(update={"metadata": metadata}))


async def learn_segment(
    learner: ProcedureLearner, agent: str, session_id: str, segment: Segment
) -> tuple[str, str]:
    """(outcome, name): `learned`, `already` (this segment was learned before), `unlearnable`
    (fewer than 3 successful uses, or an error never recovered) or `failed` (no usable answer)."""
    source = f"session:{session_id}:{segment.first_turn}-{segment.last_turn}"
    known = next((p for p in learner.library.of_agent(agent) if p.source == source), None)
    if known is not None:
        return "already", known.name
    path = learnable_path(segment.uses)
    if path is None or learner.model is None:
        return "unlearnable", ""
    episode = Episode(
        agent_id=agent, user_id="", session_id=session_id, turn=segment.last_turn, ts_ms=0,
        utterance=segment.request, answer="",
        tool_calls=[EpisodeToolCall(name=u.name, args=shorten_args(u.args)) for u in path],
    )  # fmt: skip
    result = await distill(learner.model, episode.kind, [episode], None)
    if result is None:
        return "failed", ""
    tools = sorted({use.name for use in path})
    taken = {p.name for p in learner.library.all()}
    procedure = Procedure(
        name=unique_name(slug(result.name), taken, source), description=result.description,
        status="draft", source=source, agent=agent, kind=episode.kind, tools=tools,
        parameters=result.parameters, inputs=result.inputs,
        plan=valid_plan(result.plan, set(tools), result.inputs), body=result.body,
    )  # fmt: skip
    learner.library.save(procedure)
    return "learned", procedure.name


def _with_revision(procedure: Procedure, revision: Revision) -> Procedure:
    """Attach a revision; one already waiting is kept in `displaced`, never silently lost."""
    displaced = list(procedure.displaced)
    if procedure.revision is not None:
        displaced.append(procedure.revision)
    return procedure.model_copy(update={"revision": revision, "displaced": displaced})


def _proposal(output: ReflectorOutput) -> Proposal:
    return Proposal(
        scope=output.scope, action=output.action, content=output.content,
        when=output.when, keywords=tuple(output.keywords),
    )  # fmt: skip


def _parse_reflection(text: str | None) -> tuple[ReflectorOutput | None, str | None]:
    data = first_json_object(text or "")
    if data is None:
        return None, "the answer was not one JSON object"
    try:
        return ReflectorOutput.model_validate(data), None
    except ValidationError as exc:
        return None, f"the answer does not fit the schema: {exc.errors()[0]['msg']}"
