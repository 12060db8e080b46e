"""The environment bash runs with: an allow-list, never the parent's secrets.

Jarvis's own process holds model API keys and HUD users' keys (`JARVIS_*`); a `!env` or a
prompt-injected `env | curl …` must not see them. Pure: the parent environment is passed in.

- `BASE_NAMES` / `BASE_PREFIXES`: what every bash gets (PATH, HOME, LANG, LC_*, TERM, USER,
  LOGNAME, SHELL, TMPDIR, TZ) when the parent has it.
- `is_secret_name(name)`: `JARVIS_*`, `*_KEY` (so `*_API_KEY`), `*_TOKEN`, `*_SECRET`,
  `*PASSWORD*`, case-insensitive; never passed, even when listed.
- `bash_environment(parent, passthrough)`: the child environment; `passthrough` are extra exact
  names (`JARVIS_TOOLS__BASH_ENV_PASSTHROUGH`).
- `check_passthrough(names)`: settings validation (a secret-looking name is a start-up error).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

BASE_NAMES = frozenset({"PATH", "HOME", "LANG", "TERM", "USER", "LOGNAME", "SHELL", "TMPDIR", "TZ"})
BASE_PREFIXES = ("LC_",)
_SECRET = re.compile(r"JARVIS_.*|.*_KEY|.*_TOKEN|.*_SECRET|.*PASSWORD.*", re.IGNORECASE)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def is_secret_name(name: str) -> bool:
    return _SECRET.fullmatch(name) is not None


def bash_environment(parent: Mapping[str, str], passthrough: Iterable[str] = ()) -> dict[str, str]:
    wanted = BASE_NAMES | frozenset(passthrough)
    return {
        name: value
        for name, value in parent.items()
        if (name in wanted or name.startswith(BASE_PREFIXES)) and not is_secret_name(name)
    }


def check_passthrough(names: list[str]) -> list[str]:
    for name in names:
        if not _NAME.fullmatch(name):
            raise ValueError(f"{name!r} is not an environment variable name")
        if is_secret_name(name):
            raise ValueError(
                f"{name} looks like a secret (JARVIS_*, *_KEY, *_TOKEN, *_SECRET, *PASSWORD*); "
                "bash never gets those"
            )
    return names
