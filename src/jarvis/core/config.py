"""Core settings: the security pipeline, the tool gate and approvals."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, SecretStr, field_validator

from jarvis.core.policy.boundary import validate_secret_pattern
from jarvis.core.policy.dangerous import DEFAULT_DANGEROUS_COMMANDS, DangerousMatcher
from jarvis.core.policy.network import validate_allowed_entry

DEFAULT_APPROVAL_REQUIRED = ["bash", "write_file", "edit_file"]


class ApiKey(BaseModel):
    name: str = Field(pattern=r"^[A-Za-z0-9_.@-]{1,64}$")
    key: SecretStr


class RoleSpec(BaseModel):
    """One role of the policy: which tools it may call and which ask first."""

    allow: list[str] = Field(default_factory=lambda: ["*"], description="Tool name globs.")
    deny: list[str] = Field(default_factory=list, description="Tool name globs; deny wins.")
    require_approval: list[str] | None = Field(
        None, description="Globs that ask first; None uses require_approval_for."
    )
    admin: bool = Field(
        False, description="May edit the shared approvals.yaml and revoke anyone's rules."
    )


class SecuritySettings(BaseModel):
    input_max_length: int = Field(10_000, ge=1, description="Longest accepted user input.")
    api_keys: list[ApiKey] = Field(
        default_factory=list, description="When set, every HTTP/WS request needs one."
    )
    require_approval_for: list[str] = Field(
        default_factory=lambda: list(DEFAULT_APPROVAL_REQUIRED),
        description="Tools that ask a human before running.",
    )
    dangerous_commands: list[str] = Field(
        default_factory=lambda: list(DEFAULT_DANGEROUS_COMMANDS),
        description="Regexes (case-insensitive) blocked before any approval; [] disables.",
    )
    no_standing_consent: list[str] = Field(
        default_factory=list, description="Tools that never get ALWAYS and ignore rules."
    )
    approval_timeout_sec: float = Field(120.0, gt=0, description="Wait for an answer this long.")
    denied_repeat_threshold: int = Field(
        2, ge=1, description="Explicit denials of one call per turn before it is blocked."
    )
    roles: dict[str, RoleSpec] = Field(
        default_factory=lambda: {"user": RoleSpec()}, description="Role-based tool policy."
    )
    user_roles: dict[str, str] = Field(default_factory=dict, description="User id → role.")
    default_role: str = Field("user", description="Role of users not in user_roles.")
    rate_limit_per_minute: int = Field(
        60, ge=1, description="State-changing requests and WebSocket connects per user per minute."
    )
    # The workspace and network boundary (docs/security.md).
    secret_paths: list[str] = Field(
        default_factory=list,
        description="Secret locations added to the built-in list: no tool reads or writes them, "
        "no rule or approval allows it (globs: '~/…', '/…', '$JARVIS_HOME/…', or a bare name).",
    )
    web_fetch_requires_approval: bool = Field(
        True, description="web_fetch asks a human per host (ALWAYS remembers the host)."
    )
    web_fetch_allow_private: bool = Field(
        False,
        description="Let web_fetch reach loopback, private, link-local and other non-public "
        "addresses (cloud metadata stays refused unless listed in web_fetch_private_hosts).",
    )
    web_fetch_private_hosts: list[str] = Field(
        default_factory=list,
        description="Host names (exact) and IP networks web_fetch may reach although they are "
        "not public, e.g. an intranet wiki.",
    )

    # The second lock under the gate: an OS sandbox (bubblewrap) around bash, user tool
    # subprocesses and stdio MCP servers (docs/security.md "The second lock").
    sandbox: Literal["auto", "required", "off"] = Field(
        "auto",
        description="OS sandbox (Linux, bubblewrap): auto = use it where it works, say once when "
        "it cannot; required = refuse to run tools without it; off = the gate alone.",
    )
    sandbox_auto_allow: bool = Field(
        False,
        description="bash commands the sandbox confines (no network, writes only in the "
        "workspace) run without asking; network, secrets, destructive commands still ask.",
    )
    sandbox_max_processes: int = Field(
        256, ge=8, description="Processes one sandboxed call may run."
    )
    sandbox_max_memory_mb: int = Field(
        4096, ge=64, description="Address space of each sandboxed process (MiB)."
    )
    sandbox_max_file_mb: int = Field(
        1024, ge=1, description="Largest file a sandboxed process may write (MiB)."
    )
    sandbox_tmp_mb: int = Field(512, ge=16, description="Size of the sandbox's private /tmp (MiB).")

    @field_validator("secret_paths")
    @classmethod
    def _secret_patterns(cls, patterns: list[str]) -> list[str]:
        return [validate_secret_pattern(pattern) for pattern in patterns]

    @field_validator("web_fetch_private_hosts")
    @classmethod
    def _private_hosts(cls, entries: list[str]) -> list[str]:
        return [validate_allowed_entry(entry) for entry in entries]

    @field_validator("dangerous_commands")
    @classmethod
    def _compiles(cls, patterns: list[str]) -> list[str]:
        DangerousMatcher.compile(patterns)
        return patterns
