"""The built-in tools (seed 000 table): shell, files, search and web."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, Field, SecretStr, field_validator

from jarvis.common.i18n import Language
from jarvis.core.config import SecuritySettings
from jarvis.core.confine import Confiner
from jarvis.core.tools.base import Tool
from jarvis.core.tools.builtins import files, search, shell, web
from jarvis.core.tools.builtins._boundary import SecretPlaces
from jarvis.core.tools.builtins._environment import check_passthrough
from jarvis.core.tools.builtins.files import EditFileTool, ReadFileTool, WriteFileTool
from jarvis.core.tools.builtins.search import GlobTool, GrepTool, ListDirTool
from jarvis.core.tools.builtins.shell import BashTool
from jarvis.core.tools.builtins.web import WebFetchTool, WebSearchTool


class BuiltinToolSettings(BaseModel):
    """Limits of the built-in tools (`JARVIS_TOOLS__<FIELD>`)."""

    bash_timeout_sec: float = Field(
        shell.DEFAULT_TIMEOUT_SEC, gt=0, description="bash timeout when the call names none."
    )
    bash_max_timeout_sec: float = Field(
        shell.MAX_TIMEOUT_SEC, gt=0, description="Longest timeout a bash call may ask for."
    )
    bash_output_chars: int = Field(
        shell.OUTPUT_CHARS, ge=1000, description="Characters of stdout (and of stderr) shown."
    )
    bash_env_passthrough: list[str] = Field(
        default_factory=list,
        description="Environment variables bash gets besides PATH, HOME, LANG, LC_*, TERM, USER, "
        "LOGNAME, SHELL, TMPDIR, TZ (exact names; never JARVIS_* or *_KEY/_TOKEN/_SECRET/"
        "*PASSWORD*).",
    )
    read_file_lines: int = Field(
        files.READ_LINES, ge=1, description="Lines read_file returns when the call names no limit."
    )
    read_file_chars: int = Field(
        files.READ_OUTPUT_CHARS, ge=1000, description="Longest read_file output."
    )
    search_max_results: int = Field(
        search.MAX_RESULTS, ge=1, description="Most files glob lists and matches grep shows."
    )
    search_output_chars: int = Field(search.OUTPUT_CHARS, ge=1000, description="Longest grep.")
    list_dir_max_entries: int = Field(search.MAX_ENTRIES, ge=1, description="Most entries shown.")
    brave_api_key: SecretStr | None = Field(
        None, description="Brave Search API key; without one web_search uses DuckDuckGo."
    )
    web_search_timeout_sec: float = Field(web.SEARCH_TIMEOUT_SEC, gt=0)
    web_fetch_timeout_sec: float = Field(
        web.FETCH_TIMEOUT_SEC, gt=0, description="Time limit for one whole web_fetch download."
    )
    web_fetch_max_bytes: int = Field(
        web.FETCH_MAX_BYTES, ge=10_000, description="web_fetch stops reading past this size."
    )
    web_fetch_chars: int = Field(
        web.FETCH_CHARS, ge=100, description="Text web_fetch returns when the call names no limit."
    )
    web_fetch_max_chars: int = Field(
        web.MAX_FETCH_CHARS, ge=100, description="Most text a web_fetch call may ask for."
    )

    @field_validator("bash_env_passthrough")
    @classmethod
    def _no_secrets(cls, names: list[str]) -> list[str]:
        return check_passthrough(names)


def builtin_tools(
    settings: BuiltinToolSettings | None = None,
    security: SecuritySettings | None = None,
    *,
    jarvis_home: Path | None = None,
    user_home: Path | None = None,
    language: Language = "en",
) -> list[Tool]:
    """One instance of each built-in, configured by `settings` and the boundary settings in
    `security`; `jarvis_home` is a secret location for the file tools."""
    s = settings or BuiltinToolSettings()
    sec = security or SecuritySettings()
    brave_key = s.brave_api_key.get_secret_value() if s.brave_api_key else None
    secrets = SecretPlaces.of(user_home, jarvis_home, sec.secret_paths)
    confiner = Confiner.from_settings(sec, user_home or Path.home(), jarvis_home, language)
    confiner.announce()  # once per process, one line: no sandbox here, the gate alone decides
    return [
        BashTool(
            default_timeout=min(s.bash_timeout_sec, s.bash_max_timeout_sec),
            max_timeout=s.bash_max_timeout_sec,
            output_chars=s.bash_output_chars,
            env_passthrough=tuple(s.bash_env_passthrough),
            confiner=confiner,
        ),
        WriteFileTool(secrets=secrets),
        EditFileTool(secrets=secrets),
        ReadFileTool(line_limit=s.read_file_lines, output_chars=s.read_file_chars, secrets=secrets),
        GlobTool(max_results=s.search_max_results, secrets=secrets),
        GrepTool(
            max_matches=s.search_max_results, output_chars=s.search_output_chars, secrets=secrets
        ),
        ListDirTool(max_entries=s.list_dir_max_entries, secrets=secrets),
        WebSearchTool(brave_key or None, timeout=s.web_search_timeout_sec),
        WebFetchTool(
            timeout=s.web_fetch_timeout_sec,
            max_bytes=s.web_fetch_max_bytes,
            default_chars=min(s.web_fetch_chars, s.web_fetch_max_chars),
            max_chars=s.web_fetch_max_chars,
            allow_private=sec.web_fetch_allow_private,
            private_hosts=tuple(sec.web_fetch_private_hosts),
            # When the gate asks per host, a redirect to another host goes back through it.
            follow_other_hosts=not sec.web_fetch_requires_approval,
        ),
    ]


__all__ = [
    "BashTool",
    "BuiltinToolSettings",
    "EditFileTool",
    "GlobTool",
    "GrepTool",
    "ListDirTool",
    "ReadFileTool",
    "WebFetchTool",
    "WebSearchTool",
    "WriteFileTool",
    "builtin_tools",
]
