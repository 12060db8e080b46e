"""Pure plan for converging legacy per-generation files (`edm:<agent>:<kind>:<gen>`) into one
file per kind (seed 000 "옛 세대 파일"): keep the latest approved generation (else the latest),
attach a later draft as its revision, archive the rest. A converged disk plans nothing."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from jarvis.core.procedures.model import Procedure, Revision, edm_source, parse_edm_source


@dataclass
class KindConvergence:
    keep: Path
    result: Procedure
    archive: list[Path] = field(default_factory=list)


def plan_convergence(entries: list[tuple[Path, Procedure]]) -> list[KindConvergence]:
    groups: dict[tuple[str, str], list[tuple[int, Path, Procedure]]] = defaultdict(list)
    legacy: set[tuple[str, str]] = set()
    for path, procedure in entries:
        parsed = parse_edm_source(procedure.source)
        if parsed is None:
            continue
        agent, kind, generation = parsed
        if generation is not None:
            legacy.add((agent, kind))
        groups[(agent, kind)].append((generation or procedure.generation, path, procedure))
    plans: list[KindConvergence] = []
    for (agent, kind), members in groups.items():
        if len(members) == 1 and (agent, kind) not in legacy:
            continue
        plans.append(_converge(agent, kind, sorted(members, key=lambda m: m[0])))
    return plans


def _converge(agent: str, kind: str, members: list[tuple[int, Path, Procedure]]) -> KindConvergence:
    approved = [m for m in members if m[2].status == "approved"]
    keep_gen, keep_path, kept = (approved or members)[-1]
    later_drafts = [m for m in members if m[0] > keep_gen and m[2].status == "draft"]
    revision = kept.revision
    if kept.status == "approved" and later_drafts:
        draft_gen, _, draft = later_drafts[-1]
        revision = Revision(
            generation=draft_gen,
            description=draft.description,
            body=draft.body,
            tools=draft.tools,
            inputs=draft.inputs,
            plan=draft.plan,
        )
    result = kept.model_copy(
        update={
            "source": edm_source(agent, kind),
            "agent": agent,
            "kind": kind,
            "generation": max(m[0] for m in members),
            "revision": revision,
        }
    )
    archive = [path for _, path, _ in members if path != keep_path]
    return KindConvergence(keep=keep_path, result=result, archive=archive)
