"""Owner pre-approval store and checks (seed 002): (definition, tool) grants in
`~/.jarvis/preapprovals.json`, every grant, void and revocation an audit line.

# ponytail: a file in the data dir, also with PostgreSQL; processes that share a database
# share the data dir's definitions (schedules/, goals/) too, so they share this file.
# idempotent: a grant is a read-modify-write of that file under a per-process lock, not a
# database row; two processes granting at the same moment can lose one of the two grants.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal, Protocol

from jarvis.common.atomic import atomic_write_text
from jarvis.common.clock import Clock
from jarvis.common.i18n import Language, t
from jarvis.core.approvals.audit import AuditLog, AuditRecord
from jarvis.core.scheduler.grants import (
    REASON_KEYS,
    Basis,
    Grant,
    VoidReason,
    may_grant,
    void_reason,
)

GrantState = Literal["granted", "missing", "void"]
# (tool, agent id, owner) → the fingerprint of the approval policy for that tool.
PolicyFingerprint = Callable[[str, str, str], str]


class Definition(Protocol):
    @property
    def key(self) -> str: ...

    owner: str
    agent: str
    tools: list[str]

    def fingerprint(self) -> str: ...


class NotOwner(PermissionError):
    """Someone other than the owner tried to grant (seed 002: only the owner may)."""


@dataclass(frozen=True)
class ToolGrant:
    tool: str
    state: GrantState
    reason: VoidReason | None = None
    reason_text: str = ""
    granted_ms: int = 0


class PreapprovalStore:
    def __init__(
        self,
        home: Path,
        audit: AuditLog,
        clock: Clock,
        policy_fp: PolicyFingerprint,
        language: Language = "ko",
    ) -> None:
        self.path = home / "preapprovals.json"
        self.audit = audit
        self.clock = clock
        self.policy_fp = policy_fp
        self.language = language
        self._lock = asyncio.Lock()
        self._voided: set[tuple[str, str, str]] = set()

    def _read(self) -> dict[str, Grant]:
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return {key: Grant(**value) for key, value in raw.items()}

    def _write(self, grants: dict[str, Grant]) -> None:
        data = {key: asdict(g) for key, g in sorted(grants.items())}
        atomic_write_text(self.path, json.dumps(data, ensure_ascii=False, indent=1))

    def basis(self, definition: Definition, tool: str) -> Basis:
        return Basis(
            owner=definition.owner,
            definition_fp=definition.fingerprint(),
            policy_fp=self.policy_fp(tool, definition.agent, definition.owner),
        )

    async def status(self, definition: Definition) -> list[ToolGrant]:
        """Each tool the definition needs: granted, missing, or void with the reason."""
        grants = self._read()
        rows: list[ToolGrant] = []
        for tool in definition.tools:
            grant = grants.get(f"{definition.key}|{tool}")
            if grant is None:
                rows.append(ToolGrant(tool, "missing"))
                continue
            reason = void_reason(grant, self.basis(definition, tool))
            if reason is None:
                rows.append(ToolGrant(tool, "granted", granted_ms=grant.granted_ms))
                continue
            await self._audit_void_once(definition, grant, reason)
            text = t(REASON_KEYS[reason], self.language)
            rows.append(ToolGrant(tool, "void", reason, text, grant.granted_ms))
        return rows

    async def valid_tools(self, definition: Definition) -> frozenset[str]:
        return frozenset(r.tool for r in await self.status(definition) if r.state == "granted")

    async def missing(self, definition: Definition) -> list[str]:
        return [r.tool for r in await self.status(definition) if r.state != "granted"]

    async def grant(self, definition: Definition, tools: list[str], requester: str) -> None:
        if not may_grant(requester, definition.owner):
            raise NotOwner(
                t(
                    "unattended.not_owner",
                    self.language,
                    definition=definition.key,
                    owner=definition.owner,
                )
            )
        unknown = [tool for tool in tools if tool not in definition.tools]
        if unknown:
            raise ValueError(f"{definition.key} does not list {', '.join(unknown)}")
        now = self.clock.now_ms()
        async with self._lock:
            grants = self._read()
            for tool in tools:
                basis = self.basis(definition, tool)
                grants[f"{definition.key}|{tool}"] = Grant(
                    definition.key,
                    tool,
                    basis.owner,
                    basis.definition_fp,
                    basis.policy_fp,
                    now,
                    definition.agent,
                )
            self._write(grants)
        for tool in tools:
            self._voided.discard((definition.key, tool, ""))
            await self._line(definition.key, definition.agent, requester, tool, "granted", "")

    async def revoke(self, definition: Definition, tool: str, requester: str) -> bool:
        if not may_grant(requester, definition.owner):
            raise NotOwner(
                t(
                    "unattended.not_owner",
                    self.language,
                    definition=definition.key,
                    owner=definition.owner,
                )
            )
        async with self._lock:
            grants = self._read()
            removed = grants.pop(f"{definition.key}|{tool}", None)
            if removed is not None:
                self._write(grants)
        if removed is not None:
            await self._line(definition.key, definition.agent, requester, tool, "revoked", "")
        return removed is not None

    async def _audit_void_once(self, definition: Definition, grant: Grant, reason: str) -> None:
        mark = (definition.key, grant.tool, f"{grant.granted_ms}:{reason}")
        if mark in self._voided:
            return
        self._voided.add(mark)
        await self._line(definition.key, definition.agent, grant.owner, grant.tool, "void", reason)

    async def _line(
        self, definition: str, agent: str, user: str, tool: str, what: str, reason: str
    ) -> None:
        await self.audit.append(
            AuditRecord(
                ts_ms=self.clock.now_ms(),
                user=user,
                agent=agent,
                session="",
                turn=0,
                tool=tool,
                source="preapproval",
                outcome=f"preapproval_{what}",
                reason=reason or definition,
                rule=definition,
            )
        )
