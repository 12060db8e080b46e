"""Judging the little programs that some commands take as an argument: sed scripts, awk
programs, and configuration keys that name a program to run (git, npm). Pure and linear.

API (each returns a refusal reason, or None when the text can only read and print):
- `sed_script_refusal(script)`: `e` runs a command, `w`/`W` and the `s///w` flag write files.
  The script is read command by command; anything not understood is refused.
- `awk_program_refusal(program)`: `system()`, pipes to or from commands, `getline` from a command,
  `print > file`, `@load`/`@include`.
- `runs_code_when_set(program, key)`: a git or npm configuration key whose value is run later
  (`core.pager`, `alias.*`, `script-shell` ...).
"""

from __future__ import annotations

import re
from typing import Literal

ScriptRefusal = Literal["runs_code", "writes_file"]

# sed commands that take no argument or only a label / text to the end of the line.
_SED_PLAIN = frozenset("=dDgGhHlnNpPqQxz{}#")
_SED_LABEL = frozenset(":btT")
_SED_TEXT = frozenset("aicrRvF")  # text, a file to read, a version: nothing runs or is written
_SED_ADDRESS = re.compile(r"\s*(?:\d+(?:~\d+)?|\$|/(?:[^/\\\n]|\\.)*/[IM]*|\\(.)(?:(?!\1).)*\1)?")
_AWK_DANGER = re.compile(r"system\s*\(|\||getline|@load|@include|\bprintf?\b[^;{}\n]*>")
_GIT_CODE_KEYS = re.compile(
    r"alias\..*|core\.(?:pager|editor|sshcommand|fsmonitor|hookspath|gitproxy|askpass)"
    r"|diff\.(?:external|.*\.(?:textconv|command))|filter\..*|merge\..*\.driver"
    r"|credential\.(?:.*\.)?helper|gpg\.(?:.*\.)?program|sequence\.editor|pager\..*"
    r"|uploadpack\.packobjectshook|(?:web|browser|man|difftool|mergetool|sendemail)\..*"
    r"|include\.path|includeif\..*|init\.templatedir|remote\..*\.(?:uploadpack|receivepack)"
    r"|core\.worktree|protocol\..*",
    re.IGNORECASE,
)
_NPM_CODE_KEYS = frozenset(
    {
        "script-shell", "node-options", "shell", "editor", "browser", "git", "viewer",
        "init-module", "onload-script", "userconfig", "globalconfig", "prefix", "ignore-scripts",
    }
)  # fmt: skip


def sed_script_refusal(script: str) -> ScriptRefusal | None:
    index, size = 0, len(script)
    while index < size:
        while index < size and script[index] in " \t;\n":
            index += 1
        if index >= size:
            return None
        index = _sed_address_end(script, index)
        while index < size and script[index] in " \t!":
            index += 1
        if index >= size:
            return None
        command = script[index]
        index += 1
        if command in _SED_PLAIN:
            index = _line_end(script, index) if command == "#" else index
        elif command in _SED_LABEL:
            index = _label_end(script, index)
        elif command in _SED_TEXT:
            index = _text_end(script, index)
        elif command in "ewW":
            return "runs_code" if command == "e" else "writes_file"
        elif command in "sy":
            parsed = _sed_substitution(script, index, command)
            if parsed is None:
                return "runs_code"  # not understood: refused
            index, flags = parsed
            if "e" in flags:
                return "runs_code"
            if "w" in flags or "W" in flags:
                return "writes_file"
        else:
            return "runs_code"  # a command this reader does not know
    return None


def awk_program_refusal(program: str) -> ScriptRefusal | None:
    return "runs_code" if _AWK_DANGER.search(program) else None


def runs_code_when_set(program: str, key: str) -> bool:
    if program == "git":
        return _GIT_CODE_KEYS.fullmatch(key) is not None
    return key.lower().lstrip("-").split("=", 1)[0] in _NPM_CODE_KEYS


def _sed_address_end(script: str, index: int) -> int:
    for _ in range(2):  # `addr` or `addr1,addr2`
        match = _SED_ADDRESS.match(script, index)
        index = match.end() if match else index
        if index < len(script) and script[index] == ",":
            index += 1
            continue
        break
    return index


def _sed_substitution(script: str, index: int, command: str) -> tuple[int, str] | None:
    """Skip `s/re/replacement/flags` (or `y/a/b/`); returns the end and the flags."""
    if index >= len(script) or script[index] in "\\\n":
        return None
    delimiter, parts, index = script[index], 0, index + 1
    while index < len(script) and parts < 2:
        char = script[index]
        if char == "\\":
            index += 2
            continue
        if char == delimiter:
            parts += 1
        elif char == "\n" and command == "y":
            return None
        index += 1
    if parts < 2:
        return None
    start = index
    while index < len(script) and script[index] not in ";\n}":
        index += 1
    return index, script[start:index] if command == "s" else ""


def _line_end(script: str, index: int) -> int:
    end = script.find("\n", index)
    return len(script) if end < 0 else end


def _text_end(script: str, index: int) -> int:
    """The text of `a`, `i`, `c` (and the file of `r`): to the end of the line, and on over
    lines that end in a backslash (`a\\` + newline + text)."""
    end = _line_end(script, index)
    while end < len(script) and end > 0 and script[end - 1] == "\\":
        end = _line_end(script, end + 1)
    return end


def _label_end(script: str, index: int) -> int:
    while index < len(script) and script[index] not in ";\n":
        index += 1
    return index
