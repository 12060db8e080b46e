"""git's configuration as git reads it, for its aliases: pure parsing of the config syntax and
of the command-line forms (`GIT_CONFIG_COUNT`/`KEY_n`/`VALUE_n`, `GIT_CONFIG_PARAMETERS`).
The files are found and read by `git_aliases`. Source: git's `config.c` (2.39) and
git-config(1) "CONFIGURATION FILE"; checked against `git config --get-regexp '^alias\\.'` by
`tests/differential/test_git_aliases.py`.

API:
- `parse_config(text) -> list[(key, value)]`: every entry in file order, keys as git
  canonicalises them (section and name lower case, a subsection kept as written: `alias.p`,
  `includeif.gitdir:~/w/.path`); a bare `name` is `"true"`. Raises `ValueError` on text git
  would refuse (an unclosed section, a quote left open).
- `env_entries(env) -> list[(key, value)] | None`: what the environment adds on top of the files
  (`GIT_CONFIG_PARAMETERS` then `GIT_CONFIG_COUNT`); None when it cannot be read whole.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping

_SECTION = re.compile(r'\[\s*([A-Za-z0-9.-]+)\s*(?:"((?:[^"\\\n]|\\.)*)")?\s*\]')
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9-]*")
_UNESCAPE = re.compile(r"\\(.)")
_ESCAPES = {"n": "\n", "t": "\t", "b": "\b", '"': '"', "\\": "\\"}


def parse_config(text: str) -> list[tuple[str, str]]:
    entries: list[tuple[str, str]] = []
    section: str | None = None
    at = 0
    while at < len(text):
        char = text[at]
        if char in " \t\r\n":
            at += 1
        elif char in "#;":
            at = _line_end(text, at)
        elif char == "[":
            found = _SECTION.match(text, at)
            if found is None:
                raise ValueError(f"bad section header at {at}")
            name, sub = found.group(1), found.group(2)
            if sub is not None:
                section = name.lower() + "." + _UNESCAPE.sub(r"\1", sub)
            elif "." in name:  # the old `[section.Sub]`: the subsection lower-cased
                head, _, rest = name.partition(".")
                section = f"{head.lower()}.{rest.lower()}"
            else:
                section = name.lower()
            at = found.end()
        else:
            found = _NAME.match(text, at)
            if found is None or section is None:
                raise ValueError(f"bad config line at {at}")
            key = f"{section}.{found.group(0).lower()}"
            at = found.end()
            while at < len(text) and text[at] in " \t":
                at += 1
            if at < len(text) and text[at] == "=":
                value, at = _value(text, at + 1)
            elif at >= len(text) or text[at] in "\r\n#;":
                value = "true"
            else:
                raise ValueError(f"bad config line at {at}")
            entries.append((key, value))
    return entries


def _line_end(text: str, at: int) -> int:
    end = text.find("\n", at)
    return len(text) if end < 0 else end + 1


def _value(text: str, at: int) -> tuple[str, int]:
    """One value after `=`: quotes, escapes, a backslash-newline continuation, comments."""
    out: list[str] = []
    pending = ""  # blanks kept only if something follows them
    quoted = False
    started = False
    while at < len(text):
        char = text[at]
        if char == "\n":
            if quoted:
                raise ValueError("newline inside a quoted value")
            break
        if char == "\\":
            nxt = text[at + 1] if at + 1 < len(text) else ""
            if nxt == "\n":
                at += 2
                continue
            if nxt not in _ESCAPES:
                raise ValueError(f"bad escape at {at}")
            out.append(pending + _ESCAPES[nxt])
            pending, started = "", True
            at += 2
            continue
        if not quoted and char in "#;":
            break
        if char == '"':
            quoted = not quoted
            at += 1
            continue
        if not quoted and char in " \t\r":
            if started:
                pending += char
            at += 1
            continue
        out.append(pending + char)
        pending, started = "", True
        at += 1
    if quoted:
        raise ValueError("a quote left open")
    return "".join(out), at


def env_entries(env: Mapping[str, str]) -> list[tuple[str, str]] | None:
    entries: list[tuple[str, str]] = []
    parameters = env.get("GIT_CONFIG_PARAMETERS")
    if parameters:
        try:
            words = shlex.split(parameters)
        except ValueError:
            return None
        for word in words:
            key, equals, value = word.partition("=")
            entries.append((_canonical_key(key), value if equals else "true"))
    count = env.get("GIT_CONFIG_COUNT")
    if count:
        if not count.isdigit() or int(count) > 10_000:
            return None
        for index in range(int(count)):
            named = env.get(f"GIT_CONFIG_KEY_{index}")
            given = env.get(f"GIT_CONFIG_VALUE_{index}")
            if named is None or given is None:
                return None
            entries.append((_canonical_key(named), given))
    return entries


def _canonical_key(key: str) -> str:
    """`Alias.P` -> `alias.p`; a subsection (`url.X.insteadOf`) keeps its case."""
    head, _, rest = key.partition(".")
    middle, _, name = rest.rpartition(".")
    if not middle:
        return f"{head.lower()}.{name.lower()}"
    return f"{head.lower()}.{middle}.{name.lower()}"
