"""What the shell gate knows about programs by name. Plain tables, no logic beyond lookup.

API:
- `program_name(word) -> str`: the name bash would look up, without its directory (`/bin/sh` ->
  `sh`). Rules still match names as written; this is for judging what a command *does*.
- `is_shell(name)`, `is_interpreter(name)`: programs that run code given to them (inline, as a
  script file, or on standard input). Versioned names count (`python3.12`, `perl5.36`).
- `WRAPPER_COMMANDS`, `INLINE_CODE_COMMANDS`, `DYNAMIC_EVAL_COMMANDS`, `SHELLS`, `DOWNLOADERS`.
"""

from __future__ import annotations

import functools
import re

DYNAMIC_EVAL_COMMANDS = frozenset({"eval", "source", ".", "exec"})
# Commands that run another command given in their arguments.
WRAPPER_COMMANDS = frozenset(
    {
        "builtin", "busybox", "chroot", "command", "coproc", "doas", "env", "exec", "find",
        "flock", "ionice", "nice", "nohup", "parallel", "pkexec", "runuser", "setpriv", "setsid",
        "stdbuf", "strace", "su", "sudo", "taskset", "time", "timeout", "toybox", "unbuffer",
        "unshare", "watch", "xargs",
    }
)  # fmt: skip
# Shells and interpreters whose flags (`-c`, `-e`, `-m`) run code given inline.
INLINE_CODE_COMMANDS = frozenset(
    {
        "ash", "bash", "bun", "dash", "deno", "fish", "ksh", "mksh", "node", "nodejs", "perl",
        "php", "pwsh", "python", "python2", "python3", "ruby", "sh", "yash", "zsh",
    }
)  # fmt: skip
SHELLS = frozenset({"ash", "bash", "dash", "fish", "ksh", "mksh", "posh", "sh", "yash", "zsh"})
# Programs that fetch bytes from the network: what they print must never become code.
DOWNLOADERS = frozenset(
    {
        "aria2c", "curl", "fetch", "ftp", "http", "https", "lwp-request", "lynx", "nc", "ncat",
        "netcat", "socat", "tftp", "wget", "wget2", "xh",
    }
)  # fmt: skip
_INTERPRETER = re.compile(
    r"(?:python|pypy|perl|ruby|php|node|nodejs|lua|luajit|tclsh|wish|Rscript|julia|osascript"
    r"|bun|deno|pwsh|powershell|irb|jshell|groovy|scala|elixir|erl|guile|racket|sbcl)"
    r"[0-9.]*"
)


def program_name(word: str) -> str:
    return word.rpartition("/")[2]


def is_shell(name: str) -> bool:
    return name in SHELLS


@functools.lru_cache(maxsize=1024)
def is_interpreter(name: str) -> bool:
    """A shell or a language runtime: given code on stdin or as an argument, it runs it."""
    return name in SHELLS or _INTERPRETER.fullmatch(name) is not None
