"""The role-based policy (wired, unlike the seed's all-allow): allow / block / approval_required."""

from __future__ import annotations

from fnmatch import fnmatchcase
from typing import Literal

from jarvis.core.config import SecuritySettings

Verdict = Literal["allow", "block", "approval_required"]


class RolePolicy:
    def __init__(self, settings: SecuritySettings) -> None:
        self.settings = settings
        self._verdicts: dict[tuple[str, str, bool | None], Verdict] = {}

    def role_of(self, user_id: str) -> str:
        return self.settings.user_roles.get(user_id, self.settings.default_role)

    def is_admin(self, user_id: str) -> bool:
        """Without API keys the one local person is the admin; with keys, the role says."""
        if not self.settings.api_keys:
            return True
        role = self.settings.roles.get(self.role_of(user_id))
        return role is not None and role.admin

    def evaluate(self, user_id: str, tool: str, declared_approval: bool | None = None) -> Verdict:
        """`declared_approval` is a tool's own requirement (an MCP server's config)."""
        key = (user_id, tool, declared_approval)
        verdict = self._verdicts.get(key)
        if verdict is None:
            # Settings are fixed for the policy's life; a failure raises and is not cached.
            verdict = self._verdicts[key] = self._evaluate(user_id, tool, declared_approval)
        return verdict

    def _evaluate(self, user_id: str, tool: str, declared_approval: bool | None) -> Verdict:
        role_name = self.role_of(user_id)
        role = self.settings.roles.get(role_name)
        if role is None:
            raise LookupError(f"role {role_name!r} is not defined in security.roles")
        if any(fnmatchcase(tool, g) for g in role.deny) or not any(
            fnmatchcase(tool, g) for g in role.allow
        ):
            return "block"
        return (
            "approval_required"
            if self.requires_approval(role_name, tool, declared_approval)
            else "allow"
        )

    def requires_approval(self, role_name: str, tool: str, declared: bool | None) -> bool:
        role = self.settings.roles[role_name]
        listed = role.require_approval
        globs = self.settings.require_approval_for if listed is None else listed
        return bool(declared) or any(fnmatchcase(tool, g) for g in globs)
