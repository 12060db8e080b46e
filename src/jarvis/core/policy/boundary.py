"""The workspace boundary (SPEC §16): where the file tools go freely, where a human is asked
first, and the secret locations no tool may read or write whatever a rule or a human says.

Pure: paths come in absolute, `~` already expanded, and the real path already resolved at the
edge (`paths.locate`); nothing here touches the file system or the environment.

API:
- `DEFAULT_SECRET_PATHS`: the built-in deny list; `JARVIS_HOME_ENTRIES`: what `$JARVIS_HOME`
  protects when the workspace is the data dir itself or lies inside it.
- `Boundary(workspace, home, jarvis_home=None, extra=())`: compiled once per configuration.
  - `.secret(path) -> str | None`: the secret pattern covering `path`.
  - `.inside(path) -> bool`: in the workspace (the root itself included).
  - `.judge(lexical, real) -> PathVerdict`: `forbidden` (reason `secret_path`) if either path is
    secret, else `ask` (reason `outside_workspace`) if either leaves the workspace, else `free`.
  - `.walk_entry(lexical, real, root) -> "ok" | "secret" | "outside"`: one file met while
    grep/glob/list_dir walk `root`.
  - `.holds_secret(path) -> bool`: a directory a built-in secret lies in (`~`, `/etc`, `/`), so
    a bash word naming it can reach the secret (`grep -r x ~`).
- `validate_secret_pattern(pattern)`: settings validation.
- `shell_path_candidates(words, home)`: the strings in a shell command's words that may name a
  file (the word; what follows `=`, `:`, `,` or `@`, as in curl's `-d @file`; an attached short
  option's value), `~` expanded.

Secret patterns: `~/…` is the user's home; `$JARVIS_HOME` (alone or followed by `/…`) the data
dir; `/…` absolute; a bare name without `/` (`.env*`) matches any component of a path, so also
everything under a directory so named; any other relative pattern is relative to the workspace.
`*` and `?` stay inside one component, `**` crosses any depth; a pattern covers what it matches
and everything below it. Matching ignores case (a case-insensitive file system must not open a
way around `~/.SSH`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from jarvis.core.policy.globs import glob_regex

DEFAULT_SECRET_PATHS: tuple[str, ...] = (
    # Anywhere: credentials by name.
    ".ssh",
    ".gnupg",
    ".aws",
    ".env*",
    ".netrc",
    ".pgpass",
    ".git-credentials",
    # The user's home.
    "~/.config/gcloud",
    "~/.azure",
    "~/.kube",
    "~/.docker/config.json",
    "~/.config/gh",
    "~/.npmrc",
    "~/.pypirc",
    "~/.password-store",
    "~/.local/share/keyrings",
    # Jarvis's own data: keys in config.yaml, the rule files, sessions, code it loads.
    "$JARVIS_HOME",
    # The system.
    "/etc/shadow",
    "/etc/shadow-",
    "/etc/gshadow",
    "/etc/gshadow-",
    "/etc/sudoers",
    "/etc/sudoers.d",
    "/etc/ssh/ssh_host_*_key",
    "/proc/*/environ",
    "/proc/*/task/*/environ",
    "/run/secrets",
    "/var/run/secrets",
)
# When the workspace is the data dir (or inside it) only these entries are protected.
JARVIS_HOME_ENTRIES: tuple[str, ...] = (
    "config.yaml",
    "web_secret",  # signs the HUD's login cookies: whoever reads it can log in
    "approvals.yaml",
    "approvals",
    "audit.jsonl",
    "sessions",
    "openloops.jsonl",
    "tools",
    "plugins",
    "skills",
    "agents",
    "team",
    "procedures",
    "schedules",
    "goals",
    "*.sqlite*",
    "*.db",
)
JARVIS_HOME_TOKEN = "$JARVIS_HOME"

Verdict = Literal["free", "ask", "forbidden"]
VerdictReason = Literal["inside_workspace", "outside_workspace", "secret_path"]
WalkVerdict = Literal["ok", "secret", "outside"]

_GLOB_CHARS = frozenset("*?")
_VALUE_SEPARATORS = re.compile(r"[=:,@]")


@dataclass(frozen=True, slots=True)
class PathVerdict:
    verdict: Verdict
    reason: VerdictReason
    # The path that decided (the secret or the outside one; the real path when free).
    path: str
    # The secret pattern that matched, for `forbidden`.
    secret: str = ""


class Boundary:
    """One compiled boundary; build it once per workspace and configuration."""

    __slots__ = ("_any", "_holders", "_patterns", "home", "jarvis_home", "workspace")

    def __init__(
        self,
        workspace: str,
        home: str,
        jarvis_home: str | None = None,
        extra: Iterable[str] = (),
    ) -> None:
        self.workspace = _clean(workspace)
        self.home = _clean(home)
        self.jarvis_home = _clean(jarvis_home) if jarvis_home else None
        expanded: list[tuple[str, str]] = []
        for pattern in (*DEFAULT_SECRET_PATHS, *extra):
            expanded.extend((pattern, glob) for glob in self._expand(pattern))
        self._patterns = tuple(
            (label, re.compile(_secret_regex(glob), re.IGNORECASE)) for label, glob in expanded
        )
        joined = "|".join(f"(?:{regex.pattern})" for _, regex in self._patterns)
        self._any = re.compile(joined or r"(?!)", re.IGNORECASE)
        self._holders = frozenset(
            holder for _, glob in expanded if glob.startswith("/") for holder in _holders(glob)
        )

    def _expand(self, pattern: str) -> list[str]:
        text = pattern.strip()
        if text == JARVIS_HOME_TOKEN or text.startswith(JARVIS_HOME_TOKEN + "/"):
            if self.jarvis_home is None:
                return []
            rest = text[len(JARVIS_HOME_TOKEN) :].lstrip("/")
            if rest:
                return [_clean(f"{self.jarvis_home}/{rest}")]
            if _within(self.workspace, self.jarvis_home):
                return [f"{self.jarvis_home}/{entry}" for entry in JARVIS_HOME_ENTRIES]
            return [self.jarvis_home]
        if text == "~" or text.startswith("~/"):
            return [_clean(self.home + text[1:])]
        if text.startswith("/") or "/" not in text:
            return [_clean(text) if text.startswith("/") else text]
        return [_clean(f"{self.workspace}/{text}")]

    def secret(self, path: str) -> str | None:
        if self._any.fullmatch(path) is None:
            return None
        return next((label for label, regex in self._patterns if regex.fullmatch(path)), None)

    def inside(self, path: str) -> bool:
        return _within(path, self.workspace)

    def judge(self, lexical: str, real: str) -> PathVerdict:
        paths = (lexical,) if real == lexical else (lexical, real)
        for path in paths:
            label = self.secret(path)
            if label is not None:
                return PathVerdict("forbidden", "secret_path", path, label)
        for path in paths:
            if not self.inside(path):
                return PathVerdict("ask", "outside_workspace", path)
        return PathVerdict("free", "inside_workspace", real)

    def walk_entry(self, lexical: str, real: str, root: str) -> WalkVerdict:
        """A file found under `root` (the real path of the directory being walked): secret files
        are skipped, and so are links whose target leaves both `root` and the workspace."""
        if self.secret(lexical) is not None or self.secret(real) is not None:
            return "secret"
        return "ok" if _within(real, root) or self.inside(real) else "outside"

    def holds_secret(self, path: str) -> bool:
        return path in self._holders


def validate_secret_pattern(pattern: str) -> str:
    """A setting entry: not empty, not a bare `*`/`**` (that would forbid everything)."""
    text = pattern.strip()
    if not text:
        raise ValueError("a secret path pattern must not be empty")
    if set(text) <= {"*", "/"}:
        raise ValueError(f"secret path pattern {pattern!r} would cover every file")
    return text


def shell_path_candidates(words: Sequence[str], home: str) -> tuple[str, ...]:
    """Every string in `words` that may name a file, `~` expanded; duplicates dropped."""
    found: dict[str, None] = {}
    for word in words:
        parts = [word, *(word[m.end() :] for m in _VALUE_SEPARATORS.finditer(word))]
        if len(word) > 2 and word.startswith("-") and word[1] != "-":
            parts.append(word[2:])  # `-i~/.ssh/key`
        for part in parts:
            if part:
                found.setdefault(_expand_tilde(part, home), None)
    return tuple(found)


def _expand_tilde(text: str, home: str) -> str:
    if text == "~" or text.startswith("~/"):
        return home + text[1:]
    return text


def _clean(path: str) -> str:
    text = posixpath.normpath(path)
    return "/" + text.lstrip("/") if text.startswith("//") else text


def _within(path: str, root: str) -> bool:
    if root == "/":
        return path.startswith("/")
    return path == root or path.startswith(root + "/")


def _secret_regex(glob: str) -> str:
    body = glob_regex(glob)
    if "/" not in glob:
        return f"(?:.*/)?{body}(?:/.*)?"
    return f"{body}(?:/.*)?"


def _holders(glob: str) -> list[str]:
    """The directories above an absolute secret pattern, up to `/` (the pattern's own fixed
    directory too when it has wildcards: `/proc/*/environ` is held by `/proc`)."""
    parts = glob.split("/")
    fixed = next((i for i, part in enumerate(parts) if _GLOB_CHARS & set(part)), len(parts))
    top = "/".join(parts[: fixed if fixed < len(parts) else fixed - 1]) or "/"
    found = [top]
    while top != "/":
        top = posixpath.dirname(top)
        found.append(top)
    return found
